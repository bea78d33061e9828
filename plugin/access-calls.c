/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access-calls.c -- what an asm statement or a call touches, for the
 * access mode (access.c): an asm whose template locks or exchanges is an
 * atomic RMW on each memory operand, other asm memory operands stores
 * (outputs) or loads (inputs); __atomic_* and __sync_* builtins (and the
 * internal functions GCC folds some of them into) RMWs on their first
 * argument (__atomic_load* a marked load, __atomic_store* a marked store);
 * memset, memcpy and the like a store or load through each pointer
 * argument as their prototypes say. The address of a field handed to a
 * call is recorded as "passed" (callee, argument, pointer to const; rare
 * when a test of the field's own value guards the call: a wake-up when
 * the queue has waiters), a pointer parameter handed on in the
 * function's "passes". And what a call says about a userspace program's
 * slow paths (atexit and signal handlers, thread starts, main()'s calls).
 *
 * Memory: the unit's facts (access_facts()). Cost: value walks are
 * budgeted (cond_loads: 64 steps, 16 loads; dominators: 64 steps).
 */
#include "gcc-plugin.h"
#include "bversion.h"   /* BUILDING_GCC_MAJOR */
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "cgraph.h"
#include "basic-block.h"
#include "tree-ssa-alias.h"
#include "gimple-expr.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "diagnostic-core.h"
#include "stringpool.h"
#include "attribs.h"
#include "dominance.h"
#include "cfganal.h"
#include "tree-cfg.h"
#include "cachehot-plugin.h"

#include <set>
#include <vector>

#include <sys/stat.h>
#include <errno.h>
#include <string>
#include "access-internal.h"

/* Does an asm template lock or exchange? x86: lock prefix, xchg, cmpxchg,
 * xadd; arm64: exclusive load/store pairs and LSE atomics. Mnemonics are
 * matched as words starting at an instruction boundary. */
bool cachehot_asm_is_atomic(const char *s)
{
	static const char *const ops[] = { "lock", "xchg", "cmpxchg", "xadd", "ldxr", "ldaxr",
		"stxr", "stlxr", "ldadd", "stadd", "ldclr", "stclr", "ldset", "stset",
		"ldeor", "steor", "swp", "cas", "casp", NULL };
	const char *p = s;
	while (*p) {
		while (*p && (ISSPACE(*p) || *p == ';' || *p == '\n'))
			p++;
		const char *w = p;
		while (ISALNUM(*p) || *p == '_')
			p++;
		if (p > w) {
			size_t n = (size_t)(p - w);
			for (int i = 0; ops[i]; i++) {
				size_t l = strlen(ops[i]);
				/* a size or ordering suffix may follow: xchgq, ldaddal, casal */
				if (n >= l && n <= l + 2 && !strncasecmp(w, ops[i], l))
					return true;
			}
		}
		/* skip to the next statement */
		while (*p && *p != '\n' && *p != ';')
			p++;
	}
	return false;
}

void cachehot_asm_memory_operands(const gasm *stmt, bool (*is_mem)(tree),
				  void (*fn)(tree op, enum cachehot_asm_kind kind, void *ctx), void *ctx)
{
	bool atomic = cachehot_asm_is_atomic(gimple_asm_string(stmt));
	unsigned i, j, no = gimple_asm_noutputs(stmt), ni = gimple_asm_ninputs(stmt);
	for (i = 0; i < no; i++) {
		tree op = TREE_VALUE(gimple_asm_output_op(stmt, i));
		if (is_mem(op))
			fn(op, atomic ? CACHEHOT_ASM_RMW : CACHEHOT_ASM_STORE, ctx);
	}
	for (i = 0; i < ni; i++) {
		tree op = TREE_VALUE(gimple_asm_input_op(stmt, i));
		bool dup = false;
		if (!is_mem(op))
			continue;
		for (j = 0; j < no && !dup; j++)   /* "+m": the same operand twice */
			dup = operand_equal_p(op, TREE_VALUE(gimple_asm_output_op(stmt, j)), 0);
		if (!dup)
			fn(op, atomic ? CACHEHOT_ASM_RMW : CACHEHOT_ASM_LOAD, ctx);
	}
}

static void asm_operand(tree op, enum cachehot_asm_kind kind, void *fn)
{
	access_record_ref(op, (const char *)fn,
			  kind == CACHEHOT_ASM_RMW ? CH_ACC_RMW
			  : kind == CACHEHOT_ASM_STORE ? CH_ACC_STORE : CH_ACC_LOAD);
}

void access_do_asm(gasm *stmt, const char *fn)
{
	cachehot_asm_memory_operands(stmt, access_is_mem, asm_operand, (void *)fn);
}

/* Builtins that read or write the memory their pointer arguments name (as
 * their prototypes say, const or not); others (__builtin_prefetch,
 * __builtin_object_size, va_start, ...) are not accesses. */
static bool builtin_takes_memory(tree decl)
{
	if (DECL_BUILT_IN_CLASS(decl) != BUILT_IN_NORMAL)
		return false;
	switch (DECL_FUNCTION_CODE(decl)) {
	case BUILT_IN_MEMSET: case BUILT_IN_MEMCPY: case BUILT_IN_MEMMOVE:
	case BUILT_IN_MEMPCPY: case BUILT_IN_BZERO: case BUILT_IN_BCOPY:
	case BUILT_IN_STRCPY: case BUILT_IN_STRNCPY: case BUILT_IN_STPCPY:
	case BUILT_IN_STRCAT: case BUILT_IN_STRNCAT: case BUILT_IN_MEMCMP:
	case BUILT_IN_BCMP: case BUILT_IN_STRCMP: case BUILT_IN_STRNCMP:
	case BUILT_IN_STRLEN: case BUILT_IN_STRNLEN: case BUILT_IN_MEMCHR:
		return true;
	default:
		return false;
	}
}

/* Does argument i of a call (function type fntype, may be NULL) point to
 * const? The prototype's parameter decides. An argument in the variadic
 * part ("...": a value to format or log, printf-style) is read; without a
 * prototype the argument's own type decides. */
static int arg_is_const(tree fntype, unsigned i, tree arg)
{
	tree args = fntype ? TYPE_ARG_TYPES(fntype) : NULL_TREE, t = args, pt = NULL_TREE;
	for (; t && i; t = TREE_CHAIN(t), i--)
		;
	if (t && TREE_VALUE(t) && TREE_VALUE(t) != void_type_node)
		pt = TREE_VALUE(t);
	else if (args && (!t || TREE_VALUE(t) != void_type_node))
		return 1;   /* past the named parameters of a "..." prototype */
	else
		pt = TREE_TYPE(arg);
	return pt && POINTER_TYPE_P(pt) && TYPE_READONLY(TREE_TYPE(pt));
}

/* Loads (access_resolved references) that the value v is computed from, through
 * copies, arithmetic, casts, PHIs and call arguments: an inlined
 * waitqueue_active(&q) is a load of q.head.next. */
static void cond_loads(tree v, std::vector<tree> &out, int depth, int &budget)
{
	gimple *def;
	unsigned i;
	if (!v || TREE_CODE(v) != SSA_NAME || depth > 6 || out.size() > 16 || --budget < 0)
		return;
	def = SSA_NAME_DEF_STMT(v);
	if (gphi *phi = dyn_cast<gphi *>(def)) {
		for (i = 0; i < gimple_phi_num_args(phi); i++)
			cond_loads(gimple_phi_arg_def(phi, i), out, depth + 1, budget);
		return;
	}
	if (gcall *c = dyn_cast<gcall *>(def)) {
		for (i = 0; i < gimple_call_num_args(c); i++)
			cond_loads(gimple_call_arg(c, i), out, depth + 1, budget);
		return;
	}
	if (!def || !is_gimple_assign(def))
		return;
	if (gimple_assign_single_p(def) && access_is_mem(gimple_assign_rhs1(def))) {
		out.push_back(access_resolved(gimple_assign_rhs1(def)));
		return;
	}
	for (i = 1; i < gimple_num_ops(def); i++)
		cond_loads(gimple_op(def, i), out, depth + 1, budget);
}

/* Is the loaded reference part of obj (obj itself, or a member or element
 * of it, through &X pointers)? */
static bool load_within(tree load, tree obj)
{
	int d = 0;
	obj = access_resolved(obj);
	while (load && d++ < 24) {
		if (operand_equal_p(load, obj, OEP_MATCH_SIDE_EFFECTS))
			return true;
		switch (TREE_CODE(load)) {
		case COMPONENT_REF: case ARRAY_REF: case ARRAY_RANGE_REF: case BIT_FIELD_REF:
		case REALPART_EXPR: case IMAGPART_EXPR: case VIEW_CONVERT_EXPR:
			load = TREE_OPERAND(load, 0);
			break;
		case MEM_REF: {
			/* *(&X + off): a part of X when off lies inside it
			 * (the kernel's list_empty(&q->head) reads
			 * MEM[(struct list_head *)&q + 8B].next) */
			tree p = cachehot_pointee(TREE_OPERAND(load, 0)), sz;
			if (!p)
				return false;
			sz = TYPE_SIZE_UNIT(TREE_TYPE(p));
			if (!integer_zerop(TREE_OPERAND(load, 1)) &&
			    (!sz || !tree_fits_uhwi_p(sz) || !tree_fits_uhwi_p(TREE_OPERAND(load, 1)) ||
			     tree_to_uhwi(TREE_OPERAND(load, 1)) >= tree_to_uhwi(sz)))
				return false;
			load = p;
			break;
		}
		default:
			return false;
		}
	}
	return false;
}

/* Is the current block reached only through a branch whose condition reads
 * obj itself (if (waitqueue_active(&q)) wake_up(&q); if (!wq_has_sleeper(&q))
 * return; ... wake_up(&q))? A block is reached only through edge C -> D
 * when D dominates it and C is D's only predecessor: the dominators of the
 * block are walked up, each with a single predecessor ending in a
 * condition is tested. Needs dominance information. */
static bool guarded_by_own_value(tree obj)
{
	basic_block d = access_cur_bb;
	int steps = 0;
	if (!d || !cfun || !dom_info_available_p(cfun, CDI_DOMINATORS))
		return false;
	while (d && d != ENTRY_BLOCK_PTR_FOR_FN(cfun) && steps++ < 64) {
		if (single_pred_p(d)) {
			gcond *c = safe_dyn_cast<gcond *>(last_stmt(single_pred(d)));
			if (c) {
				std::vector<tree> loads;
				int budget = 64;
				cond_loads(gimple_cond_lhs(c), loads, 0, budget);
				cond_loads(gimple_cond_rhs(c), loads, 0, budget);
				for (size_t i = 0; i < loads.size(); i++)
					if (load_within(loads[i], obj))
						return true;
			}
		}
		d = get_immediate_dominator(CDI_DOMINATORS, d);
	}
	return false;
}

/* Addresses handed to a call: a field's (&ctx->runq) as "passed", a
 * pointer parameter's (or one derived from it) as the function's "passes".
 * A builtin's (memset, memcpy, ...) effect is known: a store through a
 * non-const parameter, a load through a const one, recorded as such. */
static void passed_args(gcall *stmt, tree decl, const char *fn, bool builtin)
{
	tree fntype = gimple_call_fntype(stmt);
	const char *callee = decl && DECL_NAME(decl) ? IDENTIFIER_POINTER(DECL_NAME(decl)) : NULL;
	unsigned i;
	if (gimple_call_internal_p(stmt))
		return;
	for (i = 0; i < gimple_call_num_args(stmt); i++) {
		tree a = gimple_call_arg(stmt, i), obj;
		struct passed_to to;
		int p;
		if (!POINTER_TYPE_P(TREE_TYPE(a)))
			continue;
		to.callee = callee;
		to.arg = i;
		to.is_const = arg_is_const(fntype, i, a);
		obj = cachehot_pointee(a);
		p = access_param_index(a, 0);
		if (builtin) {
			enum ch_access_kind k = to.is_const ? CH_ACC_LOAD : CH_ACC_STORE;
			if (obj && access_is_mem(obj))
				access_record_ref_to(obj, fn, k, NULL);
			if (p >= 0)
				ch_access_param(facts, fn, (unsigned)p, access_as_rare(k));
			continue;
		}
		if (obj && access_is_mem(obj)) {
			/* handed over only when a test of its own value allowed
			 * it (a wake-up when the queue has waiters): as rare as
			 * a call under unlikely() */
			bool was = access_in_unlikely;
			if (!access_in_unlikely && guarded_by_own_value(obj))
				access_in_unlikely = true;
			access_record_ref_to(obj, fn, CH_ACC_LOAD, &to, callee && strstr(callee, "lock"));
			access_in_unlikely = was;
		}
		if (p >= 0)
			ch_access_param_passed(facts, fn, (unsigned)p, callee, i, to.is_const,
					       access_in_unlikely);
	}
}

/* ---- slow paths of a userspace program ------------------------------------ */

/* The function whose address v is, or NULL. */
static tree fn_addr(tree v)
{
	if (v && TREE_CODE(v) == ADDR_EXPR && TREE_CODE(TREE_OPERAND(v, 0)) == FUNCTION_DECL)
		return TREE_OPERAND(v, 0);
	return NULL_TREE;
}

static void slow_root(tree f, const char *why)
{
	if (f && DECL_NAME(f))
		ch_access_slow_root(facts, IDENTIFIER_POINTER(DECL_NAME(f)), why);
}

/* What a call tells about slow paths (docs/annotate.md, "Slow paths"):
 * a handler given to atexit()/on_exit() or to signal() runs at exit or on
 * a signal; a function that calls pthread_create()/thrd_create() (and not
 * pthread_join(): a thread started and waited for at once) starts the
 * program's threads; main()'s calls are kept with their lines, to tell the
 * calls made before the first thread starts. */
static void startup_call(gcall *stmt, const char *fn, const char *callee)
{
	unsigned i;
	if (!strcmp(callee, "atexit") || !strcmp(callee, "on_exit") ||
	    !strcmp(callee, "pthread_atfork"))
		for (i = 0; i < gimple_call_num_args(stmt); i++)
			slow_root(fn_addr(gimple_call_arg(stmt, i)), "atexit");
	if (!strcmp(callee, "signal") || !strcmp(callee, "sigset") || !strcmp(callee, "bsd_signal"))
		for (i = 0; i < gimple_call_num_args(stmt); i++)
			slow_root(fn_addr(gimple_call_arg(stmt, i)), "signal");
	if (!strcmp(callee, "pthread_create") || !strcmp(callee, "thrd_create"))
		ch_access_thread_call(facts, fn, 1);
	if (!strcmp(callee, "pthread_join") || !strcmp(callee, "thrd_join"))
		ch_access_thread_call(facts, fn, 0);
	if (!strcmp(fn, "main")) {
		expanded_location x = expand_location(gimple_location(stmt));
		if (x.line > 0)
			ch_access_main_call(facts, callee, (unsigned)x.line);
	}
}

/* sa.sa_handler = handler (struct sigaction): the handler runs on a signal */
void access_signal_handler_store(tree lhs, tree rhs)
{
	tree f = fn_addr(rhs), fld;
	const char *n;
	if (!f || TREE_CODE(lhs) != COMPONENT_REF)
		return;
	fld = TREE_OPERAND(lhs, 1);
	n = DECL_NAME(fld) ? IDENTIFIER_POINTER(DECL_NAME(fld)) : "";
	if (!strcmp(n, "sa_handler") || !strcmp(n, "sa_sigaction"))
		slow_root(f, "signal");
}

tree cachehot_internal_atomic_ptr(const gcall *stmt)
{
	if (!gimple_call_internal_p(stmt))
		return NULL_TREE;
	switch (gimple_call_internal_fn(stmt)) {
	case IFN_ATOMIC_COMPARE_EXCHANGE:
	case IFN_ATOMIC_BIT_TEST_AND_SET:
	case IFN_ATOMIC_BIT_TEST_AND_COMPLEMENT:
	case IFN_ATOMIC_BIT_TEST_AND_RESET:
		return gimple_call_num_args(stmt) > 0 ? gimple_call_arg(stmt, 0) : NULL_TREE;
#if BUILDING_GCC_MAJOR >= 12
	case IFN_ATOMIC_ADD_FETCH_CMP_0:   /* (comparison, pointer, value, ...) */
	case IFN_ATOMIC_SUB_FETCH_CMP_0:
	case IFN_ATOMIC_AND_FETCH_CMP_0:
	case IFN_ATOMIC_OR_FETCH_CMP_0:
	case IFN_ATOMIC_XOR_FETCH_CMP_0:
		return gimple_call_num_args(stmt) > 1 ? gimple_call_arg(stmt, 1) : NULL_TREE;
#endif
	default:
		return NULL_TREE;
	}
}

void access_do_call(gcall *stmt, const char *fn)
{
	tree decl = gimple_call_fndecl(stmt), lhs = gimple_call_lhs(stmt);
	unsigned i;
	if (tree ptr = cachehot_internal_atomic_ptr(stmt)) {   /* a folded __atomic_* */
		tree obj = cachehot_pointee(ptr);
		int p;
		if (obj)
			access_record_ref(obj, fn, CH_ACC_RMW);
		else if ((p = access_param_index(ptr, 0)) >= 0)
			ch_access_param(facts, fn, (unsigned)p, access_as_rare(CH_ACC_RMW));
		return;
	}
	if (gimple_call_internal_p(stmt))
		decl = NULL_TREE;   /* no CALL_EXPR_FN */
	if (decl && fndecl_built_in_p(decl, BUILT_IN_NORMAL) && DECL_NAME(decl)) {
		const char *b = IDENTIFIER_POINTER(DECL_NAME(decl));
		if ((!strncmp(b, "__atomic_", 9) || !strncmp(b, "__sync_", 7)) &&
		    gimple_call_num_args(stmt) > 0 && !strstr(b, "fence") &&
		    !strstr(b, "synchronize") && !strstr(b, "lock_free")) {
			tree obj = cachehot_pointee(gimple_call_arg(stmt, 0));
			enum ch_access_kind k = !strncmp(b, "__atomic_load", 13) ? CH_ACC_MLOAD
						: !strncmp(b, "__atomic_store", 14) ? CH_ACC_MSTORE
						: CH_ACC_RMW;
			int p;
			if (obj)
				access_record_ref(obj, fn, k);
			else if ((p = access_param_index(gimple_call_arg(stmt, 0), 0)) >= 0)
				ch_access_param(facts, fn, (unsigned)p, access_as_rare(k));
			return;
		}
	}
	if (decl && !fndecl_built_in_p(decl) && DECL_NAME(decl)) {
		(access_in_unlikely ? ch_access_call_unlikely : ch_access_call)(facts, fn,
			IDENTIFIER_POINTER(DECL_NAME(decl)));
		startup_call(stmt, fn, IDENTIFIER_POINTER(DECL_NAME(decl)));
	}
	if (!decl || !fndecl_built_in_p(decl))
		passed_args(stmt, decl, fn, false);
	else if (builtin_takes_memory(decl))
		passed_args(stmt, decl, fn, true);
	for (i = 0; i < gimple_call_num_args(stmt); i++) {
		tree a = gimple_call_arg(stmt, i);
		if (access_is_mem(a))   /* an aggregate passed by value */
			access_record_ref(a, fn, access_plain(a, false));
	}
	if (lhs && access_is_mem(lhs))
		access_record_ref(lhs, fn, access_plain(lhs, true));
}

