/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.c -- flattening a struct and judging it; every layout message.
 *
 * Rules (docs/checks.rst):
 *  false-sharing: a hot field must not share a cache line with a read-mostly
 *    field, nor with a hot field of another group (each ungrouped hot field is
 *    its own group); an exclusive field shares its lines with no other data.
 *    Source: "mm: page_counter: relayout structure to reduce false sharing"
 *    (v5.11), "mm: page_counter: rearrange struct page_counter fields" (v6.0).
 *  padding-macro: an annotated field isolated by a private padding type or by
 *    hand-sized bytes should use CACHELINE_PADDING from <linux/cache.h>.
 *    Source: the 2022 upstream change that added CACHELINE_PADDING to
 *    <linux/cache.h> and replaced PC_PADDING, MEMCG_PADDING and ZONE_PADDING
 *    (present in 6.1.y; commit subject not verified offline).
 */
#include <stdlib.h>
#include <string.h>
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

static int add_inst(struct flat *f, const struct ch_type *t, int is_union, int parent, uint64_t base)
{
	struct inst *in;
	if (f->ninsts == f->capinsts) {
		f->capinsts = f->capinsts ? 2 * f->capinsts : 32;
		f->insts = (struct inst *)ch_xrealloc(f->insts, f->capinsts * sizeof(*in));
	}
	in = &f->insts[f->ninsts];
	in->type = t;
	in->is_union = is_union;
	in->parent = parent;
	in->depth = parent < 0 ? 0 : f->insts[parent].depth + 1;
	in->base = base;
	in->elem = -1;
	return (int)f->ninsts++;
}

static struct leafx *add_leaf(struct flat *f)
{
	struct leafx *x;
	if (f->nleaves >= CH_MAX_LEAVES) {
		f->truncated = 1;
		return NULL;
	}
	if (f->nleaves == f->capleaves) {
		f->capleaves = f->capleaves ? 2 * f->capleaves : 64;
		f->leaves = (struct leafx *)ch_xrealloc(f->leaves, f->capleaves * sizeof(*x));
	}
	x = &f->leaves[f->nleaves++];
	memset(x, 0, sizeof(*x));
	return x;
}

/* Class of member m of a type whose nearest named type is sname. */
static enum ch_class member_class(ch_ctx *ctx, const char *sname, const struct ch_member *m,
				  const char **group)
{
	*group = m->group;
	if (m->cls != CH_CLASS_NONE)
		return m->cls;
	if (!m->name)
		return CH_CLASS_NONE;
	return ch_sidecar_class(ctx, sname, m->name, group);
}

/* nesting walked; a corrupt input may nest a type in itself. Deep enough
 * for any real nesting (the DWARF reader stops at 4096): a named type's
 * answer is remembered, so the walk stays linear */
#define CH_MAX_DEPTH 4096

/* *cut: the answer "no" was reached only because the depth limit stopped
 * the walk; such an answer depends on where the walk started and is not
 * remembered (else the order types are judged in changes the verdicts:
 * DWARF lists the outermost of 256 nested structs first). */
static int annotated_in_cut(ch_ctx *ctx, struct ch_type *t, const char *sname, int depth,
			    int *cut)
{
	size_t i;
	int found = 0, mycut = 0, named;
	const char *name = t->name ? t->name : sname;
	if (t->name && t->annot_state)
		return t->annot_state == 1;
	if (depth > CH_MAX_DEPTH) {
		*cut = 1;
		return 0;
	}
	/* one lookup settles a struct the sidecar does not name (most) */
	named = name && ch_sidecar_names_type(ctx, name);
	if (t->name && named && ch_sidecar_path_under(ctx, t->name, NULL))
		found = 1;   /* member paths into its embedded structs */
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		const char *g;
		if (m->cls != CH_CLASS_NONE || (named && member_class(ctx, name, m, &g) != CH_CLASS_NONE))
			found = 1;   /* keep going: marks every sidecar match */
		else if (m->type && m->type != t &&
			 annotated_in_cut(ctx, (struct ch_type *)m->type, name, depth + 1, &mycut))
			found = 1;
	}
	if (t->name && (found || !mycut))
		t->annot_state = found ? 1 : 2;
	if (!found && mycut)
		*cut = 1;
	return found;
}

static int annotated_in(ch_ctx *ctx, struct ch_type *t, const char *sname, int depth)
{
	int cut = 0;
	return annotated_in_cut(ctx, t, sname, depth, &cut);
}

int ch_type_is_annotated(ch_ctx *ctx, struct ch_type *t)
{
	/* the kernel's cacheline group markers make the struct itself judged
	 * (core/groups.c), not the structs that embed it */
	return t ? annotated_in(ctx, t, t->name, 0) || ch_type_has_groups(t) : 0;
}

static void flatten_type(struct flat *f, struct ch_type *t, const char *sname, int inst,
			 const char *prefix, int top, int depth);

static void add_data_leaf(struct flat *f, const struct ch_member *m, const char *path,
			  uint64_t off, enum ch_class cls, const char *group, int inst, int top,
			  int depth)
{
	struct leafx *x = add_leaf(f);
	uint64_t size = m->size;
	if (!x)
		return;
	x->l.path = path;
	x->l.member = m;
	x->l.cls = cls;
	x->l.group = group;
	x->l.pad = ch_member_pad_kind(m);
	x->l.depth = depth;
	x->l.bit_size = m->bit_size;
	if (m->bit_size) {
		/* front-ends split (offset, bit_offset) differently: sparse keeps
		 * the storage unit's offset, DWARF and GCC absolute bits. Normalise
		 * to the byte holding the first bit and the bit within it. */
		uint64_t first = m->bit_offset / 8, last = (m->bit_offset + m->bit_size - 1) / 8;
		off += first;
		size = last - first + 1;
		x->l.bit_offset = m->bit_offset % 8;
	} else if (m->flexible) {
		/* a flexible array reaches at least one element past its offset */
		size = m->elem_size ? m->elem_size : 1;
	}
	x->l.offset = off;
	x->l.size = size;
	x->inst = inst;
	x->top = top;
	x->kg = f->cur_kg;
}

/* a, b, c joined into context memory: a member's path ("a.b", "a[3]"),
 * made for every nested member of every judged struct */
static const char *join_path(ch_ctx *ctx, const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *d = (char *)ch_alloc(ctx, na + nb + nc + 1);
	memcpy(d, a, na);
	memcpy(d + na, b, nb);
	memcpy(d + na + nb, c, nc + 1);
	return d;
}

static void flatten_member_in(struct flat *f, const struct ch_member *m, const char *sname,
			      int inst, const char *prefix, int top, int depth);

static void flatten_member(struct flat *f, const struct ch_member *m, const char *sname,
			   int inst, const char *prefix, int top, int depth)
{
	const struct ch_group *saved_kg = f->cur_kg;
	int saved_chain = f->anon_chain;
	if (f->anon_chain && !f->cur_kg && m->kgroup)
		f->cur_kg = m->kgroup;
	f->anon_chain = f->anon_chain && !m->name;
	flatten_member_in(f, m, sname, inst, prefix, top, depth);
	f->cur_kg = saved_kg;
	f->anon_chain = saved_chain;
}

