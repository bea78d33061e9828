/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.c -- the plugin's access mode (-fplugin-arg-cachehot-access=PATH):
 * per struct field and per function, how the code touches the field, for
 * `cachehot annotate` (docs/annotate.md). Off unless the argument is given:
 * then, and only then, a GIMPLE pass runs after early inlining ("einline").
 *
 * After early inlining the kernel's always-inline atomics sit in their
 * callers: atomic_long_add_return(n, &c->usage) is an asm whose "+m"
 * operand is MEM[(atomic64_t *)_1].counter with _1 = &c->usage. A reference
 * is read from its outermost COMPONENT_REF down to its base; a MEM_REF base
 * on an SSA pointer defined by &X (through copies and casts) continues in X.
 * Every named struct/union along the chain gets the access, with the path
 * from its direct member down: page_counter "usage.counter", atomic64_t
 * "counter"; mem_cgroup "memory.usage.counter" for &memcg->memory.usage.
 * A local variable is a VAR_DECL, never a COMPONENT_REF: not a field access.
 *
 * Kinds: a load or store of a volatile reference (READ_ONCE, WRITE_ONCE) is
 * marked; an asm whose template locks or exchanges (lock, xchg, cmpxchg,
 * xadd; arm64 ldxr/stxr/ldadd/cas/swp families) is an atomic RMW on each
 * memory operand, once per asm; other asm memory operands are stores
 * (outputs) or loads (inputs); __atomic_* and __sync_* builtins (and
 * the internal functions GCC folds some of them into) are RMWs on their
 * first argument (__atomic_load* a marked load, __atomic_store* a
 * marked store).
 *
 * Addresses passed to calls: the address of a field given to a function
 * (tree_insert(&ctx->runq, ...), spin_lock(&zone->lock)) is recorded as
 * "passed" with the callee, the argument and whether the parameter points
 * to const; every access through a pointer parameter (p->f, p[i], an asm
 * operand or atomic builtin on it) is recorded in the function's "params",
 * and a parameter handed on to another call in its "passes". Merging
 * decides what a passed address stands for (core/summary.c).
 *
 * PATH: a directory (dir_mode: made when missing) gets one file per
 * translation unit, named after the main source file's real path and the
 * unit's options (unit_file), so that parallel compiles never write the
 * same file; anything else is this unit's file; "object": no file. Both are
 * written with a temporary file and a rename. The facts also go into the
 * object (plugin/build.c), unless object-records=0.
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

static ch_access_facts *facts_;
static const char *access_path;
/* The block of the statement being read (guarded_by_own_value()). */
static basic_block cur_bb;
/* The statement being read lies on a path the code marks unlikely: its
 * writes are recorded as rare (CH_ACC_RARE_WRITE, "passed_unlikely"). */
static bool in_unlikely;

static enum ch_access_kind as_rare(enum ch_access_kind k)
{
	if (!in_unlikely)
		return k;
	if (k == CH_ACC_LOAD || k == CH_ACC_MLOAD)
		return CH_ACC_RARE_READ;
	return k == CH_ACC_STORE || k == CH_ACC_MSTORE || k == CH_ACC_RMW || k == CH_ACC_UPDATE
	       ? CH_ACC_RARE_WRITE : k;
}

/* Created on first use: main_input_filename is not known at plugin_init. */
static ch_access_facts *get_facts(void)
{
	if (!facts_) {
		char *src = cachehot_source_path(main_input_filename);
		facts_ = ch_access_new(src ? src : main_input_filename);
		ch_access_set_flags(facts_, cachehot_unit_flags());
		free(src);
	}
	return facts_;
}
#define facts get_facts()
static bool exports_scanned;

