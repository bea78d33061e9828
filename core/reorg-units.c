/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg-units.c -- the units of a struct that the reorganization planner
 * (reorg.c) moves: a direct member, a kernel cacheline group with its
 * markers, or a run of bit-fields sharing storage (split by class, packed
 * as GCC packs them); each with its class key from the flattened leaves
 * inside it (one exclusive field, one hot group, read-mostly, none, or
 * composite).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reorg.h"

static int key_eq(size_t item, const void *key, const void *arg)
{
	return !strcmp(((const struct keyset *)arg)->name[item], (const char *)key);
}

static uint64_t key_hash(size_t item, const void *arg)
{
	return ch_hash_str(((const struct keyset *)arg)->name[item]);
}

int ch_reorg_key(struct keyset *ks, ch_ctx *ctx, const char *k)
{
	size_t i = ch_index_find(&ks->idx, ch_hash_str(k), key_eq, k, ks);
	if (i != CH_INDEX_NONE)
		return (int)i;
	CH_GROW(ks->name, ks->n, ks->cap, 8);
	ks->name[ks->n] = ch_strdup(ctx, k);
	ch_index_add(&ks->idx, ks->n, ch_hash_str(k), key_hash, ks);
	return (int)ks->n++;
}

int ch_reorg_leaf_key(const struct ch_leaf *l, char *buf, size_t bufsz)
{
	if (l->pad == CH_PAD_UNIFIED || l->pad == CH_PAD_PRIVATE || l->pad == CH_PAD_BYTES ||
	    l->cls == CH_CLASS_NONE)
		return 0;
	if (l->cls == CH_CLASS_EXCLUSIVE)
		snprintf(buf, bufsz, "exclusive %s", l->path);
	else if (l->cls == CH_CLASS_HOT)
		snprintf(buf, bufsz, l->group ? "hot group %s" : "hot %s",
			 l->group ? l->group : l->path);
	else
		snprintf(buf, bufsz, "read-mostly");
	return 1;
}

void ch_reorg_unit_new(struct unit *x, const struct ch_member *m, size_t idx)
{
	memset(x, 0, sizeof(*x));
	x->mem = (size_t *)malloc(sizeof(size_t));
	if (!x->mem)
		abort();
	x->mem[0] = idx;
	x->nmem = 1;
	x->first = idx;
	x->orig_off = m->offset;
	x->size = m->size;
	x->align = m->align ? m->align : 1;
}

/* Kernel group g, from its begin marker (member b) to its end marker (and
 * the __cacheline_group_pad__ that follows an _aligned end), as one unit in
 * declaration order: its members keep their offsets relative to a start
 * aligned down to the unit's alignment, so every member stays aligned.
 * Returns the index of the unit's last member. */
size_t ch_reorg_group_unit(struct unit *x, const struct ch_type *t, const struct ch_group *g,
			 size_t b)
{
	size_t e = (size_t)(g->pad_m ? g->pad_m - t->members : g->end_m - t->members), q;
	uint64_t end = 0;
	memset(x, 0, sizeof(*x));
	x->mem = (size_t *)malloc((e - b + 1) * sizeof(size_t));
	if (!x->mem)
		abort();
	x->align = 1;
	for (q = b; q <= e; q++) {
		const struct ch_member *mq = &t->members[q];
		x->mem[x->nmem++] = q;
		if (mq->align > x->align)
			x->align = mq->align;
		if (mq->offset + mq->size > end)
			end = mq->offset + mq->size;
	}
	x->first = b;
	x->orig_off = g->begin / x->align * x->align;
	x->size = end - x->orig_off;
	x->group = g;
	return e;
}



static const struct ch_leaf *cmp_lv;
static int by_leaf_offset(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (cmp_lv[x].offset != cmp_lv[y].offset)
		return cmp_lv[x].offset < cmp_lv[y].offset ? -1 : 1;
	return x < y ? -1 : x > y;
}
static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

static int top_member(const struct ch_type *t, const struct ch_leaf *l, size_t *idx)
{
	if (l->member >= t->members && l->member < t->members + t->nmembers) {
		*idx = (size_t)(l->member - t->members);
		return 1;
	}
	return 0;
}

