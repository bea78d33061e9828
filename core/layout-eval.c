/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout-eval.c -- one measure of a laid-out struct: its size, the cache
 * lines it spans, the lines its annotated fields touch (per class key) and
 * its holes. ch_reorganize (reorg-plan.c) judges its two plans, the fix's
 * layout and the regrouping by class, by it; cachehot-layout --reorganize
 * prints it.
 *
 * Cost: O(members log members + leaves log leaves); lines are counted as
 * merged intervals per key, never enumerated (a 1 GB array is one interval).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reorg.h"

struct span {
	const char *key;           /* ctx-owned class key */
	uint64_t l0, l1;           /* first and last line (or byte, for holes) */
};

static int by_key_start(const void *a, const void *b)
{
	const struct span *x = (const struct span *)a, *y = (const struct span *)b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	return x->l0 < y->l0 ? -1 : x->l0 > y->l0;
}

/* Sum over keys of the length of the union of each key's spans [l0, l1]
 * (sorted in place). */
static uint64_t union_length(struct span *v, size_t n)
{
	uint64_t total = 0, lo = 0, hi = 0;
	size_t i;
	int open = 0;
	if (n > 1)
		qsort(v, n, sizeof(*v), by_key_start);
	for (i = 0; i < n; i++) {
		if (open && !strcmp(v[i].key, v[i - 1].key) && v[i].l0 <= hi + 1) {
			if (v[i].l1 > hi)
				hi = v[i].l1;
			continue;
		}
		if (open)
			total += hi - lo + 1;
		lo = v[i].l0;
		hi = v[i].l1;
		open = 1;
	}
	if (open)
		total += hi - lo + 1;
	return total;
}

uint64_t ch_bitfield_place(uint64_t p, unsigned width, uint64_t storage)
{
	uint64_t bits = storage * 8;
	if (bits && p % bits + width > bits)
		p = (p + bits - 1) / bits * bits;
	return p;
}

uint64_t ch_layout_order(const struct ch_type *t, const size_t *order, const int *brk, unsigned L,
			 uint64_t *bitpos, unsigned *align)
{
	uint64_t off = 0, bitcur = 0;
	unsigned al = t->align ? t->align : 1;
	int prev_bits = 0;
	size_t k;
	for (k = 0; k < t->nmembers; k++) {
		size_t i = order[k];
		const struct ch_member *m = &t->members[i];
		unsigned a = m->align ? m->align : 1;
		if (brk && brk[i]) {   /* a zero-size member aligned to the line */
			off = align_up(off, L);
			prev_bits = 0;
			if (al < L)
				al = L;
		}
		if (m->bit_size && m->elem_size) {
			uint64_t p = ch_bitfield_place(prev_bits ? bitcur : off * 8, m->bit_size,
						       m->elem_size);
			bitpos[i] = p;
			bitcur = p + m->bit_size;
			off = (bitcur + 7) / 8;
			prev_bits = 1;
		} else {
			off = align_up(off, a);
			bitpos[i] = off * 8;
			off += m->size;
			bitcur = off * 8;
			prev_bits = 0;
		}
		if (a > al)
			al = a;
	}
	*align = al;
	return align_up(off, al);
}

int ch_layout_leaf_key(const struct ch_leaf *l, char *buf, size_t bufsz)
{
	if (ch_reorg_leaf_key(l, buf, bufsz))
		return 1;
	/* an unannotated field of a kernel cacheline group has its group's
	 * class: written groups share lines with each other, read-mostly ones
	 * with read-mostly fields (core/reorg.c keys them alike) */
	if (l->cls != CH_CLASS_NONE || l->pad != CH_PAD_NONE || !l->kgroup ||
	    l->kgroup->cls == CH_CLASS_NONE)
		return 0;
	snprintf(buf, bufsz, "%s",
		 l->kgroup->cls == CH_CLASS_READ_MOSTLY ? "read-mostly" : "written groups");
	return 1;
}

void ch_layout_eval(ch_ctx *ctx, struct ch_type *t, unsigned L, struct ch_layout_eval *out)
{
	struct ch_leaf *lv;
	size_t nl, i, n = 0;
	struct span *v;
	char kbuf[256];
	memset(out, 0, sizeof(*out));
	out->size = t->size;
	out->lines = L ? (t->size + L - 1) / L : 0;
	/* holes: the size less the bytes some member covers */
	v = (struct span *)calloc(t->nmembers + 1, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < t->nmembers; i++)
		if (t->members[i].size) {
			v[n].key = "";
			v[n].l0 = t->members[i].offset;
			v[n++].l1 = t->members[i].offset + t->members[i].size - 1;
		}
	{
		uint64_t covered = union_length(v, n);
		out->holes = covered < t->size ? t->size - covered : 0;
	}
	free(v);
	if (!L)
		return;
	/* lines per class key */
	ch_flatten(ctx, t, &lv, &nl);
	v = (struct span *)calloc(nl + 1, sizeof(*v));
	if (!v)
		abort();
	for (i = n = 0; i < nl; i++) {
		if (!lv[i].size)
			continue;
		if (!ch_layout_leaf_key(&lv[i], kbuf, sizeof(kbuf)))
			continue;
		v[n].key = ch_strdup(ctx, kbuf);
		v[n].l0 = lv[i].offset / L;
		v[n++].l1 = (lv[i].offset + lv[i].size - 1) / L;
	}
	out->key_lines = union_length(v, n);
	free(v);
}
