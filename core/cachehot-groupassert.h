/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-groupassert.h -- the kernel's hand-kept cacheline group asserts
 * (include/linux/cache.h, 6.8+: CACHELINE_ASSERT_GROUP_MEMBER(TYPE, GROUP,
 * MEMBER) and CACHELINE_ASSERT_GROUP_SIZE(TYPE, GROUP, SIZE), BUILD_BUG_ONs
 * in net/core/dev.c, net/ipv4/tcp.c, net/core/net_namespace.c,
 * net/core/page_pool.c, net/core/sock.c).
 *
 * The core reads them from a file preprocessed with
 * include/cachehot-asserts.h (which turns each into a call that keeps its
 * arguments), checks them against a struct's groups ([cachehot-group-assert])
 * and writes the block the kernel keeps by hand. docs/kernel-groups.md.
 *
 * Units: bytes. Ownership: everything belongs to the ch_ctx given to
 * ch_asserts_new(); free the ch_asserts with ch_asserts_free() before it.
 * Errors: -1 with ch_ctx_error() "FILE:LINE: message".
 */
#ifndef CACHEHOT_GROUPASSERT_H
#define CACHEHOT_GROUPASSERT_H

#include "cachehot-core.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ch_assert_kind { CH_ASSERT_MEMBER = 0, CH_ASSERT_SIZE };

struct ch_group_assert {
	enum ch_assert_kind kind;
	const char *type_name;   /* "tcp_sock" (the source says "struct tcp_sock") */
	const char *group;       /* "tcp_sock_read_tx" */
	const char *member;      /* MEMBER as written ("max_window"), else NULL */
	const char *size_text;   /* SIZE as written ("91 + 4"), else NULL */
	const char *size_expr;   /* SIZE as the preprocessor expanded it */
	int size_known;          /* 1 when size_expr evaluated (no sizeof etc.) */
	uint64_t size;           /* bytes: the bound, when size_known */
	struct ch_loc loc;       /* the assert in the source (from linemarkers) */
};

typedef struct ch_asserts ch_asserts;

ch_asserts *ch_asserts_new(ch_ctx *ctx);
void ch_asserts_free(ch_asserts *a);
size_t ch_asserts_count(const ch_asserts *a);
const struct ch_group_assert *ch_asserts_get(const ch_asserts *a, size_t i);
/* Read the __cachehot_assert_group_member/_size calls of preprocessed text
 * (gcc -E output: "# LINE FILE" linemarkers give each assert its source
 * position). name is the file's name for messages. Malformed calls are an
 * error; a file without any is not. */
int ch_asserts_scan(ch_asserts *a, const char *name, const char *text);
int ch_asserts_read(ch_asserts *a, const char *path);
/* 1 if an assert names struct type_name. */
int ch_asserts_names_type(const ch_asserts *a, const char *type_name);

/* [cachehot-group-assert] on struct t (its groups from ch_type_groups):
 *  - a SIZE bound that no longer holds (group bigger than asserted): warning;
 *  - a SIZE bound with slack (group smaller): note, tighten it;
 *  - a MEMBER assert that no longer holds (member outside the group, or no
 *    such member or group): warning;
 *  - a group member (through anonymous aggregates) without a MEMBER assert,
 *    and a group without a SIZE assert: warning;
 *  - the same MEMBER assert twice: note.
 * Only for a t named by some assert. Returns the number of warnings. */
int ch_group_assert_check(ch_ctx *ctx, const ch_asserts *a, struct ch_type *t,
			  const struct ch_config *cfg, ch_emit_fn emit, void *arg);

/* The CACHELINE_ASSERT_GROUP_MEMBER/_SIZE block for every group of t, in
 * declaration order: every member (an anonymous aggregate's named members;
 * bit-fields, which offsetof cannot name, as a comment), then the group's
 * current size. One tab of indent, ready to paste into the kernel's
 * *_struct_check() function; TYPE is "struct NAME", "union NAME" or the
 * typedef name. NULL with ch_ctx_error() set when t has no groups, has a
 * marker problem (overlapping groups, a begin without its end, a group
 * directly in a union: the first problem's message, naming its groups), or
 * has no name. ctx-owned. */
const char *ch_group_asserts_block(ch_ctx *ctx, struct ch_type *t);

#ifdef __cplusplus
}
#endif
#endif