void ch_reorg_leaves_build(struct leafidx *li, const struct ch_type *t, const struct ch_leaf *lv,
			  size_t nl)
{
	size_t j, i, *fill;
	li->lv = lv;
	li->nl = nl;
	li->tfirst = (size_t *)calloc(t->nmembers + 1, sizeof(size_t));
	li->tidx = (size_t *)calloc(nl + 1, sizeof(size_t));
	li->nest = (size_t *)calloc(nl + 1, sizeof(size_t));
	li->cand = (size_t *)calloc(nl + 1, sizeof(size_t));
	fill = (size_t *)calloc(t->nmembers + 1, sizeof(size_t));
	if (!li->tfirst || !li->tidx || !li->nest || !li->cand || !fill)
		abort();
	li->nnest = 0;
	for (j = 0; j < nl; j++)
		if (top_member(t, &lv[j], &i))
			li->tfirst[i + 1]++;
		else
			li->nest[li->nnest++] = j;
	for (i = 0; i < t->nmembers; i++)
		li->tfirst[i + 1] += li->tfirst[i];
	for (j = 0; j < nl; j++)
		if (top_member(t, &lv[j], &i))
			li->tidx[li->tfirst[i] + fill[i]++] = j;
	free(fill);
	cmp_lv = lv;
	if (li->nnest)
		qsort(li->nest, li->nnest, sizeof(size_t), by_leaf_offset);
}

void ch_reorg_leaves_free(struct leafidx *li)
{
	free(li->tfirst);
	free(li->tidx);
	free(li->nest);
	free(li->cand);
}

/* Class key of a unit from the flattened leaves inside it: the leaves of
 * its members, and (not for bit-field units) nested leaves starting in its
 * bytes; in leaf order. */
void ch_reorg_unit_key(struct unit *x, const struct ch_type *t, struct leafidx *li,
		     struct keyset *ks, ch_ctx *ctx)
{
	uint64_t lo = x->orig_off, hi = x->orig_off + x->size;
	int key = KEY_NONE, multi = 0, has_none = 0;
	size_t j, q, nc = 0;
	x->has_ex = 0;
	for (q = 0; q < x->nmem; q++)
		for (j = li->tfirst[x->mem[q]]; j < li->tfirst[x->mem[q] + 1]; j++)
			li->cand[nc++] = li->tidx[j];
	if (!x->relbit && lo < hi) {
		size_t a = 0, b = li->nnest;
		while (a < b) {   /* first nested leaf at or after lo */
			size_t m = a + (b - a) / 2;
			if (li->lv[li->nest[m]].offset < lo)
				a = m + 1;
			else
				b = m;
		}
		for (; a < li->nnest && li->lv[li->nest[a]].offset < hi; a++)
			li->cand[nc++] = li->nest[a];
	}
	if (nc > 1)
		qsort(li->cand, nc, sizeof(size_t), by_index);
	for (q = 0; q < nc; q++) {
		const struct ch_leaf *l = &li->lv[li->cand[q]];
		int k;
		char kbuf[256];
		if (l->pad == CH_PAD_UNIFIED || l->pad == CH_PAD_PRIVATE ||
		    l->pad == CH_PAD_BYTES)
			continue;
		if (l->cls == CH_CLASS_NONE) {
			has_none = 1;
			continue;
		}
		if (l->cls == CH_CLASS_EXCLUSIVE)
			x->has_ex = 1;
		ch_reorg_leaf_key(l, kbuf, sizeof(kbuf));
		k = ch_reorg_key(ks, ctx, kbuf);
		if (key == KEY_NONE)
			key = k;
		else if (key != k)
			multi = 1;
	}
	if (multi)
		key = KEY_COMPOSITE;
	/* an exclusive field with neighbours inside one unit */
	if (x->has_ex && has_none && key != KEY_COMPOSITE)
		key = KEY_COMPOSITE;
	x->key = key;
}

/* Bit-fields of run [r0, r0+rn) into units. With one storage size S (bytes)
 * the run is split by class key (unannotated bit-fields join the first
 * non-exclusive part), and each part is placed by seg_layout as GCC packs
 * consecutive bit-fields of one type. With mixed storage types (S == 0) the
 * run keeps its original layout as one unit. Returns the new unit count. */
