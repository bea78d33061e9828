/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix.c -- one fix per struct: the fewest line breaks (and, where a break
 * would split a hot group, moves) that resolve every false-sharing conflict
 * between the top-level members of a struct at once, with its cost.
 *
 * A "break" before member m starts m on a new cache line: in kernel code
 * (__KERNEL__ defined) CACHELINE_PADDING(_padN_) inserted before m
 * (<linux/cache.h>, "cache: add __cacheline_group_begin..." era kernels
 * have it since 6.1), elsewhere _Alignas(L) on m (C11; compiles under
 * -pedantic). Both align m to the line and raise the struct's alignment to
 * the line, so the struct's size becomes a multiple of the line.
 *
 * Method: lay the members out again as the compiler does (each at its
 * alignment after the previous one; bit-fields sharing a storage unit keep
 * their distance), judge every conflicting pair of top-level members, and
 * stab the conflicts greedily: sort by the later member, break as late as
 * allowed before it (the classic minimum interval-stabbing order, so the
 * number of breaks is minimal for the conflicts of the original layout);
 * repeat on the new layout until it is clean. A break may not split a hot
 * group (members of one group on both sides of it) nor go before a
 * bit-field that shares its storage unit (or any bit-field, for _Alignas);
 * a conflict with no allowed break moves its non-hot member to the end.
 * The rounds are run as one sweep (greedy_sweep below): O(members +
 * leaves x leaves per line), plus O(members) per move.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Edits a fix names in every warning it is attached to; past that, the
 * first warning names them all and the others the first ones and a count
 * (else the output would grow with edits x warnings). */
#define CH_FIX_BRIEF_EDITS 8

struct sim {
	size_t n;               /* members */
	size_t *order;          /* order[k] = member index at position k */
	int *pad;               /* pad[member] = 1: a break before it */
	int *moved;             /* moved[member] = 1: moved to the end */
	uint64_t *off;          /* new offset of each member */
	uint64_t size;
	unsigned sep;           /* bytes: a break inserts a separator of this many
				 * bytes (the separator idiom, core/idiom.c) instead
				 * of aligning the member to the line; 0: aligns */
};

static uint64_t roundup(uint64_t x, uint64_t a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* 1 if member i continues the storage unit of member i-1 (bit-fields). */
static int shares_unit(const struct ch_type *t, size_t i)
{
	const struct ch_member *m = &t->members[i], *p;
	if (i == 0 || !m->bit_size)
		return 0;
	p = &t->members[i - 1];
	return m->offset < p->offset + p->size;
}

/* Where the member at position k of s's order lands when the layout so far
 * ends at cur: right after its storage-unit neighbour (bit-fields sharing
 * a unit stay together), else at its alignment (a line when a break pads
 * it). */
static uint64_t place_at(const struct ch_type *t, const struct sim *s, size_t k, uint64_t cur,
			 unsigned L)
{
	size_t i = s->order[k], prev;
	uint64_t a;
	if (k > 0 && i == (prev = s->order[k - 1]) + 1 && shares_unit(t, i) && !s->pad[i])
		return s->off[prev] + (t->members[i].offset - t->members[prev].offset);
	a = t->members[i].align ? t->members[i].align : 1;
	if (s->pad[i] && s->sep)
		return roundup(cur + s->sep, a);
	if (s->pad[i] && a < L)
		a = L;
	return roundup(cur, a);
}

static void simulate(const struct ch_type *t, struct sim *s, unsigned L)
{
	size_t k, i;
	uint64_t cur = 0, al = t->align ? t->align : 1;
	for (k = 0; k < s->n; k++) {
		i = s->order[k];
		s->off[i] = place_at(t, s, k, cur, L);
		if (s->pad[i] && al < L && !s->sep)
			al = L;
		if (s->off[i] + t->members[i].size > cur)
			cur = s->off[i] + t->members[i].size;
	}
	s->size = roundup(cur, al);
}

/* Conflict (a, b) between positions pa < pb in the current order. */
static int find_conflict(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			 const struct sim *s, const size_t *pos, unsigned L, size_t *pa, size_t *pb)
{
	size_t i, j, best_b = (size_t)-1, best_a = 0;
	for (i = 0; i < n; i++) {
		uint64_t ao, a0, a1;
		if (!v[i].data || v[i].cls == CH_CLASS_NONE)
			continue;
		ao = s->off[v[i].top] + (v[i].offset - t->members[v[i].top].offset);
		a0 = ao / L;
		a1 = (ao + v[i].size - 1) / L;
		for (j = 0; j < n; j++) {
			uint64_t bo, b0, b1;
			size_t x, y;
			if (!v[j].data || v[j].top == v[i].top)
				continue;
			if (v[j].cls != CH_CLASS_NONE && j < i)
				continue;
			if (!ch_conflicting(v[i].cls, v[i].group, v[j].cls, v[j].group))
				continue;
			bo = s->off[v[j].top] + (v[j].offset - t->members[v[j].top].offset);
			b0 = bo / L;
			b1 = (bo + v[j].size - 1) / L;
			if ((a0 > b0 ? a0 : b0) > (a1 < b1 ? a1 : b1))
				continue;
			x = pos[v[i].top];
			y = pos[v[j].top];
			if (x > y) {
				size_t z = x;
				x = y;
				y = z;
			}
			if (best_b == (size_t)-1 || y < best_b || (y == best_b && x > best_a)) {
				best_b = y;
				best_a = x;
			}
		}
	}
	if (best_b == (size_t)-1)
		return 0;
	*pa = best_a;
	*pb = best_b;
	return 1;
}

/* A break before the member at position p splits no hot group and is
 * expressible in this vocabulary. */
static int break_allowed(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			 const struct sim *s, const size_t *pos, size_t p, int kernel)
{
	size_t i, j;
	const struct ch_member *m = &t->members[s->order[p]];
	if (m->bit_size && (kernel != 1 || shares_unit(t, s->order[p])))
		return 0;
	if (kernel != 1 && m->flexible)
		return 0;
	/* a kernel cacheline group (__cacheline_group_begin/end, core/groups)
	 * stays whole too: markers and members on one side */
	for (i = 0; i < s->n; i++) {
		const struct ch_group *g = t->members[s->order[i]].kgroup;
		if (!g || i >= p)
			continue;
		for (j = p; j < s->n; j++)
			if (t->members[s->order[j]].kgroup == g)
				return 0;
	}
	for (i = 0; i < n; i++) {
		if (v[i].cls != CH_CLASS_HOT || !v[i].group || pos[v[i].top] >= p)
			continue;
		for (j = 0; j < n; j++)
			if (v[j].cls == CH_CLASS_HOT && v[j].group && pos[v[j].top] >= p &&
			    !strcmp(v[i].group, v[j].group))
				return 0;
	}
	return 1;
}

static int member_is_hot(const struct ch_fix_leaf *v, size_t n, size_t member)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (v[i].top == member && (v[i].cls == CH_CLASS_HOT || v[i].cls == CH_CLASS_EXCLUSIVE))
			return 1;
	return 0;
}

