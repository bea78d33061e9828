/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inline-addr.c -- the [cachehot-inline-addr] check of the cachehot plugin.
 *
 * Reports where the address of an inline function (inline, static inline
 * from a header, __always_inline) is taken other than for a direct call,
 * but only when that forces an out-of-line copy of the function into this
 * translation unit. docs/inline-addr.rst describes the check for users.
 *
 * How it decides:
 *  1. Syntax (PLUGIN_PRE_GENERICIZE on every function body, PLUGIN_FINISH_DECL
 *     on static initializers) records each use of a function's address
 *     that is not the callee of a direct call, with the use site, the
 *     context holding it (function or variable) and what the value flows
 *     into: a local pointer (selector), an initializer or structure field
 *     (ops table, callback registration), a call argument, ...
 *  2. The call graph after the IPA passes (PLUGIN_ALL_IPA_PASSES_END) says
 *     which of those references survived inlining and early folding: the
 *     function's cgraph node must still be an out-of-line node (not an
 *     inline clone) and its IPA_REF_ADDR references must still come from
 *     the context that holds the use.
 *  3. At PLUGIN_FINISH_UNIT every function has been assembled:
 *     TREE_ASM_WRITTEN says a body was really emitted. Only then is the
 *     use reported.
 *
 * Byte sizes are not printed: cc1 cannot know them (GCC's size estimates
 * count inline asm per line); `cachehot-bloat OBJ` reads them from the ELF
 * symbol table.
 *
 * This file: step 1 and the cachehot_addressable attribute;
 * plugin/inline-addr-ipa.c: steps 2 and 3 (plugin/inline-addr.h: what the
 * two share).
 *
 * Compiled as C++ (plugin/rules.mk), written C-style.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "c-family/c-common.h"	/* before diagnostic-core.h */
#include "cgraph.h"
#include "basic-block.h"
#include "tree-ssa-alias.h"
#include "gimple-expr.h"
#include "gimple.h"
#include "diagnostic-core.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-iterator.h"

#include "inline-addr.h"

struct ia_use *ia_uses;
size_t ia_nuses, ia_capuses;

static struct ia_var *vars;
static size_t nvars, capvars;

static hash_set<tree> *visited;
/* locations of the expressions enclosing the walk, from the statement in */
static location_t anc_stack[256];
static int anc_depth, anc_base;
static tree walk_context;
static int ia_enabled;

/* ---- helpers ------------------------------------------------------------ */

int ia_is_inline_fn(tree fn)
{
	if (!fn || TREE_CODE(fn) != FUNCTION_DECL)
		return 0;
	if (DECL_DECLARED_INLINE_P(fn))
		return 1;
	return lookup_attribute("always_inline", DECL_ATTRIBUTES(fn)) != NULL_TREE;
}

const char *ia_decl_name(tree d)
{
	if (d && DECL_P(d) && DECL_NAME(d))
		return IDENTIFIER_POINTER(DECL_NAME(d));
	return "<anonymous>";
}

static int is_fnptr_type(tree type)
{
	return type && TREE_CODE(type) == POINTER_TYPE && TREE_TYPE(type) &&
	       (TREE_CODE(TREE_TYPE(type)) == FUNCTION_TYPE ||
		TREE_CODE(TREE_TYPE(type)) == METHOD_TYPE);
}

/* An automatic variable or a parameter of the function being walked. */
static int is_local_var(tree v)
{
	if (v && TREE_CODE(v) == PARM_DECL)
		return 1;
	return v && TREE_CODE(v) == VAR_DECL && !TREE_STATIC(v) && !DECL_EXTERNAL(v) &&
	       DECL_CONTEXT(v) && TREE_CODE(DECL_CONTEXT(v)) == FUNCTION_DECL;
}

static struct ia_var *find_var(tree v, int create)
{
	size_t i;

	for (i = 0; i < nvars; i++)
		if (vars[i].var == v)
			return &vars[i];
	if (!create)
		return NULL;
	if (nvars == capvars) {
		capvars = capvars ? 2 * capvars : 16;
		vars = XRESIZEVEC(struct ia_var, vars, capvars);
	}
	memset(&vars[nvars], 0, sizeof(vars[nvars]));
	vars[nvars].var = v;
	return &vars[nvars++];
}

