/* Uses in a static inline inlined into two callers (inline clones) and in a
 * function specialised by IPA-CP (G.constprop): folded uses stay silent, the
 * registrations are reported once each. */
static inline int hook(int x) { return x * 7 + 2; }
extern void register_hook(int (*fn)(int));
extern int g;
static inline void F(int x)
{
	int (*fp)(int) = hook;

	g = fp(x);
	register_hook(hook);
	register_hook(x ? hook : 0);
}
void a(int x) { F(x); }
void b(int x) { F(x + 1); }
static void __attribute__((noinline)) G(int x, int c)
{
	int (*fp)(int) = hook;
	g = fp(x);
	if (c)
		register_hook(hook);
}
void c1(int x) { G(x, 1); }
void c2(int x) { G(x, 0); }
/* cachehot-args:
 * expect:
 * 12:23: note: inline function 'hook' (defined at clones.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 13:27: note: inline function 'hook' (defined at clones.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 22:31: note: inline function 'hook' (defined at clones.c:4) is passed to 'register_hook' (argument 1), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
