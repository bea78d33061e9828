/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-silent.c -- what the counter-batch pass (counter-batch.c) keeps
 * silent because it is not once per element of a loop: retry loops, an
 * update after which only a failed attempt brings the loop round, gauges,
 * counts made elsewhere (callees that already batch) and rare paths. How
 * each decides: docs/checks.rst, [cachehot-counter-batch].
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

/* ---- what is not once per element ---------------------------------------- */

/* Updates the check stays silent on, each for a reason a maintainer gives
 * (docs/checks.rst, "What is not per element"). CACHEHOT_COUNTER_EXPLAIN=1
 * in the environment prints each silenced finding with its reason on
 * stderr (a debugging aid for verdict tables; no diagnostic). */
static int explain_on = -1;   /* CACHEHOT_COUNTER_EXPLAIN: -1 not read yet */

void explain(const char *why, const char *updater, const char *item, location_t at,
		    location_t loop_loc, const char *function)
{
	if (explain_on < 0) {
		const char *e = getenv("CACHEHOT_COUNTER_EXPLAIN");
		explain_on = e && *e && strcmp(e, "0");
	}
	if (!explain_on)
		return;
	expanded_location a = expand_location(at), l = expand_location(loop_loc);
	fprintf(stderr, "cachehot: counter-batch: silent (%s): '%s'%s%s at %s:%d, loop at %s:%d in '%s'\n",
		why, updater ? updater : "", item ? " of " : "", item ? item : "",
		a.file ? a.file : "", a.line, l.file ? l.file : "", l.line, function ? function : "");
}

/* A branch taken at most this often is a rare path (GCC's static profile:
 * an unlikely() branch is taken 10% of the time, builtin-expect-probability;
 * a plain if 50%; a call to a cold function less than 1%). */

/* How often bb runs per run of base, from the profile GCC estimated (and
 * scaled through inlining); 1 when unknown. */
static double share_of(basic_block bb, basic_block base)
{
	bool known = false;
	if (!bb->count.initialized_p() || !base->count.initialized_p() || !base->count.nonzero_p())
		return 1.0;
	sreal r = bb->count.to_sreal_scale(base->count, &known);
	return known ? r.to_double() : 1.0;
}

/* Is bb on a rare path below top (the loop's head, or the function's
 * entry)? Rare when one step of its dominator chain up to top is entered
 * rarely: the block runs at most RARE_BRANCH as often as its immediate
 * dominator (an unlikely() branch, a lost race: __pte_alloc() called only
 * under pte_alloc()'s unlikely(pmd_none())). Plain conditions in a row
 * (four if (...) continue; in a page table walk) each halve the count but
 * none is rare: the product is not what counts. */
bool rare_path(basic_block bb, basic_block top)
{
	for (basic_block b = bb; b && b != top; ) {
		basic_block d = get_immediate_dominator(CDI_DOMINATORS, b);
		if (!d)
			break;
		class loop *x = d->loop_father;
		if (x && x->header == d && loop_outer(x) && !flow_bb_inside_loop_p(x, b)) {
			/* b follows a loop headed by d: d runs once per iteration,
			 * b once per run of the loop; compare b with the loop's
			 * entries (gup_folio_next()'s scan for the folio's last
			 * page before each unpin) */
			profile_count in = profile_count::zero();
			edge e;
			edge_iterator ei;
			FOR_EACH_EDGE(e, ei, d->preds)
				if (!flow_bb_inside_loop_p(x, e->src))
					in += e->count();
			if (in.initialized_p() && in.nonzero_p() && b->count.initialized_p()) {
				bool known = false;
				sreal r = b->count.to_sreal_scale(in, &known);
				if (known && r.to_double() < RARE_BRANCH)
					return true;
			}
		} else if (share_of(b, d) < RARE_BRANCH)
			return true;
		b = d;
	}
	return false;
}

/* A loop expected to go round again in fewer than RARE_BRANCH of its runs
 * (GCC's static profile: the back edge is reached only through an
 * unlikely() failure, rmqueue_buddy()'s do { } while (check_new_pages())
 * that repeats only for a bad page) is a retry loop too. */