/* A new use of fn's address, zeroed but for fn, appended to ia_uses. */
struct ia_use *ia_use_new(tree fn)
{
	struct ia_use *u;
	if (ia_nuses == ia_capuses) {
		ia_capuses = ia_capuses ? 2 * ia_capuses : 64;
		ia_uses = XRESIZEVEC(struct ia_use, ia_uses, ia_capuses);
	}
	u = &ia_uses[ia_nuses++];
	memset(u, 0, sizeof(*u));
	u->fn = fn;
	return u;
}

static void record(tree fn, location_t loc, const struct ia_slot *s)
{
	size_t i;
	int k;
	struct ia_use *u;

	/* the same node reached twice (shared trees) is one use */
	for (i = 0; i < ia_nuses; i++)
		if (ia_uses[i].fn == fn && ia_uses[i].loc == loc && ia_uses[i].context == walk_context)
			return;
	u = ia_use_new(fn);
	u->loc = loc;
	u->context = walk_context;
	u->slot = *s;
	u->fn_name = ia_decl_name(fn);
	u->is_inline = ia_is_inline_fn(fn);
	u->context_name = ia_decl_name(walk_context);
	u->slot.var_name = s->var ? ia_decl_name(s->var) : NULL;
	u->slot.callee_name = s->callee ? ia_decl_name(s->callee) : NULL;
	for (k = anc_depth; k > anc_base && u->nanc < IA_ANC; k--)
		if (k - 1 < (int)(sizeof(anc_stack) / sizeof(anc_stack[0])))
			u->anc[u->nanc++] = anc_stack[k - 1];
}

/* The slot of the value assigned to lhs. */
static struct ia_slot slot_for_lhs(tree lhs)
{
	struct ia_slot s;
	tree base = lhs;

	memset(&s, 0, sizeof(s));
	while (base && CONVERT_EXPR_P(base))
		base = TREE_OPERAND(base, 0);
	if (!base) {
		s.kind = IA_OTHER;
		return s;
	}
	switch (TREE_CODE(base)) {
	case VAR_DECL:
	case PARM_DECL:
		s.var = base;
		if (is_local_var(base))
			s.kind = is_fnptr_type(TREE_TYPE(base)) ? IA_LOCAL : IA_TABLE;
		else
			s.kind = IA_GLOBAL;
		break;
	case RESULT_DECL:
		s.kind = IA_RETURN;
		break;
	case COMPONENT_REF:
	case ARRAY_REF:
	case ARRAY_RANGE_REF:
	case INDIRECT_REF:
	case MEM_REF:
	case BIT_FIELD_REF:
		s.kind = IA_FIELD;
		break;
	default:
		s.kind = IA_OTHER;
		break;
	}
	return s;
}

static void walk(tree t, const struct ia_slot *s, location_t loc);

/* The slot of kind k alone, one per kind: the walk passes slots by
 * pointer and builds none per node. */
static const struct ia_slot *kind_slot(enum ia_kind k)
{
	static struct ia_slot slots[IA_S_COND + 1];
	static bool init;
	if (!init) {
		for (int i = 0; i <= IA_S_COND; i++)
			slots[i].kind = (enum ia_kind)i;
		init = true;
	}
	return &slots[k];
}

static void walk_kind(tree t, enum ia_kind k, location_t loc)
{
	walk(t, kind_slot(k), loc);
}

/* A use of a variable (not its address). */
static void var_use(tree v, const struct ia_slot *s)
{
	struct ia_var *iv;

	if (!is_local_var(v) || !is_fnptr_type(TREE_TYPE(v)))
		return;
	iv = find_var(v, 1);
	switch (s->kind) {
	case IA_S_CALLFN:
		iv->called = 1;
		break;
	case IA_S_LHS:
	case IA_S_COND:
	case IA_COMPARE:
		break;
	case IA_ARG:
		if (!iv->escaped) {
			iv->escaped = 1;
			iv->callee = s->callee;
			iv->argno = s->argno;
		}
		break;
	default:
		iv->escaped = 2;
		break;
	}
}

