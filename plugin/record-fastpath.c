/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record-fastpath.c -- the fast path of the recording mode (record.c puts a
 * runtime call before every recorded access; this file lowers them): the
 * calls of one basic block up to the next other call or asm form a batch;
 * a batch decrements libcachehot-rt's per-thread countdown inline, once,
 * and only when it goes below 0 does a cold block call the runtime, once
 * per access of the batch (lower_batch). In a loop the countdown lives
 * in a register, stored and loaded around the loop's other calls (reg_loop). On x86-64 the cold block's
 * calls are asms that call register-preserving entry points
 * (allregs_asm). docs/record.md, "The fast path".
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "tree-ssa-alias.h"
#include "gimple-expr.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "stringpool.h"
#include "attribs.h"
#include "stor-layout.h"
#include "diagnostic-core.h"
#include "fold-const.h"
#include "ggc.h"
#include "langhooks.h"
#include "tree-cfg.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "dominance.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "rtl.h"
#include "output.h"
#include "regs.h"
#include "cachehot-plugin.h"
#include "record.h"

#include <string>
#include <vector>

static tree fn_decl[3];
static const char *const allregs_name[3] = { "__cachehot_rt_load_allregs", "__cachehot_rt_store_allregs",
					     "__cachehot_rt_rmw_allregs" };
/* libcachehot-rt's per-thread countdown to the next sample (an exported
 * initial-exec TLS int, runtime/cachehot-rt.h): decremented inline */
static tree countdown_decl;

static tree make_fn(const char *name)
{
	tree type = build_function_type_list(void_type_node, const_ptr_type_node,
					     build_pointer_type(build_qualified_type(char_type_node,
										     TYPE_QUAL_CONST)),
					     NULL_TREE);
	tree decl = build_fn_decl(name, type);
	TREE_NOTHROW(decl) = 1;
	DECL_IS_NOVOPS(decl) = 1;
	DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE, DECL_ATTRIBUTES(decl));
	return decl;
}


bool record_is_rt_call(gimple *s)
{
	tree d = is_gimple_call(s) ? gimple_call_fndecl(s) : NULL_TREE;
	return d && (d == fn_decl[0] || d == fn_decl[1] || d == fn_decl[2]);
}

static tree make_countdown(void)
{
	tree d = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("__cachehot_rt_countdown"),
			    integer_type_node);
	TREE_PUBLIC(d) = 1;
	DECL_EXTERNAL(d) = 1;
	DECL_ARTIFICIAL(d) = 1;
	TREE_USED(d) = 1;
	set_decl_tls_model(d, TLS_MODEL_INITIAL_EXEC);
	return d;
}

/* name's one use, debug statements counted (a debug bind left on the hot
 * path would name a value the cold block computes) */
static bool only_use(tree name)
{
	imm_use_iterator it;
	use_operand_p u;
	int n = 0;
	FOR_EACH_IMM_USE_FAST(u, it, name)
		n++;
	return n == 1;
}

/* The statements of bb that compute only the calls' address arguments
 * (no memory read, no other use), in their order: they can move down to
 * the cold block. */
static std::vector<gimple *> sinkable(const std::vector<gimple *> &calls, basic_block bb)
{
	std::vector<gimple *> out, work;
	hash_set<gimple *> take;
	for (gimple *call : calls)
		work.push_back(call);
	while (!work.empty()) {
		gimple *g = work.back();
		work.pop_back();
		ssa_op_iter it;
		tree use;
		FOR_EACH_SSA_TREE_OPERAND(use, g, it, SSA_OP_USE) {
			gimple *def = SSA_NAME_DEF_STMT(use);
			if (!def || gimple_bb(def) != bb || !is_gimple_assign(def) || gimple_vuse(def) ||
			    gimple_has_side_effects(def) || gimple_could_trap_p(def) || !only_use(use) ||
			    take.contains(def))
				continue;
			take.add(def);
			work.push_back(def);
		}
	}
	for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g))
		if (take.contains(gsi_stmt(g)))
			out.push_back(gsi_stmt(g));
	return out;
}