size_t ch_reorg_bitfield_units(struct unit *u, size_t nu, const struct ch_type *t, size_t r0,
			     size_t rn, uint64_t S, struct leafidx *li, struct keyset *ks,
			     ch_ctx *ctx)
{
	int *key = (int *)calloc(rn, sizeof(int)), *ex = (int *)calloc(rn, sizeof(int));
	int gkey[64];
	size_t ng = 0, q, g;
	if (!key || !ex)
		abort();
	for (q = 0; q < rn; q++) {
		struct unit tmp;
		ch_reorg_unit_new(&tmp, &t->members[r0 + q], r0 + q);
		tmp.relbit = (uint64_t *)1;   /* leaves by member only */
		ch_reorg_unit_key(&tmp, t, li, ks, ctx);
		key[q] = tmp.key;
		ex[q] = tmp.has_ex;
		free(tmp.mem);
		if (tmp.key >= 0) {
			for (g = 0; g < ng; g++)
				if (gkey[g] == tmp.key)
					break;
			if (g == ng && ng < 64)
				gkey[ng++] = tmp.key;
		}
	}
	if (!S || ng <= 1) {
		/* one unit, original layout */
		struct unit *x = &u[nu++];
		const struct ch_member *m = &t->members[r0];
		uint64_t end = 0;
		memset(x, 0, sizeof(*x));
		x->mem = (size_t *)malloc(rn * sizeof(size_t));
		x->relbit = (uint64_t *)malloc(rn * sizeof(uint64_t));
		if (!x->mem || !x->relbit)
			abort();
		x->first = r0;
		x->orig_off = m->offset;
		x->align = 1;
		for (q = 0; q < rn; q++) {
			const struct ch_member *mq = &t->members[r0 + q];
			x->mem[q] = r0 + q;
			x->relbit[q] = (mq->offset - m->offset) * 8 + mq->bit_offset;
			if (mq->offset + mq->size > end)
				end = mq->offset + mq->size;
			if (mq->align > x->align)
				x->align = mq->align;
		}
		x->nmem = rn;
		x->size = end - m->offset;   /* GCC packs what follows into the rest */
		x->S = S;
		x->t = t;
		free(key);
		free(ex);
		return nu;
	}
	{
		/* the group unannotated bit-fields join: first non-exclusive */
		int home = -1;
		for (q = 0; q < rn && home < 0; q++)
			if (key[q] >= 0 && !ex[q])
				home = key[q];
		for (g = 0; g <= ng; g++) {
			int gk = g < ng ? gkey[g] : KEY_NONE;
			struct unit *x;
			uint64_t used = 0, bits = S * 8;
			size_t n = 0;
			if (g == ng && home >= 0)
				break;   /* unannotated ones went home */
			for (q = 0; q < rn; q++)
				if (key[q] == gk || (key[q] == KEY_NONE && gk == home))
					n++;
			if (!n)
				continue;
			x = &u[nu++];
			memset(x, 0, sizeof(*x));
			x->mem = (size_t *)malloc(n * sizeof(size_t));
			x->relbit = (uint64_t *)malloc(n * sizeof(uint64_t));
			if (!x->mem || !x->relbit)
				abort();
			x->first = (size_t)-1;
			for (q = 0; q < rn; q++) {
				const struct ch_member *mq = &t->members[r0 + q];
				if (!(key[q] == gk || (key[q] == KEY_NONE && gk == home)))
					continue;
				if (used % bits + mq->bit_size > bits)
					used = align_up(used, bits);
				x->mem[x->nmem] = r0 + q;
				x->relbit[x->nmem++] = used;
				used += mq->bit_size;
				if (x->first == (size_t)-1)
					x->first = r0 + q;
			}
			x->align = t->members[x->first].align ? t->members[x->first].align : 1;
			x->size = (used + 7) / 8;
			x->S = S;
			x->t = t;
			x->orig_off = t->members[x->first].offset;
		}
	}
	free(key);
	free(ex);
	return nu;
}
