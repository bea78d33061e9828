/* Trees that crash careless plugins: internal functions (CALL_EXPR_FN is
 * NULL), asm operands, statement expressions, compound literals, nested
 * functions, computed goto, _Generic, __builtin_choose_expr, typeof/sizeof
 * of a function. Only the real escapes are reported. */
struct ops { int (*op)(int); };
static inline int op_a(int x) { return x + 21; }
static inline int op_b(int x) { return x + 22; }
static inline int op_c(int x) { return x + 23; }
static inline int op_d(int x) { return x + 24; }
extern void take(const struct ops *o);

int mul(int a, int b)
{
	int r;

	if (__builtin_mul_overflow(a, b, &r))
		return -1;
	return r;
}
void in_asm(void)
{
	asm volatile("# %c0" : : "i"(op_a));
}
void literal(void)
{
	const struct ops *p = &(const struct ops){ .op = op_b };

	take(p);
}
int stmt_expr(int x)
{
	int y = ({ int (*t)(int) = op_c; t(x); });
	__typeof__(op_d) *q = __builtin_choose_expr(1, op_c, op_d);
	int z = _Generic(x, int: op_c, default: op_d)(x);

	return y + q(x) + z + (int)sizeof(op_d);
}
static const struct ops *const file_lit = &(const struct ops){ .op = op_d };
void file_literal(void)
{
	take(file_lit);
}
int nested(int x)
{
	int inner(int v) { return op_c(v) + x; }
	static void *labels[] = { &&one, &&two };

	goto *labels[x & 1];
one:
	return inner(1);
two:
	return inner(2);
}
/* cachehot-args:
 * expect:
 * 22:9: note: inline function 'op_a' (defined at robust.c:6) is an asm operand, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 26:58: note: inline function 'op_b' (defined at robust.c:7) is stored in an initializer (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 38:70: note: inline function 'op_d' (defined at robust.c:9) is stored in an initializer (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
