/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-sim.c -- a candidate layout of the one fix per struct (struct sim,
 * core/fix-internal.h): the members in an order, a break before some,
 * some moved; its offsets and size come from the one model of a layout
 * (layout-eval.c), as GCC would lay the fixed struct out: each member at
 * its alignment after the previous one, a bit-field in the storage unit
 * before it where its bits fit (also when the fix moved it there), a
 * break starting its member on a fresh line (or after a separator).
 *
 * Units: bytes (s->off: a bit-field's byte holding its first bit). Memory:
 * the arrays of a sim are malloc'd (ch_fix_sim_alloc, ch_fix_sim_free);
 * allocation failures abort. Cost: O(members) per layout or move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fix-internal.h"

void *ch_fix_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fputs("cachehot: out of memory\n", stderr);
		abort();
	}
	return p;
}

int ch_fix_shares_unit(const struct ch_type *t, size_t i)
{
	const struct ch_member *m = &t->members[i], *p;
	if (i == 0 || !m->bit_size)
		return 0;
	p = &t->members[i - 1];
	return m->offset < p->offset + p->size;
}

void ch_fix_simulate(const struct ch_type *t, struct sim *s, unsigned L)
{
	struct ch_layout_cursor c;
	size_t k, i;
	ch_layout_start(t, &c);
	for (k = 0; k < s->n; k++) {
		i = s->order[k];
		s->off[i] = ch_layout_place(t, &c, i, s->pad[i], L, s->sep) / 8;
	}
	s->size = ch_layout_size(&c);
}

void ch_fix_sim_copy(struct sim *d, const struct sim *s)
{
	memcpy(d->order, s->order, s->n * sizeof(size_t));
	memcpy(d->pad, s->pad, s->n * sizeof(int));
	memcpy(d->moved, s->moved, s->n * sizeof(int));
	memcpy(d->off, s->off, s->n * sizeof(uint64_t));
	d->size = s->size;
	d->sep = s->sep;
}

void ch_fix_sim_alloc(struct sim *s, size_t n)
{
	s->n = n;
	s->order = (size_t *)ch_fix_xcalloc(n, sizeof(size_t));
	s->pad = (int *)ch_fix_xcalloc(n, sizeof(int));
	s->moved = (int *)ch_fix_xcalloc(n, sizeof(int));
	s->off = (uint64_t *)ch_fix_xcalloc(n, sizeof(uint64_t));
	s->size = 0;
	s->sep = 0;
}

void ch_fix_sim_free(struct sim *s)
{
	free(s->order);
	free(s->pad);
	free(s->moved);
	free(s->off);
}

void ch_fix_sim_adopt(struct sim *s, size_t *pos, const struct sim *best)
{
	size_t q;
	ch_fix_sim_copy(s, best);
	for (q = 0; q < s->n; q++)
		pos[s->order[q]] = q;
}

void ch_fix_sim_move(struct sim *s, size_t *pos, size_t from, size_t to)
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

size_t ch_fix_sim_edits(const struct sim *s)
{
	size_t k, e = 0;
	for (k = 0; k < s->n; k++)
		e += (s->pad[k] ? 1 : 0) + (s->moved[k] ? 1 : 0);
	return e;
}
