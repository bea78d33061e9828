/* A header with static inline helpers, as in include/linux/. */
struct sock { int proto; int len; };
static inline int udplite_getfrag(void *from, char *to, int off, int len)
{
	int i;
	for (i = 0; i < len; i++)
		to[i] = ((char *)from)[off + i] ^ 0x5a;
	return 0;
}
static inline void sock_wake(struct sock *sk)
{
	sk->len = 0;
}
static inline int sock_bad(struct sock *sk)
{
	return sk->proto < 0;
}
