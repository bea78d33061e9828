/* A static helper returns one of three inline functions through a nested
 * ?:, and is itself inlined into its only caller: the references to the
 * three are then the caller's, and all three copies are still emitted
 * (such helpers were not reported while their copies existed). */
typedef int (*op_t)(int);
static inline int op_add(int x) { return x + 11; }
static inline int op_sub(int x) { return x - 13; }
static inline int op_mul(int x) { return x * 17; }

static op_t pick(int a, int b)
{
	return a ? op_add : b ? op_sub : op_mul;
}

op_t table[4];
void fill(int a, int b)
{
	table[a & 3] = pick(a, b);
}
/* cachehot-args:
 * expect:
 * 12:20: note: inline function 'op_add' (defined at return-nested.c:6) is returned as a function pointer, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 12:33: note: inline function 'op_sub' (defined at return-nested.c:7) is returned as a function pointer, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 12:42: note: inline function 'op_mul' (defined at return-nested.c:8) is returned as a function pointer, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