static bool rarely_repeats(class loop *l)
{
	profile_count in = profile_count::zero(), back = profile_count::zero();
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, l->header->preds)
		if (flow_bb_inside_loop_p(l, e->src))
			back += e->count();
		else
			in += e->count();
	if (!in.initialized_p() || !back.initialized_p() || !in.nonzero_p())
		return false;
	bool known = false;
	sreal r = back.to_sreal_scale(in, &known);
	return known && r.to_double() < RARE_BRANCH;
}

/* A call or asm that decides whether an attempt failed: a compare-and-swap
 * (GCC's atomics, the kernel's inline-asm cmpxchg), a trylock, a seqcount
 * or xarray retry test. */
static bool attempt_failed_test(gimple *s)
{
	if (gimple_code(s) == GIMPLE_ASM)
		return strstr(gimple_asm_string(as_a<gasm *>(s)), "cmpxchg") != NULL;
	if (!is_gimple_call(s))
		return false;
	if (gimple_call_internal_p(s))
		return gimple_call_internal_fn(s) == IFN_ATOMIC_COMPARE_EXCHANGE;
	tree fd = gimple_call_fndecl(s);
	if (!fd || !DECL_NAME(fd))
		return false;
	if (fndecl_built_in_p(fd, BUILT_IN_NORMAL)) {
		enum built_in_function b = DECL_FUNCTION_CODE(fd);
		if ((b >= BUILT_IN_ATOMIC_COMPARE_EXCHANGE && b <= BUILT_IN_ATOMIC_COMPARE_EXCHANGE_16) ||
		    (b >= BUILT_IN_SYNC_BOOL_COMPARE_AND_SWAP_N && b <= BUILT_IN_SYNC_VAL_COMPARE_AND_SWAP_16))
			return true;
	}
	const char *n = IDENTIFIER_POINTER(DECL_NAME(fd));
	return strstr(n, "cmpxchg") || strstr(n, "trylock") || strstr(n, "retry") ||
	       strstr(n, "nomem");
}

static bool failed_attempt(tree v, int depth)
{
	/* the success flag of GCC's compare-exchange: IMAGPART_EXPR <_12> */
	if (v && (TREE_CODE(v) == IMAGPART_EXPR || TREE_CODE(v) == REALPART_EXPR ||
		  TREE_CODE(v) == VIEW_CONVERT_EXPR))
		v = TREE_OPERAND(v, 0);
	if (!v || TREE_CODE(v) != SSA_NAME || depth > 6)
		return false;
	gimple *def = SSA_NAME_DEF_STMT(v);
	if (attempt_failed_test(def))
		return true;
	if (!is_gimple_assign(def))
		return false;
	for (unsigned i = 1; i < gimple_num_ops(def); i++)
		if (failed_attempt(gimple_op(def, i), depth + 1))
			return true;
	return false;
}

/* A retry loop repeats one attempt, it does not walk elements: its head
 * carries a label the code jumps back to (goto retry, goto redo), or every
 * edge back to its head is taken when a compare-and-swap, a trylock or a
 * retry test failed (do { } while (xas_nomem()), while (!try_cmpxchg())). */
bool retry_loop(class loop *l)
{
	for (gimple_stmt_iterator g = gsi_start_bb(l->header); !gsi_end_p(g); gsi_next(&g)) {
		glabel *lab = dyn_cast<glabel *>(gsi_stmt(g));
		if (!lab)
			break;
		if (!DECL_ARTIFICIAL(gimple_label_label(lab)) && DECL_NAME(gimple_label_label(lab)))
			return true;
	}
	if (rarely_repeats(l))
		return true;
	edge e;
	edge_iterator ei;
	bool any = false;
	FOR_EACH_EDGE(e, ei, l->header->preds) {
		if (!flow_bb_inside_loop_p(l, e->src))
			continue;
		basic_block b = e->src;
		while (single_pred_p(b) && gsi_end_p(gsi_start_nondebug_after_labels_bb(b)))
			b = single_pred(b);   /* a forwarder block */
		gimple *last = last_stmt(b);
		gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
		if (!c || (!failed_attempt(gimple_cond_lhs(c), 0) &&
			   !failed_attempt(gimple_cond_rhs(c), 0)))
			return false;
		any = true;
	}
	return any;
}