static void flatten_member_in(struct flat *f, const struct ch_member *m, const char *sname,
			      int inst, const char *prefix, int top, int depth)
{
	ch_ctx *ctx = f->ctx;
	const char *group;
	enum ch_class cls = member_class(ctx, sname, m, &group);
	uint64_t off = f->insts[inst].base + m->offset;
	const char *path;
	struct ch_type *mt = (struct ch_type *)m->type;
	int path_entry = 0;

	if (!m->name && !mt)
		return;   /* unnamed bit-field: padding bits */
	if (m->name)
		path = prefix ? join_path(ctx, prefix, ".", m->name) : m->name;
	else
		path = prefix;  /* anonymous struct/union: its members read as ours */
	/* a member-path entry of the judged struct ("global.out_rate.curr")
	 * is more specific than the embedded type's own class; an attribute
	 * in the source still wins */
	if (depth > 0 && m->name && m->cls == CH_CLASS_NONE && f->top_name && path &&
	    (f->top_paths || !strchr(path, '.'))) {
		const char *pg = NULL;
		enum ch_class pc = ch_sidecar_class(ctx, f->top_name, path, &pg);
		if (pc != CH_CLASS_NONE) {
			cls = pc;
			group = pg;
			path_entry = 1;
		}
	}

	if (mt && cls == CH_CLASS_NONE && depth >= CH_MAX_NEST &&
	    annotated_in(ctx, mt, mt->name ? mt->name : sname, depth))
		f->truncated = 1;   /* annotated, but nested too deep: one opaque field */
	if (!mt || cls != CH_CLASS_NONE || depth >= CH_MAX_NEST ||
	    (!annotated_in(ctx, mt, mt->name ? mt->name : sname, depth) &&
	     !(path && f->top_paths && ch_sidecar_path_under(ctx, f->top_name, path)))) {
		add_data_leaf(f, m, path ? path : "<anonymous>", off, cls, group, inst, top, depth);
		if (path_entry && f->nleaves)
			f->leaves[f->nleaves - 1].path_own = 1;
		if (cls != CH_CLASS_NONE && m->cls == CH_CLASS_NONE && m->name && f->nleaves)
			f->leaves[f->nleaves - 1].l.inferred = path_entry
				? ch_sidecar_inferred(ctx, f->top_name, path)
				: ch_sidecar_inferred(ctx, sname, m->name);
		return;
	}
	{
		const char *inner = mt->name ? mt->name : sname;
		uint64_t n = m->flexible ? 1 : m->nelems, i;
		if (n <= 1 && !m->flexible && m->nelems == 1) {
			int ci = add_inst(f, mt, mt->is_union, inst, off);
			flatten_type(f, mt, inner, ci, path, top, depth + 1);
			return;
		}
		{
			int ai = add_inst(f, NULL, 0, inst, off);
			if (n > CH_MAX_ELEMS) {
				n = CH_MAX_ELEMS;
				f->truncated = 1;
			}
			for (i = 0; i < n; i++) {
				int ei = add_inst(f, mt, mt->is_union, ai, off + i * m->elem_size);
				f->insts[ei].elem = (int)i;
				char ix[24];
				snprintf(ix, sizeof(ix), "[%llu]", (unsigned long long)i);
				const char *ep = join_path(ctx, path ? path : "", ix, "");
				flatten_type(f, mt, inner, ei, ep, top, depth + 1);
			}
		}
	}
}

static void flatten_type(struct flat *f, struct ch_type *t, const char *sname, int inst,
			 const char *prefix, int top, int depth)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++)
		flatten_member(f, &t->members[i], sname, inst, prefix,
			       top < 0 ? (int)i : top, depth);
}

static void flat_build(struct flat *f, ch_ctx *ctx, struct ch_type *t)
{
	memset(f, 0, sizeof(*f));
	f->ctx = ctx;
	f->top_name = t->name;
	/* one look per struct: without member-path entries of it, no nested
	 * "a.b" path is looked up (a hash of both names per nested member) */
	f->top_paths = t->name && ch_sidecar_path_under(ctx, t->name, NULL);
	f->anon_chain = 1;
	ch_type_groups(ctx, t);   /* members' kgroup, before the leaves copy it */
	add_inst(f, t, t->is_union, -1, 0);
	flatten_type(f, t, t->name, 0, NULL, -1, 0);
	{
		size_t i;
		for (i = 0; i < f->nleaves; i++) {
			int x;
			f->leaves[i].l.kgroup = f->leaves[i].kg;
			for (x = f->leaves[i].inst; x > 0 && !f->leaves[i].path_own;
			     x = f->insts[x].parent)
				if (f->insts[x].type && f->insts[x].type->name) {
					f->leaves[i].l.embedded = 1;
					break;
				}
		}
	}
}

static void flat_free(struct flat *f)
{
	free(f->insts);
	free(f->leaves);
}

int ch_flatten(ch_ctx *ctx, struct ch_type *t, struct ch_leaf **out, size_t *n)
{
	struct flat f;
	size_t i;
	struct ch_leaf *v;
	flat_build(&f, ctx, t);
	v = (struct ch_leaf *)ch_alloc(ctx, (f.nleaves ? f.nleaves : 1) * sizeof(*v));
	for (i = 0; i < f.nleaves; i++)
		v[i] = f.leaves[i].l;
	*out = v;
	*n = f.nleaves;
	flat_free(&f);
	return 0;
}

/* ---- padding classification ------------------------------------------- */

int ch_type_is_padding(const struct ch_type *t)
{
	if (!t || t->size != 0 || t->align <= 1 || t->nmembers != 1)
		return 0;
	if (t->name && !strcmp(t->name, "cacheline_padding"))
		return 0;
	return t->members[0].size == 0 && !t->members[0].type;
}

enum ch_pad_kind ch_member_pad_kind(const struct ch_member *m)
{
	const struct ch_type *t = m->type;
	if (t && m->nelems == 1 && t->size == 0 && t->name && !strcmp(t->name, "cacheline_padding"))
		return CH_PAD_UNIFIED;
	if (t && m->nelems == 1 && ch_type_is_padding(t))
		return CH_PAD_PRIVATE;
	if (!t && m->is_integer && m->elem_size == 1 && m->nelems > 1 && m->size > 0 && m->name &&
	    strstr(m->name, "pad"))
		return CH_PAD_BYTES;
	if (m->user_align && m->size > 0)
		return CH_PAD_ALIGNED;
	return CH_PAD_NONE;
}

/* ---- judging ------------------------------------------------------------- */

static int is_data(const struct leafx *x)
{
	return x->l.size > 0 && (x->l.pad == CH_PAD_NONE || x->l.pad == CH_PAD_ALIGNED);
}

static int is_hotish(enum ch_class c)
{
	return c == CH_CLASS_HOT || c == CH_CLASS_EXCLUSIVE;
}

