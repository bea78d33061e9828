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

/* An anonymous struct or union member (not an array of them): C names its
 * members as the enclosing type's own, and so do the group markers. */
static int is_anon_aggregate(const struct ch_member *m)
{
	return !m->name && m->type && m->nelems <= 1;
}

#define ANON_DEPTH 64   /* anonymous members nested deeper are not looked into */

static int has_markers(const struct ch_type *t, int depth)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (ch_marker_kind(m->name, NULL) != CH_MARKER_NONE)
			return 1;
		if (is_anon_aggregate(m) && depth < ANON_DEPTH && has_markers(m->type, depth + 1))
			return 1;
	}
	return 0;
}

int ch_type_has_groups(const struct ch_type *t)
{
	return t ? has_markers(t, 0) : 0;
}

/* The members the groups are read from (ch_type_groups): t's direct
 * members, each anonymous member that holds a marker replaced by its own
 * members (recursively), their offsets made t's. 'real' gives each view
 * member's ch_member, whose kgroup is set. */
struct view {
	struct ch_member *v;
	struct ch_member **real;
	char *in_union;         /* 1: the member is a union's own member */
	size_t n, cap;
};

static void view_add(struct view *w, struct ch_member *m, uint64_t base, int in_union,
		     int depth)
{
	size_t i;
	if (is_anon_aggregate(m) && depth < ANON_DEPTH && has_markers(m->type, depth + 1)) {
		struct ch_type *at = (struct ch_type *)m->type;
		for (i = 0; i < at->nmembers; i++)
			view_add(w, &at->members[i], base + m->offset, at->is_union, depth + 1);
		return;
	}
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->v = (struct ch_member *)ch_xrealloc(w->v, w->cap * sizeof(*w->v));
		w->real = (struct ch_member **)ch_xrealloc(w->real, w->cap * sizeof(*w->real));
		w->in_union = (char *)ch_xrealloc(w->in_union, w->cap);
	}
	w->v[w->n] = *m;
	w->v[w->n].offset = base + m->offset;
	w->in_union[w->n] = (char)in_union;
	w->real[w->n++] = m;
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

/* A marker among t's members: its member index, kind and group name. */
struct mark {
	size_t idx;
	enum ch_marker kind;
	const char *g;
	size_t end;       /* BEGIN that opens a group: its END's member index */
	int ok;           /* BEGIN: first of its name, with an end after it */
};