static void sim_copy(struct sim *d, const struct sim *s)
{
	memcpy(d->order, s->order, s->n * sizeof(size_t));
	memcpy(d->pad, s->pad, s->n * sizeof(int));
	memcpy(d->moved, s->moved, s->n * sizeof(int));
	memcpy(d->off, s->off, s->n * sizeof(uint64_t));
	d->size = s->size;
	d->sep = s->sep;
}

static int sim_alloc(struct sim *s, size_t n)
{
	s->n = n;
	s->order = (size_t *)calloc(n, sizeof(size_t));
	s->pad = (int *)calloc(n, sizeof(int));
	s->moved = (int *)calloc(n, sizeof(int));
	s->off = (uint64_t *)calloc(n, sizeof(uint64_t));
	s->sep = 0;
	if (!s->order || !s->pad || !s->moved || !s->off)
		abort();
	return 0;
}

static void sim_free(struct sim *s)
{
	free(s->order);
	free(s->pad);
	free(s->moved);
	free(s->off);
}

/* s becomes best, and pos its positions. */
static void sim_adopt(struct sim *s, size_t *pos, const struct sim *best)
{
	size_t q;
	sim_copy(s, best);
	for (q = 0; q < s->n; q++)
		pos[s->order[q]] = q;
}

/* Move the member at position from to position to (after removal). */
static void sim_move(struct sim *s, size_t *pos, size_t from, size_t to)
{
	size_t q = s->order[from], w;
	for (w = from; w + 1 < s->n; w++)
		s->order[w] = s->order[w + 1];
	for (w = s->n - 1; w > to; w--)
		s->order[w] = s->order[w - 1];
	s->order[to] = q;
	s->moved[q] = 1;
	for (w = 0; w < s->n; w++)
		pos[s->order[w]] = w;
}

static size_t sim_edits(const struct sim *s)
{
	size_t k, e = 0;
	for (k = 0; k < s->n; k++)
		e += (s->pad[k] ? 1 : 0) + (s->moved[k] ? 1 : 0);
	return e;
}

#define CH_FIX_SEARCH_MAX 64   /* members: try every place for a moved one */

/* The search both greedy passes end in: member mv moved to every place q
 * up to last in turn, each layout finished by place(arg, ...) without
 * searching; s and pos take the one with the fewest edits, then the fewest
 * bytes. 1 when some place ends clean. */
