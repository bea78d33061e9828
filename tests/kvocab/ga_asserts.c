/* [cachehot-group-assert] fixture: asserts that hold, fail, have slack, miss
 * a member, repeat, name what is gone, or cannot be evaluated; ga_sock.h
 * gives the groups. As in net/ipv4/tcp.c's tcp_struct_check(). */
#include <stddef.h>
#include "ga_sock.h"
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#define offsetofend(T, M) (offsetof(T, M) + sizeof(((T *)0)->M))
#ifndef CACHELINE_ASSERT_GROUP_MEMBER
#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) \
	BUILD_BUG_ON(!(offsetof(TYPE, MEMBER) >= \
		       offsetofend(TYPE, __cacheline_group_begin__##GROUP) && \
		       offsetofend(TYPE, MEMBER) <= \
		       offsetof(TYPE, __cacheline_group_end__##GROUP)))
#endif
#ifndef CACHELINE_ASSERT_GROUP_SIZE
#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) \
	BUILD_BUG_ON(offsetof(TYPE, __cacheline_group_end__##GROUP) - \
		     offsetofend(TYPE, __cacheline_group_begin__##GROUP) > \
		     SIZE)
#endif
#define GA_READ_TX_MAX 12

void ga_struct_check(void)
{
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_tx, mss);
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_tx, window);
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_tx, moved);
	CACHELINE_ASSERT_GROUP_SIZE(struct ga_sock, ga_read_tx, GA_READ_TX_MAX);

	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_write_tx, snd_nxt);
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_write_tx, snd_nxt);
	CACHELINE_ASSERT_GROUP_SIZE(struct ga_sock, ga_write_tx,
				    8 + 4);

	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_rx, rx_dst);
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_gone, head);
	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_rx, rx_gone);

	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_write_rx, rcv_nxt);
	CACHELINE_ASSERT_GROUP_SIZE(struct ga_sock, ga_write_rx, sizeof(long));
}
