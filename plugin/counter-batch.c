/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-batch.c -- the [cachehot-counter-batch] check of the cachehot plugin.
 *
 * A statistics counter updated once per element of a loop (the list of
 * updaters and every message text: core/counter.c). One GIMPLE pass, placed
 * after the second "ccp" (the first pass that sees a function once the IPA
 * inliner's decisions are applied, before the loop unrollers), looks at
 * every call inside a loop (loops_for_fn, bb->loop_father):
 *
 *  - a call to an updater: its target and item arguments are followed
 *    through their SSA definitions. Defined outside the loop (or constant):
 *    invariant. An item made of constants, comparisons, masks and PHIs of
 *    them takes a small set of values (NR_ISOLATED_ANON + folio_is_file_lru):
 *    keyed. A target whose pointer changes per element only through an array
 *    index (NODE_DATA(nid), &pgdat->node_zones[zid]) is "looked up per
 *    element from one value": a note. Any other per-element target: silent.
 *    The inlined chain comes from the lexical blocks of the call
 *    (inlined_function_outer_scope_p, block_ultimate_origin), the location
 *    in the loop's function from the outermost block's BLOCK_SOURCE_LOCATION.
 *  - a call to another function of this file that was not inlined, and an
 *    indirect call: judged at the end of the unit (PLUGIN_FINISH_UNIT), when
 *    every function has been through the pass. Each function leaves a
 *    summary (the updates it makes per call, with the target and item as
 *    functions of its parameters) and its call edges; summaries are composed
 *    bottom-up over those edges (depth-limited, cycles cut), then each loop
 *    call is judged like a direct update, with the depth said.
 *
 * What is not once per element (retry loops, gauges, counts made elsewhere,
 * rare paths) is decided in counter-silent.c.
 *
 * Cost: functions without loops are skipped after one look at their loop
 * tree; only call statements are examined; SSA walks are depth-limited.
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

#define MAX_ENTRIES   8    /* updates kept in one function's summary */
#define MAX_CALL_DEPTH 4   /* calls not inlined followed from a loop */

/* ---- the updaters ------------------------------------------------------- */

struct upd_info { int target, item; };
static hash_map<tree, upd_info> *updaters;   /* IDENTIFIER_NODE -> arguments */

static bool updater_of(tree fndecl, upd_info *out)
{
	upd_info *u;
	if (!fndecl || !DECL_NAME(fndecl) || !(u = updaters->get(DECL_NAME(fndecl))))
		return false;
	*out = *u;
	return true;
}

static void add_updater(const char *name, int target, int item)
{
	upd_info u = { target, item };
	updaters->put(get_identifier(name), u);
}

/* counter-updaters=NAME[:TARGET:ITEM],... (TARGET '-' for no target) */
void cachehot_counter_updaters(const char *spec, const char *plugin_name)
{
	char *list = xstrdup(spec ? spec : ""), *save = NULL, *p;
	if (!updaters) {
		updaters = new hash_map<tree, upd_info>;
		int t, it;
		for (unsigned i = 0; const char *n = ch_counter_updater_at(i, &t, &it); i++)
			add_updater(n, t, it);
	}
	if (!spec)
		goto out;
	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char *c1 = strchr(p, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *end;
		long t = 0, it = 1;
		bool ok = *p && (!c1 || c2);
		if (c1 && c2) {
			*c1 = *c2 = 0;
			if (!strcmp(c1 + 1, "-"))
				t = -1;
			else {
				t = strtol(c1 + 1, &end, 10);
				ok = ok && *end == 0 && end != c1 + 1 && t >= 0 && t < MAX_ARGS;
			}
			it = strtol(c2 + 1, &end, 10);
			ok = ok && *end == 0 && end != c2 + 1 && it >= 0 && it < MAX_ARGS;
		}
		for (const char *q = p; ok && *q; q++)
			ok = ISALNUM(*q) || *q == '_';
		if (!ok) {
			error("cachehot: %<-fplugin-arg-%s-counter-updaters%>: bad entry %qs "
			      "(want NAME or NAME:TARGET:ITEM, TARGET %<-%> for none)", plugin_name, p);
			continue;
		}
		add_updater(p, (int)t, (int)it);
	}
out:
	free(list);
}

/* ---- locations and the inlined chain ------------------------------------ */

/* The name as written: "move_one" for the IPA-SRA clone "move_one.isra" */
static const char *fn_name(tree fndecl)
{
	const char *n, *dot;
	if (!fndecl || !DECL_NAME(fndecl))
		return "?";
	n = IDENTIFIER_POINTER(DECL_NAME(fndecl));
	dot = strchr(n, '.');
	return dot && dot != n ? ch_printf(cachehot_ctx, "%.*s", (int)(dot - n), n) : n;
}

/* A location as the user wrote it: a loop or call spelled by a macro
 * (list_for_each_entry, container_of) is at the line where the macro is
 * used, not inside the header that defines it. */
static location_t user_loc(location_t loc)
{
	if (loc == UNKNOWN_LOCATION)
		return loc;
	return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
}

/* The chain "this -> inlined -> ... -> innermost" of the statement's blocks,
 * and the location, in the function being compiled, of the outermost
 * inlined call (the statement's own location when nothing is inlined). */
static const char *inline_chain(gimple *stmt, location_t *outer)
{
	auto_vec<tree, 8> fns;
	location_t loc = gimple_location(stmt);
	for (tree b = gimple_block(stmt); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
		if (inlined_function_outer_scope_p(b)) {
			tree o = block_ultimate_origin(b);
			if (o && TREE_CODE(o) == FUNCTION_DECL)
				fns.safe_push(o);
			loc = BLOCK_SOURCE_LOCATION(b);
		}
	*outer = user_loc(loc);
	if (fns.is_empty())
		return NULL;
	const char *s = fn_name(current_function_decl);
	for (int i = fns.length() - 1; i >= 0; i--)
		s = ch_printf(cachehot_ctx, "%s -> %s", s, fn_name(fns[i]));
	return s;
}

static location_t loop_location(class loop *l)
{
	basic_block *body = get_loop_body(l);   /* header first */
	location_t loc = UNKNOWN_LOCATION;
	for (unsigned i = 0; i < l->num_nodes && loc == UNKNOWN_LOCATION; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (is_gimple_debug(s) || gimple_location(s) == UNKNOWN_LOCATION)
				continue;
			inline_chain(s, &loc);
			break;
		}
	free(body);
	return loc;
}

/* A lock released in the loop, an early exit: what batching must respect. */
struct loop_facts {
	location_t loc;
	const char *unlock;
	unsigned unlock_line;
	unsigned extra_exits;
	bool retry;            /* retry_loop() */
};

static bool is_unlock(const char *n)
{
	static const char *const pats[] = { "spin_unlock", "_unlock_irq", "read_unlock",
					    "write_unlock", "mutex_unlock", "local_unlock",
					    "cond_resched_lock" };
	/* rcu_read_unlock ends no mutual exclusion a counter relies on */
	if (strstr(n, "rcu"))
		return false;
	if (!strcmp(n, "up_read") || !strcmp(n, "up_write"))
		return true;
	for (unsigned i = 0; i < ARRAY_SIZE(pats); i++)
		if (strstr(n, pats[i]))
			return true;
	return false;
}

/* The unlock a call or an inlined block of FNDECL stands for, or NULL:
 * is_unlock(fn_name()) memoized per function name (facts_of asks it of
 * every call and every inlined block around every statement of a loop
 * body: eight strstr each, 25 M instructions on vmscan.c). Keyed by the
 * name's identifier, which lives as long as the unit. */
static hash_map<tree, const char *> *unlock_memo;

static const char *unlock_of(tree fndecl)
{
	static const char *const no = "";
	const char **hit, *n;
	if (!fndecl || !DECL_NAME(fndecl))
		return NULL;
	if (!unlock_memo)
		unlock_memo = new hash_map<tree, const char *>;
	hit = unlock_memo->get(DECL_NAME(fndecl));
	if (hit)
		return *hit == no ? NULL : *hit;
	n = fn_name(fndecl);
	if (!is_unlock(n))
		n = no;
	unlock_memo->put(DECL_NAME(fndecl), n);
	return n == no ? NULL : n;
}

static bool cb_dom_computed;

/* A loop over elements carries a value around: a PHI in its header that
 * is not the memory state, or a list it pops. A loop without either (do { ... } while
 * (xas_nomem(&xas, gfp)), the page cache's retry loops) repeats one
 * attempt: its update runs once per success, not per element. */
static bool has_cursor_1(class loop *l);

/* has_cursor() of a loop, memoized for the function being looked at (each
 * update and call in the loop asks; loop_pops_list() scans the function) */
static hash_map<int_hash<int, -1, -2>, bool> *cursor_memo;

static bool has_cursor(class loop *l)
{
	if (bool *v = cursor_memo->get(l->num))
		return *v;
	bool r = has_cursor_1(l);
	cursor_memo->put(l->num, r);
	return r;
}

static bool has_cursor_1(class loop *l)
{
	for (gphi_iterator g = gsi_start_phis(l->header); !gsi_end_p(g); gsi_next(&g))
		if (!virtual_operand_p(gimple_phi_result(g.phi())))
			return true;
	return loop_pops_list(l);   /* while (!list_empty(list)) { list_del(); } */
}

static loop_facts facts_of(class loop *l)
{
	/* get_loop_body() and the exit edges need dominators: computed on the
	 * first loop worth a report, freed when the function is done */
	if (!dom_info_available_p(CDI_DOMINATORS)) {
		calculate_dominance_info(CDI_DOMINATORS);
		cb_dom_computed = true;
	}
	loop_facts f = { loop_location(l), NULL, 0u, 0u, false };
	basic_block *body = get_loop_body(l);
	tree last_block = NULL_TREE;   /* statements in a row share their block */
	const char *last_inlined = NULL;
	for (unsigned i = 0; i < l->num_nodes && !f.unlock; i++)
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			const char *n = NULL;
			location_t at;
			if (is_gimple_call(s) && gimple_call_fndecl(s))
				n = unlock_of(gimple_call_fndecl(s));
			if (!n && gimple_block(s) == last_block && last_block) {
				n = last_inlined;
			} else if (!n) {
				/* an inlined unlock: the innermost inlined function named so */
				for (tree b = gimple_block(s); b && TREE_CODE(b) == BLOCK && !n;
				     b = BLOCK_SUPERCONTEXT(b))
					if (inlined_function_outer_scope_p(b)) {
						tree o = block_ultimate_origin(b);
						if (o && TREE_CODE(o) == FUNCTION_DECL)
							n = unlock_of(o);
					}
				last_block = gimple_block(s);
				last_inlined = n;
			}
			if (n) {
				inline_chain(s, &at);
				f.unlock = n;
				f.unlock_line = LOCATION_LINE(at);
				break;
			}
		}
	free(body);
	{
		/* break lands where the loop ends anyway: count the places the
		 * loop leaves to (return, goto), not its exit edges */
		auto_vec<edge> exits = get_loop_exit_edges(l);
		auto_vec<basic_block, 4> dests;
		for (unsigned i = 0; i < exits.length(); i++) {
			basic_block d = exits[i]->dest;
			if (single_succ_p(d) && gsi_end_p(gsi_start_nondebug_after_labels_bb(d)))
				d = single_succ(d);   /* a forwarder */
			if (!dests.contains(d))
				dests.safe_push(d);
		}
		f.extra_exits = dests.length() > 1 ? dests.length() - 1 : 0;
	}
	f.retry = retry_loop(l);
	return f;
}

/* ---- summaries and pending loop calls (judged at the end of the unit) ---- */

struct entry {                /* one update a function makes per call */
	const char *updater, *item_txt, *file;
	const char *tail;         /* "g -> h": what lies between the function and the update */
	const char *calls;        /* "g": the functions of tail that are called, not inlined */
	unsigned line;
	bool rare;                /* on a rare path of the function (rare_path) */
	bool count;               /* the delta is a count made elsewhere */
	tree delta_field;         /* the field the delta is loaded from, or NULL */
	int delta_param;          /* the parameter the delta is made of, or -1 */
	bool gauge;               /* the function adds to and takes from the item */
	item it;                  /* relative to the function: IT_PARAM k possible */
	origin tgt;               /* relative to the function */
	bool has_target;
	unsigned depth;
};
struct edge_rec {             /* a call not inlined, to a function of this unit */
	int callee_uid;
	const char *callee;
	unsigned nargs;
	origin arg_o[MAX_ARGS];   /* function mode */
	item arg_i[MAX_ARGS];
	bool arg_count[MAX_ARGS]; /* the argument is a count (delta_is_count) */
	tree arg_field[MAX_ARGS];
	int arg_param[MAX_ARGS];
	bool rare;                /* the call is on a rare path of the caller */
};
struct fn_rec {
	const char *name;
	vec<entry> entries;       /* its own updates (after inlining) */
	vec<edge_rec> edges;
	vec<entry> summary;       /* composed */
	int state;                /* 0 not composed, 1 composing, 2 done */
};
struct pending {              /* a loop calling a function of this unit */
	const char *function;
	location_t call_loc, loop_loc;
	loop_facts facts;
	const char *chain;
	bool rare;                /* the call is on a rare path of the loop */
	bool retry, once;         /* a retry loop; the call leaves the loop after it */
	int callee_uid;           /* -1: indirect */
	vec<int> targets;         /* indirect: possible callees */
	const char *targets_txt;
	unsigned nargs;
	origin arg_o[MAX_ARGS];   /* loop mode */
	item arg_i[MAX_ARGS];
	bool arg_count[MAX_ARGS];
	tree arg_field[MAX_ARGS];
	int arg_param[MAX_ARGS];
};
static hash_map<int_hash<int, -1, -2>, fn_rec *> *fns;
static vec<pending *> pendings;

static fn_rec *rec_of(int uid, const char *name)
{
	fn_rec **r = fns->get(uid);
	if (r)
		return *r;
	fn_rec *n = XCNEW(fn_rec);
	n->name = name;
	fns->put(uid, n);
	return n;
}

/* ---- judging one update in one loop ------------------------------------- */

static hash_set<nofree_string_hash> *emitted;   /* loop, updater, item */

static void emit(ch_counter_finding *f, location_t at, location_t loop_loc)
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
static int tclass(const origin &o)
{
	return o.vary ? 2 : o.lookup ? 1 : 0;
}

/* kind from a target class and an item; false: stay silent */
static bool decide(int tc, bool has_target, const item &it, ch_counter_finding *f)
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

struct twin { const char *updater, *item; unsigned line; };
static vec<twin> twins;   /* this function's updates outside every loop */

static void fill_common(ch_counter_finding *f, const loop_facts &lf, const char *updater)
{
	expanded_location x = expand_location(lf.loc);
	f->function = fn_name(current_function_decl);
	f->loop_file = ch_strdup(cachehot_ctx, x.file);
	f->loop_line = x.line;
	f->unlock = lf.unlock;
	f->unlock_line = lf.unlock_line;
	f->extra_exits = lf.extra_exits;
	for (unsigned i = 0; i < twins.length(); i++)
		if (!strcmp(twins[i].updater, updater) && twins[i].line > f->loop_line) {
			f->twin = twins[i].item
				? ch_printf(cachehot_ctx, "'%s' of %s", updater, twins[i].item)
				: ch_printf(cachehot_ctx, "'%s'", updater);
			f->twin_line = twins[i].line;
			break;
		}
}

/* ---- the pass ------------------------------------------------------------ */

/* repeats_after() of (loop, block), memoized for the function being
 * looked at: every update and every call in one block of a loop asks the
 * same question (a path search of up to 2 000 steps: 5.8 M instructions
 * on vmscan.c, where 20 of its 133 questions were asked before) */
static hash_map<int_hash<HOST_WIDE_INT, -1, -2>, bool> *repeats_memo;

static bool repeats_after_memo(class loop *l, basic_block from)
{
	HOST_WIDE_INT key = ((HOST_WIDE_INT)l->num << 32) | (unsigned)from->index;
	if (bool *v = repeats_memo->get(key))
		return *v;
	bool r = repeats_after(l, from);
	repeats_memo->put(key, r);
	return r;
}

static hash_set<int_hash<int, -1, -2>> *reported;   /* per loop num + updater */

static void direct_update(gimple *stmt, tree fndecl, const upd_info &u, class loop *l,
			  hash_map<class loop *, loop_facts> &facts)
{
	ch_counter_finding f = ch_counter_finding();
	location_t at;
	origin o = origin();
	item it;
	unsigned nargs = gimple_call_num_args(stmt);
	expanded_location ux = expand_location(user_loc(gimple_location(stmt)));

	if ((u.target >= 0 && (unsigned)u.target >= nargs) || (unsigned)u.item >= nargs)
		return;
	cur_loop = l;
	if (u.target >= 0)
		trace(gimple_call_arg(stmt, u.target), false, 0, &o);
	it = eval_item(gimple_call_arg(stmt, u.item), 0);
	cur_loop = NULL;
	if (!decide(tclass(o), u.target >= 0, it, &f))
		return;
	f.updater = fn_name(fndecl);
	f.item = item_text(fndecl, u.item, it);
	f.chain = inline_chain(stmt, &at);
	f.target_from = o.from;
	if (f.chain) {
		f.update_file = ch_strdup(cachehot_ctx, ux.file);
		f.update_line = ux.line;
	}
	if (!facts.get(l))
		facts.put(l, facts_of(l));
	fill_common(&f, *facts.get(l), f.updater);
	{
		const char *why = NULL;
		if (!has_cursor(l))
			why = "no value carried around the loop, no list of its own popped: "
			      "one attempt repeated";
		else if (facts.get(l)->retry)
			why = "a retry loop";
		else if (!repeats_after_memo(l, gimple_bb(stmt)))
			why = "the loop goes round again after the update only when an "
			      "attempt failed, or not at all";
		else if (gauge(stmt))
			why = "a gauge: the function adds to and takes from the item";
		else if ((unsigned)u.item + 1 < nargs &&
			 delta_is_count(gimple_call_arg(stmt, u.item + 1), l, 0, NULL, NULL))
			why = "the delta is a count made elsewhere";
		else if (!f.twin && rare_path(gimple_bb(stmt), l->header))
			/* next to a batched twin (rmqueue_bulk(): NR_FREE_PAGES
			 * after the loop, NR_FREE_CMA_PAGES under is_migrate_cma()'s
			 * unlikely() per page) the update stays a finding: the
			 * function batches the common case already */
			why = "a rare path";
		if (why) {
			explain(why, f.updater, f.item, at, facts.get(l)->loc, f.function);
			return;
		}
	}
	if (reported->add((int)(((unsigned)l->num * 1021u + LOCATION_LINE(at)) ^
				(unsigned)DECL_UID(fndecl)) & 0x3fffffff))
		return;
	emit(&f, at, facts.get(l)->loc);
}

static void record_args(gimple *stmt, unsigned *nargs, origin *ao, item *ai, bool *ac,
			tree *af, int *ap)
{
	*nargs = MIN(gimple_call_num_args(stmt), (unsigned)MAX_ARGS);
	for (unsigned i = 0; i < *nargs; i++) {
		ao[i] = origin();
		trace(gimple_call_arg(stmt, i), false, 0, &ao[i]);
		ai[i] = eval_item(gimple_call_arg(stmt, i), 0);
		af[i] = NULL_TREE;
		ap[i] = -1;
		ac[i] = delta_is_count(gimple_call_arg(stmt, i), cur_loop, 0, &af[i], &ap[i]);
	}
}

/* The C type of a function as the source spells it: the middle end calls
 * every pointer type compatible, which made tracepoint probes
 * (perf_trace_mm_lru_activate(void *, struct folio *)) possible targets of
 * folio_batch_move_lru()'s move_fn(struct lruvec *, struct folio *). */
static bool same_type(tree a, tree b)
{
	if (POINTER_TYPE_P(a) && POINTER_TYPE_P(b))
		return TYPE_MAIN_VARIANT(TREE_TYPE(a)) == TYPE_MAIN_VARIANT(TREE_TYPE(b));
	return TYPE_MAIN_VARIANT(a) == TYPE_MAIN_VARIANT(b);
}

static bool same_fn_type(tree a, tree b)
{
	if (TREE_CODE(a) != FUNCTION_TYPE || TREE_CODE(b) != FUNCTION_TYPE ||
	    !same_type(TREE_TYPE(a), TREE_TYPE(b)))
		return false;
	tree x = TYPE_ARG_TYPES(a), y = TYPE_ARG_TYPES(b);
	for (; x && y; x = TREE_CHAIN(x), y = TREE_CHAIN(y))
		if (!same_type(TREE_VALUE(x), TREE_VALUE(y)))
			return false;
	return !x && !y;
}

static bool unit_function(tree fndecl)
{
	cgraph_node *n = fndecl ? cgraph_node::get(fndecl) : NULL;
	return n && n->definition && !DECL_EXTERNAL(fndecl);
}

static unsigned int execute_counter_batch(function *fun)
{
	basic_block bb;
	fn_rec *self = rec_of(DECL_UID(current_function_decl),
			      xstrdup(fn_name(current_function_decl)));
	hash_map<class loop *, loop_facts> facts;
	bool any_loop = loops_for_fn(fun) && number_of_loops(fun) > 1;

	if (!loops_for_fn(fun) || loops_state_satisfies_p(fun, LOOPS_NEED_FIXUP))
		any_loop = false;
	twins.truncate(0);
	if (!repeats_memo) {
		repeats_memo = new hash_map<int_hash<HOST_WIDE_INT, -1, -2>, bool>;
		cursor_memo = new hash_map<int_hash<int, -1, -2>, bool>;
	}
	repeats_memo->empty();
	cursor_memo->empty();
	counter_values_reset();
	note_unit_accumulators();
	note_accumulators(fun);
	/* rare_path() and facts_of() walk dominators: computed here, freed
	 * when the function is done */
	cb_dom_computed = false;
	if (!dom_info_available_p(CDI_DOMINATORS)) {
		calculate_dominance_info(CDI_DOMINATORS);
		cb_dom_computed = true;
	}
	/* every update of the function, for gauges */
	gauge_reset();
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			tree fd;
			upd_info u;
			if (!is_gimple_call(s) || gimple_call_internal_p(s) ||
			    !(fd = gimple_call_fndecl(s)) || !updater_of(fd, &u) ||
			    (unsigned)u.item >= gimple_call_num_args(s))
				continue;
			const char *txt = item_text(fd, u.item, eval_item(gimple_call_arg(s, u.item), 0));
			if (!txt)
				continue;
			gauge_add(s, txt, u.target >= 0 ? gimple_call_arg(s, u.target) : NULL_TREE,
				  fn_name(fd), u.item + 1);
		}
	/* pass 1: updates and calls outside loops (summary, twins). An update
	 * inside a loop of this function is per element of that loop, reported
	 * here: it is not "once per call" for the callers' loops. */
	FOR_EACH_BB_FN(bb, fun) {
		if (any_loop && bb->loop_father && loop_outer(bb->loop_father))
			continue;
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			tree fd;
			upd_info u;
			if (!is_gimple_call(s) || gimple_call_internal_p(s))
				continue;
			fd = gimple_call_fndecl(s);
			if (fd && updater_of(fd, &u)) {
				entry e = entry();
				e.delta_param = -1;
				location_t at;
				expanded_location x = expand_location(user_loc(gimple_location(s)));
				if ((u.target >= 0 && (unsigned)u.target >= gimple_call_num_args(s)) ||
				    (unsigned)u.item >= gimple_call_num_args(s))
					continue;
				e.updater = fn_name(fd);
				e.it = eval_item(gimple_call_arg(s, u.item), 0);
				e.item_txt = item_text(fd, u.item, e.it);
				e.has_target = u.target >= 0;
				if (e.has_target)
					trace(gimple_call_arg(s, u.target), false, 0, &e.tgt);
				e.tail = inline_chain(s, &at);
				if (e.tail)
					e.tail = strstr(e.tail, " -> ") + 4;
				e.file = ch_strdup(cachehot_ctx, x.file);
				e.line = x.line;
				e.rare = rare_path(bb, ENTRY_BLOCK_PTR_FOR_FN(fun));
				e.count = (unsigned)u.item + 1 < gimple_call_num_args(s) &&
					  delta_is_count(gimple_call_arg(s, u.item + 1), NULL, 0,
							 &e.delta_field, &e.delta_param);
				e.gauge = gauge(s);
				if (self->entries.length() < MAX_ENTRIES)
					self->entries.safe_push(e);
				{
					twin t = { e.updater, e.item_txt, (unsigned)LOCATION_LINE(at) };
					twins.safe_push(t);
				}
			} else if (fd && unit_function(fd) && fd != current_function_decl) {
				edge_rec r = edge_rec();
				r.callee_uid = DECL_UID(fd);
				r.callee = fn_name(fd);
				r.rare = rare_path(bb, ENTRY_BLOCK_PTR_FOR_FN(fun));
				record_args(s, &r.nargs, r.arg_o, r.arg_i, r.arg_count, r.arg_field,
					    r.arg_param);
				self->edges.safe_push(r);
			}
		}
	}
	if (!any_loop) {
		if (cb_dom_computed)
			free_dominance_info(CDI_DOMINATORS);
		return 0;
	}
	/* pass 2: calls inside loops */
	FOR_EACH_BB_FN(bb, fun) {
		class loop *l = bb->loop_father;
		if (!l || !loop_outer(l))
			continue;
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			tree fd;
			upd_info u;
			if (!is_gimple_call(s) || gimple_call_internal_p(s))
				continue;
			fd = gimple_call_fndecl(s);
			if (fd && updater_of(fd, &u)) {
				direct_update(s, fd, u, l, facts);
				continue;
			}
			if ((fd && (!unit_function(fd) || fd == current_function_decl)) ||
			    !has_cursor(l))
				continue;
			pending *p = XCNEW(pending);
			p->function = xstrdup(fn_name(current_function_decl));
			p->chain = inline_chain(s, &p->call_loc);
			if (!facts.get(l))
				facts.put(l, facts_of(l));
			p->facts = *facts.get(l);
			p->loop_loc = p->facts.loc;
			p->rare = rare_path(bb, l->header);
			p->once = !repeats_after_memo(l, bb);
			p->callee_uid = fd ? (int)DECL_UID(fd) : -1;
			if (!fd) {
				/* the possible targets: functions of this unit whose address
				 * is taken, of the type called */
				tree fnt = TREE_TYPE(TREE_TYPE(gimple_call_fn(s)));
				cgraph_node *n;
				const char *txt = NULL;
				FOR_EACH_DEFINED_FUNCTION(n) {
					if (!n->address_taken || !fnt || !same_fn_type(TREE_TYPE(n->decl), fnt))
						continue;
					p->targets.safe_push(DECL_UID(n->decl));
					txt = txt ? ch_printf(cachehot_ctx, "%s/%s", txt, fn_name(n->decl))
						  : fn_name(n->decl);
				}
				p->targets_txt = txt;
				if (p->targets.is_empty()) {
					free(p);
					continue;
				}
			}
			cur_loop = l;
			record_args(s, &p->nargs, p->arg_o, p->arg_i, p->arg_count, p->arg_field,
				    p->arg_param);
			cur_loop = NULL;
			pendings.safe_push(p);
		}
	}
	if (cb_dom_computed)
		free_dominance_info(CDI_DOMINATORS);
	return 0;
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
		fn_rec **c = fns->get(ed.callee_uid);
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
		fn_rec **c = fns->get(p->callee_uid);
		if (!c)
			return;
		compose(*c);
		for (unsigned j = 0; j < (*c)->summary.length(); j++) {
			const entry &e = (*c)->summary[j];
			ch_counter_finding f = ch_counter_finding();
			entry n = through(e, p->nargs, p->arg_o, p->arg_i, p->arg_count, p->arg_field,
					  p->arg_param);
			expanded_location lx = expand_location(p->loop_loc);
			if (!decide(tclass(n.tgt), n.has_target, n.it, &f))
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
			emit(&f, p->call_loc, p->loop_loc);
			break;   /* one finding per call in a loop */
		}
		return;
	}
	/* indirect: every possible target updates per call */
	const entry *first = NULL;
	for (unsigned i = 0; i < p->targets.length(); i++) {
		fn_rec **c = fns->get(p->targets[i]);
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
	emit(&f, p->call_loc, p->loop_loc);
}

