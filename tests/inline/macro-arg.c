/* Inline functions named as macro arguments that expand to direct calls. */
static inline int square(int x) { return x * x; }
static inline int cube(int x) { return x * x * x; }
#define APPLY(fn, x) fn(x)
#define APPLY_BOTH(f, g, x) (f(x) + g(x))
#define CALL_DEREF(fn, x) (*(fn))(x)
#define CALL_ADDR(fn, x) (&fn)(x)

int macros(int x)
{
	return APPLY(square, x) + APPLY_BOTH(square, cube, x) +
	       CALL_DEREF(cube, x) + CALL_ADDR(square, x);
}
/* cachehot-args:
 * expect-none
 */
