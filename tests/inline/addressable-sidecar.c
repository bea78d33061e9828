/* The ops table of ops.c, with the functions marked addressable in the
 * sidecar (inline-sidecar.txt): silent. */
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
/* cachehot-args: annotations=inline-sidecar.txt
 * expect-none
 */