/* What a path knows: SSA names and the constants a PHI gave them on the
 * edges it followed, a list shared by the paths that branch from it (each
 * node points at the one before; the repeats_after() call's pool owns
 * them). Index -1 is nothing known. */
struct known_node {
	tree name, value;
	int prev;        /* the node before, -1 none */
	unsigned len;    /* nodes from here to the first */
};

struct path_state {
	basic_block bb;
	edge in;
	int known;       /* the path's newest known_node, -1 none */
};

/* Per block of the function being looked at (by bb->index): whether the
 * current path search entered it with nothing known, and whether its
 * condition tests a failed attempt (the same for every path and search
 * of one function). Stamped, so nothing is cleared between searches. */
struct block_memo {
	unsigned seen_search;      /* == search_stamp: entered with nothing known */
	unsigned failed_function;  /* == function_stamp: failed_test is set */
	bool failed_test;
};

static vec<known_node> known_pool;
static vec<path_state> path_work;
static vec<block_memo> block_memos;
static unsigned search_stamp, function_stamp = 1;

void repeats_after_new_function(void)
{
	if (++function_stamp == 0) {   /* wrapped: forget every stamp */
		block_memos.truncate(0);
		function_stamp = 1;
	}
}

static block_memo *memo_of(basic_block b)
{
	unsigned i = (unsigned)b->index;
	if (i >= block_memos.length())
		block_memos.safe_grow_cleared(i + 1 + i / 2);
	return &block_memos[i];
}

/* The constant v has on the path whose newest node is k: a constant
 * itself, or the first value the path learnt for it (its oldest node for
 * v: a path round an inner loop learns a PHI's value again). */
static tree known_value(int k, tree v)
{
	if (v && TREE_CODE(v) == INTEGER_CST)
		return v;
	tree found = NULL_TREE;
	for (; k >= 0; k = known_pool[k].prev)
		if (known_pool[k].name == v)
			found = known_pool[k].value;
	return found;
}

/* The outcome of the condition "a CODE z" on two known constants: 1 true,
 * 0 false, -1 not decided. The same answer as
 * fold_binary(code, boolean_type_node, fold_convert(TREE_TYPE(z), a), z)
 * for the six integer comparisons, without building trees:
 * fold_convert_const_int_from_int extends a by its own type's sign and
 * truncates it to z's precision (force_fit_type), fold_relational_const
 * then compares by z's type's sign. That fold and convert were 1.6 M
 * instructions of mm/page_alloc.c's 8.9 G (4 274 conditions; callgrind).
 * Other codes and types take fold_binary itself. */
