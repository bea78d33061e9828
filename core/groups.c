/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groups.c -- the kernel's cacheline groups: markers, names, group records.
 *
 * Markers (include/linux/cache.h, since 6.8 "cache: enforce cache groups"):
 * zero-size members __cacheline_group_begin__G / __cacheline_group_end__G,
 * plus __cacheline_group_pad__G after an _aligned end. Every front-end hands
 * the core these members as it sees them; this file is the one place that
 * knows what they mean.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char begin_prefix[] = "__cacheline_group_begin__";
static const char end_prefix[] = "__cacheline_group_end__";
static const char pad_prefix[] = "__cacheline_group_pad__";

enum ch_marker ch_marker_kind(const char *name, const char **group)
{
	static const struct { const char *p; size_t n; enum ch_marker k; } tab[] = {
		{ begin_prefix, sizeof(begin_prefix) - 1, CH_MARKER_BEGIN },
		{ end_prefix, sizeof(end_prefix) - 1, CH_MARKER_END },
		{ pad_prefix, sizeof(pad_prefix) - 1, CH_MARKER_PAD },
	};
	size_t i;
	if (!name || strncmp(name, "__cacheline_group_", 18) != 0)
		return CH_MARKER_NONE;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strncmp(name, tab[i].p, tab[i].n) && name[tab[i].n]) {
			if (group)
				*group = name + tab[i].n;
			return tab[i].k;
		}
	return CH_MARKER_NONE;
}

/* 1 if the '_'-separated word w (length n) occurs in s. */
static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p = s;
	while ((p = strstr(p, w)) != NULL) {
		if ((p == s || p[-1] == '_') && (p[n] == '\0' || p[n] == '_'))
			return 1;
		p++;
	}
	return 0;
}

enum ch_path ch_group_path_of(const char *g)
{
	int tx, rx;
	if (!g)
		return CH_PATH_NONE;
	if (has_word(g, "txrx") || has_word(g, "rxtx"))
		return CH_PATH_TXRX;
	tx = has_word(g, "tx");
	rx = has_word(g, "rx");
	if (tx && rx)
		return CH_PATH_TXRX;
	return tx ? CH_PATH_TX : rx ? CH_PATH_RX : CH_PATH_NONE;
}

const char *ch_path_name(enum ch_path p)
{
	switch (p) {
	case CH_PATH_TX: return "tx";
	case CH_PATH_RX: return "rx";
	case CH_PATH_TXRX: return "txrx";
	default: return "no";
	}
}

enum ch_class ch_group_class_of(const char *g)
{
	if (!g)
		return CH_CLASS_NONE;
	if (strstr(g, "write") || has_word(g, "rw"))
		return CH_CLASS_HOT;
	if (strstr(g, "read"))
		return CH_CLASS_READ_MOSTLY;
	return CH_CLASS_NONE;
}

uint64_t ch_lines_touched(uint64_t off, uint64_t size, unsigned L)
{
	if (!size || !L)
		return 0;
	return (off + size - 1) / L - off / L + 1;
}

uint64_t ch_lines_min(uint64_t size, unsigned L)
{
	return L ? (size + L - 1) / L : 0;
}

int ch_type_has_groups(const struct ch_type *t)
{
	size_t i;
	if (!t)
		return 0;
	for (i = 0; i < t->nmembers; i++)
		if (ch_marker_kind(t->members[i].name, NULL) != CH_MARKER_NONE)
			return 1;
	return 0;
}

static const char *type_words(ch_ctx *ctx, const struct ch_type *t)
{
	if (!t->name)
		return t->is_union ? "an anonymous union" : "an anonymous struct";
	if (t->name_is_typedef)
		return ch_printf(ctx, "'%s'", t->name);
	return ch_printf(ctx, "'%s %s'", t->is_union ? "union" : "struct", t->name);
}

static void add_problem_g(ch_ctx *ctx, struct ch_groups *gs, size_t *cap,
			  const struct ch_member *at, const char *msg, const char *g)
{
	if (gs->nproblems == *cap) {
		struct ch_group_problem *nv;
		*cap = *cap ? 2 * *cap : 4;
		nv = (struct ch_group_problem *)ch_alloc(ctx, *cap * sizeof(*nv));
		if (gs->nproblems)
			memcpy(nv, gs->problems, gs->nproblems * sizeof(*nv));
		gs->problems = nv;
	}
	gs->problems[gs->nproblems].message = ch_printf(ctx, "%s [%s]", msg,
							ch_check_id(CH_CHECK_GROUP_MARKERS));
	gs->problems[gs->nproblems].loc = at->loc;
	gs->problems[gs->nproblems].group = ch_strdup(ctx, g);
	gs->nproblems++;
}

static void add_problem(ch_ctx *ctx, struct ch_groups *gs, size_t *cap,
			const struct ch_member *at, const char *msg)
{
	const char *g = NULL;
	ch_marker_kind(at->name, &g);
	add_problem_g(ctx, gs, cap, at, msg, g);
}

static size_t find_end(const struct ch_type *t, size_t from, const char *g)
{
	size_t i;
	const char *h;
	for (i = from; i < t->nmembers; i++)
		if (ch_marker_kind(t->members[i].name, &h) == CH_MARKER_END && !strcmp(h, g))
			return i;
	return (size_t)-1;
}

static size_t find_begin(const struct ch_type *t, size_t upto, const char *g)
{
	size_t i;
	const char *h;
	for (i = 0; i < upto; i++)
		if (ch_marker_kind(t->members[i].name, &h) == CH_MARKER_BEGIN && !strcmp(h, g))
			return i;
	return (size_t)-1;
}

