/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter.c -- [cachehot-counter-batch]: the statistics updaters every engine
 * knows, and the message texts. Engines find the loops; the words are here.
 *
 * Source of the rule: "mm, lru_gen: batch update counters on aging" (per-folio
 * memcg and node statistics accumulated in locals and applied once; +1.5%
 * memcached), and 6.1 mm/page_alloc.c rmqueue_bulk(), which applies
 * NR_FREE_PAGES once after its loop but NR_FREE_CMA_PAGES once per page. Each
 * zone/node/memcg update adds to a per-cpu diff folded into a shared atomic
 * when it passes a threshold: N calls cost N read-modify-writes and
 * N/threshold writes of a line every CPU writes, where one would do.
 */
#include <string.h>
#include "internal.h"

/* name, target argument (-1: per-cpu event counter), item argument.
 * Kept equal to UPDATERS in cocci/counter_batch.cocci for the names that
 * rule has; the rest are the folio helpers and the kernel's
 * mod/inc/dec_*_state and count_*_event(s) family (include/linux/vmstat.h,
 * include/linux/memcontrol.h of 6.1). */
static const struct { const char *name; int target, item; } updaters[] = {
	{ "__mod_lruvec_state", 0, 1 },       { "mod_lruvec_state", 0, 1 },
	{ "__mod_lruvec_page_state", 0, 1 },  { "mod_lruvec_page_state", 0, 1 },
	{ "__inc_lruvec_page_state", 0, 1 },  { "inc_lruvec_page_state", 0, 1 },
	{ "__dec_lruvec_page_state", 0, 1 },  { "dec_lruvec_page_state", 0, 1 },
	{ "__inc_lruvec_state", 0, 1 },       { "inc_lruvec_state", 0, 1 },
	{ "__dec_lruvec_state", 0, 1 },       { "dec_lruvec_state", 0, 1 },
	{ "__mod_lruvec_kmem_state", 0, 1 },  { "mod_lruvec_kmem_state", 0, 1 },
	{ "__mod_node_page_state", 0, 1 },    { "mod_node_page_state", 0, 1 },
	{ "__inc_node_page_state", 0, 1 },    { "inc_node_page_state", 0, 1 },
	{ "__dec_node_page_state", 0, 1 },    { "dec_node_page_state", 0, 1 },
	{ "__inc_node_state", 0, 1 },         { "inc_node_state", 0, 1 },
	{ "__dec_node_state", 0, 1 },         { "dec_node_state", 0, 1 },
	{ "__mod_zone_page_state", 0, 1 },    { "mod_zone_page_state", 0, 1 },
	{ "__inc_zone_page_state", 0, 1 },    { "inc_zone_page_state", 0, 1 },
	{ "__dec_zone_page_state", 0, 1 },    { "dec_zone_page_state", 0, 1 },
	{ "__inc_zone_state", 0, 1 },         { "__dec_zone_state", 0, 1 },
	{ "__mod_memcg_state", 0, 1 },        { "mod_memcg_state", 0, 1 },
	{ "__mod_memcg_lruvec_state", 0, 1 },
	{ "__count_memcg_events", 0, 1 },     { "count_memcg_events", 0, 1 },
	{ "count_memcg_folio_events", 0, 1 }, { "count_memcg_page_event", 0, 1 },
	{ "count_memcg_event_mm", 0, 1 },
	{ "node_stat_mod_folio", 0, 1 },      { "__node_stat_mod_folio", 0, 1 },
	{ "node_stat_add_folio", 0, 1 },      { "__node_stat_add_folio", 0, 1 },
	{ "node_stat_sub_folio", 0, 1 },      { "__node_stat_sub_folio", 0, 1 },
	{ "zone_stat_mod_folio", 0, 1 },      { "__zone_stat_mod_folio", 0, 1 },
	{ "zone_stat_add_folio", 0, 1 },      { "__zone_stat_add_folio", 0, 1 },
	{ "zone_stat_sub_folio", 0, 1 },      { "__zone_stat_sub_folio", 0, 1 },
	{ "lruvec_stat_mod_folio", 0, 1 },    { "__lruvec_stat_mod_folio", 0, 1 },
	{ "__count_vm_event", -1, 0 },        { "count_vm_event", -1, 0 },
	{ "__count_vm_events", -1, 0 },       { "count_vm_events", -1, 0 },
};

int ch_counter_updater(const char *name, int *target_arg, int *item_arg)
{
	size_t i;
	if (!name)
		return 0;
	for (i = 0; i < sizeof(updaters) / sizeof(updaters[0]); i++)
		if (!strcmp(name, updaters[i].name)) {
			*target_arg = updaters[i].target;
			*item_arg = updaters[i].item;
			return 1;
		}
	return 0;
}

const char *ch_counter_updater_name(unsigned i)
{
	return i < sizeof(updaters) / sizeof(updaters[0]) ? updaters[i].name : NULL;
}

