/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.c -- the struct model as the rules see it: a struct flattened into
 * its data fields (leaves) with their classes, from attributes or the
 * sidecar; whether a struct is annotated at all; the padding kinds of
 * members; which classes conflict (docs/checks.rst). rules.c judges what
 * this builds; fix.c, idiom.c and the front ends use the same vocabulary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flat.h"


static int add_inst(struct flat *f, const struct ch_type *t, int is_union, int parent, uint64_t base)
{
	struct inst *in;
	CH_GROW(f->insts, f->ninsts, f->capinsts, 32);
	in = &f->insts[f->ninsts];
	in->type = t;
	in->is_union = is_union;
	in->parent = parent;
	in->depth = parent < 0 ? 0 : f->insts[parent].depth + 1;
	in->base = base;
	in->elem = -1;
	in->named_top = parent < 0 ? -1
		      : f->insts[parent].named_top >= 0 ? f->insts[parent].named_top
		      : t && t->name ? (int)f->ninsts : -1;
	return (int)f->ninsts++;
}

static struct leafx *add_leaf(struct flat *f)
{
	struct leafx *x;
	if (f->nleaves >= CH_MAX_LEAVES) {
		f->truncated = 1;
		return NULL;
	}
	CH_GROW(f->leaves, f->nleaves, f->capleaves, 64);
	x = &f->leaves[f->nleaves++];
	memset(x, 0, sizeof(*x));
	return x;
}

/* Class of member m of a type whose nearest named type has the sidecar
 * entries sc (ch_sidecar_chain of its name); *inferred: the class comes
 * from an inferred sidecar entry. */
