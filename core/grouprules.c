/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grouprules.c -- the rules on groups of fields (docs/checks.rst):
 *
 *  false-sharing between kernel cacheline groups: a written group (name
 *    with "write"/"rw", or a sidecar STRUCT.@G hot) that shares a cache line
 *    with a read-mostly group ("read"). Same fast path (tx/rx/txrx word of
 *    the names): a note; different or unnamed paths: a warning. Source: the
 *    2023 net_cachelines reorganisation ("net-device: reorganize net_device
 *    fast path variables", "tcp: reorganize tcp_sock fast path variables",
 *    6.8) and Documentation/networking/net_cachelines/.
 *  group-span: a group (kernel markers, or cachehot's __cacheline_hot_group)
 *    that touches more cache lines than its bytes need.
 *  group-markers: unbalanced or overlapping markers (core/groups.c).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *class_word(enum ch_class c)
{
	switch (c) {
	case CH_CLASS_HOT: return "written";
	case CH_CLASS_EXCLUSIVE: return "exclusive";
	case CH_CLASS_READ_MOSTLY: return "read-mostly";
	default: return "unclassified";
	}
}

static const char *lines_words(ch_ctx *ctx, unsigned L, int predicted)
{
	return predicted ? ch_printf(ctx, "(predicted at %u-byte lines)", L)
			 : ch_printf(ctx, "(%u-byte lines)", L);
}

static const char *group_where(ch_ctx *ctx, const struct ch_group *g)
{
	return ch_printf(ctx, "offsets %llu..%llu, %llu bytes", (unsigned long long)g->begin,
			 (unsigned long long)g->end, (unsigned long long)(g->end - g->begin));
}

/* "both on the rx fast path" / "on the tx and the rx fast paths"; *same set
 * when both groups are on one path (txrx shares a path with tx and rx). */
static const char *path_words(ch_ctx *ctx, const struct ch_group *a, const struct ch_group *b,
			      int *same)
{
	enum ch_path pa = a->path, pb = b->path;
	*same = pa != CH_PATH_NONE && pb != CH_PATH_NONE &&
		(pa == pb || pa == CH_PATH_TXRX || pb == CH_PATH_TXRX);
	if (*same)
		return pa == pb ? ch_printf(ctx, "both on the %s fast path", ch_path_name(pa))
				: ch_printf(ctx, "on the %s and %s fast paths, which overlap",
					    ch_path_name(pa), ch_path_name(pb));
	if (pa == CH_PATH_NONE || pb == CH_PATH_NONE)
		return ch_printf(ctx, "'%s' on %s fast path and '%s' on %s fast path (names "
				 "without tx/rx: paths unknown)", a->name,
				 pa == CH_PATH_NONE ? "no named" : ch_printf(ctx, "the %s", ch_path_name(pa)),
				 b->name,
				 pb == CH_PATH_NONE ? "no named" : ch_printf(ctx, "the %s", ch_path_name(pb)));
	return ch_printf(ctx, "across fast paths ('%s' %s, '%s' %s)", a->name,
			 ch_path_name(pa), b->name, ch_path_name(pb));
}

/* 1 if a member of t aligned to at least base_L bytes by an attribute (an
 * _aligned group marker, its pad, a ____cacheline_aligned field) starts in
 * [lo, hi]: that alignment follows SMP_CACHE_BYTES, so on an architecture
 * with larger lines it separates there too. */
static int aligned_between(const struct ch_type *t, uint64_t lo, uint64_t hi, unsigned base_L)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (m->user_align && m->align >= base_L && m->offset >= lo && m->offset <= hi)
			return 1;
	}
	return 0;
}

/* First line index both ranges touch at L, or -1. */
static int64_t shared(uint64_t ao, uint64_t as, uint64_t bo, uint64_t bs, unsigned L)
{
	uint64_t lo, hi;
	if (!as || !bs)
		return -1;
	lo = ao / L > bo / L ? ao / L : bo / L;
	hi = (ao + as - 1) / L < (bo + bs - 1) / L ? (ao + as - 1) / L : (bo + bs - 1) / L;
	return lo <= hi ? (int64_t)lo : -1;
}

