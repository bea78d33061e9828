/* A non-static inline definition in a .c file next to its export, as 6.12
 * block/blk-core.c blk_op_str(): the kernel's "inline" is gnu_inline, so
 * the definition has external linkage and is emitted whatever takes its
 * address. The note names that cause, not the export table. */
#define inline inline __attribute__((__gnu_inline__))
struct ksym { unsigned long addr; const char *name; };
const char *op_str(int op);
inline const char *op_str(int op)
{
	return op ? "write" : "read";
}
static const struct ksym __ksymtab_op_str __attribute__((used)) = { (unsigned long)op_str, "op_str" };
/* cachehot-args:
 * expect:
 * 12:84: note: inline function 'op_str' (defined at extern-inline.c:8) is a non-static inline definition: with external linkage its out-of-line copy is always emitted, whatever takes its address (here it is stored in the initializer of '__ksymtab_op_str'); make it static inline in a header, or drop 'inline' [cachehot-inline-addr]
 */