/*
 * One pass in declaration order. Linear in the members except for the
 * lookups of a marker's partner, which only happen for markers (a handful
 * per struct) -- O(markers x members).
 */
const struct ch_groups *ch_type_groups(ch_ctx *ctx, struct ch_type *t)
{
	struct ch_groups *gs;
	size_t i, capp = 0, capg = 0;
	const char *tw;

	if (t->groups)
		return t->groups;
	gs = (struct ch_groups *)ch_alloc(ctx, sizeof(*gs));
	t->groups = gs;
	if (!ch_type_has_groups(t))
		return gs;
	tw = type_words(ctx, t);
	for (i = 0; i < t->nmembers; i++) {
		struct ch_member *m = &t->members[i];
		const char *g;
		size_t e, j, k;
		int bad = 0;
		switch (ch_marker_kind(m->name, &g)) {
		case CH_MARKER_END:
			if (find_begin(t, i, g) == (size_t)-1)
				add_problem(ctx, gs, &capp, m, ch_printf(ctx,
					"'__cacheline_group_end__%s' (offset %llu) of %s has no "
					"'__cacheline_group_begin__%s' before it: group '%s' is not "
					"checked; add __cacheline_group_begin(%s) before its first field",
					g, (unsigned long long)m->offset, tw, g, g, g));
			continue;
		case CH_MARKER_BEGIN:
			break;
		default:
			continue;
		}
		/* a begin: its end, and whatever else begins or ends in between */
		if (find_begin(t, i, g) != (size_t)-1) {
			add_problem(ctx, gs, &capp, m, ch_printf(ctx,
				"group '%s' of %s begins twice (again at offset %llu): the second "
				"'__cacheline_group_begin__%s' is not checked; rename one of the groups",
				g, tw, (unsigned long long)m->offset, g));
			continue;
		}
		e = find_end(t, i + 1, g);
		if (e == (size_t)-1) {
			add_problem(ctx, gs, &capp, m, ch_printf(ctx,
				"'__cacheline_group_begin__%s' (offset %llu) of %s has no "
				"'__cacheline_group_end__%s' after it: group '%s' is not checked; add "
				"__cacheline_group_end(%s) after its last field",
				g, (unsigned long long)m->offset, tw, g, g, g));
			continue;
		}
		for (j = i + 1; j < e; j++) {
			const char *h;
			if (ch_marker_kind(t->members[j].name, &h) != CH_MARKER_BEGIN)
				continue;
			/* a group that begins inside this one: overlap (nesting
			 * included; the kernel's groups never nest) */
			add_problem(ctx, gs, &capp, &t->members[j], ch_printf(ctx,
				"group '%s' of %s begins at offset %llu inside group '%s' "
				"(offsets %llu..%llu): groups must not overlap; end '%s' before "
				"__cacheline_group_begin(%s)",
				h, tw, (unsigned long long)t->members[j].offset, g,
				(unsigned long long)m->offset,
				(unsigned long long)t->members[e].offset, g, h));
			bad = 1;
		}
		if (bad)
			continue;
		/* also overlapping: this group begins inside an earlier one
		 * (reported above, at this begin, by the earlier group's scan);
		 * neither is judged */
		for (k = 0; k < i && !bad; k++) {
			const char *h;
			size_t ke;
			if (ch_marker_kind(t->members[k].name, &h) != CH_MARKER_BEGIN || !strcmp(h, g))
				continue;
			ke = find_end(t, k + 1, h);
			if (ke != (size_t)-1 && ke > i)
				bad = 1;
		}
		if (bad)
			continue;
		if (gs->n == capg) {
			struct ch_group *nv;
			capg = capg ? 2 * capg : 8;
			nv = (struct ch_group *)ch_alloc(ctx, capg * sizeof(*nv));
			if (gs->n)
				memcpy(nv, gs->v, gs->n * sizeof(*nv));
			gs->v = nv;
		}
		{
			struct ch_group *gr = &gs->v[gs->n++];
			size_t nm = 0;
			const char *h;
			memset(gr, 0, sizeof(*gr));
			gr->name = ch_strdup(ctx, g);
			gr->begin = m->offset;
			gr->end = t->members[e].offset;
			gr->begin_align = m->user_align ? m->align : 0;
			gr->begin_m = m;
			gr->end_m = &t->members[e];
			if (e + 1 < t->nmembers &&
			    ch_marker_kind(t->members[e + 1].name, &h) == CH_MARKER_PAD &&
			    !strcmp(h, g))
				gr->pad_m = &t->members[e + 1];
			gr->members = (const struct ch_member **)ch_alloc(ctx,
					(e - i) * sizeof(*gr->members));
			for (j = i + 1; j < e; j++) {
				if (ch_marker_kind(t->members[j].name, NULL) != CH_MARKER_NONE)
					continue;
				gr->members[nm++] = &t->members[j];
			}
			gr->nmembers = nm;
			gr->path = ch_group_path_of(g);
			if (t->name && ch_sidecar_group_class(ctx, t->name, g, &gr->cls))
				gr->cls_from_sidecar = 1;
			else
				gr->cls = ch_group_class_of(g);
		}
	}
	/* attach members only now: gs->v no longer moves */
	for (i = 0; i < gs->n; i++) {
		size_t j;
		for (j = 0; j < gs->v[i].nmembers; j++)
			((struct ch_member *)gs->v[i].members[j])->kgroup = &gs->v[i];
	}
	return gs;
}
