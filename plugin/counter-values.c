/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-values.c -- where the arguments of a statistics update come from,
 * for the counter-batch pass (counter-batch.c): a target pointer followed
 * through its SSA definitions (invariant, looked up through an array index,
 * or changing per element), and the set of values an item takes.
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
#include "cachehot-plugin.h"
#include "counter-batch.h"

/* ---- where a value comes from ------------------------------------------- */


class loop *cur_loop;   /* NULL: function mode */
static int loads_on_path;      /* loads between the value asked about and here */

static bool defined_outside(tree ssa)
{
	gimple *def = SSA_NAME_DEF_STMT(ssa);
	return !gimple_bb(def) || (cur_loop && !flow_bb_inside_loop_p(cur_loop, gimple_bb(def)));
}

static int param_index(tree parm)
{
	int k = 0;
	for (tree p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p), k++)
		if (p == parm)
			return k < 32 ? k : -1;
	return -1;
}

void merge(origin *o, const origin &a)
{
	o->vary |= a.vary;
	o->iv |= a.iv;
	o->lookup |= a.lookup;
	o->ptr_params |= a.ptr_params;
	o->idx_params |= a.idx_params;
	if (!o->from)
		o->from = a.from;
}

static const char *array_name(tree ref)
{
	tree base = TREE_OPERAND(ref, 0);
	if (TREE_CODE(base) == COMPONENT_REF)
		base = TREE_OPERAND(base, 1);
	if (DECL_P(base) && DECL_NAME(base))
		return ch_printf(cachehot_ctx, "the index into '%s'",
				 IDENTIFIER_POINTER(DECL_NAME(base)));
	return "an array index";
}


/* An index: whatever varies in it makes a lookup, not a varying pointer. */
static void trace_index(tree idx, const char *from, int depth, origin *o)
{
	origin a = origin();
	int saved = loads_on_path;
	loads_on_path = 0;
	trace(idx, true, depth, &a);
	loads_on_path = saved;
	if (a.iv) {
		/* &pgdat->node_zones[zid] with zid the loop counter: another
		 * target each time (update_lru_sizes), nothing to batch */
		o->vary = true;
	} else if (a.vary || a.lookup) {
		o->lookup = true;
		if (!o->from)
			o->from = from;
	} else if ((a.ptr_params | a.idx_params) && !o->from) {
		/* function mode: the index is made of parameters, and the caller's
		 * loop may make it a lookup: name the array now (page_pgdat(page)
		 * in a callee indexes 'node_data' with the page's node) */
		o->from = from;
	}
	o->idx_params |= a.ptr_params | a.idx_params;
}

/* A memory reference: its indices are lookups, its base pointer is traced.
 * load: the value stored there is asked about, not the address. */
static void trace_ref(tree ref, int depth, origin *o, bool load)
{
	while (handled_component_p(ref)) {
		if (TREE_CODE(ref) == ARRAY_REF && TREE_CODE(TREE_OPERAND(ref, 1)) != INTEGER_CST)
			trace_index(TREE_OPERAND(ref, 1), array_name(ref), depth, o);
		ref = TREE_OPERAND(ref, 0);
	}
	if (TREE_CODE(ref) == MEM_REF || TREE_CODE(ref) == TARGET_MEM_REF) {
		trace(TREE_OPERAND(ref, 0), false, depth, o);
		if (TREE_CODE(ref) == TARGET_MEM_REF && TMR_INDEX(ref))
			trace_index(TMR_INDEX(ref), "an array index", depth, o);
	}
	/* a declaration: its address does not change; what a local of the
	 * function holds does (a pmd_t filled by pmdp_collapse_flush() in
	 * collapse_and_free_pmd(), a page pointer a call stored through its
	 * address): new per call, and per element when written in the loop */
	if (load && VAR_P(ref) && !is_global_var(ref))
		o->vary = true;
}

/* Fields the current loop stores to (a load of one is new each time):
 * filled once per loop. */
static class loop *stored_for;
static hash_set<tree> *stored;

/* The field a MEM_REF reads or writes when it names one whole: the kernel's
 * WRITE_ONCE(prev->next, next) in list_del() is a volatile store
 * MEM[(struct list_head * volatile *)prev] whose base points to a struct
 * list_head and whose offset is that of 'next'. Missing it made a loop
 * that pops the head of a list (nfs_retry_commit() in 6.1 fs/nfs/write.c:
 * req = list->next) look as if it read one element over and over. */
