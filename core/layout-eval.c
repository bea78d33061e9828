/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout-eval.c -- the one model of a struct laid out again in another
 * order (ch_layout_*: as GCC lays it out, bit-fields packed into the
 * storage unit before them where they fit; the fix's search, core/fix*.c,
 * and the planner, core/reorg*.c, both place members with it), and one
 * measure of a laid-out struct: its size, the cache lines it spans, the
 * lines its annotated fields touch (per class key) and its holes.
 * ch_reorganize (reorg-plan.c) judges its two plans, the fix's layout and
 * the regrouping by class, by it; cachehot-layout --reorganize prints it.
 *
 * The model: GCC's for x86-64 and arm64 (not ms_struct, not packed): a
 * member at its alignment after the previous one; a bit-field of width w
 * whose storage type has S bytes at the first free bit when the bits fit
 * in one aligned S-byte unit, else at the next unit (ch_bitfield_place).
 * S is the smallest unit that holds the bit-field where it is declared
 * (ch_bitfield_storage), the same from every front end (the plugin's and
 * sparse's members carry the bytes a bit-field touches, not its declared
 * type). It reproduces every declared layout GCC makes (a unit GCC skips
 * to is also the next smaller unit the bits fit in); a moved bit-field
 * packs where GCC packs it whenever the bits fit that unit, and otherwise
 * goes to the next one, which may be one unit later than GCC (whose
 * declared type may be wider): then the size is over, never under, GCC's.
 * A struct it does not reproduce as declared (ch_layout_fits: zero-width
 * bit-fields, packed members) gets no fix.
 *
 * Cost of the measure: O(members log members + leaves log leaves); lines are counted as
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

uint64_t ch_bitfield_storage(const struct ch_member *m)
{
	uint64_t p = m->offset * 8 + m->bit_offset, s;
	for (s = 1; s < 16; s *= 2)
		if (m->bit_size <= s * 8 && p % (s * 8) + m->bit_size <= s * 8)
			return s;
	return 16;
}

void ch_layout_start(const struct ch_type *t, struct ch_layout_cursor *c)
{
	c->off = 0;
	c->bitcur = 0;
	c->prev_bits = 0;
	c->align = t->align ? t->align : 1;
}

uint64_t ch_layout_place(const struct ch_type *t, struct ch_layout_cursor *c, size_t i, int brk,
			 unsigned L, unsigned sep)
{
	const struct ch_member *m = &t->members[i];
	unsigned a = m->align ? m->align : 1;
	uint64_t p;
	if (brk && sep) {   /* a separator of sep bytes (core/idiom.c) */
		c->off += sep;
		c->prev_bits = 0;
	} else if (brk) {   /* a zero-size member aligned to the line */
		c->off = align_up(c->off, L);
		c->prev_bits = 0;
		if (c->align < L)
			c->align = L;
	}
	if (m->bit_size && m->user_align && a > 1) {   /* aligned(N) starts a unit */
		c->off = align_up(c->off, a);
		c->prev_bits = 0;
	}
	if (m->bit_size) {
		p = ch_bitfield_place(c->prev_bits ? c->bitcur : c->off * 8, m->bit_size,
				      ch_bitfield_storage(m));
		c->bitcur = p + m->bit_size;
		c->off = (c->bitcur + 7) / 8;
		c->prev_bits = 1;
	} else {
		c->off = align_up(c->off, a);
		p = c->off * 8;
		c->off += m->size;
		c->bitcur = c->off * 8;
		c->prev_bits = 0;
	}
	if (a > c->align)
		c->align = a;
	return p;
}

uint64_t ch_layout_size(const struct ch_layout_cursor *c)
{
	return align_up(c->off, c->align);
}

uint64_t ch_layout_order(const struct ch_type *t, const size_t *order, const int *brk, unsigned L,
			 uint64_t *bitpos, unsigned *align)
{
	struct ch_layout_cursor c;
	size_t k;
	ch_layout_start(t, &c);
	for (k = 0; k < t->nmembers; k++)
		bitpos[order[k]] = ch_layout_place(t, &c, order[k], brk && brk[order[k]], L, 0);
	*align = c.align;
	return ch_layout_size(&c);
}

int ch_layout_fits(const struct ch_type *t)
{
	size_t k, *id = (size_t *)calloc(t->nmembers + 1, sizeof(size_t));
	uint64_t *bits = (uint64_t *)calloc(t->nmembers + 1, sizeof(uint64_t));
	unsigned al;
	int ok;
	if (!id || !bits)
		abort();
	for (k = 0; k < t->nmembers; k++)
		id[k] = k;
	ok = ch_layout_order(t, id, NULL, 1, bits, &al) == t->size;
	for (k = 0; ok && k < t->nmembers; k++)
		ok = bits[k] == t->members[k].offset * 8 + t->members[k].bit_offset;
	free(id);
	free(bits);
	return ok;
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