static const char *tag_of(tree type)
{
	tree n;
	if (!type || (TREE_CODE(type) != RECORD_TYPE && TREE_CODE(type) != UNION_TYPE))
		return NULL;
	n = TYPE_NAME(TYPE_MAIN_VARIANT(type));
	if (n && TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

/* The tag of a member's struct type when it has one of its own (not a
 * typedef'd anonymous struct such as atomic_t), else NULL: that struct's
 * fields are also recorded under the tag. */
static const char *composite_tag(tree field)
{
	tree t = TREE_TYPE(field);
	while (t && TREE_CODE(t) == ARRAY_TYPE)
		t = TREE_TYPE(t);
	t = t ? TYPE_MAIN_VARIANT(t) : NULL_TREE;
	if (t && (TREE_CODE(t) == RECORD_TYPE || TREE_CODE(t) == UNION_TYPE) &&
	    TYPE_NAME(t) && TREE_CODE(TYPE_NAME(t)) == IDENTIFIER_NODE)
		return IDENTIFIER_POINTER(TYPE_NAME(t));
	return NULL;
}

static uint64_t byte_pos(tree field)
{
	tree p = bit_position(field);
	return p && TREE_CODE(p) == INTEGER_CST && tree_fits_uhwi_p(p) ? tree_to_uhwi(p) / 8 : 0;
}

#define MAX_CHAIN 32

/* The object an SSA pointer points to when it was made by &X (through at
 * most 8 copies and casts), else NULL (cachehot-plugin.h; record.c too). */
tree cachehot_pointee(tree ptr)
{
	for (int depth = 0; ptr && depth < 8; depth++) {
		gimple *def;
		if (TREE_CODE(ptr) == ADDR_EXPR)
			return TREE_OPERAND(ptr, 0);
		if (TREE_CODE(ptr) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(ptr))
			return NULL_TREE;
		def = SSA_NAME_DEF_STMT(ptr);
		if (!def || !is_gimple_assign(def))
			return NULL_TREE;
		if (gimple_assign_single_p(def) || gimple_assign_cast_p(def))
			ptr = gimple_assign_rhs1(def);
		else
			return NULL_TREE;
	}
	return NULL_TREE;
}

/* Fields of ref from the outermost container to the leaf; returns count. */
static int chain(tree ref, tree *out)
{
	tree rev[MAX_CHAIN];
	int n = 0, i, hops = 0;
	tree t = ref;
	while (t && n < MAX_CHAIN) {
		if (TREE_CODE(t) == COMPONENT_REF) {
			if (TREE_CODE(TREE_OPERAND(t, 1)) == FIELD_DECL)
				rev[n++] = TREE_OPERAND(t, 1);
			t = TREE_OPERAND(t, 0);
		} else if (TREE_CODE(t) == ARRAY_REF || TREE_CODE(t) == ARRAY_RANGE_REF ||
			   TREE_CODE(t) == BIT_FIELD_REF || TREE_CODE(t) == REALPART_EXPR ||
			   TREE_CODE(t) == IMAGPART_EXPR || TREE_CODE(t) == VIEW_CONVERT_EXPR) {
			t = TREE_OPERAND(t, 0);
		} else if (TREE_CODE(t) == MEM_REF && integer_zerop(TREE_OPERAND(t, 1)) && hops++ < 8) {
			t = cachehot_pointee(TREE_OPERAND(t, 0));
		} else {
			break;
		}
	}
	for (i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	return n;
}

/* ---- ownership: objects one thread or CPU owns -------------------------- */

static bool thread_local_var(tree v)
{
	return v && VAR_P(v) && DECL_THREAD_LOCAL_P(v);
}

static bool percpu_var(tree v)
{
	const char *sec = v && VAR_P(v) && (TREE_STATIC(v) || DECL_EXTERNAL(v))
			  ? DECL_SECTION_NAME(v) : NULL;
	return sec && !strncmp(sec, ".data..percpu", 13);
}

/* An asm that reads the current CPU's per-CPU offset or a per-CPU variable
 * (x86 this_cpu_ptr(): "add %%gs:this_cpu_off, %0"; smp_processor_id():
 * this_cpu_read(cpu_number)). */
static bool asm_reads_percpu(gasm *as)
{
	for (unsigned i = 0; i < gimple_asm_ninputs(as); i++) {
		tree op = TREE_VALUE(gimple_asm_input_op(as, i));
		while (op && handled_component_p(op))
			op = TREE_OPERAND(op, 0);
		if (percpu_var(op))
			return true;
	}
	return false;
}

/* Is v the current thread's or CPU's id: loaded (through copies and casts)
 * from a thread-local variable (HAProxy's tid), or read from a per-CPU
 * variable by an asm (the kernel's smp_processor_id())? */
static bool self_id(tree v)
{
	for (int depth = 0; v && depth < 8; depth++) {
		gimple *def;
		if (thread_local_var(v))
			return true;
		if (TREE_CODE(v) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(v))
			return false;
		def = SSA_NAME_DEF_STMT(v);
		if (gasm *as = dyn_cast<gasm *>(def))
			return asm_reads_percpu(as);
		if (!def || !is_gimple_assign(def) ||
		    !(gimple_assign_single_p(def) || gimple_assign_cast_p(def)))
			return false;
		v = gimple_assign_rhs1(def);
	}
	return false;
}

static const char *owner_of(tree ref, int depth);

/* Why the object an SSA pointer points to is owned by one thread or CPU, or
 * NULL: &OWNED, a pointer held in a thread-local variable (th_ctx), or a
 * pointer made by the current CPU's per-CPU offset (this_cpu_ptr()). */
static const char *owner_of_ptr(tree p, int depth)
{
	while (p && depth++ < 16) {
		gimple *def;
		if (TREE_CODE(p) == ADDR_EXPR)
			return owner_of(TREE_OPERAND(p, 0), depth);
		if (thread_local_var(p))
			return "thread-context pointer";
		if (TREE_CODE(p) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(p))
			return NULL;
		def = SSA_NAME_DEF_STMT(p);
		if (gasm *as = dyn_cast<gasm *>(def))
			return asm_reads_percpu(as) ? "per-CPU" : NULL;
		if (!def || !is_gimple_assign(def))
			return NULL;
		if (gimple_assign_single_p(def) || gimple_assign_cast_p(def) ||
		    gimple_assign_rhs_code(def) == POINTER_PLUS_EXPR)
			p = gimple_assign_rhs1(def);
		else
			return NULL;
	}
	return NULL;
}

/* Why the object ref lies in is owned by one thread or CPU (its accesses
 * are no evidence of sharing; docs/annotate.md), or NULL. */
static const char *owner_of(tree ref, int depth)
{
	tree t = ref;
	while (t && depth++ < 32) {
		switch (TREE_CODE(t)) {
		case COMPONENT_REF: case BIT_FIELD_REF: case REALPART_EXPR:
		case IMAGPART_EXPR: case VIEW_CONVERT_EXPR:
			t = TREE_OPERAND(t, 0);
			break;
		case ARRAY_REF: case ARRAY_RANGE_REF:
			if (self_id(TREE_OPERAND(t, 1)))
				return "indexed by the thread's id";
			t = TREE_OPERAND(t, 0);
			break;
		case MEM_REF: case TARGET_MEM_REF:
			return owner_of_ptr(TREE_OPERAND(t, 0), depth);
		case VAR_DECL:
			if (thread_local_var(t))
				return "thread-local";
			if (percpu_var(t))
				return "per-CPU";
			if (!TREE_STATIC(t) && !DECL_EXTERNAL(t) && DECL_CONTEXT(t) &&
			    TREE_CODE(DECL_CONTEXT(t)) == FUNCTION_DECL)
				return "on the thread's stack";
			return NULL;
		case PARM_DECL: case RESULT_DECL:
			return "on the thread's stack";
		default:
			return NULL;
		}
	}
	return NULL;
}

/* FNV-1a over the members' names and bit positions: two definitions of a
 * tag with the same hash are one layout */
static unsigned long layout_hash(tree rt)
{
	unsigned long h = 2166136261u;
	char buf[64];
	for (tree fl = TYPE_FIELDS(rt); fl; fl = DECL_CHAIN(fl)) {
		const char *n = TREE_CODE(fl) == FIELD_DECL && DECL_NAME(fl)
				? IDENTIFIER_POINTER(DECL_NAME(fl)) : "";
		tree bp = TREE_CODE(fl) == FIELD_DECL ? bit_position(fl) : NULL_TREE;
		if (TREE_CODE(fl) != FIELD_DECL)
			continue;
		snprintf(buf, sizeof(buf), ":%llu;", bp && tree_fits_uhwi_p(bp)
			 ? (unsigned long long)tree_to_uhwi(bp) : 0ull);
		for (const char *p = n; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		for (const char *p = buf; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
	}
	return h & 0xffffffffu;
}

/* Where a field reference's address goes when it is passed to a call. */
struct passed_to {
	const char *callee;   /* NULL: indirect */
	unsigned arg;
	int is_const;
};

/* to: the field's address is passed to a call; locked: to a function whose
 * name says it locks (recorded apart as "locked", a sign of sharing). */
static void record_ref_to(tree ref, const char *fn, enum ch_access_kind kind,
			  const struct passed_to *to, bool locked = false)
{
	tree f[MAX_CHAIN];
	int n, i, j;
	char path[1024];
	const char *owner;
	if (!ref)
		return;
	n = chain(ref, f);
	owner = n ? owner_of(ref, 0) : NULL;
	for (i = 0; i < n; i++) {
		const char *st = tag_of(DECL_CONTEXT(f[i]));
		uint64_t off = 0;
		int first = -1;
		const char *composite = NULL;
		size_t len = 0;
		if (!st)
			continue;   /* anonymous: its members are named in a named container */
		path[0] = 0;
		for (j = i; j < n; j++) {
			const char *nm;
			if (first < 0)
				off += byte_pos(f[j]);
			if (!DECL_NAME(f[j]))
				continue;
			nm = IDENTIFIER_POINTER(DECL_NAME(f[j]));
			if (first < 0) {
				first = j;
				composite = composite_tag(f[j]);
			}
			if (len + strlen(nm) + 2 >= sizeof(path))
				break;
			len += snprintf(path + len, sizeof(path) - len, "%s%s", len ? "." : "", nm);
		}
		if (first >= 0) {
			tree rt = DECL_CONTEXT(f[i]), f0 = TYPE_FIELDS(rt);
			if (f0 && !ch_access_has_struct_def(facts, st)) {
				/* where the tag is defined: its first member, by real path */
				expanded_location x = expand_location(DECL_SOURCE_LOCATION(f0));
				tree sz = TYPE_SIZE_UNIT(rt);
				char *real = cachehot_source_path(x.file);
				ch_access_struct_def(facts, st, real ? real : x.file,
						     x.line > 0 ? (unsigned)x.line : 0,
						     sz && tree_fits_uhwi_p(sz) ? tree_to_uhwi(sz) : 0,
						     layout_hash(rt));
				free(real);
			}
		}
		if (first >= 0 && locked)
			ch_access_field_locked(facts, st, path, off, composite, fn);
		if (first >= 0 && owner && kind == CH_ACC_UPDATE && (to || in_unlikely))
			;   /* its store is counted, as owned (and rare) */
		else if (first >= 0 && owner)   /* an owned object: no evidence, whatever it is
						 * (an update only marks its store: core/access.c) */
			ch_access_field_owned(facts, st, path, off, composite, fn,
					      to ? (to->is_const ? CH_ACC_LOAD : CH_ACC_STORE)
						 : kind == CH_ACC_UPDATE ? kind : as_rare(kind), owner);
		else if (first >= 0 && to)
			ch_access_field_passed(facts, st, path, off, composite, fn, to->callee,
					       to->arg, to->is_const, in_unlikely);
		else if (first >= 0)
			ch_access_field(facts, st, path, off, composite, fn, as_rare(kind));
	}
}

/* The index of the PARM_DECL whose incoming value ptr is derived from
 * (copies, casts, pointer arithmetic, &p->f, a PHI with such an argument),
 * else -1. */
static int param_index(tree ptr, int depth)
{
	while (ptr && depth++ < 12) {
		gimple *def;
		if (TREE_CODE(ptr) == ADDR_EXPR) {
			tree base = get_base_address(TREE_OPERAND(ptr, 0));
			if (!base || (TREE_CODE(base) != MEM_REF && TREE_CODE(base) != TARGET_MEM_REF))
				return -1;
			ptr = TREE_OPERAND(base, 0);
			continue;
		}
		if (TREE_CODE(ptr) != SSA_NAME)
			return -1;
		if (SSA_NAME_IS_DEFAULT_DEF(ptr)) {
			tree var = SSA_NAME_VAR(ptr), p;
			int i = 0;
			if (!var || TREE_CODE(var) != PARM_DECL || !current_function_decl)
				return -1;
			for (p = DECL_ARGUMENTS(current_function_decl); p; p = DECL_CHAIN(p), i++)
				if (p == var)
					return i;
			return -1;
		}
		def = SSA_NAME_DEF_STMT(ptr);
		if (def && gimple_code(def) == GIMPLE_PHI) {
			/* a loop from the parameter on (c = counter; c; c = c->parent):
			 * its first round goes through the parameter */
			gphi *phi = as_a<gphi *>(def);
			unsigned k;
			for (k = 0; k < gimple_phi_num_args(phi); k++) {
				int r = param_index(gimple_phi_arg_def(phi, k), depth + 4);
				if (r >= 0)
					return r;
			}
			return -1;
		}
		if (!def || !is_gimple_assign(def))
			return -1;
		if (gimple_assign_single_p(def) || gimple_assign_cast_p(def) ||
		    gimple_assign_rhs_code(def) == POINTER_PLUS_EXPR)
			ptr = gimple_assign_rhs1(def);
		else
			return -1;
	}
	return -1;
}

/* A memory reference through a pointer parameter: noted in "params". */
static void note_param(tree ref, const char *fn, enum ch_access_kind kind)
{
	tree base = ref ? get_base_address(ref) : NULL_TREE;
	int p;
	if (!base || (TREE_CODE(base) != MEM_REF && TREE_CODE(base) != TARGET_MEM_REF))
		return;
	p = param_index(TREE_OPERAND(base, 0), 0);
	if (p >= 0)
		ch_access_param(facts, fn, (unsigned)p, as_rare(kind));
}

static void record_ref(tree ref, const char *fn, enum ch_access_kind kind)
{
	if (!ref)
		return;
	record_ref_to(ref, fn, kind, NULL);
	note_param(ref, fn, kind);
}

static bool is_mem(tree t)
{
	return t && (handled_component_p(t) || TREE_CODE(t) == MEM_REF);
}

static enum ch_access_kind plain(tree ref, bool store)
{
	if (TREE_THIS_VOLATILE(ref) || (TREE_TYPE(ref) && TYPE_VOLATILE(TREE_TYPE(ref))))
		return store ? CH_ACC_MSTORE : CH_ACC_MLOAD;
	return store ? CH_ACC_STORE : CH_ACC_LOAD;
}

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

static void do_asm(gasm *stmt, const char *fn)
{
	bool atomic = cachehot_asm_is_atomic(gimple_asm_string(stmt));
	unsigned i, j, no = gimple_asm_noutputs(stmt), ni = gimple_asm_ninputs(stmt);
	for (i = 0; i < no; i++) {
		tree op = TREE_VALUE(gimple_asm_output_op(stmt, i));
		if (is_mem(op))
			record_ref(op, fn, atomic ? CH_ACC_RMW : CH_ACC_STORE);
	}
	for (i = 0; i < ni; i++) {
		tree op = TREE_VALUE(gimple_asm_input_op(stmt, i));
		bool dup = false;
		if (!is_mem(op))
			continue;
		for (j = 0; j < no && !dup; j++)   /* "+m": the same operand twice */
			dup = operand_equal_p(op, TREE_VALUE(gimple_asm_output_op(stmt, j)), 0);
		if (!dup)
			record_ref(op, fn, atomic ? CH_ACC_RMW : CH_ACC_LOAD);
	}
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

static tree resolved(tree ref);

/* Loads (resolved references) that the value v is computed from, through
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
	if (gimple_assign_single_p(def) && is_mem(gimple_assign_rhs1(def))) {
		out.push_back(resolved(gimple_assign_rhs1(def)));
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
	obj = resolved(obj);
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
	basic_block d = cur_bb;
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
		p = param_index(a, 0);
		if (builtin) {
			enum ch_access_kind k = to.is_const ? CH_ACC_LOAD : CH_ACC_STORE;
			if (obj && is_mem(obj))
				record_ref_to(obj, fn, k, NULL);
			if (p >= 0)
				ch_access_param(facts, fn, (unsigned)p, as_rare(k));
			continue;
		}
		if (obj && is_mem(obj)) {
			/* handed over only when a test of its own value allowed
			 * it (a wake-up when the queue has waiters): as rare as
			 * a call under unlikely() */
			bool was = in_unlikely;
			if (!in_unlikely && guarded_by_own_value(obj))
				in_unlikely = true;
			record_ref_to(obj, fn, CH_ACC_LOAD, &to, callee && strstr(callee, "lock"));
			in_unlikely = was;
		}
		if (p >= 0)
			ch_access_param_passed(facts, fn, (unsigned)p, callee, i, to.is_const,
					       in_unlikely);
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
static void signal_handler_store(tree lhs, tree rhs)
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

static void do_call(gcall *stmt, const char *fn)
{
	tree decl = gimple_call_fndecl(stmt), lhs = gimple_call_lhs(stmt);
	unsigned i;
	if (tree ptr = cachehot_internal_atomic_ptr(stmt)) {   /* a folded __atomic_* */
		tree obj = cachehot_pointee(ptr);
		int p;
		if (obj)
			record_ref(obj, fn, CH_ACC_RMW);
		else if ((p = param_index(ptr, 0)) >= 0)
			ch_access_param(facts, fn, (unsigned)p, as_rare(CH_ACC_RMW));
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
				record_ref(obj, fn, k);
			else if ((p = param_index(gimple_call_arg(stmt, 0), 0)) >= 0)
				ch_access_param(facts, fn, (unsigned)p, as_rare(k));
			return;
		}
	}
	if (decl && !fndecl_built_in_p(decl) && DECL_NAME(decl)) {
		(in_unlikely ? ch_access_call_unlikely : ch_access_call)(facts, fn,
			IDENTIFIER_POINTER(DECL_NAME(decl)));
		startup_call(stmt, fn, IDENTIFIER_POINTER(DECL_NAME(decl)));
	}
	if (!decl || !fndecl_built_in_p(decl))
		passed_args(stmt, decl, fn, false);
	else if (builtin_takes_memory(decl))
		passed_args(stmt, decl, fn, true);
	for (i = 0; i < gimple_call_num_args(stmt); i++) {
		tree a = gimple_call_arg(stmt, i);
		if (is_mem(a))   /* an aggregate passed by value */
			record_ref(a, fn, plain(a, false));
	}
	if (lhs && is_mem(lhs))
		record_ref(lhs, fn, plain(lhs, true));
}

/* EXPORT_SYMBOL(): a __ksymtab_NAME symbol, from top-level asm (x86_64
 * with PREL32 relocations) or a variable (other configurations). */
static void scan_exports(void)
{
	asm_node *a;
	varpool_node *v;
	for (a = symtab->first_asm_symbol(); a; a = a->next) {
		const char *s = TREE_STRING_POINTER(a->asm_str), *p = s;
		while ((p = strstr(p, "__ksymtab_"))) {
			char name[256];
			size_t n = 0;
			p += 10;
			while ((ISALNUM(p[n]) || p[n] == '_') && n < sizeof(name) - 1)
				n++;
			memcpy(name, p, n);
			name[n] = 0;
			if (n && strncmp(name, "strings", 7))
				ch_access_export(facts, name);
			p += n;
		}
	}
	FOR_EACH_VARIABLE(v) {
		const char *n = v->decl && DECL_NAME(v->decl) ? IDENTIFIER_POINTER(DECL_NAME(v->decl)) : "";
		if (!strncmp(n, "__ksymtab_", 10) && strncmp(n, "__ksymtab_strings", 17))
			ch_access_export(facts, n + 10);
	}
}

/* A reference with its MEM_REFs on &X addresses resolved to X (READ_ONCE
 * and WRITE_ONCE go through a volatile pointer to the field). */
static tree resolved(tree ref)
{
	int hops = 0;
	while (ref && TREE_CODE(ref) == MEM_REF && integer_zerop(TREE_OPERAND(ref, 1)) &&
	       hops++ < 8) {
		tree obj = cachehot_pointee(TREE_OPERAND(ref, 0));
		if (!obj)
			break;
		ref = obj;
	}
	return ref;
}

/* Is val (an SSA value) computed from a load of ref itself (the same field
 * of the same object, the same array element), through arithmetic, casts,
 * PHIs and the arguments of calls (x->n + 1, max(x->v, y), f(x->v))? A
 * value copied from another object's field (a child inheriting its
 * parent's setting) or from another element is not. The walk goes breadth
 * first, visits each SSA name once and at most 8 steps from val: PHIs and
 * calls branch, and a walk of paths instead of names is exponential (a loop
 * around a big switch, as memcached's event handler: minutes in one
 * store). */
static bool value_from(tree val, tree ref, int depth)
{
	std::vector<std::pair<tree, int> > work;
	std::set<tree> seen;
	tree want = resolved(ref);
	size_t next = 0;
	work.push_back(std::make_pair(val, depth));
	while (next < work.size()) {
		tree v = work[next].first;
		int d = work[next].second;
		gimple *def;
		unsigned i;
		next++;
		if (!v || TREE_CODE(v) != SSA_NAME || d > 8 || !seen.insert(v).second)
			continue;
		def = SSA_NAME_DEF_STMT(v);
		if (gphi *phi = dyn_cast<gphi *>(def)) {
			for (i = 0; i < gimple_phi_num_args(phi); i++)
				work.push_back(std::make_pair(gimple_phi_arg_def(phi, i), d + 1));
			continue;
		}
		if (gcall *c = dyn_cast<gcall *>(def)) {
			for (i = 0; i < gimple_call_num_args(c); i++)
				work.push_back(std::make_pair(gimple_call_arg(c, i), d + 1));
			continue;
		}
		if (!is_gimple_assign(def))
			continue;
		if (gimple_assign_single_p(def) && is_mem(gimple_assign_rhs1(def))) {
			if (operand_equal_p(resolved(gimple_assign_rhs1(def)), want, OEP_MATCH_SIDE_EFFECTS))
				return true;
			continue;
		}
		for (i = 1; i < gimple_num_ops(def); i++)
			work.push_back(std::make_pair(gimple_op(def, i), d + 1));
	}
	return false;
}

/* The value __builtin_expect says v (an SSA name, through casts) takes,
 * when it comes from one. */
static bool expected_value(tree v, HOST_WIDE_INT *out)
{
	int depth = 0;
	while (v && TREE_CODE(v) == SSA_NAME && depth++ < 4) {
		gimple *def = SSA_NAME_DEF_STMT(v);
		if (gcall *c = dyn_cast<gcall *>(def)) {
			tree e;
			if (!gimple_call_builtin_p(c, BUILT_IN_EXPECT) &&
			    !gimple_call_internal_p(c, IFN_BUILTIN_EXPECT))
				return false;
			if (gimple_call_num_args(c) < 2)
				return false;
			e = gimple_call_arg(c, 1);
			if (TREE_CODE(e) != INTEGER_CST || !tree_fits_shwi_p(e))
				return false;
			*out = tree_to_shwi(e);
			return true;
		}
		if (!is_gimple_assign(def) || !gimple_assign_cast_p(def))
			return false;
		v = gimple_assign_rhs1(def);
	}
	return false;
}

/* Blocks on a path the code marks unlikely: those dominated by the edge of
 * an if (__builtin_expect(...)) that the expectation does not take
 * (unlikely(x): the then-branch), when that edge is the only way in. */
static void unlikely_blocks(function *fun, std::vector<char> &cold)
{
	basic_block bb;
	bool had = dom_info_available_p(fun, CDI_DOMINATORS);
	cold.assign(last_basic_block_for_fn(fun), 0);
	FOR_EACH_BB_FN(bb, fun) {
		gcond *c = safe_dyn_cast<gcond *>(last_stmt(bb));
		HOST_WIDE_INT e;
		tree rhs;
		edge te, fe, rare;
		bool taken;
		if (!c || (gimple_cond_code(c) != NE_EXPR && gimple_cond_code(c) != EQ_EXPR))
			continue;
		rhs = gimple_cond_rhs(c);
		if (TREE_CODE(rhs) != INTEGER_CST || !tree_fits_shwi_p(rhs) ||
		    !expected_value(gimple_cond_lhs(c), &e))
			continue;
		taken = gimple_cond_code(c) == NE_EXPR ? e != tree_to_shwi(rhs) : e == tree_to_shwi(rhs);
		extract_true_false_edges_from_block(bb, &te, &fe);
		rare = taken ? fe : te;
		if (!rare || !single_pred_p(rare->dest) ||
		    rare->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
			continue;
		if (!dom_info_available_p(fun, CDI_DOMINATORS))
			calculate_dominance_info(CDI_DOMINATORS);
		auto_vec<basic_block> doms = get_all_dominated_blocks(CDI_DOMINATORS, rare->dest);
		for (unsigned i = 0; i < doms.length(); i++)
			if (doms[i]->index < (int)cold.size())
				cold[doms[i]->index] = 1;
	}
	if (!had && dom_info_available_p(fun, CDI_DOMINATORS))
		free_dominance_info(fun, CDI_DOMINATORS);
}

static const pass_data access_pass_data = {
	GIMPLE_PASS, "cachehot_access", OPTGROUP_NONE, TV_NONE,
	PROP_gimple_any | PROP_cfg, 0, 0, 0, 0
};

struct access_pass : gimple_opt_pass {
	access_pass(gcc::context *ctx) : gimple_opt_pass(access_pass_data, ctx) {}
	opt_pass *clone() final override { return new access_pass(m_ctxt); }
	unsigned int execute(function *fun) final override;
};

/* The canonical path of a function's source file (GCC spells it as the
 * command line or #include did: "util.c", "../lib/util.c"): the merge keys
 * static functions by it, so one header helper reached by two relative
 * paths is one function and two util.c in different directories are two.
 * GCC's file names are interned: remembered per pointer. A file that is
 * not there (preprocessed text compiled on a farm node): joined to the
 * text's working directory when it names one, else spelled as is
 * (cachehot_source_path). */
static const char *canonical_file(const char *file)
{
	static const char *keys[16];
	static char *vals[16];
	static unsigned next;
	unsigned i;
	char *real;
	if (!file)
		return NULL;
	for (i = 0; i < 16; i++)
		if (keys[i] == file)
			return vals[i] ? vals[i] : file;
	real = cachehot_source_path(file);
	i = next++ % 16;
	free(vals[i]);
	keys[i] = file;
	vals[i] = real;
	return real ? real : file;
}

unsigned int access_pass::execute(function *fun)
{
	tree decl = fun->decl;
	const char *fn, *sec;
	struct ch_access_fn_info info;
	expanded_location x;
	basic_block bb;

	if (!decl || !DECL_NAME(decl))
		return 0;
	/* inlined into every caller by einline, before this pass: its accesses
	 * are already counted there */
	if (lookup_attribute("always_inline", DECL_ATTRIBUTES(decl)))
		return 0;
	fn = IDENTIFIER_POINTER(DECL_NAME(decl));
	memset(&info, 0, sizeof(info));
	x = expand_location(DECL_SOURCE_LOCATION(decl));
	info.file = canonical_file(x.file);
	info.line = x.line > 0 ? (unsigned)x.line : 0;
	info.is_static = !TREE_PUBLIC(decl);
	sec = DECL_SECTION_NAME(decl);
	info.init = sec && !strncmp(sec, ".init.", 6);
	info.exit = sec && !strncmp(sec, ".exit.", 6);
	info.cold = lookup_attribute("cold", DECL_ATTRIBUTES(decl)) != NULL_TREE;
	info.is_inline = DECL_DECLARED_INLINE_P(decl);
	ch_access_function(facts, fn, &info);
	/* runs before main() or after exit(): startup or teardown */
	if (DECL_STATIC_CONSTRUCTOR(decl) || DECL_STATIC_DESTRUCTOR(decl))
		ch_access_slow_root(facts, fn, "constructor");
	if (!exports_scanned) {
		exports_scanned = true;
		scan_exports();
	}
	std::vector<char> cold;
	unlikely_blocks(fun, cold);
	bool had_dom = dom_info_available_p(fun, CDI_DOMINATORS);
	if (!had_dom)
		calculate_dominance_info(CDI_DOMINATORS);
	FOR_EACH_BB_FN(bb, fun) {
		gimple_stmt_iterator gsi;
		cur_bb = bb;
		in_unlikely = bb->index < (int)cold.size() && cold[bb->index];
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (gasm *as = dyn_cast<gasm *>(s)) {
				do_asm(as, fn);
			} else if (gcall *c = dyn_cast<gcall *>(s)) {
				do_call(c, fn);
			} else if (is_gimple_assign(s)) {
				tree lhs = gimple_assign_lhs(s);
				if (is_mem(lhs)) {
					record_ref(lhs, fn, plain(lhs, true));
					if (value_from(gimple_assign_rhs1(s), lhs, 0) ||
					    (gimple_num_ops(s) > 2 && value_from(gimple_assign_rhs2(s), lhs, 0)))
						record_ref(lhs, fn, CH_ACC_UPDATE);
				}
				if (gimple_assign_single_p(s) && is_mem(gimple_assign_rhs1(s)))
					record_ref(gimple_assign_rhs1(s), fn,
						   plain(gimple_assign_rhs1(s), false));
				if (gimple_assign_single_p(s))
					signal_handler_store(lhs, gimple_assign_rhs1(s));
			}
		}
	}
	in_unlikely = false;
	cur_bb = NULL;
	if (!had_dom)
		free_dominance_info(fun, CDI_DOMINATORS);
	return 0;
}

/* The unit's file name in directory mode: the main source's real path,
 * escaped so that no two paths give one name ('/' -> ',', ',' -> "%2C",
 * '%' -> "%25": "a,b/c.c" and "a/b,c.c" stay apart), then the unit's
 * options digest (one source compiled with two sets of flags: two files).
 * A name past NAME_MAX (a source path over ~240 bytes) keeps its tail
 * behind a digest of the whole path: the compile never fails on it. */
static char *unit_file(const char *dir)
{
	char *src = cachehot_source_path(main_input_filename);
	const char *s = src ? src : (main_input_filename ? main_input_filename : "stdin");
	std::string name, tail;
	const char *suffix = ".access.json";
	while (*s == '/')
		s++;
	for (; *s; s++) {
		if (*s == '/')
			name += ',';
		else if (*s == ',')
			name += "%2C";
		else if (*s == '%')
			name += "%25";
		else
			name += *s;
	}
	free(src);
	name += '.';
	name += cachehot_unit_flags();
	if (name.size() + strlen(suffix) > 250) {
		unsigned long long h = 0xcbf29ce484222325ULL;
		char hx[20];
		for (size_t i = 0; i < name.size(); i++) {
			h ^= (unsigned char)name[i];
			h *= 0x100000001b3ULL;
		}
		snprintf(hx, sizeof(hx), "%016llx-", h);
		tail = name.substr(name.size() - 200);
		name = std::string(hx) + tail;
	}
	return xstrdup((std::string(dir) + "/" + name + suffix).c_str());
}

/* PATH names a directory when it is one, ends in '/', or does not exist
 * and does not end in ".json": a missing directory is made (mkdir -p), so
 * that "access=$PWD/facts" without a mkdir is the directory mode and not a
 * file every compile replaces. Anything else is this unit's file. */
static bool dir_mode(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode);
	if (n && path[n - 1] == '/')
		return true;
	return !(n > 5 && !strcmp(path + n - 5, ".json"));
}

/* What only the whole unit tells, added once before the facts are written
 * (to a file here, or into the object by plugin/build.c): kernel code or
 * not, and the functions whose address is taken (the call graph's address
 * references, complete only once every body was built). */
static void complete_facts(void)
{
	static bool done;
	struct ch_config cfg;
	cgraph_node *node;
	if (done)
		return;
	done = true;
	cachehot_config(&cfg);
	ch_access_unit_kernel(facts, cfg.kernel);
	FOR_EACH_FUNCTION(node)
		if (node->address_taken && node->decl && DECL_NAME(node->decl))
			ch_access_address_taken(facts, IDENTIFIER_POINTER(DECL_NAME(node->decl)));
}

static void finish_unit(void *, void *)
{
	char *path;
	if (seen_error())
		return;
	complete_facts();
	if (!strcmp(access_path, "object"))
		return;
	if (dir_mode(access_path)) {
		if (cachehot_mkdir_p(access_path)) {
			error_at(UNKNOWN_LOCATION, "cachehot: %s: cannot make the access facts directory: %s",
				 access_path, xstrerror(errno));
			return;
		}
		path = unit_file(access_path);
	} else {
		path = xstrdup(access_path);
	}
	if (ch_access_write(facts, path))
		error_at(UNKNOWN_LOCATION, "cachehot: %s", ch_access_error(facts));
	free(path);
}

ch_access_facts *cachehot_access_facts(void)
{
	if (access_path && !seen_error())
		complete_facts();
	return access_path ? facts : NULL;
}

void cachehot_access_init(const char *plugin_name, const char *path)
{
	static struct register_pass_info info;
	access_path = path;
	info.pass = new access_pass(g);
	info.reference_pass_name = "einline";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
}
