/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-groups.h -- part of cachehot-core.h: the kernel's cacheline groups (core/groups.c).
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_GROUPS_H
#define CACHEHOT_API_GROUPS_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-groups.h"
#endif

/* ---- the kernel's cacheline groups (core/groups.c) ------------------------
 * Since 6.8, include/linux/cache.h marks groups of fields with zero-size
 * members (6.12 net_device, tcp_sock, sock, netns_ipv4,
 * page_pool):
 *   __cacheline_group_begin(G)          __u8 __cacheline_group_begin__G[0]
 *   __cacheline_group_end(G)            __u8 __cacheline_group_end__G[0]
 *   __cacheline_group_begin_aligned(G)  the same, __aligned(N ?: SMP_CACHE_BYTES)
 *   __cacheline_group_end_aligned(G)    end marker __aligned(sizeof(long)) plus
 *                                       struct { } __cacheline_group_pad__G (aligned)
 * Front-ends only add these members as they see them (size 0, not
 * flexible); the core recognises them by name and computes the groups. */
enum ch_marker {
	CH_MARKER_NONE = 0,
	CH_MARKER_BEGIN,         /* __cacheline_group_begin__G */
	CH_MARKER_END,           /* __cacheline_group_end__G */
	CH_MARKER_PAD,           /* __cacheline_group_pad__G (end_aligned) */
};
/* Which marker a member name is; *group (may be NULL) points into name at
 * G. NONE for any other name, and for an empty G. */
enum ch_marker ch_marker_kind(const char *name, const char **group);

/* The fast path a group name names: its '_'-separated words tx, rx, and
 * txrx/rxtx (both). Source: the group names of 6.12 net_device, tcp_sock,
 * sock, netns_ipv4 and Documentation/networking/net_cachelines/. */
enum ch_path { CH_PATH_NONE = 0, CH_PATH_TX, CH_PATH_RX, CH_PATH_TXRX };
enum ch_path ch_group_path_of(const char *group);
const char *ch_path_name(enum ch_path p);   /* "tx", "rx", "txrx", "no" */
/* The class a group name gives (docs/annotations.rst "Kernel cacheline
 * groups"): contains "write" or the word "rw" -> CH_CLASS_HOT (written);
 * else contains "read" -> CH_CLASS_READ_MOSTLY; else CH_CLASS_NONE. */
enum ch_class ch_group_class_of(const char *group);

struct ch_group {
	const char *name;          /* G (ctx-owned) */
	uint64_t begin;            /* bytes: offset of __cacheline_group_begin__G */
	uint64_t end;              /* bytes: offset of __cacheline_group_end__G;
				    * end - begin is the group's size, the measure
				    * of CACHELINE_ASSERT_GROUP_SIZE */
	unsigned begin_align;      /* bytes: alignment attribute of the begin
				    * marker (the _aligned variant), else 0 */
	const struct ch_member *begin_m, *end_m;  /* the markers (in the ch_type) */
	const struct ch_member *pad_m;            /* __cacheline_group_pad__G or NULL */
	const struct ch_member **members;  /* members strictly between the
				    * markers, markers excluded, declaration order;
				    * nested structs and anonymous unions whole */
	size_t nmembers;
	enum ch_class cls;         /* from the name, or the sidecar's STRUCT.@G */
	int cls_from_sidecar;      /* 1 if a sidecar line set cls */
	enum ch_path path;         /* from the name */
};

/* A marker problem: a begin without its end (or the reverse), a group that
 * begins inside another one, a group that begins twice. 'message' is
 * complete (ends in "[cachehot-group-markers]"), reported at loc. */
struct ch_group_problem {
	const char *message;
	struct ch_loc loc;
	const char *group;         /* G of the marker reported at loc */
};

struct ch_groups {
	struct ch_group *v;        /* balanced groups, in order of begin */
	size_t n;
	struct ch_group_problem *problems;
	size_t nproblems;
};

/* The kernel cacheline groups among t's members as C names them: its direct
 * members and the members of its anonymous struct/union members, at any
 * depth (markers inside a named nested struct belong to that struct's own
 * ch_type). When an anonymous member holds markers, the groups' begin_m,
 * end_m, pad_m and members point into a ctx-owned copy of that flat member
 * list whose offsets are t's (not into t->members); kgroup is set on the
 * real members too. A group whose markers sit directly in a union (where
 * every member starts at one offset) is a problem, not a group.
 * Computed once and cached on t; each member between a group's markers gets
 * m->kgroup. A group with a marker problem is left out of v (its members get
 * no group) and described in problems. Never NULL; ctx-owned. Call it after
 * the sidecar is loaded (a STRUCT.@G line overrides the class). */
const struct ch_groups *ch_type_groups(ch_ctx *ctx, struct ch_type *t);
/* 1 if t has any group marker among its direct members or inside its
 * anonymous members (no allocation). */
int ch_type_has_groups(const struct ch_type *t);

/* Cache lines touched by bytes [off, off+size) at line size L (0 for size
 * 0), and the fewest lines 'size' bytes can take (ceil(size / L)). */
uint64_t ch_lines_touched(uint64_t off, uint64_t size, unsigned L);
uint64_t ch_lines_min(uint64_t size, unsigned L);

#endif /* CACHEHOT_API_GROUPS_H */