static void walk_call(tree t, location_t loc)
{
	tree fn = CALL_EXPR_FN(t); /* NULL for internal functions */
	tree callee = NULL_TREE;
	int i, n;

	if (fn) {
		tree f = fn;

		STRIP_NOPS(f);
		if (f && TREE_CODE(f) == ADDR_EXPR && TREE_OPERAND(f, 0) &&
		    TREE_CODE(TREE_OPERAND(f, 0)) == FUNCTION_DECL)
			callee = TREE_OPERAND(f, 0); /* a direct call: no use */
		else
			walk_kind(fn, IA_S_CALLFN, loc);
	}
	n = call_expr_nargs(t);
	for (i = 0; i < n; i++) {
		struct ia_slot s;

		memset(&s, 0, sizeof(s));
		s.kind = IA_ARG;
		s.callee = callee;
		s.argno = i + 1;
		walk(CALL_EXPR_ARG(t, i), &s, loc);
	}
}

static void walk_1(tree t, const struct ia_slot *s, location_t loc);

/* Decls, types and constants (most operands) return here, with their
 * tree code's class looked up once; an expression with a location is on
 * anc_stack while walk_1 walks below it. */
static void walk(tree t, const struct ia_slot *s, location_t loc)
{
	enum tree_code code;
	enum tree_code_class cls;

	if (!t || t == error_mark_node)
		return;
	code = TREE_CODE(t);
	cls = TREE_CODE_CLASS(code);
	if (cls == tcc_declaration) {
		if (code == VAR_DECL || code == PARM_DECL)
			var_use(t, s);
		return;
	}
	if (cls == tcc_type || cls == tcc_constant || code == IDENTIFIER_NODE)
		return;
	if (IS_EXPR_CODE_CLASS(cls) && EXPR_HAS_LOCATION(t)) {
		if (anc_depth < (int)(sizeof(anc_stack) / sizeof(anc_stack[0])))
			anc_stack[anc_depth] = EXPR_LOCATION(t);
		anc_depth++;
		walk_1(t, s, loc);
		anc_depth--;
	} else
		walk_1(t, s, loc);
}