static enum ch_class member_class(ch_ctx *ctx, const struct ch_side_chain *sc,
				  const struct ch_member *m, const char **group, int *inferred)
{
	*group = m->group;
	*inferred = 0;
	if (m->cls != CH_CLASS_NONE)
		return m->cls;
	if (!m->name)
		return CH_CLASS_NONE;
	return ch_sidecar_class_chain(ctx, sc, m->name, group, inferred);
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
	struct ch_side_chain sc;
	if (t->name && t->annot_state)
		return t->annot_state == 1;
	if (depth > CH_MAX_DEPTH) {
		*cut = 1;
		return 0;
	}
	/* one lookup settles a struct the sidecar does not name (most) */
	if (t->name)
		ch_type_chain(ctx, t, &sc);
	else
		ch_sidecar_chain(ctx, name, &sc);
	named = sc.first != 0;
	if (t->name && named && ch_sidecar_path_under(ctx, t->name, NULL))
		found = 1;   /* member paths into its embedded structs */
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		const char *g;
		int inf;
		if (m->cls != CH_CLASS_NONE ||
		    (named && member_class(ctx, &sc, m, &g, &inf) != CH_CLASS_NONE))
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

/* "a.b": the common case of join_path, one copy less */
static const char *member_path(ch_ctx *ctx, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *d = (char *)ch_alloc(ctx, na + nb + 2);
	memcpy(d, a, na);
	d[na] = '.';
	memcpy(d + na + 1, b, nb + 1);
	return d;
}

static void flatten_member_in(struct flat *f, const struct ch_member *m,
			      const struct ch_side_chain *sc, int inst, const char *prefix,
			      int top, int depth);

/* sc: the sidecar entries of the nearest named type (sc->type its name) */
static void flatten_member(struct flat *f, const struct ch_member *m,
			   const struct ch_side_chain *sc, int inst, const char *prefix,
			   int top, int depth)
{
	const struct ch_group *saved_kg = f->cur_kg;
	int saved_chain = f->anon_chain;
	if (f->anon_chain && !f->cur_kg && m->kgroup)
		f->cur_kg = m->kgroup;
	f->anon_chain = f->anon_chain && !m->name;
	flatten_member_in(f, m, sc, inst, prefix, top, depth);
	f->cur_kg = saved_kg;
	f->anon_chain = saved_chain;
}

static void flatten_member_in(struct flat *f, const struct ch_member *m,
			      const struct ch_side_chain *sc, int inst, const char *prefix,
			      int top, int depth)
{
	ch_ctx *ctx = f->ctx;
	const char *sname = sc->type;
	const char *group;
	int inferred;   /* the class comes from an inferred sidecar entry */
	enum ch_class cls = member_class(ctx, sc, m, &group, &inferred);
	uint64_t off = f->insts[inst].base + m->offset;
	const char *path;
	struct ch_type *mt = (struct ch_type *)m->type;
	int path_entry = 0;

	if (!m->name && !mt)
		return;   /* unnamed bit-field: padding bits */
	if (m->name)
		path = prefix ? member_path(ctx, prefix, m->name) : m->name;
	else
		path = prefix;  /* anonymous struct/union: its members read as ours */
	/* a member-path entry of the judged struct ("global.out_rate.curr")
	 * is more specific than the embedded type's own class; an attribute
	 * in the source still wins */
	if (depth > 0 && m->name && m->cls == CH_CLASS_NONE && f->top_name && path &&
	    (f->top_paths || !strchr(path, '.'))) {
		const char *pg = NULL;
		int pinf;
		enum ch_class pc = ch_sidecar_class_chain(ctx, &f->top_sc, path, &pg, &pinf);
		if (pc != CH_CLASS_NONE) {
			cls = pc;
			group = pg;
			inferred = pinf;
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
			f->leaves[f->nleaves - 1].l.inferred = inferred;
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
				ch_snprintf(ix, sizeof(ix), "[%llu]", (unsigned long long)i);
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
	struct ch_side_chain sc;
	if (t->name && sname == t->name)
		ch_type_chain(f->ctx, t, &sc);
	else
		ch_sidecar_chain(f->ctx, sname, &sc);
	for (i = 0; i < t->nmembers; i++)
		flatten_member(f, &t->members[i], &sc, inst, prefix,
			       top < 0 ? (int)i : top, depth);
}

void ch_flat_build(struct flat *f, ch_ctx *ctx, struct ch_type *t)
{
	memset(f, 0, sizeof(*f));
	f->ctx = ctx;
	if (ctx->flat_insts && ctx->flat_leaves) {   /* the last struct's arrays */
		f->insts = (struct inst *)ctx->flat_insts;
		f->capinsts = ctx->flat_capinsts;
		f->leaves = (struct leafx *)ctx->flat_leaves;
		f->capleaves = ctx->flat_capleaves;
		ctx->flat_insts = ctx->flat_leaves = NULL;
	}
	f->top_name = t->name;
	/* one look per struct: without member-path entries of it, no nested
	 * "a.b" path is looked up (a hash of both names per nested member) */
	f->top_paths = t->name && ch_sidecar_path_under(ctx, t->name, NULL);
	if (t->name)
		ch_type_chain(ctx, t, &f->top_sc);
	else
		ch_sidecar_chain(ctx, NULL, &f->top_sc);
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

void ch_flat_free(struct flat *f)
{
	ch_ctx *ctx = f->ctx;
	if (ctx && !ctx->flat_insts && !ctx->flat_leaves) {
		ctx->flat_insts = f->insts;
		ctx->flat_capinsts = f->capinsts;
		ctx->flat_leaves = f->leaves;
		ctx->flat_capleaves = f->capleaves;
		return;
	}
	free(f->insts);
	free(f->leaves);
}

int ch_flatten(ch_ctx *ctx, struct ch_type *t, struct ch_leaf **out, size_t *n)
{
	struct flat f;
	size_t i;
	struct ch_leaf *v;
	ch_flat_build(&f, ctx, t);
	v = (struct ch_leaf *)ch_alloc(ctx, (f.nleaves ? f.nleaves : 1) * sizeof(*v));
	for (i = 0; i < f.nleaves; i++)
		v[i] = f.leaves[i].l;
	*out = v;
	*n = f.nleaves;
	ch_flat_free(&f);
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

/* ---- classes ------------------------------------------------------------- */

int ch_classes_conflict(enum ch_class ca, const char *ga, enum ch_class cb, const char *gb)
{
	return ch_conflicting(ca, ga, cb, gb);
}
