/* Uses of an inline function's address that fold back into direct calls:
 * no out-of-line copy is emitted, nothing is reported. */
static inline int double_it(int x) { return 2 * x + 1; }
static inline int triple_it(int x) { return 3 * x - 1; }
static inline int inc(int x) { return x + 1; }
static inline int dec(int x) { return x - 1; }

/* a pointer that only ever holds one function */
int one_target(int x)
{
	int (*fp)(int) = double_it;

	return fp(x);
}

/* a selector whose condition is a constant once the helper is inlined */
static int apply_sel(int up, int x)
{
	int (*op)(int) = up ? inc : dec;

	return op(x);
}
int both_ways(int x)
{
	return apply_sel(1, x) * apply_sel(0, x);
}

/* passed to a static helper that is inlined: the indirect call turns direct */
static int apply(int (*fn)(int), int x)
{
	return fn(x) + fn(x + 1);
}
int through_helper(int x)
{
	return apply(triple_it, x);
}
/* cachehot-args:
 * expect-none
 */
