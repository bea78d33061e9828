/* The if/else form of a selector, with a partner that is not inline, at
 * severity=note: one note, naming both functions. */
static inline int fast_path(int x) { return x * 2 + 7; }
extern int slow_path(int x);

int run(int c, int n)
{
	int (*step)(int);
	int i, r = 0;

	if (c)
		step = fast_path;
	else
		step = slow_path;
	for (i = 0; i < n; i++)
		r += step(i);
	return r;
}
/* cachehot-args: severity=note
 * expect:
 * 12:24: note: inline function 'fast_path' (defined at selector-if.c:3) is chosen through the local function pointer 'step', so an out-of-line copy is emitted; call fast_path/slow_path directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
