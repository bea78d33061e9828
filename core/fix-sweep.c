/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-sweep.c -- the search of the one fix per struct in one sweep: the
 * result of fix-search.c's reference search (tests/core/test-fix.c
 * compares both on generated structs) in O(members + leaves x leaves per
 * line), plus O(members) per move.
 *
 * Units: bytes; L in bytes. Memory: ch_fix_sweep_new's tables are malloc'd
 * and freed by ch_fix_sweep_free; allocation failures abort.
 */
#include <stdlib.h>
#include <string.h>
#include "fix-internal.h"

/*
 * ch_fix_greedy_ref lays out every member and compares every pair of leaves
 * each round: O(rounds * leaves^2), 6.6 s for 1024 annotated fields. Its choices
 * only look at the first conflict (smallest later position, then largest
 * earlier one), and a break at p leaves positions < p as they were and on
 * lines of their own, so the next first conflict lies at or after p. The
 * sweep keeps that frontier (a stack of break positions: a move of the
 * member at the frontier pops it), lays members out lazily from it, and
 * compares each member's leaves only with the earlier leaves still reaching
 * its first line (a window). Whether a break splits a group is a count per
 * position (recounted after a move). Cost: O(members + leaves * leaves per
 * line) plus O(members) per move. Same result as ch_fix_greedy_ref
 * (tests/core/test-fix.c compares both on generated structs); a struct
 * whose offsets could go backwards along the order (a bit-field at a lower
 * byte than the one before it, a leaf outside its member) takes
 * ch_fix_greedy_ref. */

struct win {
	size_t leaf, pos;         /* leaf index, position of its member */
	uint64_t l0, l1;          /* first and last line it touches */
};

struct sweep {
	const struct ch_type *t;
	const struct ch_fix_leaf *v;
	size_t n;                 /* leaves */
	unsigned L;
	int kernel;
	size_t *lfirst, *lidx;    /* leaves of member i: lidx[lfirst[i] .. lfirst[i+1]) */
	int *hgid;                /* leaf: hot group id (hot leaves with a group), else -1 */
	int *kgid;                /* member: kernel group id (nh + k), else -1 */
	size_t ngroups;
	size_t *gmin, *gmax;      /* per group: lowest and highest position */
	int *cover;               /* position p: groups a break before p would split */
	char *hot;                /* member holds a hot or exclusive leaf */
	struct ch_layout_cursor *curs; /* position k: the layout before it */
	struct win *w;
	size_t nw;
	size_t *stack, nstack;    /* break positions placed by this search, increasing */
};

/* 1 if the sweep gives ch_fix_greedy_ref's result for this struct:
 * offsets never decrease along the order and every data leaf lies inside its member. */
int ch_fix_sweep_fits(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n)
{
	size_t i;
	for (i = 1; i < t->nmembers; i++)
		if (ch_fix_shares_unit(t, i) && t->members[i].offset < t->members[i - 1].offset)
			return 0;
	for (i = 0; i < n; i++) {
		const struct ch_member *m;
		if (v[i].top >= t->nmembers)
			return 0;
		m = &t->members[v[i].top];
		if (v[i].data && (v[i].offset < m->offset ||
				  v[i].offset - m->offset + v[i].size > m->size))
			return 0;
	}
	return 1;
}

struct gkey { const void *key; size_t i; };
static int gkey_str_cmp(const void *a, const void *b)
{
	return strcmp((const char *)((const struct gkey *)a)->key,
		      (const char *)((const struct gkey *)b)->key);
}
static int gkey_ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct gkey *)a)->key;
	uintptr_t y = (uintptr_t)((const struct gkey *)b)->key;
	return x < y ? -1 : x > y;
}

/* Number keys (sorted): ids[g[k].i] = group number; returns the count. */
static size_t number_groups(struct gkey *g, size_t ng, int (*cmp)(const void *, const void *),
			    int *ids, size_t base)
{
	size_t k, id = base;
	if (!ng)
		return base;
	qsort(g, ng, sizeof(*g), cmp);
	for (k = 0; k < ng; k++) {
		if (k > 0 && cmp(&g[k - 1], &g[k]))
			id++;
		ids[g[k].i] = (int)id;
	}
	return id + 1;
}