/* t: neither NULL, error_mark_node, a decl, a type nor a constant */
static void walk_1(tree t, const struct ia_slot *s, location_t loc)
{
	enum tree_code code = TREE_CODE(t);
	int i, n;
	/* Only these nodes are shared in C GENERIC before gimplification; a
	 * hash insertion for every node cost 1.2% of cc1 on kernel files. */
	if ((code == SAVE_EXPR || code == TARGET_EXPR || code == COMPOUND_LITERAL_EXPR ||
	     code == C_MAYBE_CONST_EXPR || code == BIND_EXPR) && visited->add(t))
		return;
	if (EXPR_P(t) && EXPR_HAS_LOCATION(t))
		loc = EXPR_LOCATION(t);

	switch (code) {
	case ADDR_EXPR: {
		tree op = TREE_OPERAND(t, 0);

		if (op && TREE_CODE(op) == FUNCTION_DECL) {
			if (s->kind < IA_S_CALLFN)
				record(op, loc, s);
			else if (s->kind != IA_S_CALLFN && s->kind != IA_S_LHS)
				record(op, loc, kind_slot(s->kind == IA_S_COND ? IA_COMPARE : IA_OTHER));
			return;
		}
		if (op && (TREE_CODE(op) == VAR_DECL || TREE_CODE(op) == PARM_DECL)) {
			walk_kind(op, IA_OTHER, loc); /* &fp: the pointer escapes */
			return;
		}
		walk_kind(op, IA_OTHER, loc);
		return;
	}
	case CALL_EXPR:
		walk_call(t, loc);
		return;
	case MODIFY_EXPR:
	case INIT_EXPR: {
		tree lhs = TREE_OPERAND(t, 0);

		struct ia_slot l = slot_for_lhs(lhs);

		walk_kind(lhs, IA_S_LHS, loc);
		walk(TREE_OPERAND(t, 1), &l, loc);
		return;
	}
	case DECL_EXPR: {
		tree d = DECL_EXPR_DECL(t);

		/* static locals are seen by PLUGIN_FINISH_DECL */
		if (d && is_local_var(d) && DECL_INITIAL(d)) {
			struct ia_slot l = slot_for_lhs(d);

			walk(DECL_INITIAL(d), &l, loc);
		}
		return;
	}
	case COMPOUND_LITERAL_EXPR: {
		tree d = COMPOUND_LITERAL_EXPR_DECL(t);

		if (d && TREE_CODE(d) == VAR_DECL && DECL_INITIAL(d)) {
			tree saved = walk_context;

			if (TREE_STATIC(d))
				walk_context = d;
			walk(DECL_INITIAL(d), s, loc);
			walk_context = saved;
		}
		return;
	}
	case CONSTRUCTOR: {
		unsigned HOST_WIDE_INT ix;
		tree val;
		struct ia_slot e;

		memset(&e, 0, sizeof(e));
		e.kind = IA_TABLE;
		e.var = s->var;
		FOR_EACH_CONSTRUCTOR_VALUE(CONSTRUCTOR_ELTS(t), ix, val)
			walk(val, &e, loc);
		return;
	}
	case COND_EXPR:
		walk_kind(TREE_OPERAND(t, 0), IA_S_COND, loc);
		walk(TREE_OPERAND(t, 1), s, loc);
		walk(TREE_OPERAND(t, 2), s, loc);
		return;
	case NOP_EXPR:
	case CONVERT_EXPR:
	case NON_LVALUE_EXPR:
	case VIEW_CONVERT_EXPR:
	case SAVE_EXPR:
	case PAREN_EXPR:
		walk(TREE_OPERAND(t, 0), s, loc);
		return;
	case COMPOUND_EXPR:
		walk_kind(TREE_OPERAND(t, 0), IA_OTHER, loc);
		walk(TREE_OPERAND(t, 1), s, loc);
		return;
	case C_MAYBE_CONST_EXPR:
		walk_kind(C_MAYBE_CONST_EXPR_PRE(t), IA_OTHER, loc);
		walk(C_MAYBE_CONST_EXPR_EXPR(t), s, loc);
		return;
	case EQ_EXPR:
	case NE_EXPR:
	case LT_EXPR:
	case LE_EXPR:
	case GT_EXPR:
	case GE_EXPR:
	case TRUTH_NOT_EXPR:
	case TRUTH_ANDIF_EXPR:
	case TRUTH_ORIF_EXPR:
	case TRUTH_AND_EXPR:
	case TRUTH_OR_EXPR:
		for (i = 0; i < TREE_OPERAND_LENGTH(t); i++)
			walk_kind(TREE_OPERAND(t, i), IA_S_COND, loc);
		return;
	case STATEMENT_LIST: {
		tree_stmt_iterator it;

		for (it = tsi_start(t); !tsi_end_p(it); tsi_next(&it)) {
			int saved = anc_base;

			anc_base = anc_depth; /* a new statement */
			walk_kind(tsi_stmt(it), IA_OTHER, loc);
			anc_base = saved;
		}
		return;
	}
	case BIND_EXPR:
		walk_kind(BIND_EXPR_BODY(t), IA_OTHER, loc);
		return;
	case TREE_LIST:
		for (; t && TREE_CODE(t) == TREE_LIST; t = TREE_CHAIN(t))
			walk(TREE_VALUE(t), s, loc);
		return;
	case ASM_EXPR:
		walk_kind(ASM_OUTPUTS(t), IA_ASM, loc);
		walk_kind(ASM_INPUTS(t), IA_ASM, loc);
		return;
	default:
		break;
	}
	if (!EXPR_P(t))
		return;
	n = TREE_OPERAND_LENGTH(t);
	for (i = 0; i < n; i++)
		walk_kind(TREE_OPERAND(t, i), IA_OTHER, loc);
}

/* ---- syntax: recording -------------------------------------------------- */

static __attribute__((noinline)) void finish_function_body(tree fndecl)
{
	size_t first = ia_nuses, i;
	location_t loc;

	if (!fndecl || TREE_CODE(fndecl) != FUNCTION_DECL || !DECL_SAVED_TREE(fndecl))
		return;
	loc = DECL_SOURCE_LOCATION(fndecl);
	nvars = 0;
	visited = new hash_set<tree>;
	walk_context = fndecl;
	walk_kind(DECL_SAVED_TREE(fndecl), IA_OTHER, loc);
	walk_context = NULL_TREE;
	delete visited;
	visited = NULL;

	/* a value assigned to a local pointer: what the pointer then does */
	for (i = first; i < ia_nuses; i++) {
		struct ia_use *u = &ia_uses[i];
		struct ia_var *iv;

		if (u->slot.kind != IA_LOCAL)
			continue;
		iv = find_var(u->slot.var, 0);
		if (!iv)
			u->slot.kind = IA_LOCAL_UNUSED;
		else if (iv->escaped == 1) {
			u->slot.kind = IA_LOCAL_ARG;
			u->slot.callee = iv->callee;
			u->slot.callee_name = iv->callee ? ia_decl_name(iv->callee) : NULL;
			u->slot.argno = iv->argno;
		} else if (iv->escaped)
			u->slot.kind = IA_LOCAL_ESCAPE;
		else if (iv->called)
			u->slot.kind = IA_SELECTOR;
		else
			u->slot.kind = IA_LOCAL_UNUSED;
	}
}

