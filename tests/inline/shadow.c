/* A local variable that shadows an inline function's name is not that
 * function: calls through it are not uses of scale(), even though scale()
 * has a copy (registered below) and a name-based check would report it. */
static inline int scale(int x) { return x * 3; }
extern int ext_scale(int);
extern int ext_other(int);
extern void register_hook(int (*fn)(int));

int shadowing(int x, int y, int c)
{
	int (*scale)(int) = c ? ext_scale : ext_other;

	return scale(x) + scale(y);
}
void registers(void)
{
	register_hook(scale);
}
/* cachehot-args:
 * expect:
 * 17:23: note: inline function 'scale' (defined at shadow.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