static struct ch_finding *finding(ch_ctx *ctx, struct ch_finding_list *fl, enum ch_check c,
				  enum ch_severity sev, const struct ch_type *t, unsigned L,
				  uint64_t line)
{
	struct ch_finding *x = ch_finding_new(fl);
	(void)ctx;
	x->check = c;
	x->severity = sev;
	x->struct_name = t->name;
	x->line_size = L;
	x->line_index = line;
	return x;
}

static void group_pairs(ch_ctx *ctx, const struct ch_type *t, const struct ch_groups *gs,
			unsigned L, unsigned base_L, const struct ch_config *cfg,
			struct ch_finding_list *fl)
{
	size_t i, j;
	for (i = 0; i < gs->n; i++)
		for (j = i + 1; j < gs->n; j++) {
			const struct ch_group *a = &gs->v[i], *b = &gs->v[j], *w, *r, *later;
			int64_t line;
			int same;
			const char *pw;
			struct ch_finding *x;
			if (a->cls == CH_CLASS_HOT && b->cls == CH_CLASS_READ_MOSTLY)
				w = a, r = b;
			else if (b->cls == CH_CLASS_HOT && a->cls == CH_CLASS_READ_MOSTLY)
				w = b, r = a;
			else
				continue;
			line = shared(a->begin, a->end - a->begin, b->begin, b->end - b->begin, L);
			if (line < 0)
				continue;
			later = a->begin <= b->begin ? b : a;
			if (base_L && (shared(a->begin, a->end - a->begin, b->begin,
					      b->end - b->begin, base_L) >= 0 ||
				       aligned_between(t, (later == a ? b : a)->end, later->begin,
						       base_L)))
				continue;  /* reported at the base size, or separated by
					    * an alignment to SMP_CACHE_BYTES, which
					    * follows the arch */
			pw = path_words(ctx, w, r, &same);
			x = finding(ctx, fl, CH_CHECK_FALSE_SHARING,
				    same ? CH_SEV_NOTE : cfg->severity, t, L, (uint64_t)line);
			x->field_a = later->name;
			x->offset_a = later->begin;
			x->size_a = later->end - later->begin;
			x->field_b = later == a ? b->name : a->name;
			x->offset_b = later == a ? b->begin : a->begin;
			x->size_b = later == a ? b->end - b->begin : a->end - a->begin;
			x->loc = later->begin_m->loc;
			x->message = ch_printf(ctx,
				"%s group '%s' (%s) shares cache line %lld %s of %s with %s group "
				"'%s' (%s), %s; start '%s' on its own cache line "
				"(__cacheline_group_begin_aligned(%s)) [%s]",
				class_word(w->cls), w->name, group_where(ctx, w), (long long)line,
				lines_words(ctx, L, base_L != 0), ch_type_phrase(ctx, t),
				class_word(r->cls), r->name, group_where(ctx, r), pw,
				later->name, later->name, ch_check_id(CH_CHECK_FALSE_SHARING));
		}
}