/* Bodies of inline functions defined in headers are not walked: a kernel
 * file defines hundreds of them, mostly unused, and walking them was most of
 * the plugin's cost (bench/plugin-overhead). An address taken inside such a
 * header function is therefore not reported (docs/inline-addr.rst). */
/* LOCATION_FILE() without expanding the line and column, and one strcmp
 * per file (line maps share the name's storage): it runs for each of the
 * unit's inline functions. And no map lookup while the functions come from
 * one run of ordinary maps of one file (a header's inline functions: 1 700
 * lookups on page_counter.c, 0.12 M instructions): the locations of map k
 * are those from its start to the start of map k + 1, and maps of one file
 * share the name's storage. */
static const char *hi_last_file;
static bool hi_last_header;
static location_t hi_last_lo, hi_last_hi;
static bool hi_last_open;
static unsigned hi_last_used;

static __attribute__((noinline)) bool header_inline_lookup(location_t loc)
{
	const line_map_ordinary *map = NULL;
	const char *file;
	linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, &map);
	file = map ? ORDINARY_MAP_FILE_NAME(map) : NULL;
	if (!file)
		return false;
	if (file != hi_last_file) {
		hi_last_file = file;
		hi_last_header = strcmp(file, main_input_filename) != 0;
	}
	hi_last_lo = hi_last_hi = 0;
	hi_last_open = false;
	if (loc < LINEMAPS_MACRO_LOWEST_LOCATION(line_table) && loc >= MAP_START_LOCATION(map)) {
		/* the run of maps of this file around map (a header's text
		 * between two #includes spans many maps): at most 64 each
		 * way, so that the scan stays cheaper than the lookups it
		 * saves */
		const line_map_ordinary *first = LINEMAPS_ORDINARY_MAPS(line_table);
		const line_map_ordinary *end = first + LINEMAPS_ORDINARY_USED(line_table);
		const line_map_ordinary *lo = map, *hi = map + 1;
		int n;
		for (n = 0; n < 64 && lo > first && ORDINARY_MAP_FILE_NAME(lo - 1) == file; n++)
			lo--;
		for (n = 0; n < 64 && hi < end && ORDINARY_MAP_FILE_NAME(hi) == file; n++)
			hi++;
		hi_last_lo = MAP_START_LOCATION(lo);
		hi_last_hi = hi < end ? MAP_START_LOCATION(hi) : line_table->highest_location + 1;
		/* the file being parsed: its last map grows until another map
		 * is added */
		hi_last_open = hi == end;
		hi_last_used = LINEMAPS_ORDINARY_USED(line_table);
	}
	return hi_last_header;
}

/* The line map being read now (the last ordinary one): where it starts,
 * the count of maps when that was looked up, and whether its file is a
 * header (one strcmp per file: maps of one file share the name). */
static const char *hi_cur_file;
static bool hi_cur_header;
static unsigned hi_cur_used;
static location_t hi_cur_lo;