typedef int (*place_fn)(void *arg, struct sim *s, size_t *pos);

static int best_place(struct sim *s, size_t *pos, size_t mv, size_t last, place_fn place,
		      void *arg)
{
	struct sim best, tr;
	size_t *tpos = (size_t *)calloc(s->n, sizeof(size_t)), q;
	int have = 0;
	if (!tpos)
		abort();
	sim_alloc(&best, s->n);
	sim_alloc(&tr, s->n);
	for (q = 0; q <= last; q++) {
		if (q == mv)
			continue;
		sim_copy(&tr, s);
		memcpy(tpos, pos, s->n * sizeof(size_t));
		sim_move(&tr, tpos, mv, q);
		if (!place(arg, &tr, tpos))
			continue;
		if (!have || sim_edits(&tr) < sim_edits(&best) ||
		    (sim_edits(&tr) == sim_edits(&best) && tr.size < best.size)) {
			sim_copy(&best, &tr);
			have = 1;
		}
	}
	if (have)
		sim_adopt(s, pos, &best);
	sim_free(&best);
	sim_free(&tr);
	free(tpos);
	return have;
}

/* Break conflicts greedily; a conflict no break may resolve moves its
 * non-hot member: to every place (search > 0 and a small struct: the one
 * giving the fewest edits, then the fewest bytes), else to the end. 1 when
 * the layout ends clean. */
static int greedy_ref(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
		      size_t *pos, unsigned L, int kernel, int search);

struct ref_args { const struct ch_type *t; const struct ch_fix_leaf *v; size_t n; unsigned L; int kernel; };

static int place_ref(void *arg, struct sim *s, size_t *pos)
{
	struct ref_args *a = (struct ref_args *)arg;
	return greedy_ref(a->t, a->v, a->n, s, pos, a->L, a->kernel, 0);
}

static int greedy_ref(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
		      size_t *pos, unsigned L, int kernel, int search)
{
	size_t round, pa, pb;
	for (round = 0; round < 2 * s->n + 8; round++) {
		size_t p, mv, last = s->n - 1;
		simulate(t, s, L);
		if (!find_conflict(t, v, n, s, pos, L, &pa, &pb))
			return 1;
		for (p = pb; p > pa; p--)
			if (!s->pad[s->order[p]] && break_allowed(t, v, n, s, pos, p, kernel))
				break;
		if (p > pa) {
			s->pad[s->order[p]] = 1;
			continue;
		}
		if (!member_is_hot(v, n, s->order[pb]) && !s->moved[s->order[pb]] &&
		    !t->members[s->order[pb]].kgroup)
			mv = pb;
		else if (!member_is_hot(v, n, s->order[pa]) && !s->moved[s->order[pa]] &&
			 !t->members[s->order[pa]].kgroup)
			mv = pa;
		else
			return 0;
		if (t->members[s->order[last]].flexible)
			last--;
		if (search && s->n <= CH_FIX_SEARCH_MAX) {
			struct ref_args a = { t, v, n, L, kernel };
			return best_place(s, pos, mv, last, place_ref, &a);
		}
		if (mv >= last)
			return 0;
		sim_move(s, pos, mv, last);
	}
	return 0;
}

/* ---- the same search in one sweep -------------------------------------
 * greedy_ref lays out every member and compares every pair of leaves each
 * round: O(rounds * leaves^2), 6.6 s for 1024 annotated fields. Its choices
 * only look at the first conflict (smallest later position, then largest
 * earlier one), and a break at p leaves positions < p as they were and on
 * lines of their own, so the next first conflict lies at or after p. The
 * sweep keeps that frontier (a stack of break positions: a move of the
 * member at the frontier pops it), lays members out lazily from it, and
 * compares each member's leaves only with the earlier leaves still reaching
 * its first line (a window). Whether a break splits a group is a count per
 * position (recounted after a move). Cost: O(members + leaves * leaves per
 * line) plus O(members) per move. Same result as greedy_ref
 * (tests/core/test-core.c compares both on generated structs); a struct
 * whose offsets could go backwards along the order (a bit-field at a lower
 * byte than the one before it, a leaf outside its member) takes greedy_ref. */

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
	uint64_t *curb;           /* position k: bytes laid out before it */
	struct win *w;
	size_t nw;
	size_t *stack, nstack;    /* break positions placed by this search, increasing */
};

/* 1 if the sweep gives greedy_ref's result for this struct: offsets never
 * decrease along the order and every data leaf lies inside its member. */
static int sweep_fits(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n)
{
	size_t i;
	for (i = 1; i < t->nmembers; i++)
		if (shares_unit(t, i) && t->members[i].offset < t->members[i - 1].offset)
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

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p)
		abort();
	return p;
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

