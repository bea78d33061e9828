/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix.c -- one fix per struct: the fewest line breaks (and, where a break
 * would split a hot group, moves) that resolve every false-sharing conflict
 * between the top-level members of a struct at once, with its cost
 * (docs/checks.rst "One fix per struct"; ch_struct_fix, cachehot-core.h).
 *
 * A "break" before member m starts m on a new cache line: in kernel code
 * (__KERNEL__ defined) CACHELINE_PADDING(_padN_) inserted before m
 * (<linux/cache.h>, "cache: add __cacheline_group_begin..." era kernels
 * have it since 6.1), elsewhere _Alignas(L) on m (C11; compiles under
 * -pedantic), or the tree's own alignment or separator idiom (idiom.c).
 * Both align m to the line and raise the struct's alignment to the line,
 * so the struct's size becomes a multiple of the line.
 *
 * Method: the members laid out again as GCC lays them out (fix-sim.c, on
 * the one model of a layout in layout-eval.c: a bit-field the fix moves
 * next to another packs into its storage unit where it fits), the greedy
 * search for the breaks and moves (fix-search.c, run as one sweep:
 * fix-sweep.c), then here: a reorder of the read-mostly members that beats
 * the breaks (cheaper_reorder), the answer kept across units
 * (fix-cache.c), the edits, and their text (fix-text.c). A struct the
 * model does not reproduce as declared gets no fix.
 *
 * Units: bytes; L, the line size, in bytes. Memory: the fix is ctx-owned;
 * scratch is malloc'd and freed here; allocation failures abort.
 */
#include <stdlib.h>
#include <string.h>
#include "fix-internal.h"

/* Edits a fix names in every warning it is attached to; past that, the
 * first warning names them all and the others the first ones and a count
 * (else the output would grow with edits x warnings). */
#define CH_FIX_BRIEF_EDITS 8

/* Test hook (internal.h): 1 = always ch_fix_greedy_ref. */
int ch_fix_reference_search;

/* The main search on s (identity order, no breaks): 1 when clean. sw: the
 * sweep of (t, v, n, L, ins) when the caller made one for many searches
 * (it depends on nothing else, and ch_fix_greedy_sweep starts each search
 * afresh), else NULL. */
static int search_fix(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n, struct sim *s,
		      size_t *pos, unsigned L, int ins, int search, struct sweep *shared)
{
	int ok;
	if (shared)
		return ch_fix_greedy_sweep(shared, s, pos, search);
	if (ch_fix_reference_search || !ch_fix_sweep_fits(t, v, n)) {
		ok = ch_fix_greedy_ref(t, v, n, s, pos, L, ins, search);
	} else {
		struct sweep *sw = ch_fix_sweep_new(t, v, n, L, ins);
		ok = ch_fix_greedy_sweep(sw, s, pos, search);
		ch_fix_sweep_free(sw);
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
	if (ch_fix_sim_edits(a) != ch_fix_sim_edits(b))
		return ch_fix_sim_edits(a) < ch_fix_sim_edits(b);
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
		ch_fix_simulate(t, tr, L);
		if (!*have || cheaper(tr, best)) {
			ch_fix_sim_copy(best, tr);
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
	struct sweep *sw = NULL;   /* one for all the searches below */
	if (s->n > CH_FIX_BLOCK_MAX || s->n < 2)
		return;
	if (!ch_fix_reference_search && ch_fix_sweep_fits(t, v, n)) {
		sw = ch_fix_sweep_new(t, v, n, L, ins);
	}
	cand = (char *)ch_fix_xcalloc(s->n, 1);
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
	tpos = (size_t *)ch_fix_xcalloc(s->n, sizeof(size_t));
	ch_fix_sim_alloc(&tr, s->n);
	ch_fix_sim_alloc(&best, s->n);
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
			ch_fix_sim_move(&tr, tpos, i, q);
			if (!search_fix(t, v, n, &tr, tpos, L, ins, 0, sw))
				continue;
			ch_fix_simulate(t, &tr, L);
			if (!have || cheaper(&tr, &best)) {
				ch_fix_sim_copy(&best, &tr);
				have = 1;
			}
		}
	}
	/* as one block at each place among the others (the read-mostly fields
	 * together on lines of their own): all of them, and those that now
	 * share a line with a field they conflict with */
	{
		char *conf = (char *)ch_fix_xcalloc(s->n, 1);
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
		ch_fix_sim_adopt(s, pos, &best);
	ch_fix_sim_free(&tr);
	ch_fix_sim_free(&best);
	free(tpos);
	free(cand);
	ch_fix_sweep_free(sw);
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
	ch_fix_sim_alloc(&s, t->nmembers);
	s.sep = sep;
	pos = (size_t *)ch_fix_xcalloc(s.n, sizeof(size_t));
	for (k = 0; k < s.n; k++)
		s.order[k] = pos[k] = k;
	/* the model must reproduce the compiler's layout (every member's
	 * first bit and the size), else say nothing */
	if (!ch_layout_fits(t))
		goto out;
	ch_fix_simulate(t, &s, L);
	{
		/* the search's answer kept across units (core/fix-cache.c) */
		struct ch_fix_memo memo;
		uint64_t size = 0;
		int got = ch_fix_memo_get(ctx, &memo, t, v, n, L, ins, sep, ch_fix_reference_search,
					  s.order, s.pad, s.moved, &size);
		if (got == 1) {
			ch_fix_simulate(t, &s, L);
			if (s.size != size) {   /* not this layout's: search */
				for (k = 0; k < s.n; k++) {
					s.order[k] = pos[k] = k;
					s.pad[k] = s.moved[k] = 0;
				}
				ch_fix_simulate(t, &s, L);
				got = -1;
			}
		}
		if (got < 0) {
			ok = search_fix(t, v, n, &s, pos, L, ins, 1, NULL);
			if (ok) {
				ch_fix_simulate(t, &s, L);
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
		fx->text = ch_fix_text(ctx, fx, t, npads, fx->nedits, predicted);
		if (fx->nedits > CH_FIX_BRIEF_EDITS)
			fx->brief = ch_fix_text(ctx, fx, t, npads, CH_FIX_BRIEF_EDITS, predicted);
	}
out:
	ch_fix_sim_free(&s);
	free(pos);
	return fx;
}