static tree mem_ref_field(tree ref)
{
	tree base = TREE_OPERAND(ref, 0), rec, f;
	HOST_WIDE_INT off;
	if (!POINTER_TYPE_P(TREE_TYPE(base)) || !tree_fits_shwi_p(TREE_OPERAND(ref, 1)))
		return NULL_TREE;
	rec = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(base)));
	if (TREE_CODE(rec) != RECORD_TYPE || !TYPE_SIZE_UNIT(TREE_TYPE(ref)))
		return NULL_TREE;
	off = tree_to_shwi(TREE_OPERAND(ref, 1));
	/* a field's byte position from its two constants, as int_byte_position()
	 * gives it (DECL_FIELD_OFFSET + DECL_FIELD_BIT_OFFSET / 8) without
	 * building and folding trees for every field of the record: that was
	 * 3.8 M instructions for 584 loads on page_alloc.c */
	for (f = TYPE_FIELDS(rec); f; f = DECL_CHAIN(f))
		if (TREE_CODE(f) == FIELD_DECL && !DECL_BIT_FIELD(f) &&
		    TREE_CODE(DECL_FIELD_OFFSET(f)) == INTEGER_CST &&
		    tree_fits_shwi_p(DECL_FIELD_OFFSET(f)) &&
		    tree_fits_uhwi_p(DECL_FIELD_BIT_OFFSET(f)) &&
		    tree_to_shwi(DECL_FIELD_OFFSET(f)) +
				    (HOST_WIDE_INT)(tree_to_uhwi(DECL_FIELD_BIT_OFFSET(f)) / BITS_PER_UNIT) ==
			    off &&
		    DECL_SIZE_UNIT(f) && tree_int_cst_equal(DECL_SIZE_UNIT(f), TYPE_SIZE_UNIT(TREE_TYPE(ref))))
			return f;
	return NULL_TREE;
}

static tree ref_field(tree ref)
{
	while (ref && (TREE_CODE(ref) == ARRAY_REF || TREE_CODE(ref) == BIT_FIELD_REF))
		ref = TREE_OPERAND(ref, 0);
	if (ref && TREE_CODE(ref) == MEM_REF)
		return mem_ref_field(ref);
	return ref && TREE_CODE(ref) == COMPONENT_REF ? TREE_OPERAND(ref, 1) : NULL_TREE;
}

static bool stored_in_loop(tree ref)
{
	tree f = ref_field(ref);
	if (!f)
		return false;
	if (stored_for != cur_loop) {
		basic_block bb;
		if (!stored)
			stored = new hash_set<tree>;
		stored->empty();
		FOR_EACH_BB_FN(bb, cfun) {
			if (!flow_bb_inside_loop_p(cur_loop, bb))
				continue;
			for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g);
			     gsi_next(&g)) {
				gimple *st = gsi_stmt(g);
				tree sf;
				if (gimple_assign_single_p(st) && gimple_vdef(st) &&
				    (sf = ref_field(gimple_assign_lhs(st))))
					stored->add(sf);
			}
		}
		stored_for = cur_loop;
	}
	return stored->contains(f);
}

/* Is the object a reference is made in the same in every iteration of
 * the current loop (a list head passed in, not one picked per iteration)? */
static bool ref_invariant(tree ref)
{
	origin o = origin();
	trace_ref(ref, 0, &o, false);
	return !o.vary && !o.lookup;
}

/* A loop that pops a linked list: it loads a self-referential pointer
 * field (list_head.prev) that it also stores (list_del), from a list head
 * that is the same in every iteration (nfs_retry_commit()'s page_list).
 * Taking one page off a free list picked per attempt (rmqueue_buddy():
 * &area->free_list[migratetype], in a do { } while (check_new_pages())
 * retry) pops no list of the loop's own. */
bool loop_pops_list(class loop *l)
{
	basic_block bb;
	class loop *saved = cur_loop;
	bool found = false;

	cur_loop = l;
	FOR_EACH_BB_FN(bb, cfun) {
		if (found || !flow_bb_inside_loop_p(l, bb))
			continue;
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !gsi_end_p(g) && !found;
		     gsi_next(&g)) {
			gimple *st = gsi_stmt(g);
			tree f, t;
			if (!gimple_assign_load_p(st) || !(f = ref_field(gimple_assign_rhs1(st))))
				continue;
			t = TREE_TYPE(f);
			found = POINTER_TYPE_P(t) && DECL_CONTEXT(f) &&
				TYPE_MAIN_VARIANT(TREE_TYPE(t)) == TYPE_MAIN_VARIANT(DECL_CONTEXT(f)) &&
				stored_in_loop(gimple_assign_rhs1(st)) &&
				ref_invariant(gimple_assign_rhs1(st));
		}
	}
	cur_loop = saved;
	return found;
}

