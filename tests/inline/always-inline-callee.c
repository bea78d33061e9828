/* always-inline callees: the pointer parameter of an always-inline helper
 * becomes a direct call, and an always-inline function passed to it is
 * inlined too. No copy, no report. */
#define __always_inline inline __attribute__((__always_inline__))
static __always_inline int twice(int x) { return 2 * x + 3; }
static __always_inline int thrice(int x) { return 3 * x + 5; }
static __always_inline int apply(int (*fn)(int), int x)
{
	int i, r = 0;

	for (i = 0; i < x; i++)
		r += fn(i);
	return r;
}
int user(int x, int y)
{
	return apply(twice, x) + apply(thrice, y);
}
/* cachehot-args:
 * expect-none
 */