static int decide_cond(enum tree_code code, tree a, tree z)
{
	tree t = TREE_TYPE(z), d;
	int r = -1;
	/* pointers into two address spaces: fold_convert makes an
	 * ADDR_SPACE_CONVERT_EXPR and the fold decides nothing */
	if (TREE_CODE(a) == INTEGER_CST && TREE_CODE(z) == INTEGER_CST &&
	    (INTEGRAL_TYPE_P(t) || POINTER_TYPE_P(t)) && TREE_TYPE(a) &&
	    (INTEGRAL_TYPE_P(TREE_TYPE(a)) || POINTER_TYPE_P(TREE_TYPE(a))) &&
	    !(POINTER_TYPE_P(t) && POINTER_TYPE_P(TREE_TYPE(a)) &&
	      TYPE_ADDR_SPACE(TREE_TYPE(t)) != TYPE_ADDR_SPACE(TREE_TYPE(TREE_TYPE(a))))) {
		unsigned prec = TYPE_PRECISION(t);
		signop sgn = TYPE_SIGN(t);
		wide_int x = wide_int::from(wi::to_wide(a), prec, TYPE_SIGN(TREE_TYPE(a)));
		wide_int y = wi::to_wide(z);
		switch (code) {
		case EQ_EXPR: r = wi::eq_p(x, y); break;
		case NE_EXPR: r = wi::ne_p(x, y); break;
		case LT_EXPR: r = wi::lt_p(x, y, sgn); break;
		case LE_EXPR: r = wi::le_p(x, y, sgn); break;
		case GT_EXPR: r = wi::gt_p(x, y, sgn); break;
		case GE_EXPR: r = wi::ge_p(x, y, sgn); break;
		default: break;
		}
	}
#ifndef CACHEHOT_CHECK_DECIDE
	if (r >= 0)
		return r;
#endif
	d = fold_binary(code, boolean_type_node, fold_convert(t, a), z);
	if (d && TREE_CODE(d) != INTEGER_CST)
		d = NULL_TREE;
#ifdef CACHEHOT_CHECK_DECIDE
	/* built with -DCACHEHOT_CHECK_DECIDE: both ways on every condition */
	if (r >= 0 && (!d || r != !integer_zerop(d)))
		internal_error("cachehot: %<decide_cond%> on %s gave %d, %<fold_binary%> %s",
			       get_tree_code_name(code), r, d ? (integer_zerop(d) ? "0" : "1") : "none");
	if (r >= 0)
		return r;
#endif
	return d ? !integer_zerop(d) : -1;
}

/* Does the loop go round again after bb, other than because an attempt
 * failed? Paths from bb back to the loop's head are followed inside the
 * loop; a value a PHI takes from a constant on the edge followed decides a
 * condition on it (__filemap_add_folio(): after the update split_order is
 * 0, so its "split needed, retry" continue is not taken), and a test of a
 * failed attempt (attempt_failed_test: xas_nomem(), a cmpxchg) ends the
 * path. No path back: the update runs at most once per run of the loop
 * (the zonelist walk returns on the first zone that gives a page).
 *
 * Cost: on mm/page_alloc.c, 83 searches over 12 000 blocks took 5.8 M
 * instructions (callgrind) when each path carried its own copy of what it
 * knew and each search its own hash set of blocks; with the shared lists,
 * the stamped block memos and the failed-attempt test asked once per block
 * of the function, 3.8 M. The answers are the same: a build computing both
 * ways on every block of every loop the pass looks at in 6.1's mm/,
 * kernel/, fs/, lib/, net/ and block/ (62 100 blocks) found no difference. */
