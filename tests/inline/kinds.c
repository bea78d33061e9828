/* Every other way an address escapes: notes, each with its own wording. */
struct dev { void (*cb)(struct dev *); int n; };
static inline void cb_a(struct dev *d) { d->n += 11; }
static inline void cb_b(struct dev *d) { d->n += 12; }
static inline void cb_c(struct dev *d) { d->n += 13; }
static inline void cb_d(struct dev *d) { d->n += 14; }
static inline void cb_e(struct dev *d) { d->n += 15; }
static inline void cb_f(struct dev *d) { d->n += 16; }

void (*global_hook)(struct dev *) = cb_a;

void set_cb(struct dev *d)
{
	d->cb = cb_b;
}
void set_global(void)
{
	global_hook = cb_c;
}
void (*get_cb(void))(struct dev *)
{
	return cb_d;
}
int is_e(struct dev *d)
{
	return d->cb == cb_e;
}
void (*cb_table[])(struct dev *) = { cb_a, cb_f };
/* cachehot-args:
 * expect:
 * 10:37: note: inline function 'cb_a' (defined at kinds.c:3) is stored in 'global_hook', so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 14:17: note: inline function 'cb_b' (defined at kinds.c:4) is stored through a pointer or structure field (callback registration), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 18:23: note: inline function 'cb_c' (defined at kinds.c:5) is stored in 'global_hook', so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 22:16: note: inline function 'cb_d' (defined at kinds.c:6) is returned as a function pointer, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 26:22: note: inline function 'cb_e' (defined at kinds.c:7) has its address compared, so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 28:38: note: inline function 'cb_a' (defined at kinds.c:3) is stored in the initializer of 'cb_table' (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 28:44: note: inline function 'cb_f' (defined at kinds.c:8) is stored in the initializer of 'cb_table' (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
