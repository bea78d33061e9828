/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-asserts.h -- let cachehot read a tree's cacheline group asserts.
 *
 * Preprocess a file that uses CACHELINE_ASSERT_GROUP_MEMBER/_SIZE
 * (include/linux/cache.h, 6.8+; net/core/dev.c, net/ipv4/tcp.c, ...) with
 * "-E -include cachehot-asserts.h" added to its own compile command. cache.h
 * defines the two macros only #ifndef, so these definitions win, and every
 * assert becomes one call that keeps its arguments as written and the bound
 * as expanded:
 *
 *   __cachehot_assert_group_member("struct tcp_sock", "tcp_sock_read_tx", "max_window");
 *   __cachehot_assert_group_size("struct tcp_sock", "tcp_sock_read_tx", "40", (40));
 *
 * `cachehot-layout --group-asserts FILE.i` reads those calls (the check
 * [cachehot-group-assert], docs/kernel-groups.md). The output is for reading
 * only: it does not compile.
 */
#ifndef CACHEHOT_ASSERTS_H
#define CACHEHOT_ASSERTS_H
#define CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP, MEMBER) \
	__cachehot_assert_group_member(#TYPE, #GROUP, #MEMBER)
#define CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE) \
	__cachehot_assert_group_size(#TYPE, #GROUP, #SIZE, (SIZE))
#endif