/* A new function: the loops of the last one are gone. */
void counter_values_reset(void)
{
	stored_for = NULL;
}

/* A target kept from one element to the next and replaced only when the
 * element needs another: lruvec = folio_lruvec_relock_irqsave(folio,
 * lruvec, &flags) in folio_batch_move_lru(), inlined to a merge of the
 * value carried around the loop and a newly looked-up one, whose merge is
 * what the loop carries on. The elements come in runs with one target. */
/* v is res, or a merge (PHI) of res with h or with other merges of them */
static bool merges_into(tree v, tree res, tree h, int depth)
{
	if (v == res)
		return true;
	if (depth > 3 || TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v))
		return false;
	gphi *p = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(v));
	if (!p || gimple_bb(p) == cur_loop->header)
		return false;
	bool found = false;
	for (unsigned i = 0; i < gimple_phi_num_args(p); i++) {
		tree a = gimple_phi_arg_def(p, i);
		if (a == h)
			continue;
		if (!merges_into(a, res, h, depth + 1))
			return false;
		found = true;
	}
	return found;
}

static bool kept_until_changed(gphi *m)
{
	if (!cur_loop)
		return false;
	tree res = gimple_phi_result(m);
	for (unsigned i = 0; i < gimple_phi_num_args(m); i++) {
		tree a = gimple_phi_arg_def(m, i);
		if (TREE_CODE(a) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(a))
			continue;
		gphi *h = dyn_cast<gphi *>(SSA_NAME_DEF_STMT(a));
		if (!h || gimple_bb(h) != cur_loop->header)
			continue;
		/* h carries res around: its value from the latch is this merge
		 * (or a merge of it with h itself, when some elements skip the
		 * relock) */
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, cur_loop->header->preds)
			if (flow_bb_inside_loop_p(cur_loop, e->src) &&
			    merges_into(PHI_ARG_DEF_FROM_EDGE(h, e), res, gimple_phi_result(h), 0))
				return true;
	}
	return false;
}

void trace(tree v, bool index, int depth, origin *o)
{
	gimple *def;
	if (!v || CONSTANT_CLASS_P(v))
		return;
	if (depth > MAX_DEPTH) {
		o->vary = true;
		return;
	}
	if (TREE_CODE(v) == ADDR_EXPR) {
		trace_ref(TREE_OPERAND(v, 0), depth + 1, o, false);
		return;
	}
	if (TREE_CODE(v) != SSA_NAME) {
		if (handled_component_p(v) || TREE_CODE(v) == MEM_REF)
			trace_ref(v, depth + 1, o, true);
		return;
	}
	if (SSA_NAME_IS_DEFAULT_DEF(v)) {
		tree var = SSA_NAME_VAR(v);
		int k = var && TREE_CODE(var) == PARM_DECL && !cur_loop ? param_index(var) : -1;
		if (k >= 0)
			o->ptr_params |= 1u << k;
		return;
	}
	if (defined_outside(v))
		return;
	def = SSA_NAME_DEF_STMT(v);
	if (gimple_code(def) == GIMPLE_PHI) {
		/* a value carried around the loop: the element cursor itself */
		if (cur_loop && gimple_bb(def) == cur_loop->header) {
			o->vary = true;
			if (index && !loads_on_path)
				o->iv = true;
			return;
		}
		if (!index && kept_until_changed(as_a<gphi *>(def))) {
			o->lookup = true;
			if (!o->from)
				o->from = "kept from the element before, replaced when it changes";
			return;
		}
		for (unsigned i = 0; i < gimple_phi_num_args(def); i++)
			trace(gimple_phi_arg_def(def, i), index, depth + 1, o);
		return;
	}
	if (is_gimple_assign(def)) {
		enum tree_code code = gimple_assign_rhs_code(def);
		tree r1 = gimple_assign_rhs1(def);
		if (gimple_assign_load_p(def) || TREE_CODE(r1) == ADDR_EXPR) {
			/* a load: through a changing pointer it changes too */
			origin a = origin();
			if (cur_loop && stored_in_loop(r1)) {
				/* the loop writes this field: lru_to_folio(list) reads
				 * list->prev, which list_del() changes every time */
				o->vary = true;
				return;
			}
			loads_on_path++;
			if (TREE_CODE(r1) == ADDR_EXPR)
				trace(r1, index, depth + 1, &a);
			else
				trace_ref(r1, depth + 1, &a, true);
			loads_on_path--;
			merge(o, a);
			return;
		}
		if (code == POINTER_PLUS_EXPR) {
			trace(r1, index, depth + 1, o);
			if (TREE_CODE(gimple_assign_rhs2(def)) != INTEGER_CST)
				trace_index(gimple_assign_rhs2(def), "a pointer offset", depth + 1, o);
			return;
		}
		if (!index && !POINTER_TYPE_P(TREE_TYPE(v)) && !INTEGRAL_TYPE_P(TREE_TYPE(v))) {
			o->vary = true;
			return;
		}
		trace(r1, index, depth + 1, o);
		if (gimple_num_ops(def) > 2)
			trace(gimple_assign_rhs2(def), index, depth + 1, o);
		if (gimple_num_ops(def) > 3)
			trace(gimple_assign_rhs3(def), index, depth + 1, o);
		return;
	}
	/* a call's result, an asm output: new per element */
	o->vary = true;
}

