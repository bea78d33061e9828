/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-loops.c -- what the [cachehot-counter-batch] check (counter-batch.c)
 * says about a loop and a statement in it: the names and locations as the
 * user wrote them (a macro's use, not its header; "move_one" for the clone
 * "move_one.isra"), the chain of inlined calls from the function being
 * compiled down to a statement, and a loop's facts (the lock it releases,
 * the places it leaves to, a retry loop, a value carried around it).
 *
 * Memory: names and chains are owned by the core context (cachehot_ctx);
 * the memos live as long as the unit (cursor_memo: one function).
 * Cost: a loop's facts walk its body once; unlock_of is memoized per
 * function name.
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


/* The name as written: "move_one" for the IPA-SRA clone "move_one.isra" */
const char *cb_fn_name(tree fndecl)
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
location_t cb_user_loc(location_t loc)
{
	if (loc == UNKNOWN_LOCATION)
		return loc;
	return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
}

/* The chain "this -> inlined -> ... -> innermost" of the statement's blocks,
 * and the location, in the function being compiled, of the outermost
 * inlined call (the statement's own location when nothing is inlined). */
const char *cb_inline_chain(gimple *stmt, location_t *outer)
{
	auto_vec<tree, 8> cb_fns;
	location_t loc = gimple_location(stmt);
	for (tree b = gimple_block(stmt); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
		if (inlined_function_outer_scope_p(b)) {
			tree o = block_ultimate_origin(b);
			if (o && TREE_CODE(o) == FUNCTION_DECL)
				cb_fns.safe_push(o);
			loc = BLOCK_SOURCE_LOCATION(b);
		}
	*outer = cb_user_loc(loc);
	if (cb_fns.is_empty())
		return NULL;
	const char *s = cb_fn_name(current_function_decl);
	for (int i = cb_fns.length() - 1; i >= 0; i--)
		s = ch_printf(cachehot_ctx, "%s -> %s", s, cb_fn_name(cb_fns[i]));
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
			cb_inline_chain(s, &loc);
			break;
		}
	free(body);
	return loc;
}

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
 * is_unlock(cb_fn_name()) memoized per function name (cb_facts_of asks it of
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
	n = cb_fn_name(fndecl);
	if (!is_unlock(n))
		n = no;
	unlock_memo->put(DECL_NAME(fndecl), n);
	return n == no ? NULL : n;
}

bool cb_dom_computed;

/* A loop over elements carries a value around: a PHI in its header that
 * is not the memory state, or a list it pops. A loop without either (do { ... } while
 * (xas_nomem(&xas, gfp)), the page cache's retry loops) repeats one
 * attempt: its update runs once per success, not per element. */
static bool has_cursor_1(class loop *l);

/* cb_has_cursor() of a loop, memoized for the function being looked at (each
 * update and call in the loop asks; loop_pops_list() scans the function) */
static hash_map<int_hash<int, -1, -2>, bool> *cursor_memo;

void cb_loops_reset(void)
{
	if (!cursor_memo)
		cursor_memo = new hash_map<int_hash<int, -1, -2>, bool>;
	cursor_memo->empty();
}

bool cb_has_cursor(class loop *l)
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

loop_facts cb_facts_of(class loop *l)
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
				cb_inline_chain(s, &at);
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

