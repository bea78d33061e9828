/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inline-addr.h -- what the two halves of the [cachehot-inline-addr] check
 * share (private to plugin/inline-addr.c, the syntax and the attribute, and
 * plugin/inline-addr-ipa.c, the call graph after IPA and the report; C++
 * only, after GCC's tree.h and cgraph.h). inline-addr.c's top comment says
 * how the check decides.
 */
#ifndef CACHEHOT_INLINE_ADDR_H
#define CACHEHOT_INLINE_ADDR_H

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

/* Every use recorded in the unit (inline-addr.c's walk appends; the IPA
 * half judges and reports them, and frees the array at the unit's end). */
extern struct ia_use *ia_uses;
extern size_t ia_nuses, ia_capuses;

/* inline-addr.c */
struct ia_use *ia_use_new(tree fn);
const char *ia_decl_name(tree d);
int ia_is_inline_fn(tree fn);
/* frees the walk's per-body state at the unit's end */
void ia_syntax_reset(void);
/* inline-addr-ipa.c: PLUGIN_ALL_IPA_PASSES_END and PLUGIN_FINISH_UNIT */
void ia_all_ipa_passes_end(void *event_data, void *data);
void ia_finish_unit(void *event_data, void *data);

#endif
