/* One function holds three uses of hook(): the first folds into a direct
 * call, the other two really pass its address (one through a ?:, whose
 * reference survives in a PHI). The referring statements tell them apart. */
static inline int hook(int x) { return x * 7 + 2; }
extern void register_hook(int (*fn)(int));
extern int g;

void both(int x)
{
	int (*fp)(int) = hook;

	g = fp(x);
	register_hook(x > 3 ? hook :
		      0);
	register_hook(
		hook);
}
/* cachehot-args:
 * expect:
 * 13:31: note: inline function 'hook' (defined at same-holder.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 16:17: note: inline function 'hook' (defined at same-holder.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
