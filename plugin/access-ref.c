/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access-ref.c -- one memory reference of the access mode (access.c)
 * recorded as field accesses: the reference read from its outermost
 * COMPONENT_REF down to its base, a MEM_REF on an SSA pointer made by &X
 * continuing in X (cachehot_pointee); every named struct/union along the
 * chain gets the access with the path from its direct member down
 * (mem_cgroup "memory.usage.counter"), the struct's definition once (file,
 * line, bytes, a hash of its layout); an object one thread or CPU owns
 * (thread-local, per-CPU, on the stack, indexed by the thread's id) is
 * recorded as owned, no evidence of sharing; an access through a pointer
 * parameter goes into the function's "params". The kind of a plain load or
 * store (volatile: marked), and a write on an unlikely path (rare). How
 * annotate reads these facts: docs/annotate.md.
 *
 * Memory: the facts are the unit's (access_facts(), core/access.c copies
 * what it keeps). Cost: chains at most MAX_CHAIN fields, pointer walks at
 * most 8 to 32 steps.
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

enum ch_access_kind access_as_rare(enum ch_access_kind k)
{
	if (!access_in_unlikely)
		return k;
	if (k == CH_ACC_LOAD || k == CH_ACC_MLOAD)
		return CH_ACC_RARE_READ;
	return k == CH_ACC_STORE || k == CH_ACC_MSTORE || k == CH_ACC_RMW || k == CH_ACC_UPDATE
	       ? CH_ACC_RARE_WRITE : k;
}

const char *cachehot_struct_tag(tree type)
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

void access_record_ref_to(tree ref, const char *fn, enum ch_access_kind kind,
			  const struct passed_to *to, bool locked)
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
		const char *st = cachehot_struct_tag(DECL_CONTEXT(f[i]));
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
		if (first >= 0 && owner && kind == CH_ACC_UPDATE && (to || access_in_unlikely))
			;   /* its store is counted, as owned (and rare) */
		else if (first >= 0 && owner)   /* an owned object: no evidence, whatever it is
						 * (an update only marks its store: core/access.c) */
			ch_access_field_owned(facts, st, path, off, composite, fn,
					      to ? (to->is_const ? CH_ACC_LOAD : CH_ACC_STORE)
						 : kind == CH_ACC_UPDATE ? kind : access_as_rare(kind), owner);
		else if (first >= 0 && to)
			ch_access_field_passed(facts, st, path, off, composite, fn, to->callee,
					       to->arg, to->is_const, access_in_unlikely);
		else if (first >= 0)
			ch_access_field(facts, st, path, off, composite, fn, access_as_rare(kind));
	}
}

/* The index of the PARM_DECL whose incoming value ptr is derived from
 * (copies, casts, pointer arithmetic, &p->f, a PHI with such an argument),
 * else -1. */
int access_param_index(tree ptr, int depth)
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
				int r = access_param_index(gimple_phi_arg_def(phi, k), depth + 4);
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
	p = access_param_index(TREE_OPERAND(base, 0), 0);
	if (p >= 0)
		ch_access_param(facts, fn, (unsigned)p, access_as_rare(kind));
}

void access_record_ref(tree ref, const char *fn, enum ch_access_kind kind)
{
	if (!ref)
		return;
	access_record_ref_to(ref, fn, kind, NULL);
	note_param(ref, fn, kind);
}

bool access_is_mem(tree t)
{
	return t && (handled_component_p(t) || TREE_CODE(t) == MEM_REF);
}

enum ch_access_kind access_plain(tree ref, bool store)
{
	if (TREE_THIS_VOLATILE(ref) || (TREE_TYPE(ref) && TYPE_VOLATILE(TREE_TYPE(ref))))
		return store ? CH_ACC_MSTORE : CH_ACC_MLOAD;
	return store ? CH_ACC_STORE : CH_ACC_LOAD;
}

/* A reference with its MEM_REFs on &X addresses access_resolved to X (READ_ONCE
 * and WRITE_ONCE go through a volatile pointer to the field). */
tree access_resolved(tree ref)
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