struct sweep *ch_fix_sweep_new(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			       unsigned L, int kernel)
{
	size_t i, nm = t->nmembers, ng = 0, nh;
	struct gkey *g = (struct gkey *)ch_fix_xcalloc(n + nm, sizeof(*g));
	struct sweep *sw = (struct sweep *)ch_fix_xcalloc(1, sizeof(*sw));
	sw->t = t;
	sw->v = v;
	sw->n = n;
	sw->L = L;
	sw->kernel = kernel;
	sw->lfirst = (size_t *)ch_fix_xcalloc(nm + 1, sizeof(size_t));
	sw->lidx = (size_t *)ch_fix_xcalloc(n, sizeof(size_t));
	for (i = 0; i < n; i++)
		sw->lfirst[v[i].top + 1]++;
	for (i = 0; i < nm; i++)
		sw->lfirst[i + 1] += sw->lfirst[i];
	{
		size_t *fill = (size_t *)ch_fix_xcalloc(nm, sizeof(size_t));
		for (i = 0; i < n; i++)   /* leaf order kept within a member */
			sw->lidx[sw->lfirst[v[i].top] + fill[v[i].top]++] = i;
		free(fill);
	}
	sw->hot = (char *)ch_fix_xcalloc(nm, 1);
	for (i = 0; i < n; i++)
		if (v[i].cls == CH_CLASS_HOT || v[i].cls == CH_CLASS_EXCLUSIVE)
			sw->hot[v[i].top] = 1;
	sw->hgid = (int *)ch_fix_xcalloc(n, sizeof(int));
	sw->kgid = (int *)ch_fix_xcalloc(nm, sizeof(int));
	for (i = 0; i < n; i++) {
		sw->hgid[i] = -1;
		if (v[i].cls == CH_CLASS_HOT && v[i].group) {
			g[ng].key = v[i].group;
			g[ng++].i = i;
		}
	}
	nh = number_groups(g, ng, gkey_str_cmp, sw->hgid, 0);
	for (ng = 0, i = 0; i < nm; i++) {
		sw->kgid[i] = -1;
		if (t->members[i].kgroup) {
			g[ng].key = t->members[i].kgroup;
			g[ng++].i = i;
		}
	}
	sw->ngroups = number_groups(g, ng, gkey_ptr_cmp, sw->kgid, nh);
	free(g);
	sw->gmin = (size_t *)ch_fix_xcalloc(sw->ngroups, sizeof(size_t));
	sw->gmax = (size_t *)ch_fix_xcalloc(sw->ngroups, sizeof(size_t));
	sw->cover = (int *)ch_fix_xcalloc(nm + 1, sizeof(int));
	sw->curs = (struct ch_layout_cursor *)ch_fix_xcalloc(nm, sizeof(*sw->curs));
	sw->w = (struct win *)ch_fix_xcalloc(n, sizeof(struct win));
	sw->stack = (size_t *)ch_fix_xcalloc(nm, sizeof(size_t));
	return sw;
}

void ch_fix_sweep_free(struct sweep *sw)
{
	if (!sw)
		return;
	free(sw->lfirst);
	free(sw->lidx);
	free(sw->hot);
	free(sw->hgid);
	free(sw->kgid);
	free(sw->gmin);
	free(sw->gmax);
	free(sw->cover);
	free(sw->curs);
	free(sw->w);
	free(sw->stack);
	free(sw);
}

/* cover[p]: groups with a position before p and one at or after p (the
 * groups break_allowed looks for), for the current order. */
static void sweep_cover(struct sweep *sw, const struct sim *s, const size_t *pos)
{
	size_t i, g;
	for (g = 0; g < sw->ngroups; g++) {
		sw->gmin[g] = (size_t)-1;
		sw->gmax[g] = 0;
	}
	for (i = 0; i < sw->n + s->n; i++) {
		int id = i < sw->n ? sw->hgid[i] : sw->kgid[i - sw->n];
		size_t p = i < sw->n ? pos[sw->v[i].top] : pos[i - sw->n];
		if (id < 0)
			continue;
		if (p < sw->gmin[id])
			sw->gmin[id] = p;
		if (p > sw->gmax[id])
			sw->gmax[id] = p;
	}
	memset(sw->cover, 0, (s->n + 1) * sizeof(int));
	for (g = 0; g < sw->ngroups; g++)
		if (sw->gmin[g] < sw->gmax[g]) {
			sw->cover[sw->gmin[g] + 1]++;
			sw->cover[sw->gmax[g] + 1]--;
		}
	for (i = 1; i <= s->n; i++)
		sw->cover[i] += sw->cover[i - 1];
}

/* break_allowed, in O(1). */
static int sweep_allowed(const struct sweep *sw, const struct sim *s, size_t p)
{
	const struct ch_member *m = &sw->t->members[s->order[p]];
	if (m->bit_size && (sw->kernel != 1 || ch_fix_shares_unit(sw->t, s->order[p])))
		return 0;
	if (sw->kernel != 1 && m->flexible)
		return 0;
	return sw->cover[p] == 0;
}