static void kernel_span(ch_ctx *ctx, const struct ch_type *t, const struct ch_group *g,
			unsigned L, unsigned base_L, const struct ch_config *cfg,
			struct ch_finding_list *fl)
{
	uint64_t bytes = g->end - g->begin, n = ch_lines_touched(g->begin, bytes, L);
	uint64_t need = ch_lines_min(bytes, L), back, fwd;
	struct ch_finding *x;
	if (n <= need)
		return;
	if (base_L && (ch_lines_touched(g->begin, bytes, base_L) > ch_lines_min(bytes, base_L) ||
		       g->begin_align >= base_L))
		return;
	/* earlier by the bytes it reaches into its last line; later to the
	 * next line boundary */
	back = g->end - (g->end - 1) / L * L;
	fwd = L - g->begin % L;
	x = finding(ctx, fl, CH_CHECK_GROUP_SPAN, cfg->severity, t, L, g->begin / L);
	x->field_a = g->name;
	x->offset_a = g->begin;
	x->size_a = bytes;
	x->loc = g->begin_m->loc;
	x->message = ch_printf(ctx,
		"group '%s' of %s (%s) spans %llu cache lines %s, lines %llu..%llu, where %llu "
		"bytes need %llu; move %llu bytes of fields from before it to after it, or start "
		"it %llu bytes later on a line boundary (__cacheline_group_begin_aligned(%s)) [%s]",
		g->name, ch_type_phrase(ctx, t), group_where(ctx, g), (unsigned long long)n,
		lines_words(ctx, L, base_L != 0), (unsigned long long)(g->begin / L),
		(unsigned long long)((g->end - 1) / L), (unsigned long long)bytes,
		(unsigned long long)need, (unsigned long long)back, (unsigned long long)fwd,
		g->name, ch_check_id(CH_CHECK_GROUP_SPAN));
}

/* A hot group is judged per instance: the members of one group that sit in
 * one object. In 'struct pglist_data', node_zones[0] and node_zones[1] each
 * hold their own instance of a group declared in 'struct zone'. The instance
 * of a leaf is its path up to the last '.' (anonymous aggregates add no
 * component, so their members read as the enclosing struct's). */
struct hot_leaf {
	const struct ch_leaf *l;
	const char *inst;      /* path prefix, "" for direct members */
	size_t inst_len;
};

static int hot_leaf_cmp(const void *pa, const void *pb)
{
	const struct hot_leaf *a = (const struct hot_leaf *)pa, *b = (const struct hot_leaf *)pb;
	int c = strcmp(a->l->group, b->l->group);
	size_t n = a->inst_len < b->inst_len ? a->inst_len : b->inst_len;
	if (c)
		return c;
	if ((c = memcmp(a->inst, b->inst, n)))
		return c;
	if (a->inst_len != b->inst_len)
		return a->inst_len < b->inst_len ? -1 : 1;
	if (a->l->offset != b->l->offset)
		return a->l->offset < b->l->offset ? -1 : 1;
	return a->l < b->l ? -1 : a->l > b->l;
}

struct line_bytes {
	uint64_t line, bytes;
};

