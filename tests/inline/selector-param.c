/* A parameter used as the selector: a default chosen with ?: when the
 * caller passed none, then only called through. */
static inline int lo(int x) { return x - 41; }
static inline int hi(int x) { return x + 41; }

int param_sel(int (*op)(int), int c, int x)
{
	if (!op)
		op = c ? lo : hi;
	return op(x) * op(x + 2);
}
/* cachehot-args:
 * expect:
 * 9:26: warning: inline function 'lo' (defined at selector-param.c:3) is chosen through the local function pointer 'op', so an out-of-line copy is emitted; call lo/hi directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 9:31: warning: inline function 'hi' (defined at selector-param.c:4) is chosen through the local function pointer 'op', so an out-of-line copy is emitted; call lo/hi directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
