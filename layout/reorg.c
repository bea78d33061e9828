/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg.c -- cachehot-layout --reorganize STRUCT: a member order and
 * CACHELINE_PADDING placement that satisfies every annotation with the
 * fewest cache lines, then the fewest bytes; printed as a struct ready to
 * paste, and verified by running the core's own check on the proposed
 * layout before it is printed.
 *
 * Model. The direct members are the units that can move (an embedded struct
 * keeps its own layout; a run of bit-fields sharing storage moves as one,
 * or, when its fields have different classes, as one packed unit per class;
 * old padding members are dropped and re-placed). A unit's class key comes
 * from its flattened leaves (core's ch_flatten): one exclusive field, one hot
 * group (each ungrouped hot field is a group of its own), read-mostly, none
 * (neutral), or "composite" for an embedded struct holding conflicting
 * classes. The rules (core/rules.c): keys other than "none" conflict with each
 * other, except a key with itself (read-mostly with read-mostly, one hot group
 * with itself); an exclusive field conflicts with everything, neutral data
 * included. So each class key needs lines of its own: a segment starting on
 * a fresh cache line (CACHELINE_PADDING before it), and no layout can use
 * fewer lines than the sum over keys of ceil(bytes/line). Neutral members
 * share any segment except an exclusive one; they go, largest first, where
 * they fill a segment's last line without adding one (best fit), the rest to
 * the last segment that accepts them. Within a segment, members keep their
 * declaration order unless ordering by decreasing alignment saves bytes.
 * Segments keep the order in which their keys first appear in the source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

#define TABS "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
#define KEY_NONE (-1)
#define KEY_COMPOSITE (-2)

struct unit {
	size_t *mem;               /* member indexes, in the order they are laid out */
	size_t nmem;
	uint64_t *relbit;          /* bit-field unit: each member's first bit from the
				    * unit's start; NULL for other units */
	uint64_t S;                /* bit-fields of one storage type of S bytes:
				    * placed as GCC packs them (seg_layout) */
	const struct ch_type *t;   /* the struct (bit widths) */
	size_t first;              /* lowest member index (stable ordering) */
	uint64_t orig_off, size;   /* bytes */
	unsigned align;            /* bytes */
	int key;                   /* index into keys, KEY_NONE, KEY_COMPOSITE */
	int has_ex;                /* holds an exclusive leaf */
	int seg;                   /* segment it goes to */
	uint64_t new_off;
	const struct ch_group *group; /* a kernel cacheline group, moved whole */
};

struct seg {
	int key;                   /* key index, or KEY_COMPOSITE (one unit) / KEY_NONE */
	int exclusive;             /* no neutral member may join */
	size_t *u;                 /* unit indexes in order */
	size_t nu, capu;
	uint64_t start, end;       /* bytes */
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* Natural alignment of a member's type (without attributes on the member). */
static unsigned natural_align(const struct ch_member *m)
{
	unsigned a = 1;
	if (m->type)
		return m->type->align ? m->type->align : 1;
	while (a < m->elem_size && a < 16)
		a <<= 1;
	while (a > 1 && m->elem_size % a)
		a >>= 1;
	return a;
}

static int is_pad_member(const struct ch_member *m)
{
	enum ch_pad_kind k = ch_member_pad_kind(m);
	return k == CH_PAD_UNIFIED || k == CH_PAD_PRIVATE || k == CH_PAD_BYTES;
}

struct keyset {
	const char **name;
	size_t n, cap;
	size_t *idx;               /* open addressing: key index + 1, 0 empty */
	size_t capidx;             /* power of two, > 2 * n */
};

static size_t key_hash(const char *k)
{
	size_t h = 5381;
	while (*k)
		h = h * 33 + (unsigned char)*k++;
	return h;
}

static int key_index(struct keyset *ks, ch_ctx *ctx, const char *k)
{
	size_t i, h;
	if (2 * (ks->n + 1) >= ks->capidx) {
		size_t c = ks->capidx ? 2 * ks->capidx : 64;
		free(ks->idx);
		ks->idx = calloc(c, sizeof(size_t));
		if (!ks->idx)
			abort();
		ks->capidx = c;
		for (i = 0; i < ks->n; i++) {
			for (h = key_hash(ks->name[i]) & (c - 1); ks->idx[h]; h = (h + 1) & (c - 1))
				;
			ks->idx[h] = i + 1;
		}
	}
	for (h = key_hash(k) & (ks->capidx - 1); ks->idx[h]; h = (h + 1) & (ks->capidx - 1))
		if (!strcmp(ks->name[ks->idx[h] - 1], k))
			return (int)(ks->idx[h] - 1);
	if (ks->n == ks->cap) {
		ks->cap = ks->cap ? 2 * ks->cap : 8;
		ks->name = realloc(ks->name, ks->cap * sizeof(*ks->name));
		if (!ks->name)
			abort();
	}
	ks->name[ks->n] = ch_strdup(ctx, k);
	ks->idx[h] = ks->n + 1;
	return (int)ks->n++;
}

static unsigned seg_line;   /* bytes: the line size of the run (groups) */

/* Where a segment's layout stands after some of its units. */
struct lay {
	uint64_t off, bitcur;      /* next free byte; next free bit after bit-fields */
	int prev_bits;             /* the last unit was a bit-field unit */
};

/* Lay unit x out after st. Bit-field units of one storage type are placed
 * as GCC places consecutive bit-fields: from the bit where the previous
 * bit-field ended (or the first free byte), each field moved to the next
 * storage unit only when it would straddle one. */
static void lay_unit(struct unit *x, struct lay *st, int commit)
{
	size_t q;
	if (x->S) {
		uint64_t p = st->prev_bits ? st->bitcur : st->off * 8, bits = x->S * 8, first = 0;
		for (q = 0; q < x->nmem; q++) {
			unsigned b = x->t->members[x->mem[q]].bit_size;
			if (p % bits + b > bits)
				p = align_up(p, bits);
			if (!q)
				first = p;
			if (commit)
				x->relbit[q] = p;
			p += b;
		}
		if (commit) {
			x->new_off = first / 8;
			for (q = 0; q < x->nmem; q++)
				x->relbit[q] -= x->new_off * 8;
		}
		st->bitcur = p;
		st->off = (p + 7) / 8;
		st->prev_bits = 1;
		return;
	}
	st->off = align_up(st->off, x->align);
	if (x->group && seg_line) {
		/* a kernel group takes no more lines than its bytes need
		 * ([cachehot-group-span]): to the next line if it would */
		uint64_t gb = st->off + (x->group->begin - x->orig_off);
		uint64_t gn = x->group->end - x->group->begin;
		if (ch_lines_touched(gb, gn, seg_line) > ch_lines_min(gn, seg_line))
			st->off = align_up(st->off, seg_line);
	}
	if (commit)
		x->new_off = st->off;
	st->off += x->size;
	st->bitcur = st->off * 8;
	st->prev_bits = 0;
}

/* Lay out a segment's units from start; returns the end offset. */
static uint64_t seg_layout(struct unit *u, const size_t *order, size_t n, uint64_t start,
			   int commit)
{
	struct lay st = { start, start * 8, 0 };
	size_t i;
	for (i = 0; i < n; i++)
		lay_unit(&u[order[i]], &st, commit);
	return st.off;
}

static int cmp_align_desc_idx;
static struct unit *cmp_units;
static int by_align_desc(const void *a, const void *b)
{
	const struct unit *x = &cmp_units[*(const size_t *)a], *y = &cmp_units[*(const size_t *)b];
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->first < y->first ? -1 : 1;   /* stable: declaration order */
}

static void seg_push(struct seg *s, size_t ui)
{
	if (s->nu == s->capu) {
		s->capu = s->capu ? 2 * s->capu : 4;
		s->u = realloc(s->u, s->capu * sizeof(size_t));
		if (!s->u)
			abort();
	}
	s->u[s->nu++] = ui;
}

/* Choose the better of declaration order and decreasing alignment for the
 * segment (fewer bytes), keeping class units before neutral fillers in the
 * declaration-order variant. */
static void seg_order(struct unit *u, struct seg *s, uint64_t start)
{
	size_t *a, *b, i, k = 0;
	uint64_t ea, eb;
	if (s->nu < 2)
		return;
	a = malloc(s->nu * sizeof(size_t));
	b = malloc(s->nu * sizeof(size_t));
	if (!a || !b)
		abort();
	for (i = 0; i < s->nu; i++)
		if (u[s->u[i]].key != KEY_NONE)
			a[k++] = s->u[i];
	for (i = 0; i < s->nu; i++)
		if (u[s->u[i]].key == KEY_NONE)
			a[k++] = s->u[i];
	memcpy(b, s->u, s->nu * sizeof(size_t));
	cmp_units = u;
	qsort(b, s->nu, sizeof(size_t), by_align_desc);
	ea = seg_layout(u, a, s->nu, start, 0);
	eb = seg_layout(u, b, s->nu, start, 0);
	memcpy(s->u, eb < ea ? b : a, s->nu * sizeof(size_t));
	free(a);
	free(b);
}

static const char *class_word(const struct ch_member *m, ch_ctx *ctx, const char *sname,
			      const char **group)
{
	enum ch_class c = m->cls;
	*group = m->group;
	if (c == CH_CLASS_NONE && m->name)
		c = ch_sidecar_class(ctx, sname, m->name, group);
	return c == CH_CLASS_NONE ? NULL : ch_class_name(c);
}

static const char *macro_for(ch_ctx *ctx, const struct ch_member *m, const char *sname)
{
	const char *g;
	const char *w = class_word(m, ctx, sname, &g);
	if (!w)
		return NULL;
	if (!strcmp(w, "hot"))
		return g ? ch_printf(ctx, "__cacheline_hot_group(%s)", g) : "__cacheline_hot";
	if (!strcmp(w, "exclusive"))
		return "__cacheline_exclusive";
	return "__cacheline_read_mostly";
}

struct vcount {
	int warnings;
	FILE *out;
	int print;
};

static void verify_emit(const struct ch_finding *f, void *arg)
{
	struct vcount *v = arg;
	if (f->severity >= CH_SEV_WARNING || f->check == CH_CHECK_FALSE_SHARING) {
		if (f->severity >= CH_SEV_WARNING)
			v->warnings++;
		if (v->print && f->severity >= CH_SEV_WARNING)
			fprintf(v->out, " * still: %s\n", f->message);
	}
}

static void print_member(FILE *out, struct lt_set *s, const struct ch_member *m,
			 const char *sname, uint64_t new_off, unsigned extra_align,
			 const struct lt_opts *o, int indent);

/* An anonymous struct/union member: its body, recursively. */
static void print_anon(FILE *out, struct lt_set *s, const struct ch_member *m,
		       const char *sname, uint64_t base, const struct lt_opts *o, int indent)
{
	size_t i;
	const struct ch_type *t = m->type;
	fprintf(out, "%.*s%s {\n", indent, TABS, t->is_union ? "union" : "struct");
	for (i = 0; i < t->nmembers; i++)
		print_member(out, s, &t->members[i], sname, base + t->members[i].offset, 0, o,
			     indent + 1);
	fprintf(out, "%.*s}", indent, TABS);
}

static void print_member(FILE *out, struct lt_set *s, const struct ch_member *m,
			 const char *sname, uint64_t new_off, unsigned extra_align,
			 const struct lt_opts *o, int indent)
{
	char head[1024];
	const char *g, *cw = class_word(m, s->ctx, sname, &g);
	unsigned nat = natural_align(m);
	int w;
	head[0] = 0;
	if (!m->name && m->type) {
		print_anon(out, s, m, sname, new_off, o, indent);
		w = 8 * indent + 1;
	} else {
		w = 8 * indent + fprintf(out, "%.*s%s", indent, TABS, lt_member_decl(s, m, NULL)) - indent;
	}
	if (extra_align && extra_align > m->align)
		w += fprintf(out, " __aligned(%u)", extra_align);
	else if (m->user_align && m->align > nat)
		w += fprintf(out, " __aligned(%u)", m->align);
	if (o->macros && cw)
		w += fprintf(out, " %s", macro_for(s->ctx, m, sname));
	w += fprintf(out, ";");
	fprintf(out, "%*s/* %5llu %5llu%s%s%s%s */\n", w < 56 ? 56 - w : 1, "",
		(unsigned long long)new_off,
		(unsigned long long)(m->bit_size ? m->bit_size : m->size),
		m->bit_size ? " bits" : "", cw ? " " : "", cw ? cw : "",
		cw && g ? ch_printf(s->ctx, ":%s", g) : "");
	(void)head;
}

/* Member om (the q-th of unit x) at its new place, into nm. */
static void member_place(struct ch_member *nm, const struct ch_member *om, const struct unit *x,
			 size_t q)
{
	if (x->relbit && om->bit_size) {
		uint64_t bitpos = x->new_off * 8 + x->relbit[q];
		nm->offset = bitpos / 8;
		nm->bit_offset = (unsigned)(bitpos % 8);
		nm->size = (nm->bit_offset + om->bit_size + 7) / 8;
	} else
		nm->offset = om->offset - x->orig_off + x->new_off;
}

static void unit_new(struct unit *x, const struct ch_member *m, size_t idx)
{
	memset(x, 0, sizeof(*x));
	x->mem = malloc(sizeof(size_t));
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
static size_t group_unit(struct unit *x, const struct ch_type *t, const struct ch_group *g,
			 size_t b)
{
	size_t e = (size_t)(g->pad_m ? g->pad_m - t->members : g->end_m - t->members), q;
	uint64_t end = 0;
	memset(x, 0, sizeof(*x));
	x->mem = malloc((e - b + 1) * sizeof(size_t));
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

/* The flattened leaves by where they lie: those of each direct member
 * (lv[j].member one of t's members), and the nested ones by offset. Built
 * once, so that a unit finds its leaves without a pass over all of them. */
struct leafidx {
	const struct ch_leaf *lv;
	size_t nl;
	size_t *tfirst, *tidx;     /* leaves of member i: tidx[tfirst[i] .. tfirst[i+1]) */
	size_t *nest, nnest;       /* nested leaves, by (offset, index) */
	size_t *cand;              /* scratch: a unit's leaves */
};

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

static void leafidx_build(struct leafidx *li, const struct ch_type *t, const struct ch_leaf *lv,
			  size_t nl)
{
	size_t j, i, *fill;
	li->lv = lv;
	li->nl = nl;
	li->tfirst = calloc(t->nmembers + 1, sizeof(size_t));
	li->tidx = calloc(nl + 1, sizeof(size_t));
	li->nest = calloc(nl + 1, sizeof(size_t));
	li->cand = calloc(nl + 1, sizeof(size_t));
	fill = calloc(t->nmembers + 1, sizeof(size_t));
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

static void leafidx_free(struct leafidx *li)
{
	free(li->tfirst);
	free(li->tidx);
	free(li->nest);
	free(li->cand);
}

/* Class key of a unit from the flattened leaves inside it: the leaves of
 * its members, and (not for bit-field units) nested leaves starting in its
 * bytes; in leaf order. */
static void unit_key(struct unit *x, const struct ch_type *t, struct leafidx *li,
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
		if (l->cls == CH_CLASS_EXCLUSIVE) {
			x->has_ex = 1;
			snprintf(kbuf, sizeof(kbuf), "exclusive %s", l->path);
		} else if (l->cls == CH_CLASS_HOT)
			snprintf(kbuf, sizeof(kbuf), l->group ? "hot group %s" : "hot %s",
				 l->group ? l->group : l->path);
		else
			snprintf(kbuf, sizeof(kbuf), "read-mostly");
		k = key_index(ks, ctx, kbuf);
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
static size_t bitfield_units(struct unit *u, size_t nu, const struct ch_type *t, size_t r0,
			     size_t rn, uint64_t S, struct leafidx *li, struct keyset *ks,
			     ch_ctx *ctx)
{
	int *key = calloc(rn, sizeof(int)), *ex = calloc(rn, sizeof(int));
	int gkey[64];
	size_t ng = 0, q, g;
	if (!key || !ex)
		abort();
	for (q = 0; q < rn; q++) {
		struct unit tmp;
		unit_new(&tmp, &t->members[r0 + q], r0 + q);
		tmp.relbit = (uint64_t *)1;   /* leaves by member only */
		unit_key(&tmp, t, li, ks, ctx);
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
		x->mem = malloc(rn * sizeof(size_t));
		x->relbit = malloc(rn * sizeof(uint64_t));
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
			x->mem = malloc(n * sizeof(size_t));
			x->relbit = malloc(n * sizeof(uint64_t));
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

int lt_reorganize(struct lt_set *s, struct lt_struct *st, const struct lt_opts *o,
		  FILE *out, char *err, size_t errsz)
{
	ch_ctx *ctx = s->ctx;
	struct ch_type *t = st->t;
	unsigned L = ch_config_line_size(&o->cfg);
	/* segments start on the architecture's line: CACHELINE_PADDING follows
	 * it, and the core does not report a padded separation at a predicted
	 * larger line size (docs/checks.rst) */
	unsigned SA = L;
	struct ch_leaf *lv;
	size_t nl, i, j, q0, nu = 0, nseg = 0, flex = (size_t)-1, npads = 0;
	struct unit *u;
	struct seg *sg;
	const struct ch_groups *gs;
	struct keyset ks = { NULL, 0, 0, NULL, 0 };
	struct leafidx li;
	size_t *begins;            /* member i: index + 1 of the group it begins, 0 */
	uint64_t off, size;
	unsigned salign = 1;
	int *key_seg;
	struct ch_type *nt, *cpt;
	struct vcount vc = { 0, out, 0 };
	uint64_t old_lines = (t->size + L - 1) / L, new_lines;

	if (t->is_union) {
		snprintf(err, errsz, "%s is a union: its members share offset 0, there is no "
			 "order to reorganize", st->name);
		return -1;
	}
	if (t->randomized) {
		snprintf(err, errsz, "struct %s is laid out by randstruct: its member order is "
			 "not the compiler's, no reorganization is proposed", st->name);
		return -1;
	}
	if (!t->nmembers) {
		snprintf(err, errsz, "struct %s has no members", st->name);
		return -1;
	}
	ch_flatten(ctx, t, &lv, &nl);
	leafidx_build(&li, t, lv, nl);
	seg_line = L;
	u = calloc(t->nmembers, sizeof(*u));
	sg = calloc(t->nmembers + 2, sizeof(*sg));
	if (!u || !sg)
		abort();

	/* units */
	gs = ch_type_groups(ctx, t);
	begins = calloc(t->nmembers + 1, sizeof(size_t));
	if (!begins)
		abort();
	for (q0 = gs->n; q0-- > 0;)   /* the first group wins, as a scan would find it */
		if (gs->v[q0].begin_m >= t->members && gs->v[q0].begin_m < t->members + t->nmembers)
			begins[gs->v[q0].begin_m - t->members] = q0 + 1;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		size_t r0 = i, rn, q;
		uint64_t end, S;
		int same_storage = 1;
		q = begins[i] ? begins[i] - 1 : gs->n;
		if (q < gs->n) {
			/* a kernel cacheline group moves whole, markers included */
			i = group_unit(&u[nu++], t, &gs->v[q], i);
			continue;
		}
		if (is_pad_member(m))
			continue;
		if (!m->bit_size) {
			if (m->flexible)
				flex = nu;
			unit_new(&u[nu++], m, i);
			continue;
		}
		/* a run of bit-fields sharing storage */
		end = m->offset + m->size;
		while (i + 1 < t->nmembers && t->members[i + 1].bit_size &&
		       t->members[i + 1].offset < align_up(end, m->align ? m->align : 1)) {
			i++;
			if (t->members[i].offset + t->members[i].size > end)
				end = t->members[i].offset + t->members[i].size;
		}
		rn = i + 1 - r0;
		S = m->elem_size;
		for (q = r0; q <= i; q++)
			if (t->members[q].elem_size != S || !S)
				same_storage = 0;
		nu = bitfield_units(u, nu, t, r0, rn, same_storage ? S : 0, &li, &ks, ctx);
	}
	if (flex != (size_t)-1 && flex != nu - 1) {
		for (i = 0; i < nu; i++) {
			free(u[i].mem);
			free(u[i].relbit);
		}
		free(u);
		free(sg);
		free(ks.name);
		free(ks.idx);
		free(begins);
		leafidx_free(&li);
		snprintf(err, errsz, "struct %s: the flexible array member is not last", st->name);
		return -1;
	}

	/* class key of each unit, from its leaves; a kernel group without
	 * annotated fields has its group's class (written groups together,
	 * read-mostly groups with read-mostly fields) */
	for (i = 0; i < nu; i++) {
		unit_key(&u[i], t, &li, &ks, ctx);
		if (u[i].group && u[i].key == KEY_NONE && u[i].group->cls == CH_CLASS_HOT)
			u[i].key = key_index(&ks, ctx, "written groups");
		else if (u[i].group && u[i].key == KEY_NONE &&
			 u[i].group->cls == CH_CLASS_READ_MOSTLY)
			u[i].key = key_index(&ks, ctx, "read-mostly");
	}

	/* segments: one per key, composites alone, in order of first appearance */
	key_seg = malloc((ks.n + 1) * sizeof(int));
	if (!key_seg)
		abort();
	for (i = 0; i < ks.n; i++)
		key_seg[i] = -1;
	for (i = 0; i < nu; i++) {
		struct unit *x = &u[i];
		if (i == flex || x->key == KEY_NONE)
			continue;
		if (x->key == KEY_COMPOSITE) {
			sg[nseg].key = KEY_COMPOSITE;
			sg[nseg].exclusive = x->has_ex;
			x->seg = (int)nseg;
			seg_push(&sg[nseg++], i);
			continue;
		}
		if (key_seg[x->key] < 0) {
			key_seg[x->key] = (int)nseg;
			sg[nseg].key = x->key;
			sg[nseg].exclusive = x->has_ex;
			nseg++;
		}
		x->seg = key_seg[x->key];
		seg_push(&sg[x->seg], i);
	}

	/* a flexible array member stays last: the segment of its class goes last
	 * (or, unannotated, a segment that accepts neutral data) */
	if (flex != (size_t)-1) {
		int fk = u[flex].key;
		size_t fs = (size_t)-1;
		if (fk >= 0) {
			if (key_seg[fk] < 0) {
				key_seg[fk] = (int)nseg;
				sg[nseg].key = fk;
				sg[nseg].exclusive = u[flex].has_ex;
				nseg++;
			}
			fs = (size_t)key_seg[fk];
		} else if (fk == KEY_COMPOSITE) {
			sg[nseg].key = KEY_COMPOSITE;
			sg[nseg].exclusive = u[flex].has_ex;
			fs = nseg++;
		} else {
			for (j = nseg; j-- > 0;)
				if (!sg[j].exclusive) {
					fs = j;
					break;
				}
			if (fs == (size_t)-1) {
				sg[nseg].key = KEY_NONE;
				fs = nseg++;
			}
		}
		if (fs != nseg - 1) {
			struct seg tmp = sg[fs];
			memmove(&sg[fs], &sg[fs + 1], (nseg - 1 - fs) * sizeof(*sg));
			sg[nseg - 1] = tmp;
		}
		for (i = 0; i < ks.n; i++)
			key_seg[i] = -1;
		for (j = 0; j < nseg; j++)
			if (sg[j].key >= 0)
				key_seg[sg[j].key] = (int)j;
	}

	/* neutral units: best fit into the last lines of segments that accept
	 * them, largest first; the rest to the last accepting segment */
	{
		size_t *nidx = malloc((nu + 1) * sizeof(size_t)), nn = 0;
		if (!nidx)
			abort();
		for (i = 0; i < nu; i++)
			if (i != flex && u[i].key == KEY_NONE)
				nidx[nn++] = i;
		cmp_units = u;
		qsort(nidx, nn, sizeof(size_t), by_align_desc);
		/* each segment's layout from 0 so far (lay), kept as units join:
		 * a trial is one lay_unit, not the whole segment again */
		struct lay *sl = calloc(nseg + 1, sizeof(*sl));
		if (!sl)
			abort();
		for (j = 0; j < nseg; j++)
			for (i = 0; i < sg[j].nu; i++)
				lay_unit(&u[sg[j].u[i]], &sl[j], 0);
		for (i = 0; i < nn; i++) {
			size_t best = (size_t)-1;
			uint64_t best_slack = 0;
			for (j = 0; j < nseg; j++) {
				uint64_t e0, e1, lines0, lines1, slack;
				struct lay tr;
				if (sg[j].exclusive)
					continue;
				e0 = sl[j].off;
				tr = sl[j];
				lay_unit(&u[nidx[i]], &tr, 0);
				e1 = tr.off;
				lines0 = (e0 + L - 1) / L;
				lines1 = (e1 + L - 1) / L;
				if (lines1 > lines0)
					continue;
				slack = lines1 * L - e1;
				if (best == (size_t)-1 || slack < best_slack) {
					best = j;
					best_slack = slack;
				}
			}
			if (best == (size_t)-1) {
				/* last accepting segment, or a neutral segment */
				for (j = nseg; j-- > 0;)
					if (!sg[j].exclusive) {
						best = j;
						break;
					}
				if (best == (size_t)-1) {
					sg[nseg].key = KEY_NONE;
					memset(&sl[nseg], 0, sizeof(*sl));
					best = nseg++;
				}
			}
			u[nidx[i]].seg = (int)best;
			seg_push(&sg[best], nidx[i]);
			lay_unit(&u[nidx[i]], &sl[best], 0);
		}
		free(sl);
		free(nidx);
	}
	if (!nseg) {
		sg[0].key = KEY_NONE;
		nseg = 1;
	}

	/* offsets */
	off = 0;
	for (j = 0; j < nseg; j++) {
		if (j > 0) {
			off = align_up(off, SA);
			npads++;
		}
		seg_order(u, &sg[j], off);
		sg[j].start = off;
		off = seg_layout(u, sg[j].u, sg[j].nu, off, 1);
		sg[j].end = off;
	}
	if (flex != (size_t)-1) {
		off = align_up(off, u[flex].align);
		u[flex].new_off = off;
	}
	for (i = 0; i < nu; i++)
		if (u[i].align > salign)
			salign = u[i].align;
	if (npads && salign < L)
		salign = L;
	if (npads && SA > L && salign < SA)
		salign = SA;
	if (t->align > salign && !npads)
		salign = t->align;   /* keep an alignment the struct asked for */
	size = align_up(off, salign);
	new_lines = (size + L - 1) / L;

	/* the proposal as a core type, judged by the core itself */
	cpt = ch_type_new(ctx, NULL, "cacheline_padding", 0, 0, L);
	{
		struct ch_member *pm = ch_type_add_member(ctx, cpt, "x");
		pm->nelems = 0;
		pm->elem_size = 1;
		pm->is_integer = 1;
		pm->align = 1;
		pm->type_name = "char[0]";
	}
	nt = ch_type_new(ctx, NULL, t->name, 0, size, salign);
	nt->name_is_typedef = t->name_is_typedef;
	nt->loc = t->loc;
	for (j = 0; j < nseg; j++) {
		size_t k;
		if (j > 0) {
			struct ch_member *pm = ch_type_add_member(ctx, nt,
					ch_printf(ctx, "_pad%zu_", j));
			pm->type = cpt;
			pm->align = L;
			pm->user_align = 1;
			pm->elem_size = 0;
			pm->type_name = "struct cacheline_padding";
			pm->offset = sg[j].start;
			pm->loc = t->loc;
		}
		for (k = 0; k < sg[j].nu; k++) {
			struct unit *x = &u[sg[j].u[k]];
			size_t q;
			for (q = 0; q < x->nmem; q++) {
				const struct ch_member *om = &t->members[x->mem[q]];
				struct ch_member *nm = ch_type_add_member(ctx, nt, om->name);
				*nm = *om;
				member_place(nm, om, x, q);
			}
		}
	}
	if (flex != (size_t)-1) {
		const struct ch_member *om = &t->members[u[flex].first];
		struct ch_member *nm = ch_type_add_member(ctx, nt, om->name);
		*nm = *om;
		member_place(nm, om, &u[flex], 0);
	}
	ch_check_type(ctx, nt, &o->cfg, verify_emit, &vc);

	/* print */
	fprintf(out, "/* cachehot-layout --reorganize %s: %llu cache line%s, %llu bytes "
		"(was %llu, %llu bytes) at %u-byte lines%s; ",
		st->name, (unsigned long long)new_lines, new_lines == 1 ? "" : "s",
		(unsigned long long)size, (unsigned long long)old_lines,
		(unsigned long long)t->size, L,
		SA > L ? ch_printf(ctx, ", segments on %u-byte boundaries", SA) : "");
	if (vc.warnings)
		fprintf(out, "the core still finds %d conflict%s no member order removes "
			"(inside an embedded type, which keeps its own layout)\n", vc.warnings,
			vc.warnings == 1 ? "" : "s");
	else
		fprintf(out, "checked by the core: no conflict\n");
	if (vc.warnings) {
		vc.print = 1;
		vc.warnings = 0;
		ch_check_type(ctx, nt, &o->cfg, verify_emit, &vc);
	}
	for (j = 0; j < nseg; j++) {
		const char *what;
		if (sg[j].key == KEY_COMPOSITE)
			what = ch_printf(ctx, "embedded '%s' with its own layout",
					 t->members[u[sg[j].u[0]].first].name ?
					 t->members[u[sg[j].u[0]].first].name : "<anonymous>");
		else if (sg[j].key == KEY_NONE)
			what = "unannotated";
		else
			what = ks.name[sg[j].key];
		fprintf(out, " * lines %llu-%llu: %s\n", (unsigned long long)(sg[j].start / L),
			(unsigned long long)((sg[j].end > sg[j].start ? sg[j].end - 1 : sg[j].start) / L),
			what);
	}
	fprintf(out, " */\n");
	if (t->name_is_typedef)
		fprintf(out, "typedef struct {\n");
	else
		fprintf(out, "struct %s {\n", st->name);
	for (j = 0; j < nseg; j++) {
		size_t k;
		if (j > 0) {
			int w = 7 + fprintf(out, "\tCACHELINE_PADDING(_pad%zu_);", j);
			fprintf(out, "%*s/* %5llu     0 */\n", w < 56 ? 56 - w : 1, "",
				(unsigned long long)sg[j].start);
		}
		for (k = 0; k < sg[j].nu; k++) {
			struct unit *x = &u[sg[j].u[k]];
			size_t q;
			for (q = 0; q < x->nmem; q++) {
				const struct ch_member *om = &t->members[x->mem[q]];
				struct ch_member pm = *om;
				member_place(&pm, om, x, q);
				print_member(out, s, om, st->name, pm.offset, 0, o, 1);
			}
		}
	}
	if (flex != (size_t)-1)
		print_member(out, s, &t->members[u[flex].first], st->name, u[flex].new_off, 0, o, 1);
	if (t->name_is_typedef)
		fprintf(out, "} %s;\n", st->name);
	else
		fprintf(out, "};\n");

	for (j = 0; j < nseg; j++)
		free(sg[j].u);
	for (i = 0; i < nu; i++) {
		free(u[i].mem);
		free(u[i].relbit);
	}
	free(sg);
	free(u);
	free(ks.name);
	free(ks.idx);
	free(begins);
	leafidx_free(&li);
	free(key_seg);
	(void)cmp_align_desc_idx;
	return 0;
}