int ch_classes_conflict(enum ch_class ca, const char *ga, enum ch_class cb, const char *gb)
{
	if (ca == CH_CLASS_EXCLUSIVE || cb == CH_CLASS_EXCLUSIVE)
		return 1;
	if ((ca == CH_CLASS_HOT && cb == CH_CLASS_READ_MOSTLY) ||
	    (cb == CH_CLASS_HOT && ca == CH_CLASS_READ_MOSTLY))
		return 1;
	if (ca == CH_CLASS_HOT && cb == CH_CLASS_HOT) {
		if (!ga || !gb)
			return 1;
		return strcmp(ga, gb) != 0;
	}
	return 0;
}

/* 1 if a and b must not share a cache line. */
static int classes_conflict(const struct leafx *a, const struct leafx *b)
{
	return ch_classes_conflict(a->l.cls, a->l.group, b->l.cls, b->l.group);
}

/* First cache line both byte ranges touch at line size L (relative to
 * base), or -1. */
static int64_t shared_line(uint64_t ao, uint64_t as, uint64_t bo, uint64_t bs, uint64_t base,
			   unsigned L)
{
	uint64_t a0 = (ao - base) / L, a1 = (ao - base + as - 1) / L;
	uint64_t b0 = (bo - base) / L, b1 = (bo - base + bs - 1) / L;
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
	return lo <= hi ? (int64_t)lo : -1;
}

/* Index of the element of array instance arr that instance x lies in. */
static int elem_under(const struct flat *f, int x, int arr)
{
	while (x >= 0 && f->insts[x].parent != arr)
		x = f->insts[x].parent;
	return x >= 0 ? f->insts[x].elem : -1;
}

/* Arrays repeat one pattern: judge pairs inside element 0 and between
 * elements 0 and 1 only, not every pair of N elements. */
static int repeats_array_pattern(const struct flat *f, int c)
{
	int x;
	if (!f->insts[c].type && f->insts[c].elem < 0)   /* c is an array */
		return 0;  /* handled by the caller with both element indexes */
	for (x = c; x > 0; x = f->insts[x].parent)
		if (f->insts[x].elem > 0)
			return 1;
	return 0;
}

/* Deepest common instance of two leaves. */
static int common_inst(const struct flat *f, int a, int b)
{
	while (f->insts[a].depth > f->insts[b].depth)
		a = f->insts[a].parent;
	while (f->insts[b].depth > f->insts[a].depth)
		b = f->insts[b].parent;
	while (a != b) {
		a = f->insts[a].parent;
		b = f->insts[b].parent;
	}
	return a;
}

static const char *class_phrase(ch_ctx *ctx, const struct ch_leaf *l)
{
	switch (l->cls) {
	case CH_CLASS_HOT:
		return l->group ? ch_printf(ctx, "hot field (group '%s')", l->group) : "hot field";
	case CH_CLASS_EXCLUSIVE: return "exclusive field";
	case CH_CLASS_READ_MOSTLY: return "read-mostly field";
	default: return "field";
	}
}

const char *ch_type_phrase(ch_ctx *ctx, const struct ch_type *t)
{
	if (!t->name)
		return t->is_union ? "anonymous union" : "anonymous struct";
	if (t->name_is_typedef)
		return ch_printf(ctx, "'%s'", t->name);
	return ch_printf(ctx, "'%s %s'", t->is_union ? "union" : "struct", t->name);
}

/* "offset 8, size 8" or "offset 4, bits 3..7" for a bit-field. */
#define type_phrase ch_type_phrase

static const char *where_phrase(ch_ctx *ctx, const struct ch_leaf *l)
{
	if (l->bit_size)
		return ch_printf(ctx, "offset %llu, bit-field of %u bits at bit %u",
				 (unsigned long long)l->offset, l->bit_size, l->bit_offset);
	if (l->member && l->member->flexible)
		return ch_printf(ctx, "offset %llu, flexible array of %llu-byte elements",
				 (unsigned long long)l->offset, (unsigned long long)l->size);
	return ch_printf(ctx, "offset %llu, size %llu", (unsigned long long)l->offset,
			 (unsigned long long)l->size);
}

static const char *lines_phrase(ch_ctx *ctx, unsigned L, int predicted)
{
	return predicted ? ch_printf(ctx, "(predicted at %u-byte lines)", L)
			 : ch_printf(ctx, "(%u-byte lines)", L);
}

#define finding_list ch_finding_list

static struct ch_finding *new_finding(ch_ctx *ctx, struct finding_list *fl)
{
	(void)ctx;
	return ch_finding_new(fl);
}

struct ch_finding *ch_finding_new(struct ch_finding_list *fl)
{
	struct ch_finding *x;
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 16;
		fl->v = (struct ch_finding *)ch_xrealloc(fl->v, fl->cap * sizeof(*x));
	}
	x = &fl->v[fl->n++];
	memset(x, 0, sizeof(*x));
	return x;
}

/* A finding about leaf a (where it is reported) and leaf b (the other). */
static struct ch_finding *pair_finding(ch_ctx *ctx, struct finding_list *fl, enum ch_check check,
				       const struct ch_config *cfg, const struct ch_type *t,
				       const struct ch_leaf *a, const struct ch_leaf *b,
				       uint64_t line_index, unsigned L)
{
	struct ch_finding *x = new_finding(ctx, fl);
	x->check = check;
	x->severity = cfg->severity;
	x->struct_name = t->name;
	x->field_a = a->path;
	x->offset_a = a->offset;
	x->size_a = a->size;
	x->field_b = b->path;
	x->offset_b = b->offset;
	x->size_b = b->size;
	x->line_index = line_index;
	x->line_size = L;
	return x;
}

static unsigned count_pads(const struct ch_type *t)
{
	size_t i;
	unsigned n = 0;
	for (i = 0; i < t->nmembers; i++) {
		enum ch_pad_kind k = ch_member_pad_kind(&t->members[i]);
		if (k == CH_PAD_UNIFIED || k == CH_PAD_PRIVATE || k == CH_PAD_BYTES)
			n++;
	}
	return n;
}

static int common_inst(const struct flat *f, int a, int b);

/* How a member is named in a fix: its name, or which anonymous aggregate. */
const char *ch_member_ref(ch_ctx *ctx, const struct ch_member *m)
{
	if (m->name)
		return ch_printf(ctx, "'%s'", m->name);
	if (m->type)
		return ch_printf(ctx, "the anonymous %s at line %u",
				 m->type->is_union ? "union" : "struct", m->loc.line);
	return "the unnamed bit-field";
}

/* Padding names of one struct's fixes: _padN_ after the struct's own pads,
 * one number per insertion point, so that applying every fix compiles. */
struct pad_names {
	const struct ch_member *at[64];
	unsigned n;
	unsigned base;     /* count_pads(t), counted once per struct */
};

static const char *pad_for(ch_ctx *ctx, struct pad_names *pn, const struct ch_type *t,
			   const struct ch_member *before)
{
	unsigned k;
	for (k = 0; k < pn->n && pn->at[k] != before; k++)
		;
	if (k == pn->n && pn->n < 64)
		pn->at[pn->n++] = before;
	return ch_printf(ctx, "CACHELINE_PADDING(_pad%u_)", pn->base + k + 1);
}

