// SPDX-License-Identifier: GPL-2.0
/*
 * inline.c -- [cachehot-inline-addr] under sparse.
 *
 * Sparse marks a function symbol MOD_ADDRESSABLE when evaluation sees it used
 * as a value ("&f", "p = f", "{ .op = f }"), and not when it is only called
 * (evaluate.c: mark_addressable(), degenerate()). A static inline function
 * so marked may get an out-of-line copy, but whether GCC really emits one is
 * decided much later (after inlining and dead-code removal): sparse cannot
 * know. The message says so; the GCC plugin (call graph) and cachehot-bloat
 * (ELF symbols) can tell. Only static inline functions are considered:
 * sparse marks every non-static file-scope symbol addressable.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "scope.h"

#include "cachehot-sparse.h"

static int is_inline_fn(const struct symbol *s)
{
	const struct symbol *b;
	if (s->namespace != NS_SYMBOL || s->type != SYM_NODE)
		return 0;
	b = s->ctype.base_type;
	if (!b || b->type != SYM_FN)
		return 0;
	return (s->ctype.modifiers & (MOD_INLINE | MOD_STATIC)) == (MOD_INLINE | MOD_STATIC);
}

static int has_body(const struct symbol *s)
{
	const struct symbol *b = s->ctype.base_type;
	return b && (b->stmt || b->inline_stmt);
}

/* The message: core's catalogue, "used as a value, copy unknown". */
static const char *inline_addr_message(const char *fn)
{
	struct ch_inline_finding f;
	memset(&f, 0, sizeof(f));
	f.function = fn;
	f.use = CH_USE_VALUE;
	f.engine = "sparse";
	return ch_inline_addr_message(ch_sparse_ctx, &f);
}

static int in_set(const void **v, size_t n, const void *p)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (v[i] == p)
			return 1;
	return 0;
}

void ch_check_inline_addr(const struct ch_config *cfg)
{
	const void **addr = NULL, **done = NULL;
	size_t naddr = 0, ndone = 0, cap = 0, capd = 0;
	struct symbol *sym;

	if (!file_scope)
		return;
	/* a prototype and the definition are separate symbols: a use before the
	 * definition marks the prototype. Collect the names used as values. */
	FOR_EACH_PTR(file_scope->symbols, sym) {
		if (!is_inline_fn(sym) || !sym->ident || !(sym->ctype.modifiers & MOD_ADDRESSABLE))
			continue;
		if (in_set(addr, naddr, sym->ident))
			continue;
		if (naddr == cap) {
			cap = cap ? 2 * cap : 32;
			addr = realloc(addr, cap * sizeof(*addr));
			if (!addr)
				die("cachehot-sparse: out of memory");
		}
		addr[naddr++] = sym->ident;
	} END_FOR_EACH_PTR(sym);
	FOR_EACH_PTR(file_scope->symbols, sym) {
		const char *name;
		struct ch_finding f;

		if (!is_inline_fn(sym) || !sym->ident || !has_body(sym) ||
		    !in_set(addr, naddr, sym->ident) || in_set(done, ndone, sym->ident))
			continue;
		if (ndone == capd) {
			capd = capd ? 2 * capd : 32;
			done = realloc(done, capd * sizeof(*done));
			if (!done)
				die("cachehot-sparse: out of memory");
		}
		done[ndone++] = sym->ident;
		name = show_ident(sym->ident);
		if (ch_sidecar_addressable(ch_sparse_ctx, name) || ch_attr_addressable(sym))
			continue;
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_INLINE_ADDR;
		/* a possibility, not a fact: a note unless -fcachehot-inline-notes=0 */
		f.severity = ch_opts.inline_notes ? CH_SEV_NOTE : cfg->severity;
		f.field_a = name;
		f.loc = ch_sparse_loc(sym->pos);
		f.loc.fe_loc = (uint64_t)(uintptr_t)sym;   /* column moved onto the name */
		f.message = inline_addr_message(name);
		ch_print_finding(&f, NULL);
	} END_FOR_EACH_PTR(sym);
	free(addr);
	free(done);
}
