/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.c -- the plugin's recording mode (-fplugin-arg-cachehot-record[=SPEC]):
 * every load, store and atomic read-modify-write of a struct or union member
 * gets a call into libcachehot-rt (runtime/cachehot-rt.h) just before it.
 * Off unless the argument is given: then, and only then, the GIMPLE pass
 * "cachehot_record" runs, late (just before "optimized", after the loop
 * optimizers), so that what is recorded is what the optimized program
 * really loads and stores: a counter kept in a register by the loop
 * optimizers is no memory access, and is not recorded.
 *
 * SPEC: "all" (the default), "annotated" (structs with a cachehot attribute
 * or sidecar entry on a member), or a ','-separated list of struct tags.
 *
 * What is an access: the memory reference of an assignment (store: the
 * left side, load: the right side; an aggregate copy is both), an asm
 * memory operand (RMW when the template locks or exchanges, see access.c's
 * asm_is_atomic: these are the same rules), the object of an __atomic_* /
 * __sync_* builtin (RMW; __atomic_load a load, __atomic_store a store;
 * C11 _Atomic members reach GIMPLE as these builtins). Volatile accesses
 * (READ_ONCE, WRITE_ONCE) are plain loads and stores here.
 * Which member: the reference's COMPONENT_REF chain, through MEM_REFs of
 * pointers made by &X; the outermost named struct or union along it (a
 * struct without a tag by the typedef of the object's type: "typedef struct
 * { ... } slabclass_t"; under -flto the link step no longer has typedef
 * names, and such structs are not recorded); the member path from there
 * (anonymous members add their offset, no name).
 * A MEM_REF with a constant offset whose alias type, or else whose
 * pointer's type, is a struct names the member at that offset (READ_ONCE
 * of p->f folds to MEM[(volatile T *)p + OFF]). Loop optimizers rewrite array walks into
 * TARGET_MEM_REFs, which name no member: recording mode turns off the
 * "ivopts" pass (PLUGIN_OVERRIDE_GATE) so that they keep their ARRAY_REFs;
 * vectorized accesses still name none and are not recorded.
 * Which bytes: &REF and its size; a bit-field: the bytes holding its bits,
 * from the address of the object that contains it.
 * Locals whose address is never taken are not recorded (no other thread can
 * see them, and taking their address would change the code).
 *
 * The calls are declared nothrow, leaf, and without virtual operands
 * (DECL_IS_NOVOPS): no SSA update, and no optimization after them can
 * treat them as reading or writing the program's memory. On x86-64 the
 * cold block's calls become asms that read and write only the countdown
 * and clobber no general register (allregs_asm).
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

#include <string>
#include <vector>

enum rec_kind { REC_LOAD, REC_STORE, REC_RMW };

static int select_all = 1, select_annotated;
static std::string select_names;   /* ",a,b," */
static tree fn_decl[3];
static const char *const allregs_name[3] = { "__cachehot_rt_load_allregs", "__cachehot_rt_store_allregs",
					     "__cachehot_rt_rmw_allregs" };
/* libcachehot-rt's per-thread countdown to the next sample (an exported
 * initial-exec TLS int, runtime/cachehot-rt.h): decremented inline */
static tree countdown_decl;

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

static bool annotated(tree type, const char *tag)
{
	static const char *const attrs[] = { "cacheline_hot", "cacheline_exclusive",
					     "cacheline_read_mostly" };
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		if (TREE_CODE(f) != FIELD_DECL)
			continue;
		for (unsigned i = 0; i < 3; i++)
			if (lookup_attribute(attrs[i], DECL_ATTRIBUTES(f)))
				return true;
		if (cachehot_ctx && DECL_NAME(f)) {
			const char *g = NULL;
			if (ch_sidecar_class(cachehot_ctx, tag, IDENTIFIER_POINTER(DECL_NAME(f)), &g) !=
			    CH_CLASS_NONE)
				return true;
		}
	}
	return false;
}

