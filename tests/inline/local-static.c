/* Static locals: an ops table in an emitted function (note), and one in a
 * static inline that is never used (no copy, no report). */
struct ops { int (*op)(int); };
static inline int a1(int x) { return x + 51; }
static inline int a2(int x) { return x + 52; }
extern void take(const struct ops *);
void f(void)
{
	static const struct ops o = { .op = a1 };
	take(&o);
}
static inline void g(void)
{
	static const struct ops o2 = { .op = a2 };
	take(&o2);
}
/* cachehot-args:
 * expect:
 * 9:45: note: inline function 'a1' (defined at local-static.c:4) is stored in the initializer of 'o' (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