/* x86-64 (64-bit pointers, the SysV registers): the cold block reaches the
 * runtime through an asm that calls the entry point's register-preserving
 * twin (__cachehot_rt_load_allregs, ..., runtime/allregs.c): it saves every
 * general register it uses and keeps the SSE ones out of it, so that the
 * function around the cold block keeps its values in whatever registers
 * it likes. A call (even declared no_caller_saved_registers: GCC 12 applies
 * that attribute to the callee's body only, the caller still assumes the
 * ABI's clobbers) made every value live across it move to a callee-saved
 * register: headroom() of bench/record/stats.c, 10 instructions, pushed
 * and popped 4 of them on every call for the call in its cold block. */
static bool use_allregs(void)
{
	return TYPE_PRECISION(ptr_type_node) == 64 && decode_reg_name("rdi") >= 0 &&
	       decode_reg_name("rsi") >= 0 && decode_reg_name("xmm15") >= 0;
}

/* The asm that stands for call (one of the runtime calls, in the cold
 * block): the address in rdi, the site in rsi; it skips the red zone (a
 * leaf function may keep data below the stack pointer, which the call's
 * return address would overwrite); it reads and writes the countdown (the
 * runtime resets it); it clobbers the flags and the vector registers the
 * target has (the runtime's C code and libc may use them). */
static gimple *allregs_asm(gcall *call, enum rec_kind kind)
{
	vec<tree, va_gc> *in = NULL, *out = NULL, *clob = NULL;
	std::string text = "lea -128(%%rsp), %%rsp\n\tcall *";
	text += allregs_name[kind];
	text += "@GOTPCREL(%%rip)\n\tlea 128(%%rsp), %%rsp";
	vec_safe_push(in, build_tree_list(build_tree_list(NULL_TREE, build_string(1, "D")),
					  gimple_call_arg(call, 0)));
	vec_safe_push(in, build_tree_list(build_tree_list(NULL_TREE, build_string(1, "S")),
					  gimple_call_arg(call, 1)));
	vec_safe_push(out, build_tree_list(build_tree_list(NULL_TREE, build_string(2, "+m")),
					   unshare_expr(countdown_decl)));
	vec_safe_push(clob, build_tree_list(NULL_TREE, build_string(2, "cc")));
	for (int i = 0; i < 32; i++) {
		char name[8];
		snprintf(name, sizeof(name), "xmm%d", i);
		int r = decode_reg_name(name);
		if (r >= 0 && in_hard_reg_set_p(accessible_reg_set, reg_raw_mode[r], r))
			vec_safe_push(clob, build_tree_list(NULL_TREE, build_string(strlen(name), name)));
	}
	gasm *a = gimple_build_asm_vec(ggc_strdup(text.c_str()), in, out, clob, NULL);
	gimple_asm_set_volatile(a, true);
	gimple_set_location(a, gimple_location(call));
	return a;
}

static enum rec_kind kind_of(gimple *call)
{
	tree d = gimple_call_fndecl(call);
	return d == fn_decl[REC_STORE] ? REC_STORE : d == fn_decl[REC_RMW] ? REC_RMW : REC_LOAD;
}

/* The fast path of one batch: the k runtime calls calls[] (one basic block,
 * no other call between them) become
 *	c0 = __cachehot_rt_countdown; c1 = c0 - k; __cachehot_rt_countdown = c1;
 *	if (__builtin_expect(c1 < 0, 0)) {       (a block of its own)
 *		__cachehot_rt_countdown = c1 + k;   the calls count down one by
 *		calls[0]; ... calls[k-1];  one, exactly as without the batch
 *	}
 * (on x86-64 each call becomes allregs_asm(): nothing live across the cold
 * block needs a callee-saved register for it)
 * placed before anchor (before = true) or after it (lower_calls: after the
 * batch's last call). */
