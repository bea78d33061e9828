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

#include "cachehot-plugin.h"

#define IA_ATTR "cachehot_addressable"
#define IA_TAG "[cachehot-inline-addr]"

#define IA_ANC 8

/* Where a function's address flows. */
enum ia_kind {
	IA_OTHER = 0,    /* anything else: cast, arithmetic, asm operand */
	IA_LOCAL,        /* assigned to a local function pointer (resolved later) */
	IA_SELECTOR,     /* local pointer only called through: fixable */
	IA_LOCAL_ARG,    /* local pointer then passed to a call */
	IA_LOCAL_ESCAPE, /* local pointer then stored or returned */
	IA_LOCAL_UNUSED, /* local pointer never called (compared only) */
	IA_TABLE,        /* element of an initializer (ops table) */
	IA_FIELD,        /* stored into a structure field / through a pointer */
	IA_ARG,          /* passed as a call argument */
	IA_GLOBAL,       /* stored in a static or global variable */
	IA_RETURN,       /* returned */
	IA_COMPARE,      /* compared with */
	IA_ASM,          /* an asm operand ("i" (fn): static calls, alternatives) */
	/* walk-only slots: never recorded */
	IA_S_CALLFN,     /* the callee position of an indirect call */
	IA_S_LHS,        /* the target of an assignment */
	IA_S_COND,       /* a condition */
};

/* The position a value is in while walking. The trees are compared, never
 * dereferenced after the walk (locals may be garbage-collected by the time
 * findings are printed): names are kept as identifier strings, which GCC
 * never frees. */
struct ia_slot {
	enum ia_kind kind;
	tree var;        /* IA_LOCAL/IA_GLOBAL/IA_TABLE: the variable */
	tree callee;     /* IA_ARG: the called function, or NULL */
	int argno;       /* IA_ARG: 1-based */
	const char *var_name;
	const char *callee_name;
};

/* One recorded use of a function's address. */
struct ia_use {
	tree fn;           /* FUNCTION_DECL */
	location_t loc;    /* the use site */
	location_t anc[IA_ANC]; /* locations of the enclosing expressions, up
				 * to the statement (innermost first) */
	int nanc;
	const char *fn_name;
	int is_inline;
	tree context;      /* FUNCTION_DECL or VAR_DECL that holds the use */
	const char *context_name;
	struct ia_slot slot;
	int survives;      /* reference still there after IPA */
	int refined;       /* its holder's statements were consulted */
	int reported;
};

/* A local function pointer seen in the current function body. */
struct ia_var {
	tree var;
	int called;
	int escaped;       /* 1 arg, 2 stored/returned/address taken */
	tree callee;       /* first call it is passed to */
	int argno;
};

static struct ia_use *uses;
static size_t nuses, capuses;

static struct ia_var *vars;
static size_t nvars, capvars;

static hash_set<tree> *visited;
/* locations of the expressions enclosing the walk, from the statement in */
static location_t anc_stack[256];
static int anc_depth, anc_base;
static tree walk_context;
static int ia_enabled;

/* ---- helpers ------------------------------------------------------------ */

static int is_inline_fn(tree fn)
{
	if (!fn || TREE_CODE(fn) != FUNCTION_DECL)
		return 0;
	if (DECL_DECLARED_INLINE_P(fn))
		return 1;
	return lookup_attribute("always_inline", DECL_ATTRIBUTES(fn)) != NULL_TREE;
}

static const char *decl_name(tree d)
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

