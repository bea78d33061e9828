/* The ops table of ops.c, with the functions marked addressable by the
 * attribute (on a redeclaration, on the definition): silent. */
#include "inline-hdr.h"
struct sock_ops {
	void (*wake)(struct sock *);
	int (*bad)(struct sock *);
};
typedef int (*getfrag_t)(void *, char *, int, int);
extern int append_data(struct sock *sk, getfrag_t getfrag, void *from, int len);
extern int generic_getfrag(void *from, char *to, int off, int len);
extern void register_ops(const struct sock_ops *ops);

static inline void sock_wake(struct sock *sk) __attribute__((cachehot_addressable));
static inline int sock_bad(struct sock *sk) __attribute__((cachehot_addressable));
static inline int udplite_getfrag(void *from, char *to, int off, int len)
	__attribute__((cachehot_addressable));

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
 * expect-none
 */