static bool selected(tree type, const char *tag)
{
	if (select_all)
		return true;
	if (!select_names.empty() && select_names.find("," + std::string(tag) + ",") != std::string::npos)
		return true;
	return select_annotated && annotated(TYPE_MAIN_VARIANT(type), tag);
}

static uint64_t bits_of(tree t)
{
	return t && TREE_CODE(t) == INTEGER_CST && tree_fits_uhwi_p(t) ? tree_to_uhwi(t) : 0;
}

struct ident {
	const char *tag;
	std::string path;
	uint64_t off, size, ssize;   /* bytes */
	bool by_typedef;             /* tag is the typedef of a struct without one */
};

#define MAX_CHAIN 32

/* The field at byte offset off (size bytes) of type, recursively into
 * named-less nested structs; fills the chain outermost first. */
static int field_at(tree type, uint64_t off, uint64_t size, tree *out, int n)
{
	while (n < MAX_CHAIN && type && (TREE_CODE(type) == RECORD_TYPE || TREE_CODE(type) == UNION_TYPE)) {
		tree hit = NULL_TREE;
		for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
			uint64_t fo, fs;
			if (TREE_CODE(f) != FIELD_DECL || !DECL_SIZE_UNIT(f))
				continue;
			fo = bits_of(bit_position(f)) / 8;
			fs = bits_of(DECL_SIZE_UNIT(f));
			if (off >= fo && off + size <= fo + fs) {
				hit = f;
				break;
			}
		}
		if (!hit)
			break;
		out[n++] = hit;
		off -= bits_of(bit_position(hit)) / 8;
		type = TREE_TYPE(hit);
		while (type && TREE_CODE(type) == ARRAY_TYPE && TYPE_SIZE_UNIT(TREE_TYPE(type)) &&
		       bits_of(TYPE_SIZE_UNIT(TREE_TYPE(type)))) {
			off %= bits_of(TYPE_SIZE_UNIT(TREE_TYPE(type)));
			type = TREE_TYPE(type);
		}
	}
	return n;
}

/* Which member ref touches: false when none (or not selected). */
/* The name of an anonymous struct's typedef, from the type an object was
 * declared with ("typedef struct { ... } slabclass_t": the struct itself has
 * no name, the object's type is the typedef's variant). */
static const char *typedef_name(tree type)
{
	tree n = type && (TREE_CODE(type) == RECORD_TYPE || TREE_CODE(type) == UNION_TYPE)
		 ? TYPE_NAME(type) : NULL_TREE;
	if (n && TREE_CODE(n) == TYPE_DECL && DECL_NAME(n))
		return IDENTIFIER_POINTER(DECL_NAME(n));
	return NULL;
}

