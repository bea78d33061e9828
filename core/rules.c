/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.c -- judging a flattened struct (model.c); every layout message.
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
#include "flat.h"

/* ---- judging ------------------------------------------------------------- */


static int is_hotish(enum ch_class c)
{
	return c == CH_CLASS_HOT || c == CH_CLASS_EXCLUSIVE;
}


/* 1 if a and b must not share a cache line. */
static int classes_conflict(const struct leafx *a, const struct leafx *b)
{
	return ch_conflicting(a->l.cls, a->l.group, b->l.cls, b->l.group);
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





#define type_phrase ch_type_phrase
#define finding_list ch_finding_list

static struct ch_finding *new_finding(ch_ctx *ctx, struct finding_list *fl)
{
	(void)ctx;
	return ch_finding_new(fl);
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
 * conflicting classes, touching a common line of L bytes, not both inside
 * one embedded named struct; sorted by (i, j).
 * Found by a sweep over the leaves in order of their first line, against
 * the leaves still reaching it: O(leaves log leaves + pairs on shared
 * lines), not every pair of leaves. Returns the count; *out malloc'd. */
struct pair { size_t i, j; };
struct lspan { size_t k; uint64_t l0, l1; };


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

/* Sorts the n spans at sp by (l0, k), made in increasing k: a stable merge
 * sort by l0 alone, comparisons inline (glibc's qsort through cmp_lspan
 * cost 16 M instructions on the 112 structs of a kernel whose leaves are
 * out of line order: unions, bit-fields); runs already in order are
 * copied, not merged. */
static void sort_spans(struct lspan *sp, size_t n)
{
	struct lspan *tmp = (struct lspan *)ch_xrealloc(NULL, n * sizeof(*tmp));
	struct lspan *from = sp, *to = tmp, *sw;
	size_t w, lo;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, o = lo;
			if (mid == hi || from[mid - 1].l0 <= from[mid].l0) {
				memcpy(to + lo, from + lo, (hi - lo) * sizeof(*to));
				continue;
			}
			while (a < mid && b < hi)
				to[o++] = from[b].l0 < from[a].l0 ? from[b++] : from[a++];
			while (a < mid)
				to[o++] = from[a++];
			while (b < hi)
				to[o++] = from[b++];
		}
		sw = from;
		from = to;
		to = sw;
	}
	if (from != sp)
		memcpy(sp, from, n * sizeof(*sp));
	free(tmp);
}

