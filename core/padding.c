/* SPDX-License-Identifier: GPL-2.0 */
/*
 * padding.c -- [cachehot-padding-macro] on a flattened struct (model.c):
 * an annotated field isolated by a private padding type or by hand-sized
 * bytes should use CACHELINE_PADDING from <linux/cache.h> (or the tree's
 * own idiom, idiom.c); a pad that does not isolate what it should is said
 * too. Called by ch_check_type (rules.c). Source: the 2022 upstream change
 * that added CACHELINE_PADDING to <linux/cache.h> and replaced PC_PADDING,
 * MEMCG_PADDING and ZONE_PADDING.
 */
#include <stdlib.h>
#include <string.h>
#include "flat.h"

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
		if (ch_leafx_is_data(&f->leaves[k]))
			nb->by_off[nb->n] = nb->by_end[nb->n] = k, nb->n++;
	cmp_flat = f;
	if (nb->n > 1) {
		if (!ch_sorted(nb->by_off, nb->n, sizeof(size_t), cmp_by_off))
			qsort(nb->by_off, nb->n, sizeof(size_t), cmp_by_off);
		if (!ch_sorted(nb->by_end, nb->n, sizeof(size_t), cmp_by_end))
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

void ch_judge_padding(ch_ctx *ctx, const struct flat *f, const struct ch_type *t, unsigned L,
		      const struct ch_config *cfg, struct ch_finding_list *fl,
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
		iso = ch_printf(ctx, "%s '%s' (%s)", ch_leaf_class_phrase(ctx, &ann->l), ann->l.path,
				ch_leaf_where_phrase(ctx, &ann->l));
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
				x = ch_pair_finding(fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
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
			x = ch_pair_finding(fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
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
		x = ch_pair_finding(fl, CH_CHECK_PADDING_MACRO, cfg, t, &p->l, &ann->l,
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
