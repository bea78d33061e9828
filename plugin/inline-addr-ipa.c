/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inline-addr-ipa.c -- the [cachehot-inline-addr] check after the IPA passes:
 * which recorded uses of an inline function's address survived inlining
 * and early folding (the call graph's IPA_REF_ADDR references), and at the
 * unit's end the report of those whose function body was really emitted
 * (steps 2 and 3 of plugin/inline-addr.c's top comment).
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

	for (j = 0; j < ia_nuses; j++)
		if (ia_uses[j].fn == fn && ia_uses[j].context == ctx && ia_uses[j].survives == 1)
			ia_uses[j].survives = 3; /* unmatched so far */
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
		for (j = 0; j < ia_nuses; j++) {
			struct ia_use *o = &ia_uses[j];

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
	for (j = 0; j < ia_nuses; j++)
		if (ia_uses[j].fn == fn && ia_uses[j].context == ctx && ia_uses[j].survives >= 2)
			ia_uses[j].survives = ia_uses[j].survives == 2 ? 1 : 0;
	return;
keep_all:
	for (j = 0; j < ia_nuses; j++)
		if (ia_uses[j].fn == fn && ia_uses[j].context == ctx && ia_uses[j].survives >= 2)
			ia_uses[j].survives = 1;
}

static void refine_by_statement(void)
{
	size_t i, j;

	for (i = 0; i < ia_nuses; i++) {
		struct ia_use *u = &ia_uses[i];
		cgraph_node *node;
		int group = 0;

		if (u->survives != 1 || u->refined || !u->context ||
		    TREE_CODE(u->context) != FUNCTION_DECL)
			continue;
		for (j = i; j < ia_nuses; j++)
			if (ia_uses[j].fn == u->fn && ia_uses[j].context == u->context) {
				ia_uses[j].refined = 1;
				group += ia_uses[j].survives == 1;
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

		if (!ia_is_inline_fn(fn) || node->inlined_to || DECL_EXTERNAL(fn))
			continue;
		for (i = 0; i < ia_nuses; i++)
			if (ia_uses[i].fn == fn)
				break;
		if (i < ia_nuses)
			continue;
		for (unsigned r = 0; node->iterate_referring(r, ref); r++) {
			struct ia_use *u;
			gimple *st;
			if (!ref || ref->use != IPA_REF_ADDR || !(st = ref->stmt) ||
			    !is_a<cgraph_node *>(ref->referring) ||
			    !gimple_has_body_p(ref->referring->decl))
				continue;
			u = ia_use_new(fn);
			u->fn_name = ia_decl_name(fn);
			u->is_inline = 1;
			u->loc = outer_location(st);
			u->context = ref->referring->decl;
			u->context_name = ia_decl_name(u->context);
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
							? ia_decl_name(u->slot.callee) : NULL;
						break;
					}
				}
			u->survives = 1;
			break;
		}
	}
}

void ia_all_ipa_passes_end(void *event_data, void *data)
{
	size_t i;

	for (i = 0; i < ia_nuses; i++) {
		struct ia_use *u = &ia_uses[i];
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
	for (i = 0; i < ia_nuses; i++) {
		const struct ia_use *o = &ia_uses[i];

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
	f.function = ia_decl_name(u->fn);
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
		     ? ia_decl_name(u->context) : NULL;
	r.confidence = "exact";
	r.evidence = "address taken after inlining (the call graph)";
	cachehot_report(u->loc, &r);
}

/* CACHEHOT_INLINE_DEBUG=1: every recorded use and why it is (not) reported */
static void debug_dump(void)
{
	size_t i;

	for (i = 0; i < ia_nuses; i++) {
		const struct ia_use *u = &ia_uses[i];
		expanded_location x = expand_location(u->loc);

		fprintf(stderr, "cachehot-inline-debug: %s:%d:%d: %s in %s kind=%d inline=%d survives=%d written=%d addressable=%d\n",
			x.file ? x.file : "?", x.line, x.column, u->fn_name,
			u->context_name, (int)u->slot.kind, u->is_inline, u->survives,
			u->survives ? (int)TREE_ASM_WRITTEN(u->fn) : -1,
			u->survives ? addressable(u->fn) : -1);
	}
}

void ia_finish_unit(void *event_data, void *data)
{
	size_t i, j;

	if (getenv("CACHEHOT_INLINE_DEBUG"))
		debug_dump();
	for (i = 0; i < ia_nuses; i++) {
		struct ia_use *u = &ia_uses[i];

		if (!u->survives || u->reported || !u->is_inline)
			continue;
		if (!TREE_ASM_WRITTEN(u->fn) || addressable(u->fn))
			continue;
		/* one diagnostic per use site */
		for (j = 0; j < i; j++)
			if (ia_uses[j].reported && ia_uses[j].fn == u->fn && ia_uses[j].loc == u->loc)
				break;
		if (j < i)
			continue;
		u->reported = 1;
		report(u);
	}
	XDELETEVEC(ia_uses);
	ia_uses = NULL;
	ia_nuses = ia_capuses = 0;
	ia_syntax_reset();
}