static int mark_by_name(const void *pa, const void *pb)
{
	const struct mark *a = *(const struct mark *const *)pa, *b = *(const struct mark *const *)pb;
	int c = strcmp(a->g, b->g);
	if (c)
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void add_group(ch_ctx *ctx, struct ch_groups *gs, size_t *capg, struct ch_type *t,
		      const struct ch_member *mem, size_t nmem, size_t i, size_t e)
{
	struct ch_group *gr;
	const struct ch_member *m = &mem[i];
	const char *g, *h;
	size_t nm = 0, j;
	if (gs->n == *capg) {
		struct ch_group *nv;
		*capg = *capg ? 2 * *capg : 8;
		nv = (struct ch_group *)ch_alloc(ctx, *capg * sizeof(*nv));
		if (gs->n)
			memcpy(nv, gs->v, gs->n * sizeof(*nv));
		gs->v = nv;
	}
	ch_marker_kind(m->name, &g);
	gr = &gs->v[gs->n++];
	memset(gr, 0, sizeof(*gr));
	gr->name = ch_strdup(ctx, g);
	gr->begin = m->offset;
	gr->end = mem[e].offset;
	gr->begin_align = m->user_align ? m->align : 0;
	gr->begin_m = m;
	gr->end_m = &mem[e];
	if (e + 1 < nmem && ch_marker_kind(mem[e + 1].name, &h) == CH_MARKER_PAD &&
	    !strcmp(h, g))
		gr->pad_m = &mem[e + 1];
	gr->members = (const struct ch_member **)ch_alloc(ctx, (e - i) * sizeof(*gr->members));
	for (j = i + 1; j < e; j++)
		if (ch_marker_kind(mem[j].name, NULL) == CH_MARKER_NONE)
			gr->members[nm++] = &mem[j];
	gr->nmembers = nm;
	gr->path = ch_group_path_of(g);
	if (t->name && ch_sidecar_group_class(ctx, t->name, g, &gr->cls))
		gr->cls_from_sidecar = 1;
	else
		gr->cls = ch_group_class_of(g);
}

/*
 * O(M log M) in the M markers plus O(members): partners are found by
 * sorting the markers by name, overlaps with one sweep in member order (one
 * problem per group at most), so crafted structs with thousands of markers
 * stay fast.
 */
const struct ch_groups *ch_type_groups(ch_ctx *ctx, struct ch_type *t)
{
	struct ch_groups *gs;
	struct mark *mk;
	struct mark **by;
	size_t i, k, n = 0, capp = 0, capg = 0, max_end = 0;
	int have_end = 0;
	const char *tw;
	const struct ch_member *mem = t->members;
	struct ch_member **real = NULL;
	const char *in_union = NULL;   /* NULL: every member is t's own */
	size_t nmem = t->nmembers;

	if (t->groups)
		return t->groups;
	gs = (struct ch_groups *)ch_alloc(ctx, sizeof(*gs));
	t->groups = gs;
	if (!ch_type_has_groups(t))
		return gs;
	tw = type_words(ctx, t);
	for (i = 0; i < t->nmembers && !(is_anon_aggregate(&t->members[i]) &&
					 has_markers(t->members[i].type, 1)); i++)
		;
	if (i < t->nmembers) {   /* markers inside an anonymous member */
		struct view w = { NULL, NULL, NULL, 0, 0 };
		struct ch_member *v;
		for (i = 0; i < t->nmembers; i++)
			view_add(&w, &t->members[i], 0, t->is_union, 0);
		v = (struct ch_member *)ch_alloc(ctx, w.n * sizeof(*v));
		memcpy(v, w.v, w.n * sizeof(*v));
		real = (struct ch_member **)ch_alloc(ctx, w.n * sizeof(*real));
		memcpy(real, w.real, w.n * sizeof(*real));
		in_union = (const char *)ch_alloc(ctx, w.n);
		memcpy((char *)in_union, w.in_union, w.n);
		free(w.v);
		free(w.real);
		free(w.in_union);
		mem = v;
		nmem = w.n;
	}
	mk = (struct mark *)ch_xrealloc(NULL, nmem * sizeof(*mk));
	by = (struct mark **)ch_xrealloc(NULL, nmem * sizeof(*by));
	for (i = 0; i < nmem; i++) {
		const char *g;
		enum ch_marker kd = ch_marker_kind(mem[i].name, &g);
		if (kd != CH_MARKER_BEGIN && kd != CH_MARKER_END)
			continue;
		mk[n].idx = i;
		mk[n].kind = kd;
		mk[n].g = g;
		mk[n].end = 0;
		mk[n].ok = 0;
		by[n] = &mk[n];
		n++;
	}
	qsort(by, n, sizeof(*by), mark_by_name);
	/* partners, per name (runs of the sorted list, in member order) */
	for (k = 0; k < n;) {
		size_t r = k, first_begin = (size_t)-1, q;
		while (r < n && !strcmp(by[r]->g, by[k]->g))
			r++;
		for (q = k; q < r; q++) {
			struct mark *x = by[q];
			const struct ch_member *m = &mem[x->idx];
			if (x->kind == CH_MARKER_END) {
				if (first_begin == (size_t)-1)
					add_problem(ctx, gs, &capp, m, ch_printf(ctx,
						"'__cacheline_group_end__%s' (offset %llu) of %s has no "
						"'__cacheline_group_begin__%s' before it: group '%s' is not "
						"checked; add __cacheline_group_begin(%s) before its first field",
						x->g, (unsigned long long)m->offset, tw, x->g, x->g, x->g));
				else if (!by[first_begin]->ok && by[first_begin]->end == 0) {
					by[first_begin]->end = x->idx;
					by[first_begin]->ok = 1;
				}
				continue;
			}
			if (first_begin != (size_t)-1) {
				add_problem(ctx, gs, &capp, m, ch_printf(ctx,
					"group '%s' of %s begins twice (again at offset %llu): the second "
					"'__cacheline_group_begin__%s' is not checked; rename one of the groups",
					x->g, tw, (unsigned long long)m->offset, x->g));
				continue;
			}
			first_begin = q;
		}
		if (first_begin != (size_t)-1 && !by[first_begin]->ok) {
			const struct ch_member *m = &mem[by[first_begin]->idx];
			const char *g = by[first_begin]->g;
			add_problem(ctx, gs, &capp, m, ch_printf(ctx,
				"'__cacheline_group_begin__%s' (offset %llu) of %s has no "
				"'__cacheline_group_end__%s' after it: group '%s' is not checked; add "
				"__cacheline_group_end(%s) after its last field",
				g, (unsigned long long)m->offset, tw, g, g, g));
		}
		k = r;
	}
	/* overlaps, in member order: a group holding the next begin, or
	 * beginning inside an earlier group; neither is judged */
	for (k = 0; k < n; k++) {
		struct mark *x = &mk[k];
		size_t nx;
		int bad = 0;
		if (x->kind != CH_MARKER_BEGIN || !x->ok)
			continue;
		if (have_end && max_end > x->idx)
			bad = 1;   /* reported at this begin by the earlier group */
		for (nx = k + 1; nx < n && mk[nx].kind != CH_MARKER_BEGIN; nx++)
			;
		if (nx < n && mk[nx].idx < x->end) {
			const struct ch_member *m = &mem[x->idx], *in = &mem[mk[nx].idx];
			add_problem(ctx, gs, &capp, in, ch_printf(ctx,
				"group '%s' of %s begins at offset %llu inside group '%s' "
				"(offsets %llu..%llu): groups must not overlap; end '%s' before "
				"__cacheline_group_begin(%s)",
				mk[nx].g, tw, (unsigned long long)in->offset, x->g,
				(unsigned long long)m->offset,
				(unsigned long long)mem[x->end].offset, x->g, mk[nx].g));
			bad = 1;
		}
		if (!bad && (in_union ? in_union[x->idx] : t->is_union)) {
			const struct ch_member *m = &mem[x->idx];
			add_problem(ctx, gs, &capp, m, ch_printf(ctx,
				"group '%s' of %s has its markers directly in a union, where every "
				"member starts at one offset (%llu): the group measures nothing and "
				"its asserts cannot hold; put the markers and the group's fields in "
				"a struct (an anonymous struct member of the union)",
				x->g, tw, (unsigned long long)m->offset));
			bad = 1;
		}
		if (!have_end || x->end > max_end)
			max_end = x->end;
		have_end = 1;
		if (!bad)
			add_group(ctx, gs, &capg, t, mem, nmem, x->idx, x->end);
	}
	free(mk);
	free(by);
	/* attach members only now: gs->v no longer moves */
	for (i = 0; i < gs->n; i++) {
		size_t j;
		for (j = 0; j < gs->v[i].nmembers; j++) {
			struct ch_member *m = (struct ch_member *)gs->v[i].members[j];
			m->kgroup = &gs->v[i];
			if (real)   /* and the member itself, inside its anonymous type */
				real[m - mem]->kgroup = &gs->v[i];
		}
	}
	return gs;
}
