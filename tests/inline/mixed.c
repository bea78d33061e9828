/* Per use site: a use that folds is not reported even though another use
 * of the same function forces a copy; uses in code that is never emitted
 * are not reported either. */
static inline int hook(int x) { return x * 7 + 2; }
static inline int sel_only(int x) { return x * 9 + 4; }
extern void register_hook(int (*fn)(int));

int folds(int x)
{
	int (*fp)(int) = hook;

	return fp(x);
}
void registers(void)
{
	register_hook(hook);
}
static inline void never_used(void)
{
	register_hook(sel_only);
}
static void dead(void)
{
	register_hook(sel_only);
}
/* cachehot-args:
 * expect:
 * 16:23: note: inline function 'hook' (defined at mixed.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
