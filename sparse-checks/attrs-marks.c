// SPDX-License-Identifier: GPL-2.0
/*
 * attrs-marks.c -- the attributes that mark a declaration rather than
 * class a member, as cachehot-sparse sees them (with attrs.c, whose
 * private facts of libsparse 0.6.4 they rely on: where decl_state.ident
 * points tells a member, a variable or a specifier; after a struct's
 * closing brace ctx->ctype.base_type is the struct):
 *  - randomize_layout: a struct randstruct lays out (not judged);
 *  - cachehot_addressable: an inline function whose address is meant to
 *    be taken ([cachehot-inline-addr] stays silent);
 *  - cacheline_per_thread: a per-thread array ([cachehot-array-sharing]);
 *  - vector_size: sparse lays a vector out as its element, so a struct
 *    holding one is not judged (model.c).
 * Error texts are the GCC plugin's (core/messages.c), at GCC's positions;
 * the annotations: docs/annotations.rst.
 *
 * Memory: the marks are realloc'd arrays kept for the whole run (an
 * allocation failure dies with a message). Cost: a query is linear in the
 * marks of its kind (few per file).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <stdint.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "expression.h"
#include "parse.h"
#include "options.h"
#include "scope.h"

#include "cachehot-sparse.h"
#include "attrs-internal.h"

/* randomize_layout (the kernel's __randomize_layout with RANDSTRUCT): sparse
 * lays the struct out in declaration order, the compiler does not. Written
 * after the closing brace, the attribute is parsed with ctx->ctype.base_type
 * set to the struct (parse.c, struct_union_enum_specifier()). */
static const struct symbol **randomized;
static size_t nrandomized;

static struct token *randomize_attr(struct token *token, struct symbol *attr,
				    struct decl_state *ctx)
{
	struct symbol *s = ctx ? ctx->ctype.base_type : NULL;
	if (match_op(token, '(')) {
		struct expression *expr = NULL;
		token = parens_expression(token, &expr, "in attribute");
	}
	if (s && (s->type == SYM_STRUCT || s->type == SYM_UNION) && !ctx->ident) {
		randomized = realloc(randomized, (nrandomized + 1) * sizeof(*randomized));
		if (!randomized)
			die("cachehot-sparse: out of memory");
		randomized[nrandomized++] = s;
	}
	return token;
}

int ch_attr_randomized(const struct symbol *s)
{
	size_t i;
	for (i = 0; i < nrandomized; i++)
		if (randomized[i] == s)
			return 1;
	return 0;
}

/* cachehot_addressable (include/cachehot.h __cachehot_addressable): an inline
 * function whose address is meant to be taken; the inline-addr check stays
 * silent for it. After the declarator, ctx->ident names the function
 * (external_declaration()'s local) and ctx->ctype.base_type is its SYM_FN.
 * In the declaration specifiers GCC applies it to the type: an error. */
static const struct ident **addr_idents;
static size_t naddr_idents;

static struct token *addressable_attr(struct token *token, struct symbol *attr,
				      struct decl_state *ctx)
{
	struct position pos = token->pos;
	enum attr_ctx c = ch_attr_context(ctx);
	const struct ident *id = c == ATTR_SPECIFIER ? NULL : *ctx->ident;
	struct symbol *m = ch_attr_member(ctx);

	if (match_op(token, '(')) {
		struct expression *expr = NULL;
		token = parens_expression(token, &expr, "in attribute");
		ch_sparse_error(m ? ch_attr_name_pos(m->pos, m->ident) : pos, CH_CHECK_INLINE_ADDR,
			     ch_msg_addressable_args(ch_sparse_ctx));
		return token;
	}
	if (c == ATTR_SPECIFIER) {
		/* in the declaration specifiers GCC applies it to the type */
		ch_sparse_error(pos, CH_CHECK_INLINE_ADDR, ch_msg_addressable_not_function(ch_sparse_ctx, "a type"));
		return token;
	}
	if (m || !ctx->ctype.base_type || ctx->ctype.base_type->type != SYM_FN) {
		ch_sparse_error(m ? ch_attr_name_pos(m->pos, m->ident) : pos, CH_CHECK_INLINE_ADDR,
			     ch_msg_addressable_not_function(ch_sparse_ctx,
							     id ? show_ident(id) : "a type"));
		return token;
	}
	addr_idents = realloc(addr_idents, (naddr_idents + 1) * sizeof(*addr_idents));
	if (!addr_idents)
		die("cachehot-sparse: out of memory");
	addr_idents[naddr_idents++] = id;
	return token;
}

int ch_attr_addressable(const struct symbol *fn)
{
	size_t i;
	for (i = 0; i < naddr_idents; i++)
		if (addr_idents[i] == fn->ident)
			return 1;
	return 0;
}

/* cacheline_per_thread (include/cachehot.h __cacheline_per_thread,
 * [cachehot-array-sharing]). Seen where the plugin's attribute goes:
 *  - after a member's declarator: the member symbol (ch_attr_member());
 *  - after a variable's declarator: external_declaration()'s ident, kept
 *    with the stream (a variable is matched by name and stream);
 *  - after a struct's closing brace: ctx->ctype.base_type is the struct;
 *  - between 'struct' and the tag: the tag (followed by '{'), kept with the
 *    stream.
 * On a function GCC refuses it: the plugin's error, at the name. In the
 * declaration specifiers of a variable or member sparse gives no hold on
 * the declaration: not seen (docs/sparse.rst). */
struct pt_mark { const void *key; int stream; };
static struct pt_mark *pt_marks;
static size_t npt_marks;
static int any_per_thread;