static bool identify(tree ref, struct ident *id)
{
	tree rev[MAX_CHAIN], f[MAX_CHAIN], revobj[MAX_CHAIN], obj[MAX_CHAIN];
	int n = 0, i, j, hops = 0, first = -1;
	tree t = ref, outer = NULL_TREE;
	while (t && n < MAX_CHAIN) {
		if (TREE_CODE(t) == COMPONENT_REF) {
			if (TREE_CODE(TREE_OPERAND(t, 1)) == FIELD_DECL) {
				revobj[n] = TREE_TYPE(TREE_OPERAND(t, 0));
				rev[n++] = TREE_OPERAND(t, 1);
			}
			t = TREE_OPERAND(t, 0);
		} else if (TREE_CODE(t) == ARRAY_REF || TREE_CODE(t) == ARRAY_RANGE_REF ||
			   TREE_CODE(t) == BIT_FIELD_REF || TREE_CODE(t) == REALPART_EXPR ||
			   TREE_CODE(t) == IMAGPART_EXPR || TREE_CODE(t) == VIEW_CONVERT_EXPR) {
			t = TREE_OPERAND(t, 0);
		} else if (TREE_CODE(t) == MEM_REF && hops++ < 8) {
			tree p = integer_zerop(TREE_OPERAND(t, 1)) ? cachehot_pointee(TREE_OPERAND(t, 0)) : NULL_TREE;
			if (p) {
				t = p;
				continue;
			}
			/* MEM[(struct s *)p + 8B]: the member at that offset */
			if (n == 0 && TREE_CODE(TREE_OPERAND(t, 1)) == INTEGER_CST) {
				tree at = TREE_TYPE(TREE_TYPE(TREE_OPERAND(t, 1)));
				uint64_t sz = bits_of(TYPE_SIZE_UNIT(TREE_TYPE(ref)));
				/* READ_ONCE(p->f) folds to MEM[(volatile T *)p + OFF]:
				 * the pointer's own type says the struct */
				if (!tag_of(at) && !typedef_name(at) &&
				    POINTER_TYPE_P(TREE_TYPE(TREE_OPERAND(t, 0))))
					at = TREE_TYPE(TREE_TYPE(TREE_OPERAND(t, 0)));
				if ((tag_of(at) || typedef_name(at)) && sz) {
					tree g[MAX_CHAIN];
					int k = field_at(at, bits_of(TREE_OPERAND(t, 1)), sz, g, 0);
					for (i = k - 1; i >= 0 && n < MAX_CHAIN; i--) {
						revobj[n] = i ? TREE_TYPE(g[i - 1]) : at;
						rev[n++] = g[i];
					}
				}
			}
			break;
		} else {
			break;
		}
	}
	for (i = 0; i < n; i++) {
		f[i] = rev[n - 1 - i];
		obj[i] = revobj[n - 1 - i];
	}
	for (i = 0; i < n; i++) {
		tree ctx = DECL_CONTEXT(f[i]);
		const char *tag = tag_of(ctx);
		tree tn = ctx ? TYPE_NAME(TYPE_MAIN_VARIANT(ctx)) : NULL_TREE;
		/* C: a tag is an IDENTIFIER_NODE; a struct named only by a typedef
		 * has the TYPE_DECL (or, where not, the object's type has it) */
		id->by_typedef = !tag || (tn && TREE_CODE(tn) == TYPE_DECL && !lang_GNU_CXX());
		if (!tag)
			tag = typedef_name(obj[i]);
		if (tag && selected(ctx, tag)) {
			outer = ctx;
			id->tag = tag;
			break;
		}
	}
	if (!outer)
		return false;
	id->off = 0;
	id->path.clear();
	for (j = i; j < n; j++) {
		if (first < 0)
			id->off += bits_of(bit_position(f[j])) / 8;
		if (!DECL_NAME(f[j]))
			continue;
		if (first < 0) {
			first = j;
			id->size = DECL_SIZE_UNIT(f[j]) ? bits_of(DECL_SIZE_UNIT(f[j]))
				 : (bits_of(DECL_SIZE(f[j])) + 7) / 8;
			if (!id->size)
				id->size = (bits_of(DECL_SIZE(f[j])) + 7) / 8;
		}
		if (!id->path.empty())
			id->path += ".";
		id->path += IDENTIFIER_POINTER(DECL_NAME(f[j]));
	}
	if (first < 0)
		return false;
	id->ssize = bits_of(TYPE_SIZE_UNIT(outer));
	return true;
}

static tree site_string(const struct ident *id, uint64_t asize)
{
	char num[128];
	std::string s = "1\t";
	s += id->tag;
	s += "\t";
	s += id->path;
	snprintf(num, sizeof(num), "\t%llu\t%llu\t%llu\t%llu", (unsigned long long)id->off,
		 (unsigned long long)id->size, (unsigned long long)id->ssize,
		 (unsigned long long)asize);
	s += num;
	if (id->by_typedef)
		s += "\tt";
	return build_string_literal(s.size() + 1, s.c_str());
}

/* Locals whose address is never taken: no other thread sees them. */
static bool private_object(tree ref)
{
	tree base = get_base_address(ref);
	if (!base)
		return true;
	if (DECL_P(base))
		return (TREE_CODE(base) == PARM_DECL || TREE_CODE(base) == RESULT_DECL ||
			(VAR_P(base) && !is_global_var(base))) && !TREE_ADDRESSABLE(base);
	return false;
}

