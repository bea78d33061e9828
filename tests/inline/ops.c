/* Ops tables and callback registrations: notes by default. */
#include "inline-hdr.h"
struct sock_ops {
	void (*wake)(struct sock *);
	int (*bad)(struct sock *);
};
typedef int (*getfrag_t)(void *, char *, int, int);
extern int append_data(struct sock *sk, getfrag_t getfrag, void *from, int len);
extern int generic_getfrag(void *from, char *to, int off, int len);
extern void register_ops(const struct sock_ops *ops);

static const struct sock_ops my_ops = {
	.wake = sock_wake,
	.bad = sock_bad,
};
void setup(void)
{
	register_ops(&my_ops);
}
int send(struct sock *sk, void *from, int len, int lite)
{
	getfrag_t getfrag = lite ? udplite_getfrag : generic_getfrag;

	return append_data(sk, getfrag, from, len);
}
/* cachehot-args:
 * expect:
 * 13:17: note: inline function 'sock_wake' (defined at inline-hdr.h:10) is stored in the initializer of 'my_ops' (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 14:16: note: inline function 'sock_bad' (defined at inline-hdr.h:14) is stored in the initializer of 'my_ops' (ops table), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 22:36: note: inline function 'udplite_getfrag' (defined at inline-hdr.h:3) is assigned to the local function pointer 'getfrag', which is passed to 'append_data' (argument 2), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