/* find_conflict, given that no conflict involves a position before P and
 * positions before P are laid out: lay out from P until the first member
 * with a conflict. */
static int sweep_first(struct sweep *sw, struct sim *s, size_t P, size_t *pa, size_t *pb)
{
	const struct ch_type *t = sw->t;
	const struct ch_fix_leaf *v = sw->v;
	unsigned L = sw->L;
	struct ch_layout_cursor c;
	size_t k;
	if (P)
		c = sw->curs[P];
	else
		ch_layout_start(t, &c);
	sw->nw = 0;
	for (k = P; k < s->n; k++) {
		size_t i = s->order[k], q, e, keep, best = 0;
		const struct ch_member *m = &t->members[i];
		uint64_t line0;
		int found = 0;
		sw->curs[k] = c;
		s->off[i] = ch_layout_place(t, &c, i, s->pad[i], L, s->sep) / 8;
		line0 = s->off[i] / L;
		for (e = keep = 0; e < sw->nw; e++)
			if (sw->w[e].l1 >= line0)
				sw->w[keep++] = sw->w[e];
		sw->nw = keep;
		for (q = sw->lfirst[i]; q < sw->lfirst[i + 1]; q++) {
			const struct ch_fix_leaf *b = &v[sw->lidx[q]];
			uint64_t bo, b0, b1;
			if (!b->data)
				continue;
			bo = s->off[i] + (b->offset - m->offset);
			b0 = bo / L;
			b1 = (bo + b->size - 1) / L;
			for (e = 0; e < sw->nw; e++) {
				const struct win *x = &sw->w[e];
				const struct ch_fix_leaf *a = &v[x->leaf];
				if (a->cls == CH_CLASS_NONE && b->cls == CH_CLASS_NONE)
					continue;
				if (!ch_conflicting(a->cls, a->group, b->cls, b->group))
					continue;
				if ((x->l0 > b0 ? x->l0 : b0) > (x->l1 < b1 ? x->l1 : b1))
					continue;
				if (!found || x->pos > best)
					best = x->pos;
				found = 1;
			}
		}
		if (found) {
			*pa = best;
			*pb = k;
			return 1;
		}
		for (q = sw->lfirst[i]; q < sw->lfirst[i + 1]; q++) {
			const struct ch_fix_leaf *b = &v[sw->lidx[q]];
			struct win *x;
			uint64_t bo;
			if (!b->data)
				continue;
			bo = s->off[i] + (b->offset - m->offset);
			x = &sw->w[sw->nw++];
			x->leaf = sw->lidx[q];
			x->pos = k;
			x->l0 = bo / L;
			x->l1 = (bo + b->size - 1) / L;
		}
	}
	return 0;
}

/* ch_fix_greedy_ref's rounds, each from the frontier. */
static int place_sweep(void *arg, struct sim *s, size_t *pos)
{
	return ch_fix_greedy_sweep((struct sweep *)arg, s, pos, 0);
}

int ch_fix_greedy_sweep(struct sweep *sw, struct sim *s, size_t *pos, int search)
{
	const struct ch_type *t = sw->t;
	size_t round, pa, pb, P = 0;
	sw->nstack = 0;
	sweep_cover(sw, s, pos);
	for (round = 0; round < 2 * s->n + 8; round++) {
		size_t p, mv, last;
		if (!sweep_first(sw, s, P, &pa, &pb)) {
			ch_fix_simulate(t, s, sw->L);
			return 1;
		}
		for (p = pb; p > pa; p--)
			if (!s->pad[s->order[p]] && sweep_allowed(sw, s, p))
				break;
		if (p > pa) {
			s->pad[s->order[p]] = 1;
			sw->stack[sw->nstack++] = P = p;
			continue;
		}
		if (!ch_fix_pick_move(t, s, pa, pb, sw->hot[s->order[pa]], sw->hot[s->order[pb]], &mv,
				      &last))
			return 0;
		if (search && s->n <= CH_FIX_SEARCH_MAX)
			return ch_fix_best_place(s, pos, mv, last, place_sweep, sw);
		if (mv >= last)
			return 0;
		ch_fix_sim_move(s, pos, mv, last);
		sweep_cover(sw, s, pos);
		if (sw->nstack && sw->stack[sw->nstack - 1] == mv)
			sw->nstack--;
		P = sw->nstack ? sw->stack[sw->nstack - 1] : 0;
	}
	return 0;
}
