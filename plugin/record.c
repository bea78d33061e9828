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
 * and clobber no general register (allregs_asm). The batches, the
 * countdown and the cold block: record-fastpath.c.
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
#include "cachehot-plugin.h"
#include "record.h"

#include <string>
#include <vector>

static int select_all = 1, select_annotated;
static std::string select_names;   /* ",a,b," */

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
				if (!cachehot_struct_tag(at) && !typedef_name(at) &&
				    POINTER_TYPE_P(TREE_TYPE(TREE_OPERAND(t, 0))))
					at = TREE_TYPE(TREE_TYPE(TREE_OPERAND(t, 0)));
				if ((cachehot_struct_tag(at) || typedef_name(at)) && sz) {
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
		const char *tag = cachehot_struct_tag(ctx);
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
	gcall *call = gimple_build_call(record_fn(kind), 2, a, site_string(id, asize));
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

static void asm_operand(tree op, enum cachehot_asm_kind kind, void *gsi)
{
	record_ref((gimple_stmt_iterator *)gsi, op,
		   kind == CACHEHOT_ASM_RMW ? REC_RMW : kind == CACHEHOT_ASM_STORE ? REC_STORE : REC_LOAD);
}

static void record_asm(gimple_stmt_iterator *gsi, gasm *stmt)
{
	cachehot_asm_memory_operands(stmt, is_mem, asm_operand, gsi);
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
	record_decls();   /* the type nodes exist from here on, not at plugin_init */
	FOR_EACH_BB_FN(bb, fun) {
		gimple_stmt_iterator gsi;
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_debug(s))
				continue;
			if (gasm *as = dyn_cast<gasm *>(s)) {
				record_asm(&gsi, as);
			} else if (gcall *c = dyn_cast<gcall *>(s)) {
				if (record_is_rt_call(c))
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
	return record_lower_calls(fun) ? TODO_update_ssa : 0;
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
	info.pass = new record_pass(g);
	info.reference_pass_name = "optimized";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_BEFORE;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_OVERRIDE_GATE, override_gate, NULL);
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)record_roots());
	return NULL;
}
