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
 *    in the loop's function from the outermost block's BLOCK_SOURCE_LOCATION
 *    (counter-loops.c, with the loop's own facts).
 *  - a call to another function of this file that was not inlined, and an
 *    indirect call: kept with its arguments' origins and judged at the end
 *    of the unit (counter-judge.c), when every function has been through
 *    the pass. Each function leaves a summary here (the updates it makes
 *    per call, with the target and item as functions of its parameters)
 *    and its call edges.
 *
 * This file: the updaters (counter-updaters=), the pass, registration.
 * Where values come from: counter-values.c. What is not once per element
 * (retry loops, gauges, counts made elsewhere, rare paths) is decided in
 * counter-silent.c.
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


/* ---- the updaters ------------------------------------------------------- */

struct upd_info { int target, item; };
static hash_map<tree, upd_info> *updaters;   /* IDENTIFIER_NODE -> arguments */

/* The updaters by name until the first question, asked by the pass after
 * the unit is parsed: then the names become identifiers. get_identifier()
 * for the 58 built-in names at plugin_init put 58 identifier nodes into
 * GCC's garbage-collected pages and its identifier table before the first
 * token, and cc1's allocations came in another order (page_counter.c:
 * cc1's malloc 0.1-0.2 M instructions more). A name no declaration of the
 * unit spelt has no identifier yet (maybe_get_identifier): no call can
 * name it, so it is left out. */
struct upd_name { const char *name; upd_info u; };
static upd_name *upd_names;
static unsigned n_upd_names, cap_upd_names;

static bool updater_of(tree fndecl, upd_info *out)
{
	upd_info *u;
	if (!updaters) {
		updaters = new hash_map<tree, upd_info>;
		for (unsigned i = 0; i < n_upd_names; i++)
			if (tree id = maybe_get_identifier(upd_names[i].name))
				updaters->put(id, upd_names[i].u);
	}
	if (!fndecl || !DECL_NAME(fndecl) || !(u = updaters->get(DECL_NAME(fndecl))))
		return false;
	*out = *u;
	return true;
}

static void add_updater(const char *name, int target, int item)
{
	if (n_upd_names == cap_upd_names) {
		cap_upd_names = cap_upd_names ? 2 * cap_upd_names : 64;
		upd_names = XRESIZEVEC(upd_name, upd_names, cap_upd_names);
	}
	upd_names[n_upd_names].name = xstrdup(name);
	upd_names[n_upd_names].u.target = target;
	upd_names[n_upd_names].u.item = item;
	n_upd_names++;
}

/* counter-updaters=NAME[:TARGET:ITEM],... (TARGET '-' for no target) */
void cachehot_counter_updaters(const char *spec, const char *plugin_name)
{
	static bool builtin_added;
	char *list = xstrdup(spec ? spec : ""), *save = NULL, *p;
	if (!builtin_added) {
		int t, it;
		builtin_added = true;
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

struct twin { const char *updater, *item; unsigned line; };
static vec<twin> twins;   /* this function's updates outside every loop */

static void fill_common(ch_counter_finding *f, const loop_facts &lf, const char *updater)
{
	expanded_location x = expand_location(lf.loc);
	f->function = cb_fn_name(current_function_decl);
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
	expanded_location ux = expand_location(cb_user_loc(gimple_location(stmt)));

	if ((u.target >= 0 && (unsigned)u.target >= nargs) || (unsigned)u.item >= nargs)
		return;
	cur_loop = l;
	if (u.target >= 0)
		trace(gimple_call_arg(stmt, u.target), false, 0, &o);
	it = eval_item(gimple_call_arg(stmt, u.item), 0);
	cur_loop = NULL;
	if (!cb_decide(cb_tclass(o), u.target >= 0, it, &f))
		return;
	f.updater = cb_fn_name(fndecl);
	f.item = item_text(fndecl, u.item, it);
	f.chain = cb_inline_chain(stmt, &at);
	f.target_from = o.from;
	if (f.chain) {
		f.update_file = ch_strdup(cachehot_ctx, ux.file);
		f.update_line = ux.line;
	}
	if (!facts.get(l))
		facts.put(l, cb_facts_of(l));
	fill_common(&f, *facts.get(l), f.updater);
	{
		const char *why = NULL;
		if (!cb_has_cursor(l))
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
	cb_emit(&f, at, facts.get(l)->loc);
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
	fn_rec *self = cb_rec_of(DECL_UID(current_function_decl),
			      xstrdup(cb_fn_name(current_function_decl)));
	hash_map<class loop *, loop_facts> facts;
	bool any_loop = loops_for_fn(fun) && number_of_loops(fun) > 1;

	if (!loops_for_fn(fun) || loops_state_satisfies_p(fun, LOOPS_NEED_FIXUP))
		any_loop = false;
	twins.truncate(0);
	if (!repeats_memo)
		repeats_memo = new hash_map<int_hash<HOST_WIDE_INT, -1, -2>, bool>;
	repeats_memo->empty();
	repeats_after_new_function();
	cb_loops_reset();
	counter_values_reset();
	note_unit_accumulators();
	note_accumulators(fun);
	/* rare_path() and cb_facts_of() walk dominators: computed here, freed
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
				  cb_fn_name(fd), u.item + 1);
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
				expanded_location x = expand_location(cb_user_loc(gimple_location(s)));
				if ((u.target >= 0 && (unsigned)u.target >= gimple_call_num_args(s)) ||
				    (unsigned)u.item >= gimple_call_num_args(s))
					continue;
				e.updater = cb_fn_name(fd);
				e.it = eval_item(gimple_call_arg(s, u.item), 0);
				e.item_txt = item_text(fd, u.item, e.it);
				e.has_target = u.target >= 0;
				if (e.has_target)
					trace(gimple_call_arg(s, u.target), false, 0, &e.tgt);
				e.tail = cb_inline_chain(s, &at);
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
				r.callee = cb_fn_name(fd);
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
			    !cb_has_cursor(l))
				continue;
			pending *p = XCNEW(pending);
			p->function = xstrdup(cb_fn_name(current_function_decl));
			p->chain = cb_inline_chain(s, &p->call_loc);
			if (!facts.get(l))
				facts.put(l, cb_facts_of(l));
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
					txt = txt ? ch_printf(cachehot_ctx, "%s/%s", txt, cb_fn_name(n->decl))
						  : cb_fn_name(n->decl);
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
			cb_pend(p);
		}
	}
	if (cb_dom_computed)
		free_dominance_info(CDI_DOMINATORS);
	return 0;
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

bool cachehot_counter_enums;

void cachehot_counter_enum(tree type)
{
	counter_note_enum(type);
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
	if (!n_upd_names)
		cachehot_counter_updaters(NULL, plugin_name);
	cb_judge_init();
	reported = new hash_set<int_hash<int, -1, -2>>;
	done = new hash_set<int_hash<int, -1, -2>>;
	info.pass = new counter_batch_pass(g);
	info.reference_pass_name = "ccp";
	info.ref_pass_instance_number = 0;   /* every instance; the gate picks */
	info.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, cb_finish_unit, NULL);
	cachehot_counter_enums = true;   /* enum types: cachehot.c's finish_type */
}