bool repeats_after(class loop *l, basic_block from)
{
	int budget = 2000;
	bool again = false;
	path_state st = { from, NULL, -1 };
	known_pool.truncate(0);
	path_work.truncate(0);
	if (++search_stamp == 0) {   /* wrapped: forget every stamp */
		block_memos.truncate(0);
		search_stamp = 1;
		function_stamp = 1;
	}
	path_work.safe_push(st);
	while (!path_work.is_empty() && !again) {
		path_state cur = path_work.pop();
		if (--budget < 0) {
			again = true;   /* too many paths: assume it goes round */
			break;
		}
		basic_block b = cur.bb;
		int k = cur.known;
		if (cur.in) {
			/* what the PHIs of b take on the edge followed */
			int nk = k;
			for (gphi_iterator g = gsi_start_phis(b); !gsi_end_p(g); gsi_next(&g)) {
				tree r = gimple_phi_result(g.phi());
				if (virtual_operand_p(r))
					continue;
				tree c = known_value(k, PHI_ARG_DEF_FROM_EDGE(g.phi(), cur.in));
				if (c && INTEGRAL_TYPE_P(TREE_TYPE(r))) {
					known_node n = { r, c, nk, nk >= 0 ? known_pool[nk].len + 1 : 1 };
					known_pool.safe_push(n);
					nk = (int)known_pool.length() - 1;
				}
			}
			k = nk;
		}
		block_memo *m = memo_of(b);
		if (k < 0) {
			if (m->seen_search == search_stamp)
				continue;
			m->seen_search = search_stamp;
		} else if (known_pool[k].len > 16)
			k = -1;
		gimple *last = last_stmt(b);
		gcond *c = last ? dyn_cast<gcond *>(last) : NULL;
		if (c && b != from) {
			if (m->failed_function != function_stamp) {
				m->failed_test = failed_attempt(gimple_cond_lhs(c), 0) ||
						 failed_attempt(gimple_cond_rhs(c), 0);
				m->failed_function = function_stamp;
			}
			if (m->failed_test)
				continue;   /* goes round only if the attempt failed */
		}
		int decided = -1;   /* the condition's outcome on this path: 1, 0, -1 not known */
		if (c) {
			tree a = known_value(k, gimple_cond_lhs(c)), z = known_value(k, gimple_cond_rhs(c));
			if (a && z)
				decided = decide_cond(gimple_cond_code(c), a, z);
		}
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, b->succs) {
			if ((decided == 0 && (e->flags & EDGE_TRUE_VALUE)) ||
			    (decided == 1 && (e->flags & EDGE_FALSE_VALUE)))
				continue;
			if (e->dest == l->header) {
				again = true;
				break;
			}
			if (!flow_bb_inside_loop_p(l, e->dest))
				continue;
			path_state n = { e->dest, e, k };
			path_work.safe_push(n);
		}
	}
	return again;
}

/* Fields the unit adds to (x->f += n, x->f++): a count gathered by the
 * caller, as uncharge_folio() does in ug->pgpgout for uncharge_batch(). */
static hash_set<tree> *accumulators;

bool accumulator_field(tree f)
{
	return f && accumulators && accumulators->contains(f);
}

static tree store_field(tree lhs)
{
	/* WRITE_ONCE(x->f[i], ...): MEM[(volatile T *)&x->f[i]] */
	if (TREE_CODE(lhs) == MEM_REF && TREE_CODE(TREE_OPERAND(lhs, 0)) == ADDR_EXPR &&
	    integer_zerop(TREE_OPERAND(lhs, 1)))
		lhs = TREE_OPERAND(TREE_OPERAND(lhs, 0), 0);
	while (TREE_CODE(lhs) == ARRAY_REF)   /* walk->nr_pages[gen][type][zone] */
		lhs = TREE_OPERAND(lhs, 0);
	if (TREE_CODE(lhs) == COMPONENT_REF)
		return TREE_OPERAND(lhs, 1);
	return NULL_TREE;
}

void note_accumulators(function *fun)
{
	basic_block bb;
	if (!fun || !fun->cfg)
		return;
	if (!accumulators)
		accumulators = new hash_set<tree>;
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g); gsi_next(&g)) {
			gimple *s = gsi_stmt(g);
			tree f, v;
			if (!gimple_assign_single_p(s) || !gimple_vdef(s) ||
			    !(f = store_field(gimple_assign_lhs(s))) ||
			    TREE_CODE(v = gimple_assign_rhs1(s)) != SSA_NAME)
				continue;
			gimple *d = SSA_NAME_DEF_STMT(v);
			if (!is_gimple_assign(d) || (gimple_assign_rhs_code(d) != PLUS_EXPR &&
						     gimple_assign_rhs_code(d) != MINUS_EXPR))
				continue;
			for (unsigned i = 1; i < 3; i++) {
				tree o = gimple_op(d, i);
				gimple *ld = TREE_CODE(o) == SSA_NAME ? SSA_NAME_DEF_STMT(o) : NULL;
				if (ld && gimple_assign_load_p(ld) &&
				    store_field(gimple_assign_rhs1(ld)) == f)
					accumulators->add(f);
			}
		}
}

/* The declaration a reference reads from, through pointer arithmetic on
 * its address (*(&nr_zone_taken + zid * 8) once update_lru_sizes() is
 * inlined); NULL when it is reached through a pointer loaded or passed in. */
