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
 * (access-ref.c)
 *
 * Kinds: a load or store of a volatile reference (READ_ONCE, WRITE_ONCE) is
 * marked; an asm whose template locks or exchanges (lock, xchg, cmpxchg,
 * xadd; arm64 ldxr/stxr/ldadd/cas/swp families) is an atomic RMW on each
 * memory operand, once per asm; other asm memory operands are stores
 * (outputs) or loads (inputs); __atomic_* and __sync_* builtins (and
 * the internal functions GCC folds some of them into) are RMWs on their
 * first argument (__atomic_load* a marked load, __atomic_store* a
 * marked store). (access-calls.c)
 *
 * Addresses passed to calls: the address of a field given to a function
 * (tree_insert(&ctx->runq, ...), spin_lock(&zone->lock)) is recorded as
 * "passed" with the callee, the argument and whether the parameter points
 * to const; every access through a pointer parameter (p->f, p[i], an asm
 * operand or atomic builtin on it) is recorded in the function's "params",
 * and a parameter handed on to another call in its "passes". Merging
 * decides what a passed address stands for (core/summary.c).
 * (access-calls.c)
 *
 * This file: the pass over each function's statements (a store whose value
 * is computed from the field itself is an update; blocks under an
 * unlikely() branch are rare), EXPORT_SYMBOL()s, the unit's facts and
 * where they are written.
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
#include "access-internal.h"

static ch_access_facts *facts_;
static const char *access_path;
basic_block access_cur_bb;
bool access_in_unlikely;

/* Created on first use: main_input_filename is not known at plugin_init. */
ch_access_facts *access_facts(void)
{
	if (!facts_) {
		char *src = cachehot_source_path(main_input_filename);
		facts_ = ch_access_new(src ? src : main_input_filename);
		ch_access_set_flags(facts_, cachehot_unit_flags());
		free(src);
	}
	return facts_;
}
static bool exports_scanned;

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
	tree want = access_resolved(ref);
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
		if (gimple_assign_single_p(def) && access_is_mem(gimple_assign_rhs1(def))) {
			if (operand_equal_p(access_resolved(gimple_assign_rhs1(def)), want, OEP_MATCH_SIDE_EFFECTS))
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
		access_cur_bb = bb;
		access_in_unlikely = bb->index < (int)cold.size() && cold[bb->index];
		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (gasm *as = dyn_cast<gasm *>(s)) {
				access_do_asm(as, fn);
			} else if (gcall *c = dyn_cast<gcall *>(s)) {
				access_do_call(c, fn);
			} else if (is_gimple_assign(s)) {
				tree lhs = gimple_assign_lhs(s);
				if (access_is_mem(lhs)) {
					access_record_ref(lhs, fn, access_plain(lhs, true));
					if (value_from(gimple_assign_rhs1(s), lhs, 0) ||
					    (gimple_num_ops(s) > 2 && value_from(gimple_assign_rhs2(s), lhs, 0)))
						access_record_ref(lhs, fn, CH_ACC_UPDATE);
				}
				if (gimple_assign_single_p(s) && access_is_mem(gimple_assign_rhs1(s)))
					access_record_ref(gimple_assign_rhs1(s), fn,
						   access_plain(gimple_assign_rhs1(s), false));
				if (gimple_assign_single_p(s))
					access_signal_handler_store(lhs, gimple_assign_rhs1(s));
			}
		}
	}
	access_in_unlikely = false;
	access_cur_bb = NULL;
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