/* "insert CACHELINE_PADDING(_padN_) before 'x'" (kernel) or
 * "declare 'x' _Alignas(L)" (standard C): a break before member m. */
static const char *break_before(ch_ctx *ctx, struct pad_names *pn, const struct ch_type *t,
				const struct ch_member *m, unsigned L, int kernel)
{
	if (kernel == 1)
		return ch_printf(ctx, "insert %s before %s", pad_for(ctx, pn, t, m),
				 ch_member_ref(ctx, m));
	if (m->bit_size)   /* C11 6.7.5: no alignment specifier on a bit-field */
		return ch_printf(ctx, "make %s a plain member (not a bit-field) declared "
				 "%s(%u)", ch_member_ref(ctx, m), CH_ALIGNAS(kernel), L);
	return ch_printf(ctx, "declare %s %s(%u)", ch_member_ref(ctx, m), CH_ALIGNAS(kernel), L);
}

/* Align a whole type to the line: the kernel's attribute, or C11. */
static const char *align_type(ch_ctx *ctx, const char *what, unsigned L, int kernel)
{
	if (kernel == 1)
		return ch_printf(ctx, "mark %s ____cacheline_aligned_in_smp", what);
	return ch_printf(ctx, "declare the first member of %s %s(%u)", what, CH_ALIGNAS(kernel), L);
}

/* The fix for a conflicting pair: first (earlier) and second (later). */
static const char *fix_phrase(ch_ctx *ctx, const struct flat *f, const struct ch_type *t,
			      const struct leafx *first, const struct leafx *second, unsigned L,
			      struct pad_names *pn, int kernel)
{
	if (first->top == second->top) {
		const struct ch_member *m = &t->members[first->top];
		int c = common_inst(f, first->inst, second->inst);
		const struct inst *ci = &f->insts[c];
		if (!ci->type && m->type)   /* different elements of one array */
			return ch_printf(ctx, "give each element of %s its own cache line (%s)",
					 ch_member_ref(ctx, m),
					 align_type(ctx, ch_printf(ctx, "'struct %s'",
						 m->type->name ? m->type->name : "<anonymous>"),
						    L, kernel));
		if (ci->type && !ci->type->name) {
			/* inside an anonymous struct (or an anonymous element type):
			 * the padding goes in there, before the later field */
			return break_before(ctx, pn, t, second->l.member, L, kernel);
		}
		return ch_printf(ctx, "align %s to the cache line (%s) "
				 "so that the layout of its own type holds here", ch_member_ref(ctx, m),
				 kernel == 1 ? "____cacheline_aligned_in_smp"
					: ch_printf(ctx, "%s(%u)", CH_ALIGNAS(kernel), L));
	}
	if (is_hotish(second->l.cls) && second->l.cls != CH_CLASS_NONE &&
	    !(is_hotish(first->l.cls) && first->l.cls == CH_CLASS_EXCLUSIVE))
		return break_before(ctx, pn, t, &t->members[second->top], L, kernel);
	if ((size_t)first->top + 1 >= t->nmembers)   /* members not in offset order (crafted
					      * BTF): no member follows the first */
		return break_before(ctx, pn, t, &t->members[second->top], L, kernel);
	{
		const struct ch_member *nx = &t->members[first->top + 1];
		if (kernel == 1 && ch_member_pad_kind(nx) == CH_PAD_BYTES && nx->name)
			return ch_printf(ctx, "replace '%s' with CACHELINE_PADDING(%s)", nx->name,
					 nx->name);
		return break_before(ctx, pn, t, nx, L, kernel);
	}
}

/* Members that align to the line (CACHELINE_PADDING, a private padding
 * type, a ____cacheline_aligned member): on an architecture with larger
 * lines they align to those, so a prediction made with this build's offsets
 * would be wrong across one. Their offsets, sorted: one between two fields
 * is two binary searches. */