static tree local_base(tree ref)
{
	tree base = get_base_address(ref);
	for (int i = 0; i < 4 && base && TREE_CODE(base) == MEM_REF; i++) {
		tree p = TREE_OPERAND(base, 0);
		if (TREE_CODE(p) == ADDR_EXPR)
			return get_base_address(TREE_OPERAND(p, 0));
		if (TREE_CODE(p) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(p))
			return NULL_TREE;
		gimple *d = SSA_NAME_DEF_STMT(p);
		if (!is_gimple_assign(d))
			return NULL_TREE;
		if (gimple_assign_rhs_code(d) == ADDR_EXPR)
			return get_base_address(TREE_OPERAND(gimple_assign_rhs1(d), 0));
		if (gimple_assign_rhs_code(d) != POINTER_PLUS_EXPR)
			return NULL_TREE;
		tree q = gimple_assign_rhs1(d);
		if (TREE_CODE(q) == ADDR_EXPR)
			return get_base_address(TREE_OPERAND(q, 0));
		base = build2(MEM_REF, TREE_TYPE(base), q, TREE_OPERAND(base, 1));
	}
	return base;
}

/* Is the delta of an update a count made elsewhere, not one element's
 * size? A value carried by a loop below l (the callee counted: rmqueue_bulk's
 * i << order), the result of a call (nr_reclaimed), a local filled through
 * its address (isolate_lru_folios(..., &nr_scanned)), or an accumulator
 * field. l NULL: the whole function (a summary). A field not yet known
 * as an accumulator is left in *field (the function that adds to it may
 * come later in the unit: asked again at the end of the unit). */
bool delta_is_count(tree v, class loop *l, int depth, tree *field, int *param)
{
	if (v && TREE_CODE(v) == SSA_NAME && SSA_NAME_IS_DEFAULT_DEF(v) && !l && param &&
	    SSA_NAME_VAR(v) && TREE_CODE(SSA_NAME_VAR(v)) == PARM_DECL) {
		/* a parameter: what the callers pass decides
		 * (memcg_account_kmem(memcg, -ug->nr_kmem)) */
		int k = 0;
		for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p), k++)
			if (p == SSA_NAME_VAR(v) && k < MAX_ARGS && *param < 0)
				*param = k;
		return false;
	}
	if (!v || TREE_CODE(v) != SSA_NAME || depth > MAX_DEPTH || SSA_NAME_IS_DEFAULT_DEF(v))
		return false;
	gimple *def = SSA_NAME_DEF_STMT(v);
	basic_block bb = gimple_bb(def);
	if (!bb || (l && !flow_bb_inside_loop_p(l, bb)))
		return false;
	if (gphi *phi = dyn_cast<gphi *>(def)) {
		class loop *x = bb->loop_father;
		if (x && x->header == bb && loop_outer(x))
			return x != l && (!l || flow_loop_nested_p(l, x));
		/* a merge: a count only when every way in brings one (a delta of
		 * 1 on one path is one element: page_remove_file_rmap()'s nr is
		 * 1 for a PTE and a counted loop for a PMD) */
		bool any = false;
		for (unsigned i = 0; i < gimple_phi_num_args(phi); i++) {
			tree a = gimple_phi_arg_def(phi, i);
			if (TREE_CODE(a) == INTEGER_CST && integer_zerop(a))
				continue;   /* nothing to apply on that path */
			if (!delta_is_count(a, l, depth + 1, field, param))
				return false;
			any = true;
		}
		return any;
	}
	if (is_gimple_call(def))
		return !gimple_call_internal_p(def);
	if (!is_gimple_assign(def))
		return false;
	if (gimple_assign_load_p(def)) {
		tree r = gimple_assign_rhs1(def), f = store_field(r);
		if (accumulator_field(f))
			return true;
		if (f && field && !*field)
			*field = f;
		/* what a local of the function holds: a count the function
		 * gathered (update_lru_sizes()'s nr_zone_taken[zid]) or a
		 * call filled through its address (&nr_scanned) */
		tree base = local_base(r);
		return base && VAR_P(base) && !is_global_var(base);
	}
	for (unsigned i = 1; i < gimple_num_ops(def); i++)
		if (delta_is_count(gimple_op(def, i), l, depth + 1, field, param))
			return true;
	return false;
}

