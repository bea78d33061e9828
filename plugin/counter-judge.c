/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-judge.c -- the [cachehot-counter-batch] findings of a unit: one
 * update judged in one loop (its target's class and its item's values:
 * invariant, keyed, looked up per element; silent otherwise) and emitted
 * once per loop, updater and item; and the calls in loops to functions of
 * this unit and indirect calls, judged at the end of the unit
 * (PLUGIN_FINISH_UNIT), when every function has been through the pass
 * (counter-batch.c): each function's summary (the updates it makes per
 * call, target and item as functions of its parameters) is composed
 * bottom-up over its call edges (at most MAX_CALL_DEPTH calls deep, at
 * most MAX_ENTRIES updates, cycles cut), then each loop call is judged
 * like a direct update, with the depth said. The rule: docs/checks.rst
 * ([cachehot-counter-batch]); message texts: core/counter.c.
 *
 * Memory: summaries and pending calls live as long as the unit (xmalloc'd,
 * never freed: the compiler exits); texts are owned by cachehot_ctx.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfgloop.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "ssa.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "stringpool.h"
#include "hash-map.h"
#include "hash-set.h"
#include "value-range.h"
#include "value-query.h"
#include "sreal.h"
#include "tree-cfg.h"
#include "cachehot-plugin.h"
#include "counter-batch.h"

static hash_map<int_hash<int, -1, -2>, fn_rec *> *cb_fns;
static vec<pending *> cb_pendings;

void cb_pend(pending *p)
{
	cb_pendings.safe_push(p);
}

fn_rec *cb_rec_of(int uid, const char *name)
{
	fn_rec **r = cb_fns->get(uid);
	if (r)
		return *r;
	fn_rec *n = XCNEW(fn_rec);
	n->name = name;
	cb_fns->put(uid, n);
	return n;
}


/* ---- judging one update in one loop ------------------------------------- */

static hash_set<nofree_string_hash> *emitted;   /* loop, updater, item */

void cb_emit(ch_counter_finding *f, location_t at, location_t loop_loc)
{
	const char *msg, *key;

	/* one finding per loop, updater and item, whatever the paths to it */
	key = ch_printf(cachehot_ctx, "%s:%u:%s:%s", f->loop_file ? f->loop_file : "",
			f->loop_line, f->updater ? f->updater : "", f->item ? f->item : "");
	if (emitted->add(key))
		return;
	msg = ch_counter_batch_message(cachehot_ctx, f);
	/* a looked-up target and indirect calls are notes; the rest at the
	 * configured severity (werror=0 respected: cachehot_diag) */
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_COUNTER_BATCH, f->kind == CH_CB_PER_RUN || f->kind == CH_CB_INDIRECT
							  ? CH_SEV_NOTE : cachehot_opts.severity,
		       msg);
	r.function = f->function;
	r.field = f->updater;
	r.other = f->item;
	r.ident = "update";
	r.confidence = "inferred";
	r.evidence = f->chain;
	cachehot_report((unsigned)at, &r);
	r.severity = CH_SEV_NOTE;
	r.message = ch_counter_batch_loop_note(cachehot_ctx, f);
	r.ident = "loop";
	cachehot_report((unsigned)loop_loc, &r);
}

/* Target class in the loop: 0 invariant, 1 looked up, 2 varying. */
int cb_tclass(const origin &o)
{
	return o.vary ? 2 : o.lookup ? 1 : 0;
}

/* kind from a target class and an item; false: stay silent */
bool cb_decide(int tc, bool has_target, const item &it, ch_counter_finding *f)
{
	if (has_target && tc == 2)
		return false;
	if (it.kind == IT_VARY || it.kind == IT_PARAM)
		return false;
	f->keys = it.kind == IT_SET ? (unsigned)(it.hi - it.lo + 1) : 1;
	if (has_target && tc == 1)
		f->kind = CH_CB_PER_RUN;
	else
		f->kind = it.kind == IT_SET ? CH_CB_KEYED : CH_CB_INVARIANT;
	return true;
}


/* ---- composing summaries ------------------------------------------------- */

static void compose(fn_rec *r);

/* e (relative to the callee) seen from the caller through edge args */
static entry through(const entry &e, unsigned nargs, const origin *ao, const item *ai,
		     const bool *ac, const tree *af, const int *ap)
{
	entry out = e;
	out.tgt = origin();
	out.tgt.vary = e.tgt.vary;
	out.tgt.lookup = e.tgt.lookup;
	out.tgt.from = e.tgt.from;
	for (unsigned k = 0; k < 32; k++) {
		if (!((e.tgt.ptr_params | e.tgt.idx_params) & (1u << k)))
			continue;
		if (k >= nargs) {
			out.tgt.vary = true;
			continue;
		}
		if (e.tgt.ptr_params & (1u << k))
			merge(&out.tgt, ao[k]);
		else {
			if (ao[k].vary || ao[k].lookup) {
				out.tgt.lookup = true;
				if (!out.tgt.from)
					out.tgt.from = e.tgt.from ? e.tgt.from : ao[k].from;
			}
			out.tgt.idx_params |= ao[k].ptr_params | ao[k].idx_params;
		}
	}
	if (e.it.kind == IT_PARAM)
		out.it = e.it.param < (int)nargs ? ai[e.it.param] : item_vary();
	if (e.delta_param >= 0) {
		/* the delta is what the caller passes */
		int k = e.delta_param;
		out.delta_param = -1;
		if (k < (int)nargs) {
			out.count |= ac[k];
			if (!out.delta_field)
				out.delta_field = af[k];
			out.delta_param = ap[k];
		}
	}
	return out;
}

