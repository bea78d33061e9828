/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg.h -- what the reorganization planner's files share (reorg.c plans,
 * reorg-units.c cuts a struct into the units that move and gives each its
 * class key). Private to the core.
 */
#ifndef CACHEHOT_REORG_H
#define CACHEHOT_REORG_H
#include "internal.h"

#define KEY_NONE (-1)
#define KEY_COMPOSITE (-2)

struct unit {
	size_t *mem;               /* member indexes, in the order they are laid out */
	size_t nmem;
	uint64_t *relbit;          /* bit-field unit: each member's first bit from the
				    * unit's start; NULL for other units */
	uint64_t S;                /* bit-fields of one storage type of S bytes:
				    * placed as GCC packs them (seg_layout) */
	const struct ch_type *t;   /* the struct (bit widths) */
	size_t first;              /* lowest member index (stable ordering) */
	uint64_t orig_off, size;   /* bytes */
	unsigned align;            /* bytes */
	int key;                   /* index into keys, KEY_NONE, KEY_COMPOSITE */
	int has_ex;                /* holds an exclusive leaf */
	int seg;                   /* segment it goes to */
	uint64_t new_off;
	const struct ch_group *group; /* a kernel cacheline group, moved whole */
};

struct seg {
	int key;                   /* key index, or KEY_COMPOSITE (one unit) / KEY_NONE */
	int exclusive;             /* no neutral member may join */
	size_t *u;                 /* unit indexes in order */
	size_t nu, capu;
	uint64_t start, end;       /* bytes */
};

struct keyset {
	const char **name;
	size_t n, cap;
	struct ch_index idx;       /* the names */
};

/* The flattened leaves by where they lie: those of each direct member
 * (lv[j].member one of t's members), and the nested ones by offset. Built
 * once, so that a unit finds its leaves without a pass over all of them. */
struct leafidx {
	const struct ch_leaf *lv;
	size_t nl;
	size_t *tfirst, *tidx;     /* leaves of member i: tidx[tfirst[i] .. tfirst[i+1]) */
	size_t *nest, nnest;       /* nested leaves, by (offset, index) */
	size_t *cand;              /* scratch: a unit's leaves */
};

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

static inline int ch_reorg_is_pad(const struct ch_member *m)
{
	enum ch_pad_kind k = ch_member_pad_kind(m);
	return k == CH_PAD_UNIFIED || k == CH_PAD_PRIVATE || k == CH_PAD_BYTES;
}

/* reorg.c: the regrouping by class (ch_reorganize's errors; the fields
 * from_fix and after it left zero). */
struct ch_reorg *ch_reorg_regroup(ch_ctx *ctx, struct ch_type *t, const char *name,
				  const struct ch_config *cfg, char *err, size_t errsz);

/* layout-eval.c: ch_reorg_leaf_key, and for an unannotated field of a
 * kernel cacheline group its group's key ("written groups", "read-mostly"):
 * the keys ch_layout_eval counts lines of. */
int ch_layout_leaf_key(const struct ch_leaf *l, char *buf, size_t bufsz);

/* The kernel's struct cacheline_padding at line size L (bytes), and a
 * member of it named name at offset off (bytes) appended to nt: the
 * CACHELINE_PADDING of a proposal. ctx-owned. */
struct ch_type *ch_reorg_padding_type(ch_ctx *ctx, unsigned L);
void ch_reorg_add_pad(ch_ctx *ctx, struct ch_type *nt, struct ch_type *cpt, const char *name,
		      uint64_t off, unsigned L, struct ch_loc loc);

/* reorg-units.c: the units of a struct and their class keys. */
/* The class key of leaf l into buf (bufsz bytes): "exclusive PATH", "hot
 * group G", "hot PATH" (an ungrouped hot field is a group of its own),
 * "read-mostly"; 0 (buf untouched) for padding and unannotated leaves. Keys
 * other than each other's conflict (core/rules.c). */
int ch_reorg_leaf_key(const struct ch_leaf *l, char *buf, size_t bufsz);
/* Index of class key k in ks (added, ctx-owned, when new). */
int ch_reorg_key(struct keyset *ks, ch_ctx *ctx, const char *k);
/* A unit of member m (index idx) alone. */
void ch_reorg_unit_new(struct unit *x, const struct ch_member *m, size_t idx);
/* Kernel group g, from its begin marker (member b) to its end marker, as
 * one unit; returns the index of the unit's last member. */
size_t ch_reorg_group_unit(struct unit *x, const struct ch_type *t, const struct ch_group *g,
			   size_t b);
/* The flattened leaves lv (nl) of t indexed by where they lie. */
void ch_reorg_leaves_build(struct leafidx *li, const struct ch_type *t, const struct ch_leaf *lv,
			   size_t nl);
void ch_reorg_leaves_free(struct leafidx *li);
/* x->key and x->has_ex from the leaves inside unit x. */
void ch_reorg_unit_key(struct unit *x, const struct ch_type *t, struct leafidx *li,
		       struct keyset *ks, ch_ctx *ctx);
/* The bit-fields of run [r0, r0+rn) of t (storage size S bytes, 0: mixed)
 * as units appended to u (nu so far); returns the new count. */
size_t ch_reorg_bitfield_units(struct unit *u, size_t nu, const struct ch_type *t, size_t r0,
			       size_t rn, uint64_t S, struct leafidx *li, struct keyset *ks,
			       ch_ctx *ctx);
#endif