static void finish_unit_cb(void *, void *)
{
	if (seen_error())
		return;
	for (unsigned i = 0; i < pendings.length(); i++)
		judge_pending(pendings[i]);
}

/* ---- registration ---------------------------------------------------------- */

static hash_set<int_hash<int, -1, -2>> *done;   /* functions already seen */

/* Does this unit call or define any updater at all? Most files do not
 * (page_counter.c, mmzone.c): then no function is looked at, which keeps
 * the pass within bench/plugin-overhead's goal. Asked after IPA, when the
 * call graph holds every function called. */
static bool unit_has_updaters(void)
{
	static int known = -1;
	cgraph_node *n;
	upd_info u;
	if (known >= 0)
		return known;
	known = 0;
	FOR_EACH_FUNCTION(n)
		if (updater_of(n->decl, &u)) {
			known = 1;
			break;
		}
	return known;
}

static void finish_enum_cb(void *gcc_data, void *)
{
	counter_note_enum((tree)gcc_data);
}

static const pass_data counter_batch_data = {
	GIMPLE_PASS, "cachehot_counter_batch", OPTGROUP_NONE, TV_NONE,
	PROP_ssa | PROP_cfg, 0, 0, 0, 0
};

class counter_batch_pass : public gimple_opt_pass {
public:
	counter_batch_pass(gcc::context *ctxt) : gimple_opt_pass(counter_batch_data, ctxt) {}
	/* the first "ccp" after the inliner's decisions are applied */
	bool gate(function *fun) OVERRIDE
	{
		return fun->after_inlining && unit_has_updaters() &&
		       !done->add(DECL_UID(fun->decl));
	}
	unsigned int execute(function *fun) OVERRIDE { return execute_counter_batch(fun); }
	opt_pass *clone() OVERRIDE { return new counter_batch_pass(m_ctxt); }
};

void cachehot_counter_init(const char *plugin_name)
{
	struct register_pass_info info;
	if (!updaters)
		cachehot_counter_updaters(NULL, plugin_name);
	fns = new hash_map<int_hash<int, -1, -2>, fn_rec *>;
	reported = new hash_set<int_hash<int, -1, -2>>;
	done = new hash_set<int_hash<int, -1, -2>>;
	emitted = new hash_set<nofree_string_hash>;
	info.pass = new counter_batch_pass(g);
	info.reference_pass_name = "ccp";
	info.ref_pass_instance_number = 0;   /* every instance; the gate picks */
	info.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, finish_unit_cb, NULL);
	register_callback(plugin_name, PLUGIN_FINISH_TYPE, finish_enum_cb, NULL);
}
