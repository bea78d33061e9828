/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-counter.h -- part of cachehot-core.h: [cachehot-counter-batch] (core/counter.c).
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_COUNTER_H
#define CACHEHOT_API_COUNTER_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-counter.h"
#endif

/* ---- [cachehot-counter-batch] (core/counter.c) -------------------------- */
/* A statistics counter updated once per element of a loop. Source: "mm,
 * lru_gen: batch update counters on aging" (per-folio memcg/node statistics
 * accumulated and applied once; +1.5% memcached), and 6.1 rmqueue_bulk(),
 * which batches NR_FREE_PAGES after its loop but not NR_FREE_CMA_PAGES. */
enum ch_counter_kind {
	CH_CB_INVARIANT = 0, /* target and item loop-invariant: one local */
	CH_CB_KEYED,         /* item one of a few values per element: keyed locals */
	CH_CB_PER_RUN,       /* target derived per element from one small-set value
			      * (node, zone id): a note, flush when it changes */
	CH_CB_INDIRECT,      /* an indirect call whose possible targets all update */
};
struct ch_counter_finding {
	enum ch_counter_kind kind;
	const char *function;      /* the function holding the loop */
	const char *updater;       /* "__mod_lruvec_state" */
	const char *item;          /* "NR_FREE_CMA_PAGES", "NR_LRU_BASE+0..4", or NULL */
	unsigned keys;             /* CH_CB_KEYED (and PER_RUN): number of item values */
	const char *target_from;   /* CH_CB_PER_RUN: what the target is looked up from */
	const char *chain;         /* "f -> g -> h" (inlined and called), or NULL */
	unsigned depth;            /* calls not inlined between the loop and the update */
	const char *not_inlined;   /* depth > 0: "g, h", the functions of the chain
				    * that are called, not inlined */
	const char *loop_file;     /* the loop's head */
	unsigned loop_line;
	const char *update_file;   /* the updater call itself (maybe in a header) */
	unsigned update_line;
	const char *unlock;        /* a lock release inside the loop, or NULL */
	unsigned unlock_line;
	unsigned extra_exits;      /* exits of the loop besides its normal end */
	const char *twin;          /* same updater already applied once after a loop */
	unsigned twin_line;
	const char *callees;       /* CH_CB_INDIRECT: "a/b/c", the possible targets */
};
/* The warning (or note) at the update; ends in "[cachehot-counter-batch]". */
const char *ch_counter_batch_message(ch_ctx *ctx, const struct ch_counter_finding *f);
/* The note at the loop's head. */
const char *ch_counter_batch_loop_note(ch_ctx *ctx, const struct ch_counter_finding *f);
/* 1 if name is a statistics updater of the built-in list (the names of
 * cocci/counter_batch.cocci, the folio variants, the memcg event counters
 * and the kernel's mod_*_state / count_*_event(s) family); *target_arg is
 * set to the index of the target argument (-1: per-cpu event, no target)
 * and *item_arg to the item's. */
int ch_counter_updater(const char *name, int *target_arg, int *item_arg);
/* The i-th name of that list (0-based), NULL past its end. */
const char *ch_counter_updater_name(unsigned i);
/* The i-th built-in updater (0-based) with its argument positions, as
 * ch_counter_updater gives them; NULL past the end. */
const char *ch_counter_updater_at(unsigned i, int *target_arg, int *item_arg);
/* The enumeration tags (space-separated, in the order to search) whose
 * enumerators name the item of updater `name` when its item parameter is a
 * plain int (6.1's __mod_memcg_state takes memcg_stat_item and
 * node_stat_item values as int); NULL when the parameter's own enumeration
 * type names it. */
const char *ch_counter_item_enums(const char *name);
/* The unit's records as one manifest text (compact, sorted keys), every
 * record (the skipped ones too: built, or their texts from the cache
 * directory, core/manifest-cache.c), for the object (core/objsec-emit.c);
 * malloc'd. */
char *ch_manifest_unit_text(ch_ctx *ctx);
/* Merge one manifest text (a unit's record from an object, or a whole
 * manifest) into ctx's manifest, as ch_manifest_write merges units into the
 * file: the same records in any order give the same result. 0, or -1 with
 * ch_ctx_error() (origin names the input). */
int ch_manifest_merge_text(ch_ctx *ctx, const char *text, const char *origin);
/* ctx's merged manifest as text (the file's format without the newline). */
char *ch_manifest_text(ch_ctx *ctx);

#endif /* CACHEHOT_API_COUNTER_H */