static void lower_batch(const std::vector<gimple *> &calls, gimple *anchor, bool before, tree reg)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(anchor);
	basic_block bb = gsi_bb(gsi), cold;
	location_t loc = gimple_location(calls[0]);
	tree c0 = make_ssa_name(integer_type_node), c1 = make_ssa_name(integer_type_node);
	tree cd = reg ? reg : countdown_decl;
	gimple *ld = gimple_build_assign(c0, cd);
	gimple *sub = gimple_build_assign(c1, PLUS_EXPR, c0,
					  build_int_cst(integer_type_node, -(HOST_WIDE_INT)calls.size()));
	gimple *st = gimple_build_assign(unshare_expr(cd), c1);
	/* below 0, not "0 or less": x86's sub then sets the flags the branch
	 * reads (js), with no test; the runtime counts to -1 (cachehot-rt.h) */
	gcond *cond = gimple_build_cond(LT_EXPR, c1, integer_zero_node, NULL_TREE, NULL_TREE);
	gimple_seq seq = NULL;
	for (gimple *g : { ld, sub, st, (gimple *)cond }) {
		gimple_set_location(g, loc);
		gimple_seq_add_stmt(&seq, g);
	}
	if (before)
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	else
		gsi_insert_seq_after(&gsi, seq, GSI_SAME_STMT);
	edge fall = split_block(bb, cond);
	basic_block rest = fall->dest;
	cold = create_empty_bb(bb);
	if (current_loops)
		add_bb_to_loop(cold, bb->loop_father);
	if (dom_info_available_p(CDI_DOMINATORS))   /* split_block kept rest's */
		set_immediate_dominator(CDI_DOMINATORS, cold, bb);
	edge hot = fall;
	hot->flags &= ~EDGE_FALLTHRU;
	hot->flags |= EDGE_FALSE_VALUE;
	hot->probability = profile_probability::very_likely();
	edge e = make_edge(bb, cold, EDGE_TRUE_VALUE);
	e->probability = profile_probability::very_unlikely();
	cold->count = e->count();
	make_single_succ_edge(cold, rest, EDGE_FALLTHRU);
	gimple_stmt_iterator c = gsi_start_bb(cold);
	/* c1 + k, not c0: c0 kept for the cold block was one more register
	 * live across the check (and a copy) on the hot path */
	tree back = make_ssa_name(integer_type_node);
	gimple *undo = gimple_build_assign(back, PLUS_EXPR, c1,
					   build_int_cst(integer_type_node, (HOST_WIDE_INT)calls.size()));
	gimple *reset = gimple_build_assign(unshare_expr(countdown_decl), back);
	gimple_set_location(undo, loc);
	gimple_set_location(reset, loc);
	gsi_insert_after(&c, undo, GSI_NEW_STMT);
	gsi_insert_after(&c, reset, GSI_NEW_STMT);
	/* the addresses are computed where they are used: in the cold block
	 * (computed on the hot path, they were kept in registers up to the
	 * check: headroom() of bench/record/stats.c saved 6 registers more) */
	for (gimple *def : sinkable(calls, bb)) {
		gimple_stmt_iterator from = gsi_for_stmt(def);
		gsi_remove(&from, false);
		gsi_insert_after(&c, def, GSI_NEW_STMT);
	}
	bool allregs = use_allregs();
	for (gimple *call : calls) {
		gimple_stmt_iterator from = gsi_for_stmt(call);
		if (!allregs) {   /* the call itself moves into the cold block */
			gsi_remove(&from, false);
			gsi_insert_after(&c, call, GSI_NEW_STMT);
			continue;
		}
		/* the asm stands for the call, which goes for good: removed
		 * "for now" (gsi_remove's false) the call stayed on its
		 * operands' immediate-use lists after the garbage collector
		 * freed it, and cc1 crashed in out-of-SSA
		 * (calculate_live_ranges) on HAProxy's mux_fcgi.c, or not,
		 * as the heap's layout went (-g, the plugin's path) */
		gsi_insert_after(&c, allregs_asm(as_a<gcall *>(call), kind_of(call)), GSI_NEW_STMT);
		unlink_stmt_vdef(call);
		gsi_remove(&from, true);
		release_defs(call);
	}
	if (reg) {   /* the runtime has reset the countdown */
		gimple *reload = gimple_build_assign(reg, unshare_expr(countdown_decl));
		gimple_set_location(reload, loc);
		gsi_insert_after(&c, reload, GSI_NEW_STMT);
	}
}

