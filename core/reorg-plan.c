/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg-plan.c -- the one layout planner behind cachehot-layout
 * --reorganize STRUCT, with its two modes: the fix's layout (core/fix.c, the
 * fewest edits to the declared order; the declared order itself when the
 * struct has nothing to fix) and the regrouping by class (core/reorg.c, the
 * whole struct laid out again by class key). Both become a proposal type,
 * judged by the core (ch_check_type) and measured by one model
 * (layout-eval.c); the regrouping is kept only where it is better, in this
 * order:
 *   1. fewer warnings the core still finds on the proposal;
 *   2. then, fewer lines touched by annotated fields (summed per class
 *      key: ch_layout_eval's key_lines) at no more bytes;
 *   3. then, with as many such lines, fewer bytes.
 * Otherwise (ties included: the fix is fewer edits) the fix's layout is
 * proposed. So --reorganize never proposes more bytes, more cache lines or
 * more lines touched by annotated fields than the fix with as many warnings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reorg.h"

static void count_warnings(const struct ch_finding *f, void *arg)
{
	if (f->severity >= CH_SEV_WARNING)
		++*(int *)arg;
}

/* "_pad3_" of "CACHELINE_PADDING(_pad3_)". */
static const char *pad_name(ch_ctx *ctx, const char *text)
{
	const char *a = strchr(text, '('), *b = a ? strchr(a, ')') : NULL;
	return a && b ? ch_printf(ctx, "%.*s", (int)(b - a - 1), a + 1) : text;
}

/* The class keys of the annotated fields in [start, end) of leaves lv (in
 * layout order), as a segment's label: the first four, in order, and "..."
 * when there are more. */
static const char *seg_label(ch_ctx *ctx, const struct ch_leaf *lv, size_t nl, uint64_t start,
			     uint64_t end)
{
	char key[256], seen[4][256];
	const char *r = NULL;
	size_t i, q, nk = 0;
	int more = 0;
	for (i = 0; i < nl && !more; i++) {
		if (lv[i].offset < start || lv[i].offset >= end || !lv[i].size ||
		    !ch_layout_leaf_key(&lv[i], key, sizeof(key)))
			continue;
		for (q = 0; q < nk && strcmp(seen[q], key); q++)
			;
		if (q < nk)
			continue;
		if (nk == 4) {
			more = 1;
			break;
		}
		snprintf(seen[nk++], sizeof(seen[0]), "%s", key);
		r = r ? ch_printf(ctx, "%s, %s", r, key) : ch_strdup(ctx, key);
	}
	if (!nk)
		return "unannotated";
	return more ? ch_printf(ctx, "%s, ...", r) : r;
}

/* The fix's layout of t in the CACHELINE_PADDING vocabulary as a plan. */
static struct ch_reorg *fix_plan(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
				 unsigned L)
{
	const struct ch_fix *fx = ch_type_struct_fix(ctx, t, L, 1);
	size_t n = t->nmembers, k, j, nseg = 1, np = 0;
	size_t *order = (size_t *)calloc(n, sizeof(size_t));
	int *brk = (int *)calloc(n, sizeof(int));
	uint64_t *off = (uint64_t *)calloc(n, sizeof(uint64_t)), size, cur = 0;   /* bits */
	const char **text = (const char **)calloc(n, sizeof(*text));
	unsigned salign = t->align ? t->align : 1;
	struct ch_type *nt, *cpt = NULL;
	struct ch_reorg *r;
	struct ch_leaf *lv;
	size_t nl;
	if (!order || !brk || !off || !text)
		abort();
	for (k = 0; k < n; k++)
		order[k] = fx ? fx->order[k] : k;
	for (k = 0; fx && k < fx->nedits; k++)
		if (!fx->edits[k].after) {   /* a break, not a move */
			size_t i = (size_t)(fx->edits[k].member - t->members);
			brk[i] = 1;
			text[i] = fx->edits[k].text;
			nseg++;
		}
	if (!fx) {   /* as declared: the compiler's offsets */
		for (k = 0; k < n; k++)
			off[k] = t->members[k].offset * 8 + t->members[k].bit_offset;
		size = t->size;
	} else {
		/* the one model of a layout (layout-eval.c), the one the fix's
		 * search used: bit-fields packed as GCC packs them wherever the
		 * fix moved them (a fix exists only for structs it reproduces) */
		size = ch_layout_order(t, order, brk, L, off, &salign);
	}

	r = (struct ch_reorg *)ch_alloc(ctx, sizeof(*r));
	r->line_size = L;
	r->seg_align = L;
	r->size = size;
	r->lines = (size + L - 1) / L;
	r->old_lines = (t->size + L - 1) / L;
	r->from_fix = 1;
	r->fix_edits = fx ? fx->nedits : 0;
	r->segs = (struct ch_reorg_seg *)ch_alloc(ctx, nseg * sizeof(*r->segs));
	r->members = (struct ch_reorg_member *)ch_alloc(ctx, (n + 1) * sizeof(*r->members));
	nt = ch_type_new(ctx, NULL, t->name, 0, size, salign);
	nt->name_is_typedef = t->name_is_typedef;
	nt->loc = t->loc;
	for (k = 0, j = 0; k < n; k++) {
		size_t i = order[k];
		const struct ch_member *om = &t->members[i];
		struct ch_member *nm;
		if (brk[i]) {
			uint64_t at = cur % L ? cur + (L - cur % L) : cur;
			if (!cpt)
				cpt = ch_reorg_padding_type(ctx, L);
			r->segs[j].end = cur;
			j++;
			r->segs[j].start = at;
			r->segs[j].pad = text[i];
			ch_reorg_add_pad(ctx, nt, cpt, pad_name(ctx, text[i]), at, L, t->loc);
		}
		nm = ch_type_add_member(ctx, nt, om->name);
		*nm = *om;
		nm->offset = off[i] / 8;   /* off: bits here */
		if (om->bit_size) {
			nm->bit_offset = (unsigned)(off[i] % 8);
			nm->size = (nm->bit_offset + om->bit_size + 7) / 8;
		}
		r->members[np].m = om;
		r->members[np].offset = nm->offset;
		r->members[np++].seg = j;
		if (nm->offset + nm->size > cur)
			cur = nm->offset + nm->size;
	}
	r->segs[j].end = cur;
	r->nsegs = nseg;
	r->nmembers = np;
	r->proposal = nt;
	ch_check_type(ctx, nt, cfg, count_warnings, &r->conflicts);
	ch_flatten(ctx, nt, &lv, &nl);
	for (j = 0; j < nseg; j++)
		r->segs[j].what = seg_label(ctx, lv, nl, r->segs[j].start,
					    j + 1 < nseg ? r->segs[j + 1].start : (uint64_t)-1);
	free(order);
	free(brk);
	free(off);
	free(text);
	return r;
}

/* 1 if the regrouping rg is kept over the fix's layout fx (the order above). */
static int regroup_better(const struct ch_reorg *rg, const struct ch_reorg *fx)
{
	if (rg->conflicts != fx->conflicts)
		return rg->conflicts < fx->conflicts;
	if (rg->eval.key_lines < fx->eval.key_lines)
		return rg->eval.size <= fx->eval.size;
	return rg->eval.key_lines == fx->eval.key_lines && rg->eval.size < fx->eval.size;
}

const struct ch_reorg *ch_reorganize(ch_ctx *ctx, struct ch_type *t, const char *name,
				     const struct ch_config *cfg, char *err, size_t errsz)
{
	return ch_reorganize_mode(ctx, t, name, cfg, CH_REORG_BEST, err, errsz);
}

const struct ch_reorg *ch_reorganize_mode(ch_ctx *ctx, struct ch_type *t, const char *name,
					  const struct ch_config *cfg, enum ch_reorg_mode mode,
					  char *err, size_t errsz)
{
	struct ch_reorg *rg = ch_reorg_regroup(ctx, t, name, cfg, err, errsz), *fx, *win, *lose;
	if (!rg)
		return NULL;
	ch_layout_eval(ctx, rg->proposal, rg->line_size, &rg->eval);
	fx = fix_plan(ctx, t, cfg, rg->line_size);
	ch_layout_eval(ctx, fx->proposal, fx->line_size, &fx->eval);
	win = mode == CH_REORG_REGROUP || regroup_better(rg, fx) ? rg : fx;
	lose = win == rg ? fx : rg;
	win->fix_edits = fx->fix_edits;
	win->have_other = 1;
	win->other = lose->eval;
	win->other_conflicts = lose->conflicts;
	return win;
}