static void sweep_init(struct sweep *sw, const struct ch_type *t, const struct ch_fix_leaf *v,
		       size_t n, unsigned L, int kernel)
{
	size_t i, nm = t->nmembers, ng = 0, nh;
	struct gkey *g = (struct gkey *)xcalloc(n + nm, sizeof(*g));
	memset(sw, 0, sizeof(*sw));
	sw->t = t;
	sw->v = v;
	sw->n = n;
	sw->L = L;
	sw->kernel = kernel;
	sw->lfirst = (size_t *)xcalloc(nm + 1, sizeof(size_t));
	sw->lidx = (size_t *)xcalloc(n, sizeof(size_t));
	for (i = 0; i < n; i++)
		sw->lfirst[v[i].top + 1]++;
	for (i = 0; i < nm; i++)
		sw->lfirst[i + 1] += sw->lfirst[i];
	{
		size_t *fill = (size_t *)xcalloc(nm, sizeof(size_t));
		for (i = 0; i < n; i++)   /* leaf order kept within a member */
			sw->lidx[sw->lfirst[v[i].top] + fill[v[i].top]++] = i;
		free(fill);
	}
	sw->hot = (char *)xcalloc(nm, 1);
	for (i = 0; i < n; i++)
		if (v[i].cls == CH_CLASS_HOT || v[i].cls == CH_CLASS_EXCLUSIVE)
			sw->hot[v[i].top] = 1;
	sw->hgid = (int *)xcalloc(n, sizeof(int));
	sw->kgid = (int *)xcalloc(nm, sizeof(int));
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
	sw->gmin = (size_t *)xcalloc(sw->ngroups, sizeof(size_t));
	sw->gmax = (size_t *)xcalloc(sw->ngroups, sizeof(size_t));
	sw->cover = (int *)xcalloc(nm + 1, sizeof(int));
	sw->curb = (uint64_t *)xcalloc(nm, sizeof(uint64_t));
	sw->w = (struct win *)xcalloc(n, sizeof(struct win));
	sw->stack = (size_t *)xcalloc(nm, sizeof(size_t));
}