static void pt_add(const void *key, int stream)
{
	pt_marks = realloc(pt_marks, (npt_marks + 1) * sizeof(*pt_marks));
	if (!pt_marks)
		die("cachehot-sparse: out of memory");
	pt_marks[npt_marks].key = key;
	pt_marks[npt_marks].stream = stream;
	npt_marks++;
}

static int pt_has(const void *key, int stream)
{
	size_t i;
	for (i = 0; key && i < npt_marks; i++)
		if (pt_marks[i].key == key && (stream < 0 || pt_marks[i].stream == stream))
			return 1;
	return 0;
}

static struct token *per_thread_attr(struct token *token, struct symbol *attr,
				     struct decl_state *ctx)
{
	struct position pos = token->pos;
	struct symbol *m = ch_attr_member(ctx);
	struct symbol *s = ctx ? ctx->ctype.base_type : NULL;
	enum attr_ctx c = ch_attr_context(ctx);
	struct token *t = token;

	any_per_thread = 1;
	if (m) {
		pt_add(m, -1);
		return token;
	}
	if (c == ATTR_NOT_MEMBER) {
		const struct ident *id = *ctx->ident;
		if (s && s->type == SYM_FN) {
			ch_sparse_error(ch_attr_decl_name_pos(ctx, pos), CH_CHECK_ARRAY_SHARING,
				     ch_msg_attr_per_thread(ch_sparse_ctx, "cacheline_per_thread"));
			return token;
		}
		if (id)
			pt_add(id, pos.stream);
		return token;
	}
	if (s && (s->type == SYM_STRUCT || s->type == SYM_UNION) && !ctx->ident) {
		pt_add(s, -1);
		return token;
	}
	while (match_op(t, ')') || match_op(t, ','))
		t = t->next;
	if (token_type(t) == TOKEN_IDENT && match_op(t->next, '{'))
		pt_add(t->ident, t->pos.stream);
	return token;
}

int ch_attr_any_per_thread(void)
{
	return any_per_thread;
}

int ch_attr_per_thread_member(const struct symbol *member)
{
	return any_per_thread && pt_has(member, -1);
}

int ch_attr_per_thread_var(const struct symbol *var)
{
	return any_per_thread && var->ident && pt_has(var->ident, var->pos.stream);
}

int ch_attr_per_thread_type(const struct symbol *s)
{
	return any_per_thread && (pt_has(s, -1) || (s->ident && pt_has(s->ident, s->pos.stream)));
}

/* vector_size(N): sparse drops the attribute and lays the member out as its
 * element type (vector_size(16) of int: 4 bytes), so a struct holding one
 * cannot be judged (model.c). Remember where it was written, and the names
 * of typedefs declared with it. */
struct vecpos { int stream; unsigned line, col; };
static struct vecpos *vecs;
static size_t nvecs;
static const struct ident **vec_idents;
static size_t nvec_idents;

static struct token *vector_attr(struct token *token, struct symbol *attr,
				 struct decl_state *ctx)
{
	struct position pos = token->pos;
	if (match_op(token, '(')) {
		struct expression *expr = NULL;
		token = parens_expression(token, &expr, "in attribute");
	}
	vecs = realloc(vecs, (nvecs + 1) * sizeof(*vecs));
	if (!vecs)
		die("cachehot-sparse: out of memory");
	vecs[nvecs].stream = pos.stream;
	vecs[nvecs].line = pos.line;
	vecs[nvecs].col = pos.pos;
	nvecs++;
	if (ch_attr_context(ctx) == ATTR_NOT_MEMBER && *ctx->ident) {
		vec_idents = realloc(vec_idents, (nvec_idents + 1) * sizeof(*vec_idents));
		if (!vec_idents)
			die("cachehot-sparse: out of memory");
		vec_idents[nvec_idents++] = *ctx->ident;
	}
	return token;
}

/* 1 if a vector_size attribute lies in [from, to] (from.stream only) */
int ch_attr_vector_in(struct position from, struct position to)
{
	size_t i;
	for (i = 0; i < nvecs; i++) {
		const struct vecpos *v = &vecs[i];
		if (v->stream != from.stream || v->stream != to.stream)
			continue;
		if ((v->line > from.line || (v->line == from.line && v->col >= from.pos)) &&
		    (v->line < to.line || (v->line == to.line && v->col <= to.pos)))
			return 1;
	}
	return 0;
}

int ch_attr_vector_typedef(const char *name, size_t len)
{
	size_t i;
	for (i = 0; i < nvec_idents; i++)
		if (vec_idents[i]->len == len && !memcmp(vec_idents[i]->name, name, len))
			return 1;
	return 0;
}

static struct symbol_op vector_op = { .type = KW_ATTRIBUTE, .attribute = vector_attr };

static struct symbol_op addressable_op = { .type = KW_ATTRIBUTE, .attribute = addressable_attr };

static struct symbol_op randomize_op = { .type = KW_ATTRIBUTE, .attribute = randomize_attr };

static struct symbol_op per_thread_op = { .type = KW_ATTRIBUTE, .attribute = per_thread_attr };


/* The keywords of this file (and their __x__ spellings). */
void ch_attr_register_marks(void)
{
	ch_attr_add_keyword("cacheline_per_thread", &per_thread_op);
	ch_attr_add_keyword("__cacheline_per_thread__", &per_thread_op);
	ch_attr_add_keyword("cachehot_addressable", &addressable_op);
	ch_attr_add_keyword("__cachehot_addressable__", &addressable_op);
	ch_attr_add_keyword("vector_size", &vector_op);
	ch_attr_add_keyword("__vector_size__", &vector_op);
	ch_attr_add_keyword("randomize_layout", &randomize_op);
	ch_attr_add_keyword("__randomize_layout__", &randomize_op);
}
