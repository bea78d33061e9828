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
 * Bounded: at most 2 * members + 8 rounds, each O(leaves^2) on annotated
 * leaves only.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct sim {
	size_t n;               /* members */
	size_t *order;          /* order[k] = member index at position k */
	int *pad;               /* pad[member] = 1: a break before it */
	int *moved;             /* moved[member] = 1: moved to the end */
	uint64_t *off;          /* new offset of each member */
	uint64_t size;
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

static void simulate(const struct ch_type *t, struct sim *s, unsigned L)
{
	size_t k, i, prev = (size_t)-1;
	uint64_t cur = 0, al = t->align ? t->align : 1;
	for (k = 0; k < s->n; k++) {
		const struct ch_member *m;
		i = s->order[k];
		m = &t->members[i];
		if (prev != (size_t)-1 && i == prev + 1 && shares_unit(t, i) && !s->pad[i]) {
			s->off[i] = s->off[prev] + (m->offset - t->members[prev].offset);
		} else {
			uint64_t a = m->align ? m->align : 1;
			if (s->pad[i] && a < L)
				a = L;
			s->off[i] = roundup(cur, a);
		}
		if (s->pad[i] && al < L)
			al = L;
		if (s->off[i] + m->size > cur)
			cur = s->off[i] + m->size;
		prev = i;
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
			if (!ch_classes_conflict(v[i].cls, v[i].group, v[j].cls, v[j].group))
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
}

static int sim_alloc(struct sim *s, size_t n)
{
	s->n = n;
	s->order = (size_t *)calloc(n, sizeof(size_t));
	s->pad = (int *)calloc(n, sizeof(int));
	s->moved = (int *)calloc(n, sizeof(int));
	s->off = (uint64_t *)calloc(n, sizeof(uint64_t));
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

/* Break conflicts greedily; a conflict no break may resolve moves its
 * non-hot member: to every place (search > 0 and a small struct: the one
 * giving the fewest edits, then the fewest bytes), else to the end. 1 when
 * the layout ends clean. */
static int greedy(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
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
				if (!greedy(t, v, n, &tr, tpos, L, kernel, 0))
					continue;
				if (!have || sim_edits(&tr) < sim_edits(&best) ||
				    (sim_edits(&tr) == sim_edits(&best) && tr.size < best.size)) {
					sim_copy(&best, &tr);
					have = 1;
				}
			}
			if (have) {
				sim_copy(s, &best);
				for (q = 0; q < s->n; q++)
					pos[s->order[q]] = q;
			}
			sim_free(&best);
			sim_free(&tr);
			free(tpos);
			return have;
		}
		if (mv >= last)
			return 0;
		sim_move(s, pos, mv, last);
	}
	return 0;
}

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

const struct ch_fix *ch_struct_fix(ch_ctx *ctx, const struct ch_type *t,
				   const struct ch_fix_leaf *v, size_t n, unsigned L, int kernel,
				   unsigned first_pad, int predicted)
{
	struct sim s;
	size_t *pos, k, npads = 0, nmoves = 0, e;
	struct ch_fix *fx = NULL;
	int ok = 0;

	if (!t || t->is_union || t->packed || !t->nmembers || !L)
		return NULL;
	sim_alloc(&s, t->nmembers);
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
	ok = greedy(t, v, n, &s, pos, L, kernel, 1);
	if (!ok)
		goto out;
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
	fx->nedits = npads + nmoves;
	fx->edits = (struct ch_fix_edit *)ch_alloc(ctx, fx->nedits * sizeof(*fx->edits));
	{
		const char *pads = NULL, *moves = NULL;
		unsigned padno = first_pad;
		e = 0;
		for (k = 0; k < s.n; k++) {
			size_t i = s.order[k];
			const struct ch_member *m = &t->members[i];
			struct ch_fix_edit *ed;
			if (!s.pad[i])
				continue;
			ed = &fx->edits[e++];
			ed->member = m;
			if (kernel == 1) {
				ed->text = ch_printf(ctx, "CACHELINE_PADDING(_pad%u_)", padno++);
				pads = pads ? ch_printf(ctx, "%s, %s before %s", pads,
						       ed->text, ch_member_ref(ctx, m))
					    : ch_printf(ctx, "insert %s before %s", ed->text,
							ch_member_ref(ctx, m));
			} else {
				ed->text = ch_printf(ctx, "%s(%u)", CH_ALIGNAS(kernel), L);
				pads = pads ? ch_printf(ctx, "%s, %s", pads, ch_member_ref(ctx, m))
					    : ch_member_ref(ctx, m);
			}
		}
		if (pads && kernel == 1)
			pads = ch_printf(ctx, "%s (<linux/cache.h>)", pads);
		else if (pads)
			pads = ch_printf(ctx, "declare %s %s(%u)", pads, CH_ALIGNAS(kernel), L);
		for (k = 0; k < s.n; k++) {
			size_t i = s.order[k];
			const struct ch_member *m = &t->members[i], *after;
			struct ch_fix_edit *ed;
			if (!s.moved[i])
				continue;
			ed = &fx->edits[e++];
			ed->member = m;
			if (k > 0) {
				after = &t->members[s.order[k - 1]];
				ed->after = after;
				moves = ch_printf(ctx, "%smove %s after %s",
						  moves ? ch_printf(ctx, "%s, ", moves) : "",
						  ch_member_ref(ctx, m), ch_member_ref(ctx, after));
			} else {
				ed->after = m;   /* to the start: a move all the same */
				moves = ch_printf(ctx, "%smove %s to the start",
						  moves ? ch_printf(ctx, "%s, ", moves) : "",
						  ch_member_ref(ctx, m));
			}
		}
		fx->text = ch_printf(ctx, "%s%s%s; this %s%s", pads ? pads : "",
				     pads && moves ? ", and " : "", moves ? moves : "",
				     predicted ? ch_printf(ctx, "with %u-byte lines ", L) : "",
				     ch_fix_cost(ctx, fx->old_size, fx->new_size));
		fx->text = ch_printf(ctx, "one fix for all of %s%s: %s",
				     t->name ? (t->name_is_typedef ? "'" : "'struct ") : "the struct",
				     t->name ? ch_printf(ctx, "%s'", t->name) : "", fx->text);
	}
out:
	sim_free(&s);
	free(pos);
	return fx;
}