static inline bool header_inline(tree fndecl)
{
	location_t loc = DECL_SOURCE_LOCATION(fndecl);
	unsigned used;
	if (!DECL_DECLARED_INLINE_P(fndecl) || !main_input_filename)
		return false;
	/* a function's location is mostly an ad-hoc one (with its range):
	 * the range check needs the plain location under it */
	if (IS_ADHOC_LOC(loc))
		loc = line_table->location_adhoc_data_map.data[loc & MAX_LOCATION_T].locus;
	/* The usual case: the function was defined in the text the lexer is
	 * reading now (a header's inline functions, read as the header is):
	 * its location is in the last ordinary map (from its start to the
	 * highest ordinary location so far; macro locations lie above), whose
	 * file is the function's. The same answer as header_inline_lookup(),
	 * without a map lookup (216 of them on mm/page_counter.c, 44 k
	 * instructions). C only: cc1plus lexes the whole file before it
	 * parses, so there the last map is the file's end and header
	 * functions take the lookup below. */
	used = LINEMAPS_ORDINARY_USED(line_table);
	if (used != hi_cur_used && used) {
		const line_map_ordinary *cur = LINEMAPS_LAST_ORDINARY_MAP(line_table);
		const char *file = ORDINARY_MAP_FILE_NAME(cur);
		hi_cur_used = used;
		hi_cur_lo = MAP_START_LOCATION(cur);
		if (file != hi_cur_file) {
			hi_cur_file = file;
			hi_cur_header = file && strcmp(file, main_input_filename) != 0;
		}
	}
	if (hi_cur_used && loc >= hi_cur_lo && loc <= line_table->highest_location)
		return hi_cur_header;
	if (loc >= hi_last_lo &&
	    (loc < hi_last_hi ||
	     (hi_last_open && LINEMAPS_ORDINARY_USED(line_table) == hi_last_used &&
	      loc < LINEMAPS_MACRO_LOWEST_LOCATION(line_table))))
		return hi_last_header;
	return header_inline_lookup(loc);
}

static void pre_genericize_cb(void *event_data, void *data)
{
	tree fndecl = (tree)event_data;
	if (fndecl && TREE_CODE(fndecl) == FUNCTION_DECL && header_inline(fndecl))
		return;
	finish_function_body(fndecl);
}

/* Initializers of static storage (file scope and static locals). */
void cachehot_inline_finish_decl(tree d)
{
	struct ia_slot s;

	if (!d || TREE_CODE(d) != VAR_DECL || !TREE_STATIC(d) || DECL_EXTERNAL(d))
		return;
	if (!DECL_INITIAL(d) || DECL_INITIAL(d) == error_mark_node)
		return;
	memset(&s, 0, sizeof(s));
	s.kind = IA_GLOBAL;
	s.var = d;
	visited = new hash_set<tree>;
	walk_context = d;
	walk(DECL_INITIAL(d), &s, DECL_SOURCE_LOCATION(d));
	walk_context = NULL_TREE;
	delete visited;
	visited = NULL;
}

/* The walk's per-body table of local function pointers, freed at the
 * unit's end (ia_finish_unit). */
void ia_syntax_reset(void)
{
	XDELETEVEC(vars);
	vars = NULL;
	nvars = capvars = 0;
}

/* ---- the attribute ------------------------------------------------------ */

static tree handle_addressable(tree *node, tree name, tree args, int flags,
			       bool *no_add_attrs)
{
	tree d = *node;

	if (!d || TREE_CODE(d) != FUNCTION_DECL) {
		cachehot_error(CH_CHECK_INLINE_ADDR, d && DECL_P(d) ? DECL_SOURCE_LOCATION(d) : input_location,
			       ch_msg_addressable_not_function(cachehot_ctx,
							       d && DECL_P(d) ? ia_decl_name(d) : "a type"));
		*no_add_attrs = true;
		return NULL_TREE;
	}
	if (args) {
		cachehot_error(CH_CHECK_INLINE_ADDR, DECL_SOURCE_LOCATION(d), ch_msg_addressable_args(cachehot_ctx));
		*no_add_attrs = true;
		return NULL_TREE;
	}
	return NULL_TREE;
}

static struct attribute_spec addressable_attr = {
	IA_ATTR, 0, -1, true, false, false, false, handle_addressable, NULL
};

void cachehot_inline_attributes(void)
{
	register_attribute(&addressable_attr);
}

void cachehot_inline_init(const char *plugin_name)
{
	if (!cachehot_opts.inline_addr || ia_enabled)
		return;
	ia_enabled = 1;
	register_callback(plugin_name, PLUGIN_PRE_GENERICIZE, pre_genericize_cb, NULL);
	register_callback(plugin_name, PLUGIN_ALL_IPA_PASSES_END, ia_all_ipa_passes_end, NULL);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, ia_finish_unit, NULL);
}
