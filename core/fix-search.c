/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-search.c -- the search of the one fix per struct, as the reference:
 * lay the members out (fix-sim.c), judge every conflicting pair of
 * top-level members, and stab the conflicts greedily: take the first
 * conflict (smallest later position, then largest earlier one), break as
 * late as allowed before its later member (the classic minimum
 * interval-stabbing order, so the number of breaks is minimal for the
 * conflicts of the original layout); repeat on the new layout until it is
 * clean. A break may not split a hot group or a kernel cacheline group
 * (members on both sides of it) nor go before a bit-field that shares its
 * storage unit (or any bit-field, or a flexible array, outside the kernel
 * vocabulary); a conflict with no allowed break moves its non-hot member
 * (ch_fix_best_place: every place for a small struct, else the end).
 * The rule: docs/checks.rst, "One fix per struct".
 *
 * Cost: O(rounds x leaves^2): 6.6 s for 1024 annotated fields, so the
 * fix runs the sweep (fix-sweep.c, same result) and this search only where
 * the sweep does not fit or a test asks (ch_fix_reference_search).
 * Units: bytes; L in bytes. Memory: scratch only (malloc'd, freed);
 * allocation failures abort.
 */
#include <stdlib.h>
#include <string.h>
#include "fix-internal.h"

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
	if (m->bit_size && (kernel != 1 || ch_fix_shares_unit(t, s->order[p])))
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

/* The search both greedy passes end in: member mv moved to every place q
 * up to last in turn, each layout finished by place(arg, ...) without
 * searching; s and pos take the one with the fewest edits, then the fewest
 * bytes. 1 when some place ends clean. */
int ch_fix_best_place(struct sim *s, size_t *pos, size_t mv, size_t last, ch_fix_place_fn place,
		      void *arg)
{
	struct sim best, tr;
	size_t *tpos = (size_t *)calloc(s->n, sizeof(size_t)), q;
	int have = 0;
	if (!tpos)
		abort();
	ch_fix_sim_alloc(&best, s->n);
	ch_fix_sim_alloc(&tr, s->n);
	for (q = 0; q <= last; q++) {
		if (q == mv)
			continue;
		ch_fix_sim_copy(&tr, s);
		memcpy(tpos, pos, s->n * sizeof(size_t));
		ch_fix_sim_move(&tr, tpos, mv, q);
		if (!place(arg, &tr, tpos))
			continue;
		if (!have || ch_fix_sim_edits(&tr) < ch_fix_sim_edits(&best) ||
		    (ch_fix_sim_edits(&tr) == ch_fix_sim_edits(&best) && tr.size < best.size)) {
			ch_fix_sim_copy(&best, &tr);
			have = 1;
		}
	}
	if (have)
		ch_fix_sim_adopt(s, pos, &best);
	ch_fix_sim_free(&best);
	ch_fix_sim_free(&tr);
	free(tpos);
	return have;
}

int ch_fix_pick_move(const struct ch_type *t, const struct sim *s, size_t pa, size_t pb,
		     int hot_a, int hot_b, size_t *mv, size_t *last)
{
	*last = s->n - 1;
	if (!hot_b && !s->moved[s->order[pb]] && !t->members[s->order[pb]].kgroup)
		*mv = pb;
	else if (!hot_a && !s->moved[s->order[pa]] && !t->members[s->order[pa]].kgroup)
		*mv = pa;
	else
		return 0;
	if (t->members[s->order[*last]].flexible)
		(*last)--;
	return 1;
}

struct ref_args { const struct ch_type *t; const struct ch_fix_leaf *v; size_t n; unsigned L; int kernel; };

static int place_ref(void *arg, struct sim *s, size_t *pos)
{
	struct ref_args *a = (struct ref_args *)arg;
	return ch_fix_greedy_ref(a->t, a->v, a->n, s, pos, a->L, a->kernel, 0);
}

int ch_fix_greedy_ref(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
		      size_t *pos, unsigned L, int kernel, int search)
{
	size_t round, pa, pb;
	for (round = 0; round < 2 * s->n + 8; round++) {
		size_t p, mv, last;
		ch_fix_simulate(t, s, L);
		if (!find_conflict(t, v, n, s, pos, L, &pa, &pb))
			return 1;
		for (p = pb; p > pa; p--)
			if (!s->pad[s->order[p]] && break_allowed(t, v, n, s, pos, p, kernel))
				break;
		if (p > pa) {
			s->pad[s->order[p]] = 1;
			continue;
		}
		if (!ch_fix_pick_move(t, s, pa, pb, member_is_hot(v, n, s->order[pa]),
				      member_is_hot(v, n, s->order[pb]), &mv, &last))
			return 0;
		if (search && s->n <= CH_FIX_SEARCH_MAX) {
			struct ref_args a = { t, v, n, L, kernel };
			return ch_fix_best_place(s, pos, mv, last, place_ref, &a);
		}
		if (mv >= last)
			return 0;
		ch_fix_sim_move(s, pos, mv, last);
	}
	return 0;
}