static void record(tree fn, location_t loc, const struct ia_slot *s)
{
	size_t i;
	int k;
	struct ia_use *u;

	/* the same node reached twice (shared trees) is one use */
	for (i = 0; i < nuses; i++)
		if (uses[i].fn == fn && uses[i].loc == loc && uses[i].context == walk_context)
			return;
	if (nuses == capuses) {
		capuses = capuses ? 2 * capuses : 64;
		uses = XRESIZEVEC(struct ia_use, uses, capuses);
	}
	u = &uses[nuses++];
	memset(u, 0, sizeof(*u));
	u->fn = fn;
	u->loc = loc;
	u->context = walk_context;
	u->slot = *s;
	u->fn_name = decl_name(fn);
	u->is_inline = is_inline_fn(fn);
	u->context_name = decl_name(walk_context);
	u->slot.var_name = s->var ? decl_name(s->var) : NULL;
	u->slot.callee_name = s->callee ? decl_name(s->callee) : NULL;
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
	size_t first = nuses, i;
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
	for (i = first; i < nuses; i++) {
		struct ia_use *u = &uses[i];
		struct ia_var *iv;

		if (u->slot.kind != IA_LOCAL)
			continue;
		iv = find_var(u->slot.var, 0);
		if (!iv)
			u->slot.kind = IA_LOCAL_UNUSED;
		else if (iv->escaped == 1) {
			u->slot.kind = IA_LOCAL_ARG;
			u->slot.callee = iv->callee;
			u->slot.callee_name = iv->callee ? decl_name(iv->callee) : NULL;
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

/* ---- the call graph after IPA ------------------------------------------- */

/* The name of a function without a clone suffix: "f.part.0" -> "f". */
static int same_base_name(tree a, tree b)
{
	const char *x, *y;
	size_t n;

	if (!a || !b || !DECL_NAME(a) || !DECL_NAME(b))
		return 0;
	x = IDENTIFIER_POINTER(DECL_NAME(a));
	y = IDENTIFIER_POINTER(DECL_NAME(b));
	n = strlen(y);
	return strncmp(x, y, n) == 0 && (x[n] == 0 || x[n] == '.');
}

/* Does a reference from 'referring' belong to the use context 'ctx'? */
static int referrer_is(symtab_node *referring, tree ctx)
{
	cgraph_node *cn;
	tree d;

	if (!referring || !ctx)
		return 0;
	if (referring->decl == ctx)
		return 1;
	cn = dyn_cast<cgraph_node *>(referring);
	if (!cn || TREE_CODE(ctx) != FUNCTION_DECL)
		return 0;
	/* clones (constprop, isra, part) come from the context function */
	for (; cn; cn = cn->clone_of) {
		if (cn->decl == ctx || cn->former_clone_of == ctx)
			return 1;
		for (d = cn->decl; d && TREE_CODE(d) == FUNCTION_DECL; d = DECL_ABSTRACT_ORIGIN(d)) {
			if (d == ctx)
				return 1;
			if (DECL_ABSTRACT_ORIGIN(d) == d)
				break;
		}
		if (same_base_name(cn->decl, ctx) && DECL_CONTEXT(cn->decl) == DECL_CONTEXT(ctx))
			return 1;
	}
	return 0;
}

/* Is block b (or one around it) the body of ctx inlined somewhere? */
static int block_inlined_from(tree b, tree ctx)
{
	for (; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
		if (inlined_function_outer_scope_p(b) && block_ultimate_origin(b) == ctx)
			return 1;
	return 0;
}

/* Does the reference come from ctx, or from a copy of ctx's body that an
 * (early) inliner put into another function? "return a ? f : b ? g : h;"
 * in a static helper inlined into its caller: the references are then the
 * caller's, and the copies of f, g and h are still emitted. */
static int ref_from(ipa_ref *ref, tree ctx, tree fn)
{
	if (referrer_is(ref->referring, ctx))
		return 1;
	if (!ref->stmt || !ctx || TREE_CODE(ctx) != FUNCTION_DECL ||
	    !is_a<cgraph_node *>(ref->referring) || !gimple_has_body_p(ref->referring->decl))
		return 0;
	if (block_inlined_from(gimple_block(ref->stmt), ctx))
		return 1;
	if (gimple_code(ref->stmt) == GIMPLE_PHI) {
		gphi *phi = as_a<gphi *>(ref->stmt);
		for (unsigned a = 0; a < gimple_phi_num_args(phi); a++) {
			tree v = gimple_phi_arg_def(phi, a);
			if (v && TREE_CODE(v) == ADDR_EXPR && TREE_OPERAND(v, 0) == fn &&
			    block_inlined_from(LOCATION_BLOCK(gimple_phi_arg_location(phi, a)), ctx))
				return 1;
		}
	}
	return 0;
}

static int same_place(location_t a, location_t b)
{
	expanded_location x, y;

	if (a == UNKNOWN_LOCATION || b == UNKNOWN_LOCATION)
		return 0;
	x = expand_location(a);
	y = expand_location(b);
	return x.file && y.file && x.line == y.line && x.column == y.column &&
	       !strcmp(x.file, y.file);
}

/* Where a referring statement refers to fn: its location, or for a PHI
 * the locations of the arguments that are &fn. */
static int stmt_places(gimple *stmt, tree fn, location_t *out, int max)
{
	int n = 0;
	unsigned a;

	if (gimple_code(stmt) != GIMPLE_PHI) {
		if (gimple_location(stmt) != UNKNOWN_LOCATION && max > 0)
			out[n++] = gimple_location(stmt);
		return n;
	}
	for (a = 0; a < gimple_phi_num_args(stmt) && n < max; a++) {
		tree v = gimple_phi_arg_def(stmt, a);

		if (v && TREE_CODE(v) == ADDR_EXPR && TREE_OPERAND(v, 0) == fn &&
		    gimple_phi_arg_location(as_a<gphi *>(stmt), a) != UNKNOWN_LOCATION)
			out[n++] = gimple_phi_arg_location(as_a<gphi *>(stmt), a);
	}
	return n;
}

static int use_at(const struct ia_use *u, location_t l)
{
	int k;

	if (same_place(l, u->loc))
		return 1;
	for (k = 0; k < u->nanc; k++)
		if (same_place(l, u->anc[k]))
			return 1;
	return 0;
}

/* Several surviving uses of one function in one holding function: the
 * referring GIMPLE statements tell a folded use from a surviving one. Only
 * when every surviving reference from that function is matched to a use are
 * the unmatched uses dropped; otherwise all stay (better a duplicate than a
 * missed copy). Statement pointers are read only for functions that still
 * have a GIMPLE body. */
static void refine_group(cgraph_node *node, tree fn, tree ctx)
{
	ipa_ref *ref = NULL;
	unsigned r;
	size_t j;

	for (j = 0; j < nuses; j++)
		if (uses[j].fn == fn && uses[j].context == ctx && uses[j].survives == 1)
			uses[j].survives = 3; /* unmatched so far */
	for (r = 0; node->iterate_referring(r, ref); r++) {
		location_t places[8];
		int np, p, hit = 0;

		if (!ref || ref->use != IPA_REF_ADDR || !ref->referring ||
		    !ref_from(ref, ctx, fn))
			continue;
		if (!ref->stmt || !is_a<cgraph_node *>(ref->referring) ||
		    !gimple_has_body_p(ref->referring->decl))
			goto keep_all;
		np = stmt_places(ref->stmt, fn, places, 8);
		for (j = 0; j < nuses; j++) {
			struct ia_use *o = &uses[j];

			if (o->fn != fn || o->context != ctx || o->survives < 2)
				continue;
			for (p = 0; p < np; p++)
				if (use_at(o, places[p])) {
					o->survives = 2;
					hit = 1;
				}
		}
		if (!hit)
			goto keep_all;
	}
	for (j = 0; j < nuses; j++)
		if (uses[j].fn == fn && uses[j].context == ctx && uses[j].survives >= 2)
			uses[j].survives = uses[j].survives == 2 ? 1 : 0;
	return;
keep_all:
	for (j = 0; j < nuses; j++)
		if (uses[j].fn == fn && uses[j].context == ctx && uses[j].survives >= 2)
			uses[j].survives = 1;
}

static void refine_by_statement(void)
{
	size_t i, j;

	for (i = 0; i < nuses; i++) {
		struct ia_use *u = &uses[i];
		cgraph_node *node;
		int group = 0;

		if (u->survives != 1 || u->refined || !u->context ||
		    TREE_CODE(u->context) != FUNCTION_DECL)
			continue;
		for (j = i; j < nuses; j++)
			if (uses[j].fn == u->fn && uses[j].context == u->context) {
				uses[j].refined = 1;
				group += uses[j].survives == 1;
			}
		node = cgraph_node::get(u->fn);
		if (group >= 2 && node)
			refine_group(node, u->fn, u->context);
	}
}

/* The outermost inlined call around stmt, in the function that holds it
 * (the .c file's line for a use inside an inlined header function). */
static location_t outer_location(gimple *stmt)
{
	location_t loc = gimple_location(stmt);
	for (tree b = gimple_block(stmt); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
		if (inlined_function_outer_scope_p(b))
			loc = BLOCK_SOURCE_LOCATION(b);
	return loc;
}

/* Bodies of header inline functions are not walked (header_inline): a use
 * there (btf_id_set8_contains() passing btf_id_cmp_func to bsearch(), in
 * 6.12 net/core/xdp.o) leaves no syntactic record. The call graph still
 * has the reference, from the function the header helper was inlined into:
 * record a use from the referring statement when no other is recorded. */
static void uses_from_headers(void)
{
	cgraph_node *node;

	FOR_EACH_DEFINED_FUNCTION(node) {
		tree fn = node->decl;
		ipa_ref *ref = NULL;
		size_t i;

		if (!is_inline_fn(fn) || node->inlined_to || DECL_EXTERNAL(fn))
			continue;
		for (i = 0; i < nuses; i++)
			if (uses[i].fn == fn)
				break;
		if (i < nuses)
			continue;
		for (unsigned r = 0; node->iterate_referring(r, ref); r++) {
			struct ia_use *u;
			gimple *st;
			if (!ref || ref->use != IPA_REF_ADDR || !(st = ref->stmt) ||
			    !is_a<cgraph_node *>(ref->referring) ||
			    !gimple_has_body_p(ref->referring->decl))
				continue;
			if (nuses == capuses) {
				capuses = capuses ? 2 * capuses : 64;
				uses = XRESIZEVEC(struct ia_use, uses, capuses);
			}
			u = &uses[nuses++];
			memset(u, 0, sizeof(*u));
			u->fn = fn;
			u->fn_name = decl_name(fn);
			u->is_inline = 1;
			u->loc = outer_location(st);
			u->context = ref->referring->decl;
			u->context_name = decl_name(u->context);
			u->refined = 1;
			u->slot.kind = IA_OTHER;
			if (is_gimple_call(st))
				for (unsigned a = 0; a < gimple_call_num_args(st); a++) {
					tree v = gimple_call_arg(st, a);
					if (v && TREE_CODE(v) == ADDR_EXPR && TREE_OPERAND(v, 0) == fn) {
						u->slot.kind = IA_ARG;
						u->slot.argno = a + 1;
						u->slot.callee = gimple_call_fndecl(st);
						u->slot.callee_name = u->slot.callee
							? decl_name(u->slot.callee) : NULL;
						break;
					}
				}
			u->survives = 1;
			break;
		}
	}
}

static void all_ipa_passes_end_cb(void *event_data, void *data)
{
	size_t i;

	for (i = 0; i < nuses; i++) {
		struct ia_use *u = &uses[i];
		cgraph_node *node;
		ipa_ref *ref = NULL;
		unsigned r;

		u->survives = 0;
		if (!u->is_inline)
			continue;
		node = cgraph_node::get(u->fn);
		if (!node || node->inlined_to || !node->definition || DECL_EXTERNAL(u->fn))
			continue;
		for (r = 0; node->iterate_referring(r, ref); r++) {
			if (!ref || ref->use != IPA_REF_ADDR)
				continue;
			if (ref->referring && ref_from(ref, u->context, u->fn)) {
				u->survives = 1;
				break;
			}
		}
	}
	refine_by_statement();
	uses_from_headers();
}

/* ---- reporting ---------------------------------------------------------- */

static int addressable(tree fn)
{
	if (lookup_attribute(IA_ATTR, DECL_ATTRIBUTES(fn)))
		return 1;
	return cachehot_ctx && DECL_NAME(fn) &&
	       ch_sidecar_addressable(cachehot_ctx, IDENTIFIER_POINTER(DECL_NAME(fn)));
}

/* "f (defined at FILE:LINE)" into buf */

/* "f/g/h": every function assigned to the selector variable, in order. */
static void selector_names(char *buf, size_t size, const struct ia_use *u)
{
	size_t i, len = 0;
	tree seen[16];
	size_t nseen = 0, k;

	buf[0] = 0;
	for (i = 0; i < nuses; i++) {
		const struct ia_use *o = &uses[i];

		if (o->context != u->context || o->slot.var != u->slot.var ||
		    o->slot.kind != u->slot.kind)
			continue;
		for (k = 0; k < nseen; k++)
			if (seen[k] == o->fn)
				break;
		if (k < nseen || nseen == 16)
			continue;
		seen[nseen++] = o->fn;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? "/" : "", o->fn_name);
		if (len >= size)
			break;
	}
}


static enum ch_inline_use core_use(enum ia_kind k)
{
	switch (k) {
	case IA_SELECTOR: return CH_USE_SELECTOR;
	case IA_LOCAL_ARG: return CH_USE_LOCAL_ARG;
	case IA_LOCAL_ESCAPE:
	case IA_LOCAL_UNUSED: return CH_USE_LOCAL;
	case IA_TABLE: return CH_USE_TABLE;
	case IA_FIELD: return CH_USE_FIELD;
	case IA_ARG: return CH_USE_ARG;
	case IA_GLOBAL: return CH_USE_GLOBAL;
	case IA_RETURN: return CH_USE_RETURN;
	case IA_COMPARE: return CH_USE_COMPARE;
	case IA_ASM: return CH_USE_ASM;
	default: return CH_USE_OTHER;
	}
}

/* Print one use; the text comes from core (ch_inline_addr_message). */
static void report(struct ia_use *u)
{
	char names[512];
	struct ch_inline_finding f;
	expanded_location x = expand_location(DECL_SOURCE_LOCATION(u->fn));
	const char *msg;
	int warn;

	memset(&f, 0, sizeof(f));
	f.function = decl_name(u->fn);
	f.def_file = x.file && x.line ? x.file : NULL;
	f.def_line = x.line > 0 ? (unsigned)x.line : 0;
	f.use = core_use(u->slot.kind);
	f.var = u->slot.var_name;
	f.callee = u->slot.callee_name;
	f.argno = u->slot.argno;
	f.extern_def = TREE_PUBLIC(u->fn) && !DECL_EXTERNAL(u->fn);
	if (f.use == CH_USE_SELECTOR) {
		selector_names(names, sizeof(names), u);
		f.alternatives = names;
	}
	msg = ch_inline_addr_message(cachehot_ctx, &f);
	warn = ch_inline_use_fixable(f.use) || !cachehot_opts.inline_notes;
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_INLINE_ADDR, warn ? cachehot_opts.severity : CH_SEV_NOTE,
		       msg);
	r.field = f.function;
	r.function = u->context && TREE_CODE(u->context) == FUNCTION_DECL
		     ? decl_name(u->context) : NULL;
	r.confidence = "exact";
	r.evidence = "address taken after inlining (the call graph)";
	cachehot_report(u->loc, &r);
}

/* CACHEHOT_INLINE_DEBUG=1: every recorded use and why it is (not) reported */
static void debug_dump(void)
{
	size_t i;

	for (i = 0; i < nuses; i++) {
		const struct ia_use *u = &uses[i];
		expanded_location x = expand_location(u->loc);

		fprintf(stderr, "cachehot-inline-debug: %s:%d:%d: %s in %s kind=%d inline=%d survives=%d written=%d addressable=%d\n",
			x.file ? x.file : "?", x.line, x.column, u->fn_name,
			u->context_name, (int)u->slot.kind, u->is_inline, u->survives,
			u->survives ? (int)TREE_ASM_WRITTEN(u->fn) : -1,
			u->survives ? addressable(u->fn) : -1);
	}
}

static void finish_unit_cb(void *event_data, void *data)
{
	size_t i, j;

	if (getenv("CACHEHOT_INLINE_DEBUG"))
		debug_dump();
	for (i = 0; i < nuses; i++) {
		struct ia_use *u = &uses[i];

		if (!u->survives || u->reported || !u->is_inline)
			continue;
		if (!TREE_ASM_WRITTEN(u->fn) || addressable(u->fn))
			continue;
		/* one diagnostic per use site */
		for (j = 0; j < i; j++)
			if (uses[j].reported && uses[j].fn == u->fn && uses[j].loc == u->loc)
				break;
		if (j < i)
			continue;
		u->reported = 1;
		report(u);
	}
	XDELETEVEC(uses);
	uses = NULL;
	nuses = capuses = 0;
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
							       d && DECL_P(d) ? decl_name(d) : "a type"));
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
	register_callback(plugin_name, PLUGIN_ALL_IPA_PASSES_END, all_ipa_passes_end_cb, NULL);
	register_callback(plugin_name, PLUGIN_FINISH_UNIT, finish_unit_cb, NULL);
}