struct follows {
	uint64_t *off;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void follows_build(struct follows *fw, const struct flat *f, unsigned base_L)
{
	size_t k;
	fw->off = (uint64_t *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(uint64_t));
	fw->n = 0;
	for (k = 0; k < f->nleaves; k++) {
		const struct leafx *x = &f->leaves[k];
		if (x->l.pad == CH_PAD_UNIFIED || x->l.pad == CH_PAD_PRIVATE ||
		    (x->l.pad == CH_PAD_ALIGNED && x->l.member->align >= base_L))
			fw->off[fw->n++] = x->l.offset;
	}
	if (fw->n > 1)
		qsort(fw->off, fw->n, sizeof(uint64_t), cmp_u64);
}

/* 1 if one of them lies between a and b (offset from the end of the
 * earlier to the start of the later, both included). */
static int follows_between(const struct follows *fw, const struct leafx *a, const struct leafx *b)
{
	uint64_t lo = a->l.offset < b->l.offset ? a->l.offset + a->l.size : b->l.offset + b->l.size;
	uint64_t hi = a->l.offset < b->l.offset ? b->l.offset : a->l.offset;
	size_t x = 0, y = fw->n;
	while (x < y) {   /* first offset >= lo */
		size_t m = x + (y - x) / 2;
		if (fw->off[m] < lo)
			x = m + 1;
		else
			y = m;
	}
	return x < fw->n && fw->off[x] <= hi;
}

/* The pairs judge_pairs judges, in the order it judges them: leaf i
 * annotated, leaf j any other data leaf (an annotated j only after i), of
 * conflicting classes, touching a common line of L bytes; sorted by (i, j).
 * Found by a sweep over the leaves in order of their first line, against
 * the leaves still reaching it: O(leaves log leaves + pairs on shared
 * lines), not every pair of leaves. Returns the count; *out malloc'd. */
struct pair { size_t i, j; };
struct lspan { size_t k; uint64_t l0, l1; };

/* 1 if the n elements at v are in cmp's order already: leaves come in
 * offset order and the sweep makes its pairs in order in most structs, and
 * glibc's qsort costs n log n comparisons on sorted input too (a third of
 * cachehot-layout's time over a whole kernel's BTF with every struct
 * annotated). Both orders are total, so skipping the sort changes nothing. */
static int sorted(const void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	const char *p = (const char *)v;
	size_t i;
	for (i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			return 0;
	return 1;
}

static int cmp_lspan(const void *a, const void *b)
{
	const struct lspan *x = (const struct lspan *)a, *y = (const struct lspan *)b;
	if (x->l0 != y->l0)
		return x->l0 < y->l0 ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = (const struct pair *)a, *y = (const struct pair *)b;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* Sorts the np pairs at pv by (i, j), both below n: two stable counting
 * passes (by j, then by i), O(np + n); the same order as qsort with
 * cmp_pair, without its np log np comparisons (a struct of 4096 leaves has
 * tens of thousands of pairs). */
static void sort_pairs(struct pair *pv, size_t np, size_t n)
{
	struct pair *tmp = (struct pair *)ch_xrealloc(NULL, np * sizeof(*tmp));
	size_t *cnt = (size_t *)ch_xrealloc(NULL, (n + 1) * sizeof(*cnt));
	size_t k, pass;
	for (pass = 0; pass < 2; pass++) {
		struct pair *from = pass ? tmp : pv, *to = pass ? pv : tmp;
		memset(cnt, 0, (n + 1) * sizeof(*cnt));
		for (k = 0; k < np; k++)
			cnt[(pass ? from[k].i : from[k].j) + 1]++;
		for (k = 1; k <= n; k++)
			cnt[k] += cnt[k - 1];
		for (k = 0; k < np; k++)
			to[cnt[pass ? from[k].i : from[k].j]++] = from[k];
	}
	free(tmp);
	free(cnt);
}

static size_t conflict_pairs(const struct flat *f, unsigned L, struct pair **out)
{
	struct lspan *sp = (struct lspan *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(*sp));
	struct lspan *act = (struct lspan *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(*act));
	struct pair *pv = NULL;
	size_t ns = 0, na = 0, np = 0, cap = 0, k, e, keep;
	for (k = 0; k < f->nleaves; k++) {
		const struct leafx *x = &f->leaves[k];
		if (!is_data(x))
			continue;
		sp[ns].k = k;
		sp[ns].l0 = x->l.offset / L;
		sp[ns++].l1 = (x->l.offset + x->l.size - 1) / L;
	}
	if (ns > 1 && !sorted(sp, ns, sizeof(*sp), cmp_lspan))
		qsort(sp, ns, sizeof(*sp), cmp_lspan);
	for (k = 0; k < ns; k++) {
		const struct leafx *b = &f->leaves[sp[k].k];
		for (e = keep = 0; e < na; e++)
			if (act[e].l1 >= sp[k].l0)
				act[keep++] = act[e];
		na = keep;
		for (e = 0; e < na; e++) {
			const struct leafx *a = &f->leaves[act[e].k];
			size_t i, j;
			if (a->l.cls == CH_CLASS_NONE && b->l.cls == CH_CLASS_NONE)
				continue;
			if (!classes_conflict(a, b))
				continue;
			if (a->l.cls != CH_CLASS_NONE && b->l.cls != CH_CLASS_NONE) {
				i = act[e].k < sp[k].k ? act[e].k : sp[k].k;
				j = act[e].k < sp[k].k ? sp[k].k : act[e].k;
			} else if (a->l.cls != CH_CLASS_NONE) {
				i = act[e].k;
				j = sp[k].k;
			} else {
				i = sp[k].k;
				j = act[e].k;
			}
			if (np == cap) {
				cap = cap ? 2 * cap : 64;
				pv = (struct pair *)ch_xrealloc(pv, cap * sizeof(*pv));
			}
			pv[np].i = i;
			pv[np++].j = j;
		}
		act[na++] = sp[k];
	}
	if (np > 1 && !sorted(pv, np, sizeof(*pv), cmp_pair))
		sort_pairs(pv, np, f->nleaves);
	free(sp);
	free(act);
	*out = pv;
	return np;
}

/* The struct's one fix at line size L (core/fix.c), or NULL. */
static const struct ch_fix *struct_fix(ch_ctx *ctx, const struct flat *f,
				       const struct ch_type *t, unsigned L, int kernel, int predicted)
{
	struct ch_fix_leaf *v;
	const struct ch_fix *fx;
	size_t i;
	if (!f->nleaves || f->truncated)
		return NULL;
	v = (struct ch_fix_leaf *)calloc(f->nleaves, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < f->nleaves; i++) {
		v[i].offset = f->leaves[i].l.offset;
		v[i].size = f->leaves[i].l.size;
		v[i].cls = f->leaves[i].l.cls;
		v[i].group = f->leaves[i].l.group;
		v[i].top = (size_t)f->leaves[i].top;
		v[i].data = is_data(&f->leaves[i]);
	}
	{
		struct ch_idiom id;
		ch_idiom_of(ctx, t, L, &id);
		fx = ch_struct_fix_idiom(ctx, t, v, f->nleaves, L, kernel, count_pads(t) + 1,
					 predicted, &id);
	}
	free(v);
	return fx;
}

static void judge_pairs(ch_ctx *ctx, const struct flat *f, const struct ch_type *t, unsigned L,
			unsigned base_L, const struct ch_config *cfg, struct finding_list *fl,
			struct pad_names *pn)
{
	size_t i, j;
	int predicted = base_L != 0;
	const struct ch_fix *sfix = NULL;
	int sfix_done = 0, sfix_used = 0, inferred_warned = 0;
	(void)sfix_used;
	struct pair *pv;
	size_t np, k;
	struct follows fw = { NULL, 0 };
	char *array_done = (char *)calloc(f->ninsts ? f->ninsts : 1, 1);
	/* per instance: an object of a struct the sidecar marks owned ("STRUCT
	 * owned"): used by one thread or CPU at a time, so two of its fields
	 * never falsely share; two owned objects side by side still can */
	char *owned = (char *)calloc(f->ninsts ? f->ninsts : 1, 1);
	if (!array_done || !owned)
		abort();
	for (k = 0; k < f->ninsts; k++)
		owned[k] = f->insts[k].type && (k ? f->insts[k].type->name : t->name) &&
			   ch_sidecar_owned(ctx, k ? f->insts[k].type->name : t->name);
	np = conflict_pairs(f, L, &pv);
	if (predicted)
		follows_build(&fw, f, base_L);
	for (k = 0; k < np; k++) {
		i = pv[k].i;
		j = pv[k].j;
		{
			const struct leafx *a = &f->leaves[i];
			const struct leafx *b = &f->leaves[j], *first, *second;
			int64_t line;
			int c;
			struct ch_finding *x;
			line = shared_line(a->l.offset, a->l.size, b->l.offset, b->l.size, 0, L);
			if (line < 0)
				continue;
			if (predicted && (shared_line(a->l.offset, a->l.size, b->l.offset,
						      b->l.size, 0, base_L) >= 0 ||
					  follows_between(&fw, a, b)))
				continue;   /* reported at the base size, or padding that
					     * follows the architecture's line size */
			c = common_inst(f, a->inst, b->inst);
			if (f->insts[c].is_union)
				continue;   /* alternatives of one union never live together */
			if (!f->insts[c].type && c != 0 &&
			    (elem_under(f, a->inst, c) + elem_under(f, b->inst, c) > 1 ||
			     repeats_array_pattern(f, f->insts[c].parent) ||
			     array_done[c]))
				continue;   /* the same pattern between later elements, or
					     * this array's one finding is out already */
			if (f->insts[c].type && repeats_array_pattern(f, c))
				continue;   /* inside a later element: same as element 0 */
			{
				int x = c;
				while (x > 0 && !owned[x])
					x = f->insts[x].parent;
				if (owned[x])
					continue;   /* both inside one owned object */
			}
			{
				/* inside a named struct embedded here (or an element of
				 * an array of them): the pair belongs to that struct's
				 * definition, which judges it once; not again per
				 * embedding, whatever this embedding's offset */
				int x = c;
				for (; x > 0; x = f->insts[x].parent)
					if (f->insts[x].type && f->insts[x].type->name)
						break;
				if (x > 0 && !a->path_own && !b->path_own)
					continue;   /* (a member-path entry is this struct's) */
			}
			if (a->l.offset < b->l.offset || (a->l.offset == b->l.offset && i < j)) {
				first = a;
				second = b;
			} else {
				first = b;
				second = a;
			}
			if (!f->insts[c].type && c != 0)
				array_done[c] = 1;   /* one finding per array: one fix */
			x = pair_finding(ctx, fl, CH_CHECK_FALSE_SHARING, cfg, t, &second->l,
					 &first->l, (uint64_t)line, L);
			if (first->top != second->top && !sfix_done) {
				sfix = struct_fix(ctx, f, t, L, cfg->kernel, predicted);
				sfix_done = 1;
			}
			if (first->top != second->top && sfix) {
				x->fix = sfix;
				sfix_used = 1;
			}
			/* a field of a named nested struct: point at the container's
			 * own member, where the fix goes; in an anonymous aggregate, at
			 * the field itself */
			x->loc = second->l.depth > 0 && t->members[second->top].name
				 ? t->members[second->top].loc : second->l.member->loc;
			x->message = ch_printf(ctx,
				"%s '%s' (%s) shares cache line %lld %s of %s with %s '%s' (%s); %s [%s]",
				class_phrase(ctx, &second->l), second->l.path,
				where_phrase(ctx, &second->l), (long long)line,
				lines_phrase(ctx, L, predicted), type_phrase(ctx, t),
				class_phrase(ctx, &first->l), first->l.path,
				where_phrase(ctx, &first->l),
				x->fix ? (x->fix->brief ? x->fix->brief : x->fix->text)
				       : fix_phrase(ctx, f, t, first, second, L, pn, cfg->kernel),
				ch_check_id(CH_CHECK_FALSE_SHARING));
			/* inferred classes: one warning per struct, its other
			 * pairs as notes (the same fix resolves them) */
			if (first->l.inferred || second->l.inferred) {
				/* two inferred hot fields of different groups: the
				 * groups are a guess from writer sets, not evidence
				 * that different threads write them: a note */
				int both_hot = first->l.cls != CH_CLASS_READ_MOSTLY &&
					       second->l.cls != CH_CLASS_READ_MOSTLY;
				if ((inferred_warned || both_hot) && x->severity > CH_SEV_NOTE)
					x->severity = CH_SEV_NOTE;
				if (!both_hot)
					inferred_warned = 1;
			}
		}
	}
	free(pv);
	free(fw.off);
	free(array_done);
	free(owned);
}

/* Neighbouring data leaves in offset order, found by binary search: the
 * data leaves by (offset, index), and by (end, index) with the running best
 * (largest offset, lowest index) of each prefix. Built once per struct. */
struct nbrs {
	const struct flat *f;
	size_t *by_off, *by_end, *best, n;
};

static const struct flat *cmp_flat;
static int cmp_by_off(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t ox = cmp_flat->leaves[x].l.offset, oy = cmp_flat->leaves[y].l.offset;
	if (ox != oy)
		return ox < oy ? -1 : 1;
	return x < y ? -1 : x > y;
}
static int cmp_by_end(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t ex = cmp_flat->leaves[x].l.offset + cmp_flat->leaves[x].l.size;
	uint64_t ey = cmp_flat->leaves[y].l.offset + cmp_flat->leaves[y].l.size;
	if (ex != ey)
		return ex < ey ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void nbrs_build(struct nbrs *nb, const struct flat *f)
{
	size_t k;
	nb->f = f;
	nb->n = 0;
	nb->by_off = (size_t *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(size_t));
	nb->by_end = (size_t *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(size_t));
	nb->best = (size_t *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(size_t));
	for (k = 0; k < f->nleaves; k++)
		if (is_data(&f->leaves[k]))
			nb->by_off[nb->n] = nb->by_end[nb->n] = k, nb->n++;
	cmp_flat = f;
	if (nb->n > 1) {
		if (!sorted(nb->by_off, nb->n, sizeof(size_t), cmp_by_off))
			qsort(nb->by_off, nb->n, sizeof(size_t), cmp_by_off);
		if (!sorted(nb->by_end, nb->n, sizeof(size_t), cmp_by_end))
			qsort(nb->by_end, nb->n, sizeof(size_t), cmp_by_end);
	}
	for (k = 0; k < nb->n; k++) {
		size_t c = nb->by_end[k];
		nb->best[k] = c;
		if (k > 0) {
			size_t b = nb->best[k - 1];
			uint64_t ob = f->leaves[b].l.offset, oc = f->leaves[c].l.offset;
			if (ob > oc || (ob == oc && b < c))
				nb->best[k] = b;
		}
	}
}

static void nbrs_free(struct nbrs *nb)
{
	free(nb->by_off);
	free(nb->by_end);
	free(nb->best);
}

/* Neighbouring data leaf of leaf i (not itself data), in offset order
 * (dir -1: the last ending at or before it; +1: the first starting at or
 * after its end; the lowest index among equal offsets). */
static const struct leafx *neighbour(const struct nbrs *nb, size_t i, int dir)
{
	const struct flat *f = nb->f;
	const struct leafx *p = &f->leaves[i];
	size_t x = 0, y = nb->n;
	if (dir > 0) {
		uint64_t end = p->l.offset + p->l.size;
		while (x < y) {   /* first by offset starting at or after end */
			size_t m = x + (y - x) / 2;
			if (f->leaves[nb->by_off[m]].l.offset < end)
				x = m + 1;
			else
				y = m;
		}
		return x < nb->n ? &f->leaves[nb->by_off[x]] : NULL;
	}
	while (x < y) {   /* how many end at or before p's offset */
		size_t m = x + (y - x) / 2, q = nb->by_end[m];
		if (f->leaves[q].l.offset + f->leaves[q].l.size <= p->l.offset)
			x = m + 1;
		else
			y = m;
	}
	return x ? &f->leaves[nb->best[x - 1]] : NULL;
}

/* The nearest instance above inst (inst included, the outermost struct
 * excluded) of a named struct type, or 0. */
static int named_inst(const struct flat *f, int inst)
{
	for (; inst > 0; inst = f->insts[inst].parent)
		if (f->insts[inst].type && f->insts[inst].type->name)
			return inst;
	return 0;
}

/* 1 if instance inst lies within instance e (e > 0). */
static int inst_within(const struct flat *f, int inst, int e)
{
	for (; inst > 0; inst = f->insts[inst].parent)
		if (inst == e)
			return 1;
	return 0;
}

/* How a hand-sized pad of 'bytes' bytes is written: the tree's own pad
 * macro, else the member's own declaration. */
static const char *pad_spelling(ch_ctx *ctx, const char *pad_macro, const struct ch_member *m,
				uint64_t bytes)
{
	if (pad_macro)
		return ch_printf(ctx, "make it %s(%llu)", pad_macro, (unsigned long long)bytes);
	return ch_printf(ctx, "make it char %s[%llu]", m->name ? m->name : "pad",
			 (unsigned long long)bytes);
}

static void judge_padding(ch_ctx *ctx, const struct flat *f, const struct ch_type *t,
			  unsigned L, const struct ch_config *cfg, struct finding_list *fl,
			  const struct ch_idiom *idp)
{
	size_t i;
	const struct ch_idiom id = *idp;
	static const unsigned sizes[] = { 32, 64, 128, 256 };
	struct nbrs nb = { NULL, NULL, NULL, NULL, 0 };
	for (i = 0; i < f->nleaves; i++) {
		const struct leafx *p = &f->leaves[i], *prev, *next, *ann;
		const struct ch_member *m = p->l.member;
		struct ch_finding *x;
		const char *what, *fix, *iso;
		enum ch_severity sev;
		if (p->l.pad != CH_PAD_PRIVATE && p->l.pad != CH_PAD_BYTES)
			continue;
		if (!nb.f)   /* built at the first padding member */
			nbrs_build(&nb, f);
		prev = neighbour(&nb, i, -1);
		next = neighbour(&nb, i, +1);
		if (prev && prev->l.cls != CH_CLASS_NONE)
			ann = prev;
		else if (next && next->l.cls != CH_CLASS_NONE)
			ann = next;
		else
			continue;
		if (p->l.embedded) {
			/* padding of an embedded named struct between its own
			 * fields: judged at that struct's definition */
			int e = named_inst(f, p->inst);
			if (inst_within(f, ann->inst, e) && !ann->path_own &&
			    (!prev || !next || inst_within(f, (ann == prev ? next : prev)->inst, e)))
				continue;
		}
		iso = ch_printf(ctx, "%s '%s' (%s)", class_phrase(ctx, &ann->l), ann->l.path,
				where_phrase(ctx, &ann->l));
		if (prev && next) {
			const struct leafx *o = ann == prev ? next : prev;
			iso = ch_printf(ctx, "%s from '%s' (offset %llu)", iso, o->l.path,
					(unsigned long long)o->l.offset);
		}
		sev = cfg->severity;
		if (p->l.pad == CH_PAD_BYTES && cfg->kernel != 1 && t->align < L) {
			/* userspace, placed anywhere (malloc and calloc align to 16
			 * bytes): what isolates is the distance, L - 1 bytes or more,
			 * never the offsets; _Alignas would not hold on the heap */
			uint64_t gap = prev && next && next->l.offset > prev->l.offset + prev->l.size
				       ? next->l.offset - (prev->l.offset + prev->l.size) : 0;
			uint64_t want;
			const char *grow;
			if (!prev || !next || gap + 1 >= L) {
				if (!prev || !next || gap + 1 >= 2 * (uint64_t)L)
					continue;   /* isolates wherever it starts, at L and 2L */
				want = m->size + (2 * (uint64_t)L - 1 - gap);
				sev = CH_SEV_NOTE;
				grow = pad_spelling(ctx, id.pad_macro, m, want);
				what = ch_printf(ctx, "hand-sized padding '%s' (%s, offset %llu) isolates "
						 "%s wherever the object starts, at %u-byte lines (%llu "
						 "bytes between them); at %u-byte lines that takes %u: "
						 "%s", p->l.path, m->type_name ? m->type_name : "bytes",
						 (unsigned long long)p->l.offset, iso, L,
						 (unsigned long long)gap, 2 * L, 2 * L - 1, grow);
				x = pair_finding(ctx, fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
						 p->l.offset / L, L);
				x->severity = sev;
				x->loc = m->loc;
				x->message = ch_printf(ctx, "%s [%s]", what,
						       ch_check_id(CH_CHECK_PADDING_MACRO));
				continue;
			}
			want = m->size + (L - 1 - gap);
			grow = pad_spelling(ctx, id.pad_macro, m, want);
			what = ch_printf(ctx, "hand-sized padding '%s' (%s, offset %llu, cache line %llu) "
					 "separates %s by %llu bytes: that isolates them %s (malloc and "
					 "calloc align to 16 bytes; %u bytes isolate wherever it "
					 "starts); %s",
					 p->l.path, m->type_name ? m->type_name : "bytes",
					 (unsigned long long)p->l.offset,
					 (unsigned long long)(p->l.offset / L), iso,
					 (unsigned long long)gap,
					 (prev->l.offset + prev->l.size - 1) / L < next->l.offset / L
					 ? ch_printf(ctx, "only when the object starts on a %u-byte "
						     "boundary", L)
					 : ch_printf(ctx, "at no placement where they now share line "
						     "%llu", (unsigned long long)(next->l.offset / L)),
					 L - 1, grow);
			x = pair_finding(ctx, fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
					 p->l.offset / L, L);
			x->severity = sev;
			x->loc = m->loc;
			x->message = ch_printf(ctx, "%s [%s]", what, ch_check_id(CH_CHECK_PADDING_MACRO));
			continue;
		}
		if (cfg->kernel == 1)
			fix = ch_printf(ctx, "use CACHELINE_PADDING(%s) from <linux/cache.h> instead",
					m->name ? m->name : "_pad_");
		else if (next && id.align_macro)
			fix = ch_printf(ctx, "drop it and insert %s(%u); before '%s' instead",
					id.align_macro, L, next->l.path);
		else if (next)
			fix = ch_printf(ctx, "drop it and declare '%s' %s(%u) instead",
					next->l.path, CH_ALIGNAS(cfg->kernel), L);
		else
			fix = ch_printf(ctx, "drop it and declare the struct's first member "
					"%s(%u) instead", CH_ALIGNAS(cfg->kernel), L);
		if (p->l.pad == CH_PAD_PRIVATE) {
			what = ch_printf(ctx, "'%s' (private padding type 'struct %s', offset %llu, "
					 "cache line %llu) isolates %s",
					 p->l.path, m->type->name ? m->type->name : "?",
					 (unsigned long long)p->l.offset,
					 (unsigned long long)(p->l.offset / L), iso);
		} else {
			char ok[64] = "", bad[64] = "";
			size_t k;
			for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
				unsigned s = sizes[k];
				int isolated = !prev || !next ||
					(prev->l.offset + prev->l.size - 1) / s < next->l.offset / s;
				char *dst = isolated ? ok : bad;
				snprintf(dst + strlen(dst), 64 - strlen(dst), "%s%u", *dst ? " and " : "", s);
			}
			what = ch_printf(ctx, "hand-sized padding '%s' (%s, offset %llu, cache line %llu) "
					 "isolates %s; %s",
					 p->l.path, m->type_name ? m->type_name : "bytes",
					 (unsigned long long)p->l.offset,
					 (unsigned long long)(p->l.offset / L), iso,
					 *bad ? ch_printf(ctx, "it isolates at %s%s-byte lines but breaks at %s-byte lines",
							  ok, *ok ? "" : "no", bad)
					      : ch_printf(ctx, "it is sized by hand for %s-byte lines", ok));
		}
		x = pair_finding(ctx, fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
				 p->l.offset / L, L);
		x->severity = sev;
		x->loc = m->loc;
		x->message = ch_printf(ctx, "%s; %s [%s]", what, fix, ch_check_id(CH_CHECK_PADDING_MACRO));
		if (p->l.pad == CH_PAD_PRIVATE)
			x->fix_macro = "CACHELINE_PADDING";
	}
	if (nb.f)
		nbrs_free(&nb);
}

static int finding_cmp(const void *pa, const void *pb)
{
	const struct ch_finding *a = (const struct ch_finding *)pa, *b = (const struct ch_finding *)pb;
	int c;
	if (a->loc.file && b->loc.file && (c = strcmp(a->loc.file, b->loc.file)))
		return c;
	if (a->loc.line != b->loc.line)
		return a->loc.line < b->loc.line ? -1 : 1;
	if (a->loc.col != b->loc.col)
		return a->loc.col < b->loc.col ? -1 : 1;
	if (a->offset_b != b->offset_b)
		return a->offset_b < b->offset_b ? -1 : 1;
	return strcmp(a->message, b->message);
}

/* A note on the whole struct (at its definition). */
static void add_note(ch_ctx *ctx, struct finding_list *fl, const struct ch_type *t, unsigned L,
		     const char *message)
{
	struct ch_finding *x = new_finding(ctx, fl);
	x->check = CH_CHECK_FALSE_SHARING;
	x->severity = CH_SEV_NOTE;
	x->struct_name = t->name;
	x->line_size = L;
	x->loc = t->loc;
	x->message = message;
}

static int has_class(const struct flat *f, int hot_only)
{
	size_t i;
	for (i = 0; i < f->nleaves; i++)
		if (hot_only ? is_hotish(f->leaves[i].l.cls) : f->leaves[i].l.cls != CH_CLASS_NONE)
			return 1;
	return 0;
}

/* 1 if a hot or exclusive leaf is the struct's own, not inside an embedded
 * named struct. */
static int has_own_hot(const struct flat *f)
{
	size_t i;
	for (i = 0; i < f->nleaves; i++)
		if (is_hotish(f->leaves[i].l.cls) && !f->leaves[i].l.embedded)
			return 1;
	return 0;
}

static int has_warning(const struct finding_list *fl)
{
	size_t i;
	for (i = 0; i < fl->n; i++)
		if (fl->v[i].severity >= CH_SEV_WARNING)
			return 1;
	return 0;
}

/* x's message with its fix's brief text replaced by the whole text. */
static const char *with_full_fix(ch_ctx *ctx, const struct ch_finding *x)
{
	const char *at = strstr(x->message, x->fix->brief);
	if (!at)
		return x->message;
	return ch_printf(ctx, "%.*s%s%s", (int)(at - x->message), x->message, x->fix->text,
			 at + strlen(x->fix->brief));
}

int ch_check_type(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
		  ch_emit_fn emit, void *arg)
{
	struct flat f;
	struct finding_list fl = { NULL, 0, 0 };
	struct pad_names pn;
	unsigned L = ch_config_line_size(cfg);
	size_t i;
	int warnings = 0, placement_free;
	struct ch_idiom id;

	if (!t || !ch_type_is_annotated(ctx, t) || !cfg->smp)
		return 0;
	if (t->randomized) {
		add_note(ctx, &fl, t, L,
			 ch_printf(ctx, "%s is laid out by randstruct: its cache-line layout is not "
				   "judged (mark it __no_randomize_layout to check it) [%s]",
				   type_phrase(ctx, t), ch_check_id(CH_CHECK_FALSE_SHARING)));
		goto out;
	}
	flat_build(&f, ctx, t);
	pn.n = 0;
	pn.base = count_pads(t);
	judge_pairs(ctx, &f, t, L, 0, cfg, &fl, &pn);
	if (cfg->predict > L)
		judge_pairs(ctx, &f, t, cfg->predict, L, cfg, &fl, &pn);
	ch_idiom_of(ctx, t, L, &id);
	/* userspace, aligned to less than a line, isolating with separators:
	 * made to be placed anywhere (heap objects) */
	placement_free = cfg->kernel != 1 && t->align < L && id.separator;
	judge_padding(ctx, &f, t, L, cfg, &fl, &id);
	{
		struct ch_leaf *lv = (struct ch_leaf *)ch_xrealloc(NULL, (f.nleaves + 1) * sizeof(*lv));
		for (i = 0; i < f.nleaves; i++)
			lv[i] = f.leaves[i].l;
		ch_judge_groups(ctx, t, lv, f.nleaves, cfg, &fl, placement_free);
		free(lv);
	}
	/* where the struct starts decides its lines: said once, unless its own
	 * separators isolate wherever it starts, or every hot field lies in an
	 * embedded struct (whose definition carries the note) */
	if (t->align < L && t->size > 0 && has_class(&f, 1) && !placement_free &&
	    (has_own_hot(&f) || has_warning(&fl)) && !ch_sidecar_owned(ctx, t->name))
		add_note(ctx, &fl, t, L,
			 ch_printf(ctx, "%s is aligned to %u bytes, less than the %u-byte cache line: "
				   "line indexes assume it starts on a line boundary, so isolation "
				   "depends on where it is placed (%s) [%s]",
				   type_phrase(ctx, t), t->align, L,
				   cfg->kernel == 1 ? "align it with ____cacheline_aligned_in_smp"
				   : ch_printf(ctx, "%s; a heap object or array then needs "
					       "aligned_alloc(%u, size) or posix_memalign instead of "
					       "malloc or calloc, a static one follows the type; or "
					       "separate its fields with %u-byte pads, which isolate "
					       "wherever it starts",
					       id.align_macro
					       ? ch_printf(ctx, "insert %s(%u); before its first member",
							   id.align_macro, L)
					       : id.attr_macro
					       ? ch_printf(ctx, "declare its first member %s%s",
							   id.attr_macro, id.attr_arg
							   ? ch_printf(ctx, "(%u)", L) : "")
					       : ch_printf(ctx, "declare its first member %s(%u)",
							   CH_ALIGNAS(cfg->kernel), L),
					       L, L - 1),
				   ch_check_id(CH_CHECK_FALSE_SHARING)));
	if (f.truncated)
		add_note(ctx, &fl, t, L,
			 ch_printf(ctx, "%s is too large to walk whole: only the first %d elements of "
				   "each array, %d levels of nesting and %d fields were checked [%s]",
				   type_phrase(ctx, t), CH_MAX_ELEMS, CH_MAX_NEST, CH_MAX_LEAVES,
				   ch_check_id(CH_CHECK_FALSE_SHARING)));
	flat_free(&f);
out:
	if (fl.n)   /* qsort(NULL, 0, ...) is undefined (UBSan, make fuzz) */
		qsort(fl.v, fl.n, sizeof(*fl.v), finding_cmp);
	for (i = 0; i < fl.n; i++) {
		size_t k;
		for (k = 0; k < i && fl.v[i].fix && fl.v[k].fix != fl.v[i].fix; k++)
			;
		fl.v[i].fix_first = fl.v[i].fix && k == i;
		fl.v[i].predicted = cfg->predict > L && fl.v[i].line_size == cfg->predict;
		if (fl.v[i].fix_first && fl.v[i].fix->brief)
			fl.v[i].message = with_full_fix(ctx, &fl.v[i]);
		if (fl.v[i].severity >= CH_SEV_WARNING)
			warnings++;
		if (emit)
			emit(&fl.v[i], arg);
	}
	free(fl.v);
	return warnings;
}