/* The sign of an update and the amount it moves by: -1 takes away
 * (dec_*, *_sub_*, a negated or negative delta), +1 adds; *amount is the
 * delta without its sign and conversions (NULL for inc/dec: one). */
int update_sign(const char *updater, gimple *s, int delta_arg, tree *amount)
{
	*amount = NULL_TREE;
	if (!strncmp(updater, "__dec", 5) || !strncmp(updater, "dec", 3))
		return -1;
	if (!strncmp(updater, "__inc", 5) || !strncmp(updater, "inc", 3) ||
	    delta_arg < 0 || (unsigned)delta_arg >= gimple_call_num_args(s))
		return 1;
	int sign = strstr(updater, "_sub_") ? -1 : 1;
	tree d = gimple_call_arg(s, delta_arg);
	for (int i = 0; i < 6; i++) {
		if (TREE_CODE(d) == INTEGER_CST) {
			if (tree_int_cst_sgn(d) < 0) {
				sign = -sign;
				d = fold_build1(NEGATE_EXPR, TREE_TYPE(d), d);
			}
			break;
		}
		if (TREE_CODE(d) != SSA_NAME)
			break;
		gimple *def = SSA_NAME_DEF_STMT(d);
		if (!is_gimple_assign(def))
			break;
		if (gimple_assign_rhs_code(def) == NEGATE_EXPR)
			sign = -sign;
		else if (!CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(def)))
			break;
		d = gimple_assign_rhs1(def);
	}
	*amount = d;
	return sign;
}

/* A gauge: the function raises an item of one target by an amount and
 * lowers it by the same amount (pages in flight: shrink_inactive_list()
 * adds nr_taken to NR_ISOLATED_* before shrink_folio_list() and takes
 * nr_taken away after it); others read the level (too_many_isolated()).
 * Not a count to batch. Amounts of different elements (a page isolated,
 * another released) or of different targets (a charge moved from one
 * memcg to another) are no gauge. */
struct upd_rec {
	gimple *stmt;
	const char *item;
	tree target, amount;
	int sign;
};
static vec<upd_rec> upds;   /* every update of the function being compiled */

void gauge_reset(void)
{
	upds.truncate(0);
}

void gauge_add(gimple *s, const char *item, tree target, const char *updater, int delta_arg)
{
	upd_rec r;
	r.stmt = s;
	r.item = item;
	r.target = target;
	r.sign = update_sign(updater, s, delta_arg, &r.amount);
	upds.safe_push(r);
}

static bool same_operand(tree a, tree b)
{
	if (!a || !b)
		return a == b;
	return operand_equal_p(a, b, 0);
}

bool gauge(gimple *s)
{
	for (unsigned i = 0; i < upds.length(); i++) {
		if (upds[i].stmt != s)
			continue;
		for (unsigned j = 0; j < upds.length(); j++)
			if (upds[j].sign == -upds[i].sign && !strcmp(upds[j].item, upds[i].item) &&
			    same_operand(upds[j].target, upds[i].target) &&
			    same_operand(upds[j].amount, upds[i].amount))
				return true;
		return false;
	}
	return false;
}

/* Every function of the unit with a body, once: a field added to by a
 * function compiled later (update_batch_size() for reset_batch_size())
 * is known before the first function is judged. */
void note_unit_accumulators(void)
{
	static bool done_once;
	cgraph_node *n;
	if (done_once)
		return;
	done_once = true;
	FOR_EACH_DEFINED_FUNCTION(n) {
		function *f = DECL_STRUCT_FUNCTION(n->decl);
		if (f && f->cfg && f->gimple_df && !(f->curr_properties & PROP_rtl) &&
		    gimple_has_body_p(n->decl))
			note_accumulators(f);
	}
}