static int line_bytes_cmp(const void *pa, const void *pb)
{
	const struct line_bytes *a = (const struct line_bytes *)pa, *b = (const struct line_bytes *)pb;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Distinct lines the k leaves of one instance touch at L; *bytes their sum;
 * *anchor the line holding most of their bytes (the first on a tie); a
 * leaf's bytes count on the line it starts on. scratch holds >= k entries. */
static uint64_t hot_lines(const struct hot_leaf *h, size_t k, unsigned L, uint64_t *bytes,
			  uint64_t *anchor, struct line_bytes *scratch)
{
	size_t i, j;
	uint64_t count = 0, best = 0;
	*bytes = 0;
	*anchor = 0;
	for (i = 0; i < k; i++) {
		*bytes += h[i].l->size;
		scratch[i].line = h[i].l->offset / L;
		scratch[i].bytes = h[i].l->size;
	}
	qsort(scratch, k, sizeof(*scratch), line_bytes_cmp);
	/* lines touched: each leaf covers [first, last]; the leaves are sorted
	 * by offset, so a running maximum counts each line once */
	{
		uint64_t last = 0;
		int any = 0;
		for (i = 0; i < k; i++) {
			uint64_t a = h[i].l->offset / L, b = (h[i].l->offset + h[i].l->size - 1) / L;
			if (any && a <= last)
				a = last + 1;
			if (a <= b) {
				count += b - a + 1;
				last = b;
				any = 1;
			}
		}
	}
	for (i = 0; i < k; i = j) {
		uint64_t on = 0;
		for (j = i; j < k && scratch[j].line == scratch[i].line; j++)
			on += scratch[j].bytes;
		if (on > best) {
			best = on;
			*anchor = scratch[i].line;
		}
	}
	return count;
}

/* A [cachehot-group-span] finding located at leaf l; the caller sets the
 * message. */
static struct ch_finding *span_finding(ch_ctx *ctx, struct ch_finding_list *fl,
				       const struct ch_config *cfg, const struct ch_type *t,
				       unsigned L, const struct ch_leaf *l)
{
	struct ch_finding *x = finding(ctx, fl, CH_CHECK_GROUP_SPAN, cfg->severity, t, L,
				       l->offset / L);
	x->field_a = l->path;
	x->offset_a = l->offset;
	x->size_a = l->size;
	x->loc = l->member->loc;
	return x;
}

static void hot_span(ch_ctx *ctx, const struct ch_type *t, const struct hot_leaf *h, size_t k,
		     unsigned L, unsigned base_L, const struct ch_config *cfg,
		     struct ch_finding_list *fl, struct line_bytes *scratch)
{
	const char *name = h[0].l->group, *moves = NULL, *where = "";
	uint64_t bytes, anchor, bb, ba, lines = hot_lines(h, k, L, &bytes, &anchor, scratch);
	uint64_t need = ch_lines_min(bytes, L);
	const struct ch_leaf *at = NULL, *on = NULL;
	size_t i;
	int inferred;
	struct ch_finding *x;
	if (lines <= need)
		return;
	if (base_L && hot_lines(h, k, base_L, &bb, &ba, scratch) > ch_lines_min(bb, base_L))
		return;
	for (i = 0; i < k; i++) {
		const struct ch_leaf *l = h[i].l;
		if (l->offset / L == anchor && (l->offset + l->size - 1) / L == anchor) {
			if (!on)
				on = l;
			continue;
		}
		if (!at)
			at = l;
		moves = ch_printf(ctx, "%s%s'%s' (offset %llu, size %llu)", moves ? moves : "",
				  moves ? ", " : "", l->path, (unsigned long long)l->offset,
				  (unsigned long long)l->size);
	}
	if (!at)
		return;
	for (i = 0, inferred = 0; i < k; i++)
		inferred |= h[i].l->inferred;
	if (h[0].inst_len)
		where = ch_printf(ctx, " in '%.*s'", (int)h[0].inst_len, h[0].inst);
	if (!on || need > 1) {
		/* no field of the group fits within one line (6.12 mem_cgroup's
		 * 'events': two 72-byte arrays from offset 1144), or the group
		 * is larger than a line, so that no line can take the others:
		 * moving fields onto a line cannot help; bringing them together
		 * from a line boundary can */
		const struct ch_leaf *first = h[0].l, *lastl = h[k - 1].l;
		uint64_t span = lastl->offset + lastl->size - first->offset;
		uint64_t shift = (L - first->offset % L) % L;
		x = span_finding(ctx, fl, cfg, t, L, first);
		if (inferred)   /* a group annotate inferred: advice to review */
			x->severity = CH_SEV_NOTE;
		x->message = ch_printf(ctx,
			"hot group '%s' of %s%s (%llu bytes) spans %llu cache lines %s where its bytes "
			"need %llu%s; %s [%s]",
			name, ch_type_phrase(ctx, t), where, (unsigned long long)bytes,
			(unsigned long long)lines, lines_words(ctx, L, base_L != 0),
			(unsigned long long)need,
			on ? "" : ", and none of its fields fits within one line",
			!on || span < bytes + 8
			? ch_printf(ctx, "start '%s' (offset %llu) on a line boundary, %llu bytes "
				    "later: move %llu bytes of fields from before it to after it, or "
				    "align it to the line", first->path,
				    (unsigned long long)first->offset, (unsigned long long)shift,
				    (unsigned long long)shift)
			: ch_printf(ctx, "declare its fields next to each other from '%s' (they "
				    "take %llu bytes from offset %llu, %llu of them not in the group) and "
				    "start it on a line boundary", first->path,
				    (unsigned long long)span, (unsigned long long)first->offset,
				    (unsigned long long)(span - bytes)),
			ch_check_id(CH_CHECK_GROUP_SPAN));
		return;
	}
	x = span_finding(ctx, fl, cfg, t, L, at);
	if (inferred)   /* a group annotate inferred (writer sets): advice to review */
		x->severity = CH_SEV_NOTE;
	x->message = ch_printf(ctx,
		"hot group '%s' of %s%s (%llu bytes) spans %llu cache lines %s where its bytes need "
		"%llu; move %s onto line %llu next to '%s' (offset %llu) [%s]",
		name, ch_type_phrase(ctx, t), where, (unsigned long long)bytes,
		(unsigned long long)lines, lines_words(ctx, L, base_L != 0),
		(unsigned long long)need, moves, (unsigned long long)anchor, on->path,
		(unsigned long long)on->offset, ch_check_id(CH_CHECK_GROUP_SPAN));
}

/* O(n log n) in leaves: the hot-group leaves sorted by (group, instance,
 * offset), each run judged once. */
static void spans(ch_ctx *ctx, const struct ch_type *t, const struct ch_groups *gs,
		  const struct ch_leaf *lv, size_t n, unsigned L, unsigned base_L,
		  const struct ch_config *cfg, struct ch_finding_list *fl, int placement_free)
{
	struct hot_leaf *h;
	struct line_bytes *scratch;
	size_t i, j, k = 0;
	for (i = 0; i < gs->n; i++)
		kernel_span(ctx, t, &gs->v[i], L, base_L, cfg, fl);
	/* a struct placed anywhere has no fixed lines for its groups; a group
	 * of an embedded named struct is judged at that struct's definition */
	if (placement_free)
		return;
#define HOT_SPAN_LEAF(l) ((l).cls == CH_CLASS_HOT && (l).group && (l).size && !(l).embedded)
	for (i = 0; i < n; i++)
		if (HOT_SPAN_LEAF(lv[i]))
			k++;
	if (!k)
		return;
	h = (struct hot_leaf *)ch_xrealloc(NULL, k * sizeof(*h));
	scratch = (struct line_bytes *)ch_xrealloc(NULL, k * sizeof(*scratch));
	for (i = 0, k = 0; i < n; i++) {
		const char *dot;
		if (!HOT_SPAN_LEAF(lv[i]))
			continue;
		dot = strrchr(lv[i].path, '.');
		h[k].l = &lv[i];
		h[k].inst = lv[i].path;
		h[k].inst_len = dot ? (size_t)(dot - lv[i].path) : 0;
		k++;
	}
	qsort(h, k, sizeof(*h), hot_leaf_cmp);
	for (i = 0; i < k; i = j) {
		for (j = i + 1; j < k && !strcmp(h[j].l->group, h[i].l->group) &&
			     h[j].inst_len == h[i].inst_len &&
			     !memcmp(h[j].inst, h[i].inst, h[i].inst_len); j++)
			;
		hot_span(ctx, t, h + i, j - i, L, base_L, cfg, fl, scratch);
	}
	free(h);
	free(scratch);
}

void ch_judge_groups(ch_ctx *ctx, struct ch_type *t, const struct ch_leaf *lv, size_t n,
		     const struct ch_config *cfg, struct ch_finding_list *fl, int placement_free)
{
	const struct ch_groups *gs = ch_type_groups(ctx, t);
	unsigned L = ch_config_line_size(cfg);
	size_t i;
	for (i = 0; i < gs->nproblems; i++) {
		struct ch_finding *x = finding(ctx, fl, CH_CHECK_GROUP_MARKERS, cfg->severity, t, L, 0);
		x->loc = gs->problems[i].loc;
		x->field_a = gs->problems[i].group;
		x->message = gs->problems[i].message;
	}
	group_pairs(ctx, t, gs, L, 0, cfg, fl);
	spans(ctx, t, gs, lv, n, L, 0, cfg, fl, placement_free);
	if (cfg->predict > L) {
		group_pairs(ctx, t, gs, cfg->predict, L, cfg, fl);
		spans(ctx, t, gs, lv, n, cfg->predict, L, cfg, fl, placement_free);
	}
}
