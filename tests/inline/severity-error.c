/* severity=error makes a selector an error (and fails the compile); notes
 * (the ops table) stay notes. */
static inline int up(int x) { return x + 31; }
static inline int down(int x) { return x - 31; }
extern void register_op(int (*op)(int));

int pick(int c, int x)
{
	int (*op)(int) = c ? up : down;

	return op(x) + op(x + 1);
}
void reg(void)
{
	register_op(down);
}
/* cachehot-args: severity=error
 * expect:
 * 9:30: error: inline function 'up' (defined at severity-error.c:3) is chosen through the local function pointer 'op', so an out-of-line copy is emitted; call up/down directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 9:35: error: inline function 'down' (defined at severity-error.c:4) is chosen through the local function pointer 'op', so an out-of-line copy is emitted; call up/down directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 15:21: note: inline function 'down' (defined at severity-error.c:4) is passed to 'register_op' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