/* ---- which values an item takes ----------------------------------------- */


item item_vary() { item r = { IT_VARY, 0, 0, -1 }; return r; }
static item item_range(HOST_WIDE_INT lo, HOST_WIDE_INT hi)
{
	item r = { lo == hi ? IT_CONST : IT_SET, lo, hi, -1 };
	if (hi < lo || hi - lo >= MAX_KEYS)
		return item_vary();
	return r;
}

static item join(item a, item b)
{
	if ((a.kind != IT_CONST && a.kind != IT_SET) || (b.kind != IT_CONST && b.kind != IT_SET))
		return a.kind == b.kind && a.kind == IT_INV ? a : item_vary();
	return item_range(MIN(a.lo, b.lo), MAX(a.hi, b.hi));
}

item eval_item(tree v, int depth)
{
	gimple *def;
	tree type;
	if (!v)
		return item_vary();
	if (TREE_CODE(v) == INTEGER_CST)
		return tree_fits_shwi_p(v) ? item_range(tree_to_shwi(v), tree_to_shwi(v)) : item_vary();
	if (TREE_CODE(v) != SSA_NAME || depth > MAX_DEPTH)
		return item_vary();
	type = TREE_TYPE(v);
	if (SSA_NAME_IS_DEFAULT_DEF(v)) {
		tree var = SSA_NAME_VAR(v);
		item r = { IT_INV, 0, 0, -1 };
		if (!cur_loop && var && TREE_CODE(var) == PARM_DECL &&
		    (r.param = param_index(var)) >= 0)
			r.kind = IT_PARAM;
		return r;
	}
	if (defined_outside(v)) {
		item r = { IT_INV, 0, 0, -1 };
		return r;
	}
	if (TREE_CODE(type) == BOOLEAN_TYPE)
		return item_range(0, 1);
	def = SSA_NAME_DEF_STMT(v);
	if (gimple_code(def) == GIMPLE_PHI) {
		item r = { IT_CONST, 0, 0, -1 };
		if (cur_loop && gimple_bb(def) == cur_loop->header)
			return item_vary();
		for (unsigned i = 0; i < gimple_phi_num_args(def); i++) {
			item a = eval_item(gimple_phi_arg_def(def, i), depth + 1);
			r = i ? join(r, a) : a;
			if (r.kind == IT_VARY)
				break;
		}
		return r;
	}
	if (is_gimple_assign(def)) {
		enum tree_code code = gimple_assign_rhs_code(def);
		item a, b;
		if (TREE_CODE_CLASS(code) == tcc_comparison || code == TRUTH_NOT_EXPR ||
		    code == TRUTH_AND_EXPR || code == TRUTH_OR_EXPR)
			return item_range(0, 1);
		if (gimple_assign_load_p(def))
			goto by_type;
		a = eval_item(gimple_assign_rhs1(def), depth + 1);
		switch (code) {
		case SSA_NAME: case NOP_EXPR: case CONVERT_EXPR:
			if (a.kind == IT_VARY)
				goto by_type;
			return a;
		case PLUS_EXPR: case MINUS_EXPR:
			b = eval_item(gimple_assign_rhs2(def), depth + 1);
			if (a.kind == IT_INV && b.kind == IT_INV)
				return a;
			if ((a.kind != IT_CONST && a.kind != IT_SET) ||
			    (b.kind != IT_CONST && b.kind != IT_SET))
				return item_vary();
			return code == PLUS_EXPR ? item_range(a.lo + b.lo, a.hi + b.hi)
						 : item_range(a.lo - b.hi, a.hi - b.lo);
		case BIT_AND_EXPR: {
			tree m = gimple_assign_rhs2(def);
			if (TREE_CODE(m) == INTEGER_CST && tree_fits_shwi_p(m) && tree_to_shwi(m) >= 0)
				return item_range(0, tree_to_shwi(m));
			goto by_type;
		}
		case COND_EXPR:
			return join(eval_item(gimple_assign_rhs2(def), depth + 1),
				    eval_item(gimple_assign_rhs3(def), depth + 1));
		default:
			break;
		}
	}
by_type:
	/* a narrow unsigned value (a bit-field, a flag) */
	if (INTEGRAL_TYPE_P(type) && TYPE_UNSIGNED(type) && TYPE_PRECISION(type) <= 4)
		return item_range(0, (1 << TYPE_PRECISION(type)) - 1);
	{
		value_range r;
		if (INTEGRAL_TYPE_P(type) && get_range_query(cfun)->range_of_expr(r, v) &&
		    r.kind() == VR_RANGE && !r.undefined_p()) {
			wide_int mn = r.lower_bound(), mx = r.upper_bound();
			if (wi::fits_shwi_p(mn) && wi::fits_shwi_p(mx))
				return item_range(mn.to_shwi(), mx.to_shwi());
		}
	}
	return item_vary();
}