static void emit(gimple_stmt_iterator *gsi, tree addr, const struct ident *id, uint64_t asize,
		 enum rec_kind kind)
{
	tree a = force_gimple_operand_gsi(gsi, fold_convert(ptr_type_node, addr), true, NULL_TREE,
					  true, GSI_SAME_STMT);
	gcall *call = gimple_build_call(fn_decl[kind], 2, a, site_string(id, asize));
	gimple_set_location(call, gimple_location(gsi_stmt(*gsi)));
	gsi_insert_before(gsi, call, GSI_SAME_STMT);
}

static bool is_mem(tree t)
{
	return t && (handled_component_p(t) || TREE_CODE(t) == MEM_REF ||
		     TREE_CODE(t) == TARGET_MEM_REF);
}

/* Record ref (a memory reference) before the statement at gsi. */
static void record_ref(gimple_stmt_iterator *gsi, tree ref, enum rec_kind kind)
{
	struct ident id;
	tree t = ref, addr;
	uint64_t bitpos = 0, bits = 0;
	if (!is_mem(ref) || private_object(ref) || !identify(ref, &id))
		return;
	/* the addressable object that holds the bytes: bit-fields and
	 * BIT_FIELD_REFs have no address of their own */
	while (t) {
		if (TREE_CODE(t) == BIT_FIELD_REF) {
			bits = bits ? bits : bits_of(TREE_OPERAND(t, 1));
			bitpos += bits_of(TREE_OPERAND(t, 2));
			t = TREE_OPERAND(t, 0);
		} else if (TREE_CODE(t) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(t, 1))) {
			tree fd = TREE_OPERAND(t, 1);
			bits = bits ? bits : bits_of(DECL_SIZE(fd));
			bitpos += bits_of(bit_position(fd));
			t = TREE_OPERAND(t, 0);
		} else {
			break;
		}
	}
	if (t != ref) {
		uint64_t first = bitpos / 8, last = (bitpos + (bits ? bits : 1) - 1) / 8;
		addr = fold_build_pointer_plus_hwi(build_fold_addr_expr(unshare_expr(t)), first);
		emit(gsi, addr, &id, last - first + 1, kind);
		return;
	}
	uint64_t size = TYPE_SIZE_UNIT(TREE_TYPE(ref)) ? bits_of(TYPE_SIZE_UNIT(TREE_TYPE(ref))) : 0;
	if (!size)
		return;
	addr = build_fold_addr_expr(unshare_expr(ref));
	emit(gsi, addr, &id, size, kind);
}

/* __atomic_* / __sync_* builtins: the object their first argument points to. */
static void record_atomic(gimple_stmt_iterator *gsi, gcall *stmt)
{
	tree decl = gimple_call_fndecl(stmt);
	const char *b;
	if (tree ptr = cachehot_internal_atomic_ptr(stmt)) {   /* a folded __atomic_* */
		tree obj = cachehot_pointee(ptr);
		struct ident id;
		uint64_t size;
		if (!obj || !is_mem(obj) || !identify(obj, &id))
			return;
		size = TYPE_SIZE_UNIT(TREE_TYPE(obj)) ? bits_of(TYPE_SIZE_UNIT(TREE_TYPE(obj))) : 0;
		if (size)
			emit(gsi, ptr, &id, size, REC_RMW);
		return;
	}
	if (gimple_call_internal_p(stmt) || !decl || !fndecl_built_in_p(decl, BUILT_IN_NORMAL) ||
	    !DECL_NAME(decl) || gimple_call_num_args(stmt) == 0)
		return;
	b = IDENTIFIER_POINTER(DECL_NAME(decl));
	if ((strncmp(b, "__atomic_", 9) && strncmp(b, "__sync_", 7)) || strstr(b, "fence") ||
	    strstr(b, "synchronize") || strstr(b, "lock_free"))
		return;
	tree ptr = gimple_call_arg(stmt, 0), obj = cachehot_pointee(ptr);
	struct ident id;
	if (!obj || !is_mem(obj) || !identify(obj, &id))
		return;
	uint64_t size = TYPE_SIZE_UNIT(TREE_TYPE(obj)) ? bits_of(TYPE_SIZE_UNIT(TREE_TYPE(obj))) : 0;
	if (!size)
		return;
	emit(gsi, ptr, &id, size,
	     !strncmp(b, "__atomic_load", 13) ? REC_LOAD : !strncmp(b, "__atomic_store", 14) ? REC_STORE
											  : REC_RMW);
}