static void sweep_free(struct sweep *sw)
{
	free(sw->lfirst);
	free(sw->lidx);
	free(sw->hot);
	free(sw->hgid);
	free(sw->kgid);
	free(sw->gmin);
	free(sw->gmax);
	free(sw->cover);
	free(sw->curb);
	free(sw->w);
	free(sw->stack);
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
	if (m->bit_size && (sw->kernel != 1 || shares_unit(sw->t, s->order[p])))
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
	uint64_t cur = P ? sw->curb[P] : 0;
	size_t k;
	sw->nw = 0;
	for (k = P; k < s->n; k++) {
		size_t i = s->order[k], q, e, keep, best = 0;
		const struct ch_member *m = &t->members[i];
		uint64_t line0;
		int found = 0;
		s->off[i] = place_at(t, s, k, cur, L);
		sw->curb[k] = cur;
		if (s->off[i] + m->size > cur)
			cur = s->off[i] + m->size;
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

/* greedy_ref's rounds, each from the frontier. */
static int greedy_sweep(struct sweep *sw, struct sim *s, size_t *pos, int search);

static int place_sweep(void *arg, struct sim *s, size_t *pos)
{
	return greedy_sweep((struct sweep *)arg, s, pos, 0);
}

static int greedy_sweep(struct sweep *sw, struct sim *s, size_t *pos, int search)
{
	const struct ch_type *t = sw->t;
	size_t round, pa, pb, P = 0;
	sw->nstack = 0;
	sweep_cover(sw, s, pos);
	for (round = 0; round < 2 * s->n + 8; round++) {
		size_t p, mv, last = s->n - 1;
		if (!sweep_first(sw, s, P, &pa, &pb)) {
			simulate(t, s, sw->L);
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
		if (!sw->hot[s->order[pb]] && !s->moved[s->order[pb]] &&
		    !t->members[s->order[pb]].kgroup)
			mv = pb;
		else if (!sw->hot[s->order[pa]] && !s->moved[s->order[pa]] &&
			 !t->members[s->order[pa]].kgroup)
			mv = pa;
		else
			return 0;
		if (t->members[s->order[last]].flexible)
			last--;
		if (search && s->n <= CH_FIX_SEARCH_MAX)
			return best_place(s, pos, mv, last, place_sweep, sw);
		if (mv >= last)
			return 0;
		sim_move(s, pos, mv, last);
		sweep_cover(sw, s, pos);
		if (sw->nstack && sw->stack[sw->nstack - 1] == mv)
			sw->nstack--;
		P = sw->nstack ? sw->stack[sw->nstack - 1] : 0;
	}
	return 0;
}

/* Test hook (internal.h): 1 = always greedy_ref. */
int ch_fix_reference_search;

const char *ch_fix_cost(ch_ctx *ctx, uint64_t old_size, uint64_t new_size)
{
	if (new_size == old_size)
		return ch_printf(ctx, "costs no bytes: the struct stays %llu bytes",
				 (unsigned long long)old_size);
	if (new_size < old_size)
		return ch_printf(ctx, "saves %llu bytes per object (%llu -> %llu bytes) and as "
				 "many per array element", (unsigned long long)(old_size - new_size),
				 (unsigned long long)old_size, (unsigned long long)new_size);
	return ch_printf(ctx, "costs %llu bytes per object (%llu -> %llu bytes; an array of n "
			 "grows by %llu*n bytes)", (unsigned long long)(new_size - old_size),
			 (unsigned long long)old_size, (unsigned long long)new_size,
			 (unsigned long long)(new_size - old_size));
}

/* ---- the fix in words ---- */

struct sbuf { char *s; size_t n, cap; };

static void sb_printf(struct sbuf *b, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ch_buf_vappend(&b->s, &b->n, &b->cap, fmt, ap);
	va_end(ap);
}

/* The declaration text of members first..last of t ("int cps_lim, cps_max;"),
 * from the source line, or NULL. */
static const char *decl_text(ch_ctx *ctx, const struct ch_member *first,
			     const struct ch_member *last)
{
	size_t len, b = 0, e;
	const char *s = first->loc.file ? ch_source_line(first->loc.file, first->loc.line, &len)
					: NULL;
	const char *at;
	(void)last;
	if (!s)
		return NULL;
	at = (const char *)memchr(s, ';', len);
	e = at ? (size_t)(at - s) + 1 : len;
	while (b < e && (s[b] == ' ' || s[b] == '\t'))
		b++;
	return ch_printf(ctx, "%.*s", (int)(e - b), s + b);
}

/* "one fix for all of 'struct x': insert ... before 'a', and move 'b' after
 * 'c'; this costs ...", naming the first 'upto' of fx's edits (npads
 * breaks, then moves) and counting the rest. Built in one buffer: linear in
 * the edits named. */
static const char *fix_text(ch_ctx *ctx, const struct ch_fix *fx, const struct ch_type *t,
			    size_t npads, size_t upto, int predicted)
{
	struct sbuf b = { NULL, 0, 0 };
	size_t k, shown = upto < fx->nedits ? upto : fx->nedits, nsplit = 0;
	const char *r;
	int kernel = fx->kernel;
	sb_printf(&b, "one fix for all of %s%s: ",
		  t->name ? (t->name_is_typedef ? "'" : "'struct ") : "the struct",
		  t->name ? ch_printf(ctx, "%s'", t->name) : "");
	/* a declaration of several fields is split first: an alignment
	 * specifier, or a line inserted inside it, would apply to the others */
	for (k = 0; k < shown && k < npads; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		const char *d;
		if (!ed->decl_first || !(d = decl_text(ctx, ed->decl_first, ed->decl_last)))
			continue;
		sb_printf(&b, "%s'%s'", nsplit++ ? " and " : "split ", d);
	}
	if (nsplit)
		sb_printf(&b, " into one declaration per field, then ");
	for (k = 0; k < shown && k < npads; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		if (fx->insert)
			sb_printf(&b, "%s%s%s before %s", k ? ", " : "insert ", ed->text,
				  kernel == 1 ? "" : ";", ch_member_ref(ctx, ed->member));
		else
			sb_printf(&b, "%s%s", k ? ", " : "declare ", ch_member_ref(ctx, ed->member));
	}
	if (k && kernel == 1)
		sb_printf(&b, " (<linux/cache.h>)");
	else if (k && fx->sep)
		sb_printf(&b, " (%u-byte separators: they isolate wherever the object starts)",
			  fx->sep);
	else if (k && !fx->insert)
		sb_printf(&b, " %s", fx->edits[0].text);
	for (; k < shown; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		sb_printf(&b, "%s", k == npads ? (npads ? ", and " : "") : ", ");
		if (ed->after != ed->member)
			sb_printf(&b, "move %s after %s", ch_member_ref(ctx, ed->member),
				  ch_member_ref(ctx, ed->after));
		else
			sb_printf(&b, "move %s to the start", ch_member_ref(ctx, ed->member));
	}
	if (shown < fx->nedits)
		sb_printf(&b, ", and %zu more edit%s (the first warning on this struct lists them all)",
			  fx->nedits - shown, fx->nedits - shown == 1 ? "" : "s");
	sb_printf(&b, "; this %s%s",
		  predicted ? ch_printf(ctx, "with %u-byte lines ", fx->line_size) : "",
		  ch_fix_cost(ctx, fx->old_size, fx->new_size));
	r = ch_strdup(ctx, b.s);
	free(b.s);
	return r;
}

/* The main search on s (identity order, no breaks): 1 when clean. sw: the
 * sweep of (t, v, n, L, ins) when the caller made one for many searches
 * (it depends on nothing else, and greedy_sweep starts each search afresh),
 * else NULL. */
static int search_fix(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
		      size_t *pos, unsigned L, int ins, int search, struct sweep *shared)
{
	int ok;
	if (shared)
		return greedy_sweep(shared, s, pos, search);
	if (ch_fix_reference_search || !sweep_fits(t, v, n)) {
		ok = greedy_ref(t, v, n, s, pos, L, ins, search);
	} else {
		struct sweep sw;
		sweep_init(&sw, t, v, n, L, ins);
		ok = greedy_sweep(&sw, s, pos, search);
		sweep_free(&sw);
	}
	return ok;
}

/* Fewer bytes, then fewer edits, then members moved less far from where
 * they are declared (a maintainer reads a small move more easily). */
static uint64_t displacement(const struct sim *s)
{
	uint64_t d = 0;
	size_t k;
	for (k = 0; k < s->n; k++)
		d += s->order[k] > k ? s->order[k] - k : k - s->order[k];
	return d;
}

static int cheaper(const struct sim *a, const struct sim *b)
{
	if (a->size != b->size)
		return a->size < b->size;
	if (sim_edits(a) != sim_edits(b))
		return sim_edits(a) < sim_edits(b);
	return displacement(a) < displacement(b);
}

/* Members with cand[] set as one block at each place q among the others,
 * each layout finished by breaks; *best (and *have) keep the cheapest. A
 * block member counts as moved when its predecessor changed. */
static void block_tries(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			const struct sim *s, unsigned L, int ins, const char *cand, struct sim *tr,
			size_t *tpos, struct sim *best, int *have, struct sweep *sw)
{
	size_t nc = 0, i, j, k, q, w;
	for (i = 0; i < s->n; i++)
		nc += cand[i] ? 1 : 0;
	for (q = 0; nc > 0 && q + nc <= s->n; q++) {
		/* the others before q, the block, the other others */
		for (k = 0, j = 0, w = 0; k < s->n; k++) {
			if (cand[k])
				continue;
			if (j == q)
				for (i = 0; i < s->n; i++)
					if (cand[i])
						tr->order[w++] = i;
			tr->order[w++] = k;
			j++;
		}
		if (j == q)
			for (i = 0; i < s->n; i++)
				if (cand[i])
					tr->order[w++] = i;
		if (t->members[s->n - 1].flexible && tr->order[s->n - 1] != s->n - 1)
			continue;
		for (k = 0; k < s->n; k++) {
			tpos[tr->order[k]] = k;
			tr->pad[k] = 0;
		}
		/* in the new order: a block member stays where it is when it
		 * follows the member it followed, and that one stayed too */
		for (k = 0; k < s->n; k++) {
			size_t m = tr->order[k];
			int stays = k == 0 ? m == 0
				    : m > 0 && tr->order[k - 1] == m - 1 && !tr->moved[m - 1];
			tr->moved[m] = cand[m] && !stays;
		}
		tr->sep = s->sep;
		if (!search_fix(t, v, n, tr, tpos, L, ins, 0, sw))
			continue;
		simulate(t, tr, L);
		if (!*have || cheaper(tr, best)) {
			sim_copy(best, tr);
			*have = 1;
		}
	}
}

/* A reorder that beats the breaks: each read-mostly member that is not in
 * a hot or kernel group moved to each other place (structs of at most
 * CH_FIX_SEARCH_MAX members: O(members^2) searches), and all of them as one
 * block at each place among the others (at most CH_FIX_BLOCK_MAX members:
 * O(members) searches), the rest finished by breaks; the layout with the
 * fewest bytes (then the fewest edits) when it has fewer bytes than *s,
 * which it then replaces. */
#define CH_FIX_BLOCK_MAX 1024
static void cheaper_reorder(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			    struct sim *s, size_t *pos, unsigned L, int ins)
{
	struct sim tr, best;
	size_t *tpos, i, q, k, last = s->n - 1;
	int have = 0;
	char *cand;
	struct sweep sweep, *sw = NULL;   /* one for all the searches below */
	if (s->n > CH_FIX_BLOCK_MAX || s->n < 2)
		return;
	if (!ch_fix_reference_search && sweep_fits(t, v, n)) {
		sweep_init(&sweep, t, v, n, L, ins);
		sw = &sweep;
	}
	cand = (char *)xcalloc(s->n, 1);
	for (i = 0; i < n; i++)
		if (v[i].data && v[i].cls == CH_CLASS_READ_MOSTLY)
			cand[v[i].top] = 1;
	for (i = 0; i < n; i++)
		if (v[i].cls == CH_CLASS_HOT || v[i].cls == CH_CLASS_EXCLUSIVE)
			cand[v[i].top] = 0;
	for (i = 0; i < s->n; i++)
		if (t->members[i].kgroup || t->members[i].flexible)
			cand[i] = 0;
	if (t->members[last].flexible)
		last--;
	tpos = (size_t *)xcalloc(s->n, sizeof(size_t));
	sim_alloc(&tr, s->n);
	sim_alloc(&best, s->n);
	for (i = 0; i < s->n && s->n <= CH_FIX_SEARCH_MAX; i++) {
		if (!cand[i])
			continue;
		for (q = 0; q <= last; q++) {
			if (q == i)
				continue;
			for (k = 0; k < s->n; k++) {
				tr.order[k] = tpos[k] = k;
				tr.pad[k] = tr.moved[k] = 0;
			}
			tr.sep = s->sep;
			sim_move(&tr, tpos, i, q);
			if (!search_fix(t, v, n, &tr, tpos, L, ins, 0, sw))
				continue;
			simulate(t, &tr, L);
			if (!have || cheaper(&tr, &best)) {
				sim_copy(&best, &tr);
				have = 1;
			}
		}
	}
	/* as one block at each place among the others (the read-mostly fields
	 * together on lines of their own): all of them, and those that now
	 * share a line with a field they conflict with */
	{
		char *conf = (char *)xcalloc(s->n, 1);
		size_t a, b;
		for (a = 0; a < n; a++) {
			if (!v[a].data || !cand[v[a].top])
				continue;
			for (b = 0; b < n && !conf[v[a].top]; b++)
				if (v[b].data && v[b].top != v[a].top &&
				    ch_conflicting(v[a].cls, v[a].group, v[b].cls, v[b].group) &&
				    v[a].offset / L <= (v[b].offset + v[b].size - 1) / L &&
				    v[b].offset / L <= (v[a].offset + v[a].size - 1) / L)
					conf[v[a].top] = 1;
		}
		block_tries(t, v, n, s, L, ins, cand, &tr, tpos, &best, &have, sw);
		block_tries(t, v, n, s, L, ins, conf, &tr, tpos, &best, &have, sw);
		free(conf);
	}
	if (have && best.size < s->size)
		sim_adopt(s, pos, &best);
	sim_free(&tr);
	sim_free(&best);
	free(tpos);
	free(cand);
	if (sw)
		sweep_free(sw);
}

const struct ch_fix *ch_struct_fix(ch_ctx *ctx, const struct ch_type *t,
				   const struct ch_fix_leaf *v, size_t n, unsigned L, int kernel,
				   unsigned first_pad, int predicted)
{
	return ch_struct_fix_idiom(ctx, t, v, n, L, kernel, first_pad, predicted, NULL);
}

const struct ch_fix *ch_struct_fix_idiom(ch_ctx *ctx, const struct ch_type *t,
					 const struct ch_fix_leaf *v, size_t n, unsigned L,
					 int kernel, unsigned first_pad, int predicted,
					 const struct ch_idiom *id)
{
	struct sim s;
	size_t *pos, k, npads = 0, nmoves = 0, e;
	struct ch_fix *fx = NULL;
	int ok = 0, ins, suffix;
	unsigned sep = 0;

	if (!t || t->is_union || t->packed || !t->nmembers || !L)
		return NULL;
	/* userspace vocabulary: the struct's own separators (it may start
	 * anywhere: _Alignas would not isolate a calloc'ed object), else its
	 * own alignment macro, else the standard specifier */
	if (kernel != 1 && id && id->separator && t->align < L)
		sep = L - 1;
	ins = kernel == 1 || sep || (kernel != 1 && id && id->align_macro);
	/* else the tree's alignment attribute macro, after the declarator */
	suffix = !ins && kernel != 1 && id && id->attr_macro;
	sim_alloc(&s, t->nmembers);
	s.sep = sep;
	pos = (size_t *)calloc(s.n, sizeof(size_t));
	if (!pos)
		abort();
	for (k = 0; k < s.n; k++)
		s.order[k] = pos[k] = k;
	/* the model must reproduce the compiler's layout, else say nothing */
	simulate(t, &s, L);
	for (k = 0; k < s.n; k++)
		if (s.off[k] != t->members[k].offset)
			goto out;
	if (s.size != t->size)
		goto out;
	{
		/* the search's answer kept across units (core/fix-cache.c) */
		struct ch_fix_memo memo;
		uint64_t size = 0;
		int got = ch_fix_memo_get(ctx, &memo, t, v, n, L, ins, sep, ch_fix_reference_search,
					  s.order, s.pad, s.moved, &size);
		if (got == 1) {
			simulate(t, &s, L);
			if (s.size != size) {   /* not this layout's: search */
				for (k = 0; k < s.n; k++) {
					s.order[k] = pos[k] = k;
					s.pad[k] = s.moved[k] = 0;
				}
				simulate(t, &s, L);
				got = -1;
			}
		}
		if (got < 0) {
			ok = search_fix(t, v, n, &s, pos, L, ins, 1, NULL);
			if (ok) {
				simulate(t, &s, L);
				cheaper_reorder(t, v, n, &s, pos, L, ins);
			}
			ch_fix_memo_put(&memo, ok, s.order, s.pad, s.moved, s.size);
		}
		ch_fix_memo_free(&memo);
		if (!got || (got < 0 && !ok))
			goto out;
	}
	for (k = 0; k < s.n; k++) {
		npads += s.pad[k] ? 1 : 0;
		nmoves += s.moved[k] ? 1 : 0;
	}
	if (!npads && !nmoves)
		goto out;
	fx = (struct ch_fix *)ch_alloc(ctx, sizeof(*fx));
	fx->old_size = t->size;
	fx->new_size = s.size;
	fx->line_size = L;
	fx->kernel = kernel;
	fx->insert = ins;
	fx->suffix = suffix;
	fx->sep = sep;
	fx->type = t;
	{
		size_t *ord = (size_t *)ch_alloc(ctx, s.n * sizeof(size_t));
		memcpy(ord, s.order, s.n * sizeof(size_t));
		fx->order = ord;
	}
	fx->nedits = npads + nmoves;
	fx->edits = (struct ch_fix_edit *)ch_alloc(ctx, fx->nedits * sizeof(*fx->edits));
	{
		unsigned padno = first_pad;
		e = 0;
		for (k = 0; k < s.n; k++) {
			size_t i = s.order[k], a, b;
			struct ch_fix_edit *ed;
			if (!s.pad[i])
				continue;
			ed = &fx->edits[e++];
			ed->member = &t->members[i];
			if (kernel == 1)
				ed->text = ch_printf(ctx, "CACHELINE_PADDING(_pad%u_)", padno++);
			else if (sep && id->pad_macro)
				ed->text = ch_printf(ctx, "%s(%u)", id->pad_macro, sep);
			else if (sep)
				ed->text = ch_printf(ctx, "char _pad%u_[%u]", padno++, sep);
			else if (ins)
				ed->text = ch_printf(ctx, "%s(%u)", id->align_macro, L);
			else if (suffix && id->attr_arg)
				ed->text = ch_printf(ctx, "%s(%u)", id->attr_macro, L);
			else if (suffix)
				ed->text = id->attr_macro;
			else
				ed->text = ch_printf(ctx, "%s(%u)", CH_ALIGNAS(kernel), L);
			/* moved members are declarations of their own already */
			ch_decl_group(t, i, &a, &b);
			/* an attribute after the declarator is that declarator's */
			if (a != b && !s.moved[i] && !suffix && (!ins || a != i)) {
				ed->decl_first = &t->members[a];
				ed->decl_last = &t->members[b];
			}
		}
		for (k = 0; k < s.n; k++) {
			size_t i = s.order[k];
			struct ch_fix_edit *ed;
			if (!s.moved[i])
				continue;
			ed = &fx->edits[e++];
			ed->member = &t->members[i];
			/* to the start: after itself, a move all the same */
			ed->after = k > 0 ? &t->members[s.order[k - 1]] : ed->member;
		}
		fx->text = fix_text(ctx, fx, t, npads, fx->nedits, predicted);
		if (fx->nedits > CH_FIX_BRIEF_EDITS)
			fx->brief = fix_text(ctx, fx, t, npads, CH_FIX_BRIEF_EDITS, predicted);
	}
out:
	sim_free(&s);
	free(pos);
	return fx;
}

/* ---- the planner API (core/reorg-plan.c) ---- */

uint64_t ch_fix_lay_out(const struct ch_type *t, const size_t *order, const int *brk,
			unsigned L, uint64_t *off)
{
	struct sim s;
	memset(&s, 0, sizeof(s));
	s.n = t->nmembers;
	s.order = (size_t *)order;
	s.pad = (int *)brk;
	s.off = off;
	simulate(t, &s, L);
	return s.size;
}
