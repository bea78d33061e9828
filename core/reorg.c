/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg.c -- the regrouping by class, one of the two plans of cachehot-layout
 * --reorganize STRUCT (reorg-plan.c chooses; layout/reorg.c prints): a
 * member order and CACHELINE_PADDING placement that satisfies every
 * annotation with the fewest cache lines, then the fewest bytes, verified
 * by running the core's own check on the proposed layout. (fix.c plans the
 * other way: the fewest edits to the declared order that resolve its
 * conflicts, the fix every warning names; it is the other plan.)
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
#include "reorg.h"

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
		uint64_t p = st->prev_bits ? st->bitcur : st->off * 8, first = 0;
		for (q = 0; q < x->nmem; q++) {
			unsigned b = x->t->members[x->mem[q]].bit_size;
			p = ch_bitfield_place(p, b, x->S);
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
	CH_GROW(s->u, s->nu, s->capu, 4);
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
	a = (size_t *)malloc(s->nu * sizeof(size_t));
	b = (size_t *)malloc(s->nu * sizeof(size_t));
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


/* Member om (the q-th of unit x) at its new place, into nm. */

/* Warnings the core still finds on the proposal. */
static void count_emit(const struct ch_finding *f, void *arg)
{
	if (f->severity >= CH_SEV_WARNING)
		++*(int *)arg;
}

/* The planner's scratch: the units and their member lists, the first nseg
 * segments' unit lists, the class keys, the group starts, the leaf index. */
static void scratch_free(struct unit *u, size_t nu, struct seg *sg, size_t nseg, struct keyset *ks,
			 size_t *begins, struct leafidx *li)
{
	size_t i;
	for (i = 0; i < nseg; i++)
		free(sg[i].u);
	for (i = 0; i < nu; i++) {
		free(u[i].mem);
		free(u[i].relbit);
	}
	free(sg);
	free(u);
	free(ks->name);
	ch_index_free(&ks->idx);
	free(begins);
	ch_reorg_leaves_free(li);
}

struct ch_type *ch_reorg_padding_type(ch_ctx *ctx, unsigned L)
{
	struct ch_type *cpt = ch_type_new(ctx, NULL, "cacheline_padding", 0, 0, L);
	struct ch_member *pm = ch_type_add_member(ctx, cpt, "x");
	pm->nelems = 0;
	pm->elem_size = 1;
	pm->is_integer = 1;
	pm->align = 1;
	pm->type_name = "char[0]";
	return cpt;
}

void ch_reorg_add_pad(ch_ctx *ctx, struct ch_type *nt, struct ch_type *cpt, const char *name,
		      uint64_t off, unsigned L, struct ch_loc loc)
{
	struct ch_member *pm = ch_type_add_member(ctx, nt, name);
	pm->type = cpt;
	pm->align = L;
	pm->user_align = 1;
	pm->elem_size = 0;
	pm->type_name = "struct cacheline_padding";
	pm->offset = off;
	pm->loc = loc;
}

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

struct ch_reorg *ch_reorg_regroup(ch_ctx *ctx, struct ch_type *t, const char *name,
				  const struct ch_config *cfg, char *err, size_t errsz)
{
	unsigned L = ch_config_line_size(cfg);
	/* segments start on the architecture's line: CACHELINE_PADDING follows
	 * it, and the core does not report a padded separation at a predicted
	 * larger line size (docs/checks.rst) */
	unsigned SA = L;
	struct ch_leaf *lv;
	size_t nl, i, j, q0, nu = 0, nseg = 0, flex = (size_t)-1, npads = 0;
	struct unit *u;
	struct seg *sg;
	const struct ch_groups *gs;
	struct keyset ks = { NULL, 0, 0, { NULL, 0, 0 } };
	struct leafidx li;
	size_t *begins;            /* member i: index + 1 of the group it begins, 0 */
	uint64_t off, size;
	unsigned salign = 1;
	int *key_seg;
	struct ch_type *nt, *cpt;
	struct ch_reorg *r;
	size_t np;
	uint64_t old_lines = (t->size + L - 1) / L, new_lines;

	if (t->is_union) {
		snprintf(err, errsz, "%s is a union: its members share offset 0, there is no "
			 "order to reorganize", name);
		return NULL;
	}
	if (t->randomized) {
		snprintf(err, errsz, "struct %s is laid out by randstruct: its member order is "
			 "not the compiler's, no reorganization is proposed", name);
		return NULL;
	}
	if (!t->nmembers) {
		snprintf(err, errsz, "struct %s has no members", name);
		return NULL;
	}
	ch_flatten(ctx, t, &lv, &nl);
	ch_reorg_leaves_build(&li, t, lv, nl);
	seg_line = L;
	u = (struct unit *)calloc(t->nmembers, sizeof(*u));
	sg = (struct seg *)calloc(t->nmembers + 2, sizeof(*sg));
	if (!u || !sg)
		abort();

	/* units */
	gs = ch_type_groups(ctx, t);
	begins = (size_t *)calloc(t->nmembers + 1, sizeof(size_t));
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
			i = ch_reorg_group_unit(&u[nu++], t, &gs->v[q], i);
			continue;
		}
		if (ch_reorg_is_pad(m))
			continue;
		if (!m->bit_size) {
			if (m->flexible)
				flex = nu;
			ch_reorg_unit_new(&u[nu++], m, i);
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
		nu = ch_reorg_bitfield_units(u, nu, t, r0, rn, same_storage ? S : 0, &li, &ks, ctx);
	}
	if (flex != (size_t)-1 && flex != nu - 1) {
		scratch_free(u, nu, sg, 0, &ks, begins, &li);
		snprintf(err, errsz, "struct %s: the flexible array member is not last", name);
		return NULL;
	}

	/* class key of each unit, from its leaves; a kernel group without
	 * annotated fields has its group's class (written groups together,
	 * read-mostly groups with read-mostly fields) */
	for (i = 0; i < nu; i++) {
		ch_reorg_unit_key(&u[i], t, &li, &ks, ctx);
		if (u[i].group && u[i].key == KEY_NONE && u[i].group->cls == CH_CLASS_HOT)
			u[i].key = ch_reorg_key(&ks, ctx, "written groups");
		else if (u[i].group && u[i].key == KEY_NONE &&
			 u[i].group->cls == CH_CLASS_READ_MOSTLY)
			u[i].key = ch_reorg_key(&ks, ctx, "read-mostly");
	}

	/* segments: one per key, composites alone, in order of first appearance */
	key_seg = (int *)malloc((ks.n + 1) * sizeof(int));
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
		size_t *nidx = (size_t *)malloc((nu + 1) * sizeof(size_t)), nn = 0;
		if (!nidx)
			abort();
		for (i = 0; i < nu; i++)
			if (i != flex && u[i].key == KEY_NONE)
				nidx[nn++] = i;
		cmp_units = u;
		qsort(nidx, nn, sizeof(size_t), by_align_desc);
		/* each segment's layout from 0 so far (lay), kept as units join:
		 * a trial is one lay_unit, not the whole segment again */
		struct lay *sl = (struct lay *)calloc(nseg + 1, sizeof(*sl));
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
	cpt = ch_reorg_padding_type(ctx, L);
	nt = ch_type_new(ctx, NULL, t->name, 0, size, salign);
	nt->name_is_typedef = t->name_is_typedef;
	nt->loc = t->loc;
	for (j = 0; j < nseg; j++) {
		size_t k;
		if (j > 0)
			ch_reorg_add_pad(ctx, nt, cpt, ch_printf(ctx, "_pad%zu_", j), sg[j].start, L,
					 t->loc);
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

	/* the plan: segments, members at their new offsets, the proposal
	 * judged by the core itself */
	r = (struct ch_reorg *)ch_alloc(ctx, sizeof(*r));
	r->line_size = L;
	r->seg_align = SA;
	r->size = size;
	r->lines = new_lines;
	r->old_lines = old_lines;
	r->proposal = nt;
	ch_check_type(ctx, nt, cfg, count_emit, &r->conflicts);
	r->nsegs = nseg;
	r->segs = (struct ch_reorg_seg *)ch_alloc(ctx, nseg * sizeof(*r->segs));
	for (j = 0; j < nseg; j++) {
		r->segs[j].start = sg[j].start;
		r->segs[j].end = sg[j].end;
		r->segs[j].pad = j ? ch_printf(ctx, "CACHELINE_PADDING(_pad%zu_)", j) : NULL;
		if (sg[j].key == KEY_COMPOSITE)
			r->segs[j].what = ch_printf(ctx, "embedded '%s' with its own layout",
						    t->members[u[sg[j].u[0]].first].name ?
						    t->members[u[sg[j].u[0]].first].name : "<anonymous>");
		else if (sg[j].key == KEY_NONE)
			r->segs[j].what = "unannotated";
		else
			r->segs[j].what = ks.name[sg[j].key];
	}
	r->members = (struct ch_reorg_member *)ch_alloc(ctx, (t->nmembers + 1) *
							sizeof(*r->members));
	np = 0;
	for (j = 0; j < nseg; j++) {
		size_t k;
		for (k = 0; k < sg[j].nu; k++) {
			struct unit *x = &u[sg[j].u[k]];
			size_t q;
			for (q = 0; q < x->nmem; q++) {
				const struct ch_member *om = &t->members[x->mem[q]];
				struct ch_member pm = *om;
				member_place(&pm, om, x, q);
				r->members[np].m = om;
				r->members[np].offset = pm.offset;
				r->members[np++].seg = j;
			}
		}
	}
	if (flex != (size_t)-1) {
		r->members[np].m = &t->members[u[flex].first];
		r->members[np].offset = u[flex].new_off;
		r->members[np++].seg = (size_t)-1;
	}
	r->nmembers = np;

	scratch_free(u, nu, sg, nseg, &ks, begins, &li);
	free(key_seg);
	(void)cmp_align_desc_idx;
	return r;
}