/* Enumerations of the unit by tag (PLUGIN_FINISH_TYPE): the items of an
 * updater whose item parameter is a plain int. */
static hash_map<tree, tree> *enum_tags;   /* IDENTIFIER_NODE -> ENUMERAL_TYPE */

void counter_note_enum(tree type)
{
	if (!type || TREE_CODE(type) != ENUMERAL_TYPE || !TYPE_NAME(type) ||
	    TREE_CODE(TYPE_NAME(type)) != IDENTIFIER_NODE)
		return;
	if (!enum_tags)
		enum_tags = new hash_map<tree, tree>;
	enum_tags->put(TYPE_NAME(type), type);
}

static const char *enumerator(tree type, HOST_WIDE_INT val)
{
	if (!type || TREE_CODE(type) != ENUMERAL_TYPE)
		return NULL;
	for (tree e = TYPE_VALUES(type); e; e = TREE_CHAIN(e)) {
		tree c = TREE_VALUE(e);
		if (TREE_CODE(c) == CONST_DECL)
			c = DECL_INITIAL(c);
		if (c && TREE_CODE(c) == INTEGER_CST && tree_fits_shwi_p(c) && tree_to_shwi(c) == val)
			return IDENTIFIER_POINTER(TREE_PURPOSE(e));
	}
	return NULL;
}

/* The enumerator of value val in the type of argument argno of fndecl, or
 * in the enumerations core names for that updater (an int parameter). */
static const char *enum_name(tree fndecl, int argno, HOST_WIDE_INT val)
{
	tree args = TYPE_ARG_TYPES(TREE_TYPE(fndecl)), type;
	const char *n, *tags;
	for (int i = 0; args && i < argno; i++)
		args = TREE_CHAIN(args);
	type = args ? TREE_VALUE(args) : NULL_TREE;
	if ((n = enumerator(type, val)))
		return n;
	tags = DECL_NAME(fndecl) ? ch_counter_item_enums(IDENTIFIER_POINTER(DECL_NAME(fndecl))) : NULL;
	while (tags && *tags && enum_tags) {
		size_t len = strcspn(tags, " ");
		tree *t = enum_tags->get(get_identifier_with_length(tags, len));
		if (t && (n = enumerator(*t, val)))
			return n;
		tags += len;
		tags += strspn(tags, " ");
	}
	return ch_printf(cachehot_ctx, "item %lld", (long long)val);
}

const char *item_text(tree fndecl, int argno, const item &it)
{
	if (it.kind == IT_CONST)
		return enum_name(fndecl, argno, it.lo);
	if (it.kind == IT_SET)
		return ch_printf(cachehot_ctx, "%s..%s", enum_name(fndecl, argno, it.lo),
				 enum_name(fndecl, argno, it.hi));
	return NULL;
}