static void record_asm(gimple_stmt_iterator *gsi, gasm *stmt)
{
	bool atomic = cachehot_asm_is_atomic(gimple_asm_string(stmt));
	unsigned i, j, no = gimple_asm_noutputs(stmt), ni = gimple_asm_ninputs(stmt);
	for (i = 0; i < no; i++) {
		tree op = TREE_VALUE(gimple_asm_output_op(stmt, i));
		record_ref(gsi, op, atomic ? REC_RMW : REC_STORE);
	}
	for (i = 0; i < ni; i++) {
		tree op = TREE_VALUE(gimple_asm_input_op(stmt, i));
		bool dup = false;
		if (!is_mem(op))
			continue;
		for (j = 0; j < no && !dup; j++)   /* "+m": the same operand twice */
			dup = operand_equal_p(op, TREE_VALUE(gimple_asm_output_op(stmt, j)), 0);
		if (!dup)
			record_ref(gsi, op, atomic ? REC_RMW : REC_LOAD);
	}
}

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


static bool is_rt_call(gimple *s)
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
		gsi_remove(&from, false);
		gimple *g = allregs ? allregs_asm(as_a<gcall *>(call), kind_of(call)) : call;
		gsi_insert_after(&c, g, GSI_NEW_STMT);
	}
	if (reg) {   /* the runtime has reset the countdown */
		gimple *reload = gimple_build_assign(reg, unshare_expr(countdown_decl));
		gimple_set_location(reload, loc);
		gsi_insert_after(&c, reload, GSI_NEW_STMT);
	}
}

/* A loop with no call (but the runtime's) and no asm: nothing in it but
 * the cold blocks reads or writes the countdown, so it can live in a
 * register there, loaded on the way in and stored on the way out (the
 * store motion GCC's own LIM would do; without it, the decrement of each
 * batch waits for the previous one's store: about 5 cycles a batch). */
static bool call_free(class loop *l)
{
	basic_block *body = get_loop_body(l);
	bool ok = true;
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
			/* builtins (atomics, string functions) and internal
			 * functions run no instrumented code */
			tree d = is_gimple_call(s) ? gimple_call_fndecl(s) : NULL_TREE;
			if ((is_gimple_call(s) && !is_rt_call(s) && !gimple_call_internal_p(s) &&
			     !(d && fndecl_built_in_p(d, BUILT_IN_NORMAL))) ||
			    gimple_code(s) == GIMPLE_ASM)
				ok = false;
		}
	}
	free(body);
	return ok;
}

/* The outermost call-free loops. */
static void call_free_loops(class loop *l, std::vector<class loop *> &out)
{
	for (class loop *c = l->inner; c; c = c->next) {
		if (!c->header)
			continue;
		if (call_free(c))
			out.push_back(c);
		else
			call_free_loops(c, out);
	}
}

/* Every runtime call inserted by execute() goes behind the inline countdown:
 * the calls of one basic block up to the next other call or asm (which may
 * run instrumented code, or synchronize) form one batch, decremented
 * at once. Returns whether anything changed. */