/* Does s run code the plugin does not see (which may be instrumented and
 * count the countdown down)? Calls but the runtime's, builtins (atomics,
 * string functions) and internal functions; asms. */
static bool foreign(gimple *s)
{
	tree d = is_gimple_call(s) ? gimple_call_fndecl(s) : NULL_TREE;
	return (is_gimple_call(s) && !record_is_rt_call(s) && !gimple_call_internal_p(s) &&
		!(d && fndecl_built_in_p(d, BUILT_IN_NORMAL))) ||
	       gimple_code(s) == GIMPLE_ASM;
}

/* A loop whose edges are all ordinary (no abnormal or EH edge) keeps the
 * countdown in a register: loaded on the way in, stored on the way out (the
 * store motion GCC's own LIM would do; without it, the decrement of each
 * batch waits for the previous one's store: about 5 cycles a batch), and
 * around each call and asm of the loop (foreign()), which may run
 * instrumented code: stored before it, loaded after it (before, a loop
 * with a call kept the countdown in memory throughout: a load, a store and
 * a TLS address per batch; bench/record/ring.c's loops call sched_yield
 * when they have spun long). Such a call must not end its block, but for a
 * noreturn one (nothing to load after). The calls go to *spills. */
static bool reg_loop(class loop *l, std::vector<gimple *> *spills)
{
	basic_block *body = get_loop_body(l);
	bool ok = true;
	size_t had = spills->size();
	for (unsigned i = 0; ok && i < l->num_nodes; i++) {
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, body[i]->preds)
			if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
				ok = false;
		FOR_EACH_EDGE(e, ei, body[i]->succs)
			if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
				ok = false;
		for (gimple_stmt_iterator g = gsi_start_bb(body[i]); ok && !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			if (!foreign(s))
				continue;
			if (stmt_ends_bb_p(s) && !(is_gimple_call(s) && (gimple_call_flags(s) & ECF_NORETURN)))
				ok = false;
			else
				spills->push_back(s);
		}
	}
	free(body);
	if (!ok)
		spills->resize(had);
	return ok;
}

/* The outermost loops that can keep the countdown in a register, each with
 * its calls. */
static void reg_loops(class loop *l, std::vector<class loop *> &out, std::vector<std::vector<gimple *>> &spills)
{
	for (class loop *c = l->inner; c; c = c->next) {
		std::vector<gimple *> calls;
		if (!c->header)
			continue;
		if (reg_loop(c, &calls)) {
			out.push_back(c);
			spills.push_back(calls);
		} else {
			reg_loops(c, out, spills);
		}
	}
}

/* Every runtime call inserted by execute() goes behind the inline countdown:
 * the calls of one basic block up to the next other call or asm (which may
 * run instrumented code, or synchronize) form one batch, decremented
 * at once. Returns whether anything changed. */