static void compose(fn_rec *r)
{
	if (r->state)
		return;
	r->state = 1;
	for (unsigned i = 0; i < r->entries.length(); i++) {
		entry e = r->entries[i];
		e.depth = 0;
		r->summary.safe_push(e);
	}
	for (unsigned i = 0; i < r->edges.length() && r->summary.length() < MAX_ENTRIES; i++) {
		edge_rec &ed = r->edges[i];
		fn_rec **c = cb_fns->get(ed.callee_uid);
		if (!c)
			continue;
		compose(*c);
		if ((*c)->state != 2)
			continue;   /* a cycle */
		for (unsigned j = 0; j < (*c)->summary.length(); j++) {
			const entry &e = (*c)->summary[j];
			if (e.depth + 1 >= MAX_CALL_DEPTH || r->summary.length() >= MAX_ENTRIES)
				continue;
			entry n = through(e, ed.nargs, ed.arg_o, ed.arg_i, ed.arg_count, ed.arg_field,
					  ed.arg_param);
			n.depth = e.depth + 1;
			n.rare = e.rare || ed.rare;
			n.tail = e.tail ? ch_printf(cachehot_ctx, "%s -> %s", (*c)->name, e.tail)
				       : (*c)->name;
			n.calls = e.calls ? ch_printf(cachehot_ctx, "%s, %s", (*c)->name, e.calls)
					: (*c)->name;
			r->summary.safe_push(n);
		}
	}
	r->state = 2;
}

/* why an entry of a summary is no update per element of the caller's loop */
static const char *entry_silent(const entry &e, bool rare)
{
	if (e.gauge)
		return "a gauge: the function adds to and takes from the item";
	if (e.count || accumulator_field(e.delta_field))
		return "the callee applies a count made elsewhere";
	if (rare || e.rare)
		return "a rare path";
	return NULL;
}

static void judge_pending(pending *p)
{
	if (p->facts.retry || p->once) {
		explain(p->facts.retry ? "a retry loop"
				       : "the loop goes round again after the call only when an "
					 "attempt failed, or not at all", NULL, NULL,
			p->call_loc, p->loop_loc, p->function);
		return;
	}
	if (p->callee_uid >= 0) {
		fn_rec **c = cb_fns->get(p->callee_uid);
		if (!c)
			return;
		compose(*c);
		for (unsigned j = 0; j < (*c)->summary.length(); j++) {
			const entry &e = (*c)->summary[j];
			ch_counter_finding f = ch_counter_finding();
			entry n = through(e, p->nargs, p->arg_o, p->arg_i, p->arg_count, p->arg_field,
					  p->arg_param);
			expanded_location lx = expand_location(p->loop_loc);
			if (!cb_decide(cb_tclass(n.tgt), n.has_target, n.it, &f))
				continue;
			if (const char *why = entry_silent(n, p->rare)) {
				explain(why, e.updater, e.item_txt, p->call_loc, p->loop_loc, p->function);
				continue;
			}
			f.updater = e.updater;
			f.item = n.it.kind == e.it.kind ? e.item_txt : NULL;
			f.target_from = n.tgt.from;
			f.function = p->function;
			f.loop_file = ch_strdup(cachehot_ctx, lx.file);
			f.loop_line = lx.line;
			f.unlock = p->facts.unlock;
			f.unlock_line = p->facts.unlock_line;
			f.extra_exits = p->facts.extra_exits;
			f.depth = e.depth + 1;
			/* caller (and what it inlined) -> callee -> what the callee inlined */
			{
				const char *head = p->chain ? p->chain : p->function;
				f.chain = e.tail ? ch_printf(cachehot_ctx, "%s -> %s -> %s", head,
							     (*c)->name, e.tail)
						 : ch_printf(cachehot_ctx, "%s -> %s", head,
							     (*c)->name);
				f.not_inlined = e.calls ? ch_printf(cachehot_ctx, "%s, %s", (*c)->name,
								    e.calls)
							: (*c)->name;
			}
			f.update_file = e.file;
			f.update_line = e.line;
			cb_emit(&f, p->call_loc, p->loop_loc);
			break;   /* one finding per call in a loop */
		}
		return;
	}
	/* indirect: every possible target updates per call */
	const entry *first = NULL;
	for (unsigned i = 0; i < p->targets.length(); i++) {
		fn_rec **c = cb_fns->get(p->targets[i]);
		if (!c)
			return;
		compose(*c);
		const entry *upd = NULL;
		for (unsigned j = 0; j < (*c)->summary.length() && !upd; j++)
			if (!entry_silent((*c)->summary[j], p->rare))
				upd = &(*c)->summary[j];
		if (!upd) {
			explain(ch_printf(cachehot_ctx, "an indirect call: the possible target '%s' "
					  "updates no statistic once per call", (*c)->name),
				NULL, NULL, p->call_loc, p->loop_loc, p->function);
			return;
		}
		if (!first)
			first = upd;
	}
	ch_counter_finding f = ch_counter_finding();
	expanded_location lx = expand_location(p->loop_loc);
	f.kind = CH_CB_INDIRECT;
	f.function = p->function;
	f.loop_file = ch_strdup(cachehot_ctx, lx.file);
	f.loop_line = lx.line;
	f.updater = first->updater;
	f.item = NULL;   /* the targets may update different items */
	f.callees = p->targets_txt;
	cb_emit(&f, p->call_loc, p->loop_loc);
}

void cb_finish_unit(void *, void *)
{
	if (seen_error())
		return;
	for (unsigned i = 0; i < cb_pendings.length(); i++)
		judge_pending(cb_pendings[i]);
}


void cb_judge_init(void)
{
	cb_fns = new hash_map<int_hash<int, -1, -2>, fn_rec *>;
	emitted = new hash_set<nofree_string_hash>;
}