static bool lower_calls(function *fun)
{
	auto_vec<basic_block> bbs;
	basic_block bb;
	bool changed = false;
	std::vector<class loop *> loops;
	std::vector<bool> used;
	tree reg = NULL_TREE;
	bool any = false;
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator g = gsi_start_bb(bb); !any && !gsi_end_p(g); gsi_next(&g))
			any = is_rt_call(gsi_stmt(g));
	if (!any)   /* nothing recorded here: the function stays as it is */
		return false;
	/* the loop tree as it is now (the loop optimizers are done: fix it up) */
	loop_optimizer_init(LOOPS_MAY_HAVE_MULTIPLE_LATCHES);
	if (current_loops && current_loops->tree_root)
		call_free_loops(current_loops->tree_root, loops);
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
			if (is_rt_call(s)) {
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

static const pass_data record_pass_data = {
	GIMPLE_PASS, "cachehot_record", OPTGROUP_NONE, TV_NONE,
	PROP_cfg, 0, 0, 0, 0
};

struct record_pass : gimple_opt_pass {
	record_pass(gcc::context *ctx) : gimple_opt_pass(record_pass_data, ctx) {}
	opt_pass *clone() final override { return new record_pass(m_ctxt); }
	unsigned int execute(function *fun) final override;
};

unsigned int record_pass::execute(function *fun)
{
	basic_block bb;
	if (!fn_decl[0]) {   /* the type nodes exist from here on, not at plugin_init */
		fn_decl[REC_LOAD] = make_fn("__cachehot_rt_load");
		fn_decl[REC_STORE] = make_fn("__cachehot_rt_store");
		fn_decl[REC_RMW] = make_fn("__cachehot_rt_rmw");
		countdown_decl = make_countdown();
	}
	FOR_EACH_BB_FN(bb, fun) {
		gimple_stmt_iterator gsi;
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_debug(s))
				continue;
			if (gasm *as = dyn_cast<gasm *>(s)) {
				record_asm(&gsi, as);
			} else if (gcall *c = dyn_cast<gcall *>(s)) {
				if (is_rt_call(c))
					continue;
				record_atomic(&gsi, c);
				for (unsigned i = 0; i < gimple_call_num_args(c); i++)
					if (is_mem(gimple_call_arg(c, i)))   /* an aggregate by value */
						record_ref(&gsi, gimple_call_arg(c, i), REC_LOAD);
				if (gimple_call_lhs(c) && is_mem(gimple_call_lhs(c)))
					record_ref(&gsi, gimple_call_lhs(c), REC_STORE);
			} else if (is_gimple_assign(s)) {
				if (gimple_assign_single_p(s) && is_mem(gimple_assign_rhs1(s)))
					record_ref(&gsi, gimple_assign_rhs1(s), REC_LOAD);
				if (is_mem(gimple_assign_lhs(s)))
					record_ref(&gsi, gimple_assign_lhs(s), REC_STORE);
			}
		}
	}
	return lower_calls(fun) ? TODO_update_ssa : 0;
}

/* "ivopts" turns the ARRAY_REFs of loops into TARGET_MEM_REFs that name
 * no member: off in recording mode. */
static void override_gate(void *gcc_data, void *)
{
	bool *gate = (bool *)gcc_data;
	if (current_pass && current_pass->name && !strcmp(current_pass->name, "ivopts"))
		*gate = false;
}

/* Parses SPEC; returns an error text or NULL. */
const char *cachehot_record_init(const char *plugin_name, const char *spec)
{
	static struct register_pass_info info;
	if (spec && *spec && strcmp(spec, "all")) {
		select_all = 0;
		std::string s = spec;
		size_t p = 0;
		select_names = ",";
		while (p <= s.size()) {
			size_t e = s.find(',', p);
			std::string w = s.substr(p, e == std::string::npos ? std::string::npos : e - p);
			if (w == "annotated")
				select_annotated = 1;
			else if (w.empty())
				return "record= takes all, annotated, or a ','-separated list of struct tags";
			else
				select_names += w + ",";
			if (e == std::string::npos)
				break;
			p = e + 1;
		}
		if (select_names == ",")
			select_names.clear();
	}
	static const struct ggc_root_tab roots[] = {
		{ &fn_decl[0], 3, sizeof(fn_decl[0]), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
		{ &countdown_decl, 1, sizeof(countdown_decl), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
		LAST_GGC_ROOT_TAB
	};
	info.pass = new record_pass(g);
	info.reference_pass_name = "optimized";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_BEFORE;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_OVERRIDE_GATE, override_gate, NULL);
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)roots);
	return NULL;
}