const char *ch_counter_item_enums(const char *name)
{
	/* include/linux/memcontrol.h of 6.1: memcg_stat_item starts where
	 * node_stat_item ends (MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS): searched
	 * first, so the boundary value names the memcg item */
	if (name && (!strcmp(name, "__mod_memcg_state") || !strcmp(name, "mod_memcg_state")))
		return "memcg_stat_item node_stat_item";
	return NULL;
}

const char *ch_counter_updater_at(unsigned i, int *target_arg, int *item_arg)
{
	if (i >= sizeof(updaters) / sizeof(updaters[0]))
		return NULL;
	*target_arg = updaters[i].target;
	*item_arg = updaters[i].item;
	return updaters[i].name;
}

static const char *where(ch_ctx *ctx, const struct ch_counter_finding *f)
{
	const char *s = ch_printf(ctx, "the loop at %s:%u in '%s'", f->loop_file ? f->loop_file : "?",
				  f->loop_line, f->function ? f->function : "?");
	if (f->chain && f->depth)
		return ch_printf(ctx, "%s (through %s; %u call%s not inlined: %s)", s,
				 f->chain, f->depth, f->depth == 1 ? "" : "s",
				 f->not_inlined ? f->not_inlined : "");
	if (f->chain)
		return ch_printf(ctx, "%s (inlined: %s)", s, f->chain);
	return s;
}

static const char *what(ch_ctx *ctx, const struct ch_counter_finding *f)
{
	const char *at = f->update_file && f->update_line
		? ch_printf(ctx, " (%s:%u)", f->update_file, f->update_line) : "";
	if (f->item)
		return ch_printf(ctx, "'%s' of %s%s", f->updater, f->item, at);
	return ch_printf(ctx, "'%s'%s", f->updater, at);
}

/* what makes batching less simple than moving one call: said in every kind */
static const char *caveats(ch_ctx *ctx, const struct ch_counter_finding *f)
{
	const char *s = "";
	if (f->twin)
		s = ch_printf(ctx, "%s; '%s' already applies %s once after a loop (line %u): do the "
			      "same here", s, f->function ? f->function : "?", f->twin,
			      f->twin_line);
	if (f->unlock)
		s = ch_printf(ctx, "%s; the loop drops a lock ('%s' at line %u): apply the "
			      "accumulated delta before it, or readers under the lock see a "
			      "partial count", s, f->unlock, f->unlock_line);
	if (f->extra_exits)
		s = ch_printf(ctx, "%s; the loop has %u early exit%s: apply the delta on each", s,
			      f->extra_exits, f->extra_exits == 1 ? "" : "s");
	return s;
}

const char *ch_counter_batch_message(ch_ctx *ctx, const struct ch_counter_finding *f)
{
	const char *tag = ch_check_id(CH_CHECK_COUNTER_BATCH);
	switch (f->kind) {
	case CH_CB_KEYED:
		return ch_printf(ctx, "statistics update %s runs once per element of %s; the item "
				 "takes one of %u values per element and the target does not change "
				 "in the loop: keep a keyed accumulator of %u locals and apply each "
				 "once after the loop%s [%s]", what(ctx, f), where(ctx, f), f->keys,
				 f->keys, caveats(ctx, f), tag);
	case CH_CB_PER_RUN:
		return ch_printf(ctx, "statistics update %s runs once per element of %s; the target "
				 "changes per element but is looked up from one value%s that "
				 "stays the same over runs of elements: keep the current target and "
				 "%s, apply when the target changes and after the loop%s [%s]",
				 what(ctx, f), where(ctx, f),
				 f->target_from ? ch_printf(ctx, " (%s)", f->target_from) : "",
				 f->keys > 1 ? ch_printf(ctx, "a keyed accumulator of %u locals",
							 f->keys)
					     : "a local accumulator",
				 caveats(ctx, f), tag);
	case CH_CB_INDIRECT:
		return ch_printf(ctx, "the loop at %s:%u in '%s' calls through a function pointer "
				 "whose every possible target in this file (%s) updates %s once per "
				 "call: pass the batch to the callback, or accumulate in the caller "
				 "and apply once after the loop [%s]",
				 f->loop_file ? f->loop_file : "?", f->loop_line,
				 f->function ? f->function : "?", f->callees ? f->callees : "?",
				 what(ctx, f), tag);
	default:
		return ch_printf(ctx, "statistics update %s runs once per element of %s with a "
				 "target and item that do not change in the loop: accumulate in a "
				 "local and apply once after the loop%s [%s]", what(ctx, f),
				 where(ctx, f), caveats(ctx, f), tag);
	}
}

const char *ch_counter_batch_loop_note(ch_ctx *ctx, const struct ch_counter_finding *f)
{
	return ch_printf(ctx, "the loop whose elements each update '%s' [%s]", f->updater,
			 ch_check_id(CH_CHECK_COUNTER_BATCH));
}
