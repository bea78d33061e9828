/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flat.h -- the flattened struct the rules judge (model.c builds it,
 * rules.c judges it): every data field of a struct, nested structs and
 * array elements included, at its offset from the outermost struct, with
 * the instance (struct, array, element) it lies in. Private to the core.
 */
#ifndef CACHEHOT_FLAT_H
#define CACHEHOT_FLAT_H
#include "internal.h"


/* Limits of the walk: real kernel structs stay far below them (pglist_data,
 * the largest annotated one in 6.1, flattens to 167 fields); crafted
 * inputs (a struct embedding two copies of the previous one, 20 times) would
 * otherwise take minutes and gigabytes. Past a limit the rest is one opaque
 * field and the struct gets a note. */
#define CH_MAX_ELEMS 64      /* array elements walked per array member */
#define CH_MAX_LEAVES 4096   /* fields walked per struct */
#define CH_MAX_NEST 16       /* levels of nested structs walked */


/* An aggregate instance met while flattening: the outermost struct, a
 * nested struct/union member, an array member, or one array element. */
struct inst {
	const struct ch_type *type; /* NULL for an array instance */
	int is_union;
	int parent;                 /* instance index, -1 for the root */
	int depth;
	uint64_t base;              /* bytes from the outermost struct */
	int elem;                   /* array element: its index, else -1 */
	int named_top;              /* the outermost instance other than the
				     * root, on the way from this one up to
				     * the root, whose type is a named struct
				     * (this one included), else -1 */
};

struct leafx {
	struct ch_leaf l;
	int inst;      /* innermost instance containing the leaf */
	int top;       /* index of the top-level member it belongs to */
	const struct ch_group *kg;  /* kernel cacheline group (flat->cur_kg) */
	int path_own;  /* its class comes from a member-path entry of the judged
			* struct ("global.out_rate.curr"): the container's own,
			* even inside an embedded named struct */
};

struct flat {
	ch_ctx *ctx;
	const char *top_name;   /* the judged struct's tag: member-path entries */
	struct ch_side_chain top_sc;   /* the sidecar's entries of top_name */
	int top_paths;          /* the sidecar has member-path entries of it */
	struct inst *insts;
	size_t ninsts, capinsts;
	struct leafx *leaves;
	size_t nleaves, capleaves;
	int truncated;
	/* the kernel cacheline group of the member being flattened: the
	 * kgroup of a top-level member, or of a member inside anonymous
	 * members only (ch_type_groups reads markers there too) */
	const struct ch_group *cur_kg;
	int anon_chain;         /* only anonymous members above the current one */
};

/* Flatten t into f (f's arrays malloc'd: ch_flat_free); leaves of nested
 * types the sidecar or attributes do not annotate stay whole. */
void ch_flat_build(struct flat *f, ch_ctx *ctx, struct ch_type *t);
void ch_flat_free(struct flat *f);

/* A leaf that holds data (not padding; an aligned member is data). */
static inline int ch_leafx_is_data(const struct leafx *x)
{
	return x->l.size > 0 && (x->l.pad == CH_PAD_NONE || x->l.pad == CH_PAD_ALIGNED);
}

/* 1 if the n elements at v are in cmp's order already: leaves come in
 * offset order and the sweep makes its pairs in order in most structs, and
 * glibc's qsort costs n log n comparisons on sorted input too (a third of
 * cachehot-layout's time over a whole kernel's BTF with every struct
 * annotated). Both orders are total, so skipping the sort changes nothing. */
static inline int ch_sorted(const void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	const char *p = (const char *)v;
	size_t i;
	for (i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			return 0;
	return 1;
}

/* [cachehot-padding-macro] on the flattened struct (padding.c). */
void ch_judge_padding(ch_ctx *ctx, const struct flat *f, const struct ch_type *t, unsigned L,
		      const struct ch_config *cfg, struct ch_finding_list *fl,
		      const struct ch_idiom *idp);
#endif