bool record_lower_calls(function *fun)
{
	auto_vec<basic_block> bbs;
	basic_block bb;
	bool changed = false;
	std::vector<class loop *> loops;
	std::vector<std::vector<gimple *>> spills;
	std::vector<bool> used;
	tree reg = NULL_TREE;
	bool any = false;
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !any && !gsi_end_p(g); gsi_next(&g))
			any = record_is_rt_call(gsi_stmt(g));
	if (!any)   /* nothing recorded here: the function stays as it is */
		return false;
	/* the loop tree as it is now (the loop optimizers are done: fix it up) */
	loop_optimizer_init(LOOPS_MAY_HAVE_MULTIPLE_LATCHES);
	if (current_loops && current_loops->tree_root)
		reg_loops(current_loops->tree_root, loops, spills);
	used.assign(loops.size(), false);
	FOR_EACH_BB_FN(bb, fun)
		bbs.safe_push(bb);
	for (basic_block b : bbs) {
		struct batch { std::vector<gimple *> calls; gimple *anchor; bool before; };
		std::vector<batch> todo;
		std::vector<gimple *> cur;
		/* the check goes right after the batch's last call (which stands
		 * before its access): the values the cold block needs are still
		 * where the calls found them (after the access, a loop's pointer
		 * already moved on, and the old one was copied for the cold block:
		 * one register and one instruction more on the hot path) */
		for (gimple_stmt_iterator gsi = gsi_start_bb(b); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_debug(s))
				continue;
			if (record_is_rt_call(s)) {
				cur.push_back(s);
				continue;
			}
			if (!cur.empty() && (is_gimple_call(s) || gimple_code(s) == GIMPLE_ASM ||
					     stmt_ends_bb_p(s))) {
				todo.push_back({ cur, cur.back(), false });
				cur.clear();
			}
		}
		if (!cur.empty())
			todo.push_back({ cur, cur.back(), false });
		for (batch &t : todo) {
			tree r = NULL_TREE;
			for (size_t i = 0; i < loops.size(); i++)
				if (flow_bb_inside_loop_p(loops[i], gimple_bb(t.anchor))) {
					if (!reg)
						reg = create_tmp_reg(integer_type_node, "cachehot_countdown");
					r = reg;
					used[i] = true;
				}
			lower_batch(t.calls, t.anchor, t.before, r);
			changed = true;
		}
	}
	/* around each call of a loop that uses it: stored before, loaded after */
	for (size_t i = 0; i < loops.size(); i++)
		for (gimple *s : spills[i]) {
			if (!used[i])
				break;
			gimple_stmt_iterator g = gsi_for_stmt(s);
			gimple *st = gimple_build_assign(unshare_expr(countdown_decl), reg);
			gimple_set_location(st, gimple_location(s));
			gsi_insert_before(&g, st, GSI_SAME_STMT);
			if (is_gimple_call(s) && (gimple_call_flags(s) & ECF_NORETURN))
				continue;
			gimple *ld = gimple_build_assign(reg, unshare_expr(countdown_decl));
			gimple_set_location(ld, gimple_location(s));
			gsi_insert_after(&g, ld, GSI_SAME_STMT);
		}
	/* the register's way out of each loop that uses it, then its way in
	 * (an edge out of one loop into the next: stored, then loaded) */
	for (size_t i = 0; i < loops.size(); i++)
		if (used[i])
			for (edge x : get_loop_exit_edges(loops[i]))
				gsi_insert_on_edge(x, gimple_build_assign(unshare_expr(countdown_decl), reg));
	for (size_t i = 0; i < loops.size(); i++) {
		edge e;
		edge_iterator ei;
		if (!used[i])
			continue;
		FOR_EACH_EDGE(e, ei, loops[i]->header->preds)
			if (!flow_bb_inside_loop_p(loops[i], e->src))
				gsi_insert_on_edge(e, gimple_build_assign(reg, unshare_expr(countdown_decl)));
	}
	gsi_commit_edge_inserts();
	loop_optimizer_finalize();
	if (changed) {
		free_dominance_info(CDI_DOMINATORS);
		free_dominance_info(CDI_POST_DOMINATORS);
		if (current_loops)
			loops_state_set(LOOPS_NEED_FIXUP);
		mark_virtual_operands_for_renaming(fun);
	}
	return changed;
}

void record_decls(void)
{
	if (fn_decl[0])
		return;
	fn_decl[REC_LOAD] = make_fn("__cachehot_rt_load");
	fn_decl[REC_STORE] = make_fn("__cachehot_rt_store");
	fn_decl[REC_RMW] = make_fn("__cachehot_rt_rmw");
	countdown_decl = make_countdown();
}

tree record_fn(enum rec_kind kind)
{
	return fn_decl[kind];
}

const struct ggc_root_tab *record_roots(void)
{
	static const struct ggc_root_tab roots[] = {
		{ &fn_decl[0], 3, sizeof(fn_decl[0]), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
		{ &countdown_decl, 1, sizeof(countdown_decl), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
		LAST_GGC_ROOT_TAB
	};
	return roots;
}