static size_t conflict_pairs(const struct flat *f, unsigned L, struct pair **out)
{
	struct lspan *sp = (struct lspan *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(*sp));
	/* the leaves still reaching the current line, in three lists: only
	 * an exclusive leaf conflicts with one of no class, and a hot or
	 * read-mostly leaf only with a leaf of some class (ch_conflicting),
	 * so a leaf is compared with the list it can conflict with. A list
	 * drops the leaves behind the line when it is walked (the lines only
	 * grow). Most leaves of a struct have no class: walking every leaf
	 * still reaching the line for every leaf was a seventh of
	 * cachehot-layout's time over a kernel's every struct. */
	struct lspan *act[3];   /* every class, some class, exclusive */
	size_t nact[3] = { 0, 0, 0 };
	struct pair *pv = NULL;
	size_t ns = 0, np = 0, cap = 0, k, e, keep;
	for (k = 0; k < 3; k++)
		act[k] = (struct lspan *)ch_xrealloc(NULL, (f->nleaves + 1) * sizeof(**act));
	for (k = 0; k < f->nleaves; k++) {
		const struct leafx *x = &f->leaves[k];
		if (!ch_leafx_is_data(x))
			continue;
		sp[ns].k = k;
		sp[ns].l0 = x->l.offset / L;
		sp[ns++].l1 = (x->l.offset + x->l.size - 1) / L;
	}
	if (ns > 1 && !ch_sorted(sp, ns, sizeof(*sp), cmp_lspan))
		sort_spans(sp, ns);
	for (k = 0; k < ns; k++) {
		const struct leafx *b = &f->leaves[sp[k].k];
		int w = b->l.cls == CH_CLASS_EXCLUSIVE ? 0 : b->l.cls != CH_CLASS_NONE ? 1 : 2;
		struct lspan *act_w = act[w];
		for (e = keep = 0; e < nact[w]; e++)
			if (act_w[e].l1 >= sp[k].l0)
				act_w[keep++] = act_w[e];
		nact[w] = keep;
		for (e = 0; e < nact[w]; e++) {
			const struct leafx *a = &f->leaves[act_w[e].k];
			size_t i, j;
			if (a->l.cls == CH_CLASS_NONE && b->l.cls == CH_CLASS_NONE)
				continue;
			/* both inside one named struct embedded here (or an
			 * element of an array of them): the pair belongs to
			 * that struct's definition, which judges it once; not
			 * again per embedding, whatever this embedding's
			 * offset (a member-path entry is this struct's). Their
			 * deepest common instance lies inside a named struct
			 * exactly when both have the same outermost one. */
			if (f->insts[a->inst].named_top >= 0 && !a->path_own && !b->path_own &&
			    f->insts[a->inst].named_top == f->insts[b->inst].named_top)
				continue;
			if (!classes_conflict(a, b))
				continue;
			if (a->l.cls != CH_CLASS_NONE && b->l.cls != CH_CLASS_NONE) {
				i = act_w[e].k < sp[k].k ? act_w[e].k : sp[k].k;
				j = act_w[e].k < sp[k].k ? sp[k].k : act_w[e].k;
			} else if (a->l.cls != CH_CLASS_NONE) {
				i = act_w[e].k;
				j = sp[k].k;
			} else {
				i = sp[k].k;
				j = act_w[e].k;
			}
			CH_GROW(pv, np, cap, 64);
			pv[np].i = i;
			pv[np++].j = j;
		}
		act[0][nact[0]++] = sp[k];
		if (b->l.cls != CH_CLASS_NONE)
			act[1][nact[1]++] = sp[k];
		if (b->l.cls == CH_CLASS_EXCLUSIVE)
			act[2][nact[2]++] = sp[k];
	}
	/* (pairs are made in another order than one list gave: the sort
	 * below puts them in the one order) */
	if (np > 1 && !ch_sorted(pv, np, sizeof(*pv), cmp_pair))
		sort_pairs(pv, np, f->nleaves);
	free(sp);
	for (k = 0; k < 3; k++)
		free(act[k]);
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
		v[i].data = ch_leafx_is_data(&f->leaves[i]);
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

const struct ch_fix *ch_type_struct_fix(ch_ctx *ctx, struct ch_type *t, unsigned L, int kernel)
{
	struct flat f;
	const struct ch_fix *fx;
	ch_flat_build(&f, ctx, t);
	fx = struct_fix(ctx, &f, t, L, kernel, 0);
	ch_flat_free(&f);
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
			if (a->l.offset < b->l.offset || (a->l.offset == b->l.offset && i < j)) {
				first = a;
				second = b;
			} else {
				first = b;
				second = a;
			}
			if (!f->insts[c].type && c != 0)
				array_done[c] = 1;   /* one finding per array: one fix */
			x = ch_pair_finding(fl, CH_CHECK_FALSE_SHARING, cfg, t, &second->l,
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
				ch_leaf_class_phrase(ctx, &second->l), second->l.path,
				ch_leaf_where_phrase(ctx, &second->l), (long long)line,
				ch_lines_phrase(ctx, L, predicted), type_phrase(ctx, t),
				ch_leaf_class_phrase(ctx, &first->l), first->l.path,
				ch_leaf_where_phrase(ctx, &first->l),
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
	ch_flat_build(&f, ctx, t);
	pn.n = 0;
	pn.base = count_pads(t);
	judge_pairs(ctx, &f, t, L, 0, cfg, &fl, &pn);
	if (cfg->predict > L)
		judge_pairs(ctx, &f, t, cfg->predict, L, cfg, &fl, &pn);
	ch_idiom_of(ctx, t, L, &id);
	/* userspace, aligned to less than a line, isolating with separators:
	 * made to be placed anywhere (heap objects) */
	placement_free = cfg->kernel != 1 && t->align < L && id.separator;
	ch_judge_padding(ctx, &f, t, L, cfg, &fl, &id);
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
	ch_flat_free(&f);
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
