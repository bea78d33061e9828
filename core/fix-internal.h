/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-internal.h -- what the files of the one fix per struct share
 * (private to the core): a candidate layout (struct sim) and its
 * operations (fix-sim.c), the greedy search as reference (fix-search.c)
 * and as one sweep (fix-sweep.c), the fix in words (fix-text.c); fix.c,
 * on top, chooses the fix (docs/checks.rst "One fix per struct").
 *
 * Units: offsets and sizes in bytes; L, the line size, in bytes. Memory:
 * everything returned is malloc'd and freed by the matching free function;
 * an allocation failure aborts (as ch_xrealloc does).
 */
#ifndef CACHEHOT_FIX_INTERNAL_H
#define CACHEHOT_FIX_INTERNAL_H
#include "internal.h"

/* Members of at most this many: a moved member tries every place. */
#define CH_FIX_SEARCH_MAX 64

/* One candidate layout of a struct's n members. */
struct sim {
	size_t n;               /* members */
	size_t *order;          /* order[k] = member index at position k */
	int *pad;               /* pad[member] = 1: a break before it */
	int *moved;             /* moved[member] = 1: moved to the end */
	uint64_t *off;          /* new offset of each member (bytes; a
				 * bit-field: the byte holding its first bit) */
	uint64_t size;          /* bytes */
	unsigned sep;           /* bytes: a break inserts a separator of this many
				 * bytes (the separator idiom, core/idiom.c) instead
				 * of aligning the member to the line; 0: aligns */
};

/* ---- fix-sim.c: the candidate layout ---- */
void *ch_fix_xcalloc(size_t n, size_t sz);
/* 1 if member i continues the storage unit of member i-1 (bit-fields, as
 * declared). */
int ch_fix_shares_unit(const struct ch_type *t, size_t i);
/* s->off and s->size for s->order and s->pad at line size L: the one model
 * of a layout (ch_layout_place, layout-eval.c), so that a moved bit-field
 * packs into the storage unit before it where it fits, as GCC packs it. */
void ch_fix_simulate(const struct ch_type *t, struct sim *s, unsigned L);
/* n members, the arrays zeroed (order too: set it); free with
 * ch_fix_sim_free (s itself is the caller's). */
void ch_fix_sim_alloc(struct sim *s, size_t n);
void ch_fix_sim_free(struct sim *s);
/* d (allocated for as many members) becomes a copy of s. */
void ch_fix_sim_copy(struct sim *d, const struct sim *s);
/* s becomes best, and pos (pos[member] = position) its positions. */
void ch_fix_sim_adopt(struct sim *s, size_t *pos, const struct sim *best);
/* Move the member at position from to position to (after removal). */
void ch_fix_sim_move(struct sim *s, size_t *pos, size_t from, size_t to);
/* Breaks plus moves. */
size_t ch_fix_sim_edits(const struct sim *s);

/* ---- fix-search.c: the greedy search (the reference) ---- */
/* Finishes the layout s (positions pos) without searching: 1 when clean. */
typedef int (*ch_fix_place_fn)(void *arg, struct sim *s, size_t *pos);
/* Member mv moved to every place q up to last in turn, each layout
 * finished by place(arg, ...); s and pos take the one with the fewest
 * edits, then the fewest bytes. 1 when some place ends clean. */
int ch_fix_best_place(struct sim *s, size_t *pos, size_t mv, size_t last, ch_fix_place_fn place,
		      void *arg);
/* The member to move for the conflict between positions pa < pb that no
 * break resolves: the later one unless it is hot (hot_b: holds a hot or
 * exclusive leaf), moved already or in a kernel group, else the earlier
 * one (hot_a); *last: the last place it may go (not after a flexible
 * array). 0 when neither may move. */
int ch_fix_pick_move(const struct ch_type *t, const struct sim *s, size_t pa, size_t pb,
		     int hot_a, int hot_b, size_t *mv, size_t *last);
/* Break conflicts greedily; a conflict no break may resolve moves its
 * non-hot member: to every place (search > 0 and a small struct: the one
 * giving the fewest edits, then the fewest bytes), else to the end. 1 when
 * the layout ends clean. O(rounds x leaves^2). */
int ch_fix_greedy_ref(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
		      struct sim *s, size_t *pos, unsigned L, int kernel, int search);

/* ---- fix-sweep.c: the same search in one sweep ---- */
struct sweep;
/* 1 if the sweep gives ch_fix_greedy_ref's result for this struct. */
int ch_fix_sweep_fits(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n);
/* The sweep's tables for (t, v, n, L, kernel), for any number of searches;
 * free with ch_fix_sweep_free. */
struct sweep *ch_fix_sweep_new(const struct ch_type *t, const struct ch_fix_leaf *v, size_t n,
			       unsigned L, int kernel);
void ch_fix_sweep_free(struct sweep *sw);
/* ch_fix_greedy_ref's result in O(members + leaves x leaves per line),
 * plus O(members) per move. */
int ch_fix_greedy_sweep(struct sweep *sw, struct sim *s, size_t *pos, int search);

/* ---- fix-text.c: the fix in words ---- */
/* "one fix for all of 'struct x': ...; this costs ...", naming the first
 * upto of fx's edits (npads breaks, then moves) and counting the rest;
 * ctx-owned. */
const char *ch_fix_text(ch_ctx *ctx, const struct ch_fix *fx, const struct ch_type *t,
			size_t npads, size_t upto, int predicted);
#endif
