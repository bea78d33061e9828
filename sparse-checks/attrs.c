// SPDX-License-Identifier: GPL-2.0
/*
 * attrs.c -- with linesize.c (how directives are dispatched) and
 * attrs-marks.c (the attributes that mark a declaration: randomize_layout,
 * cachehot_addressable, cacheline_per_thread, vector_size, on the helpers
 * below: attrs-internal.h), the one place where cachehot-sparse relies on
 * private details of libsparse 0.6.4. Keep every such trick here. This
 * file: the class attributes on struct members and variables, labels, and
 * sparse's "aligned" wrapped.
 *
 * Why this file exists: sparse silently drops attributes it does not know,
 * and its attribute callback (struct symbol_op.attribute) only receives the
 * parser's struct decl_state, never the member symbol being declared. To tag
 * struct members with cacheline_hot / cacheline_exclusive /
 * cacheline_read_mostly we rely on two private facts of parse.c
 * (declaration_list()):
 *
 *  1. Before parsing each declarator, sparse sets decl_state.ident to
 *     &decl->ident of the new member symbol. An attribute written after the
 *     declarator's name (the kernel style, "T name __attr;") therefore sees
 *     ctx->ident == &member->ident, and container_of() gives the member.
 *     The pointer is only used as a lookup key, never dereferenced, so an
 *     attribute on something that is not a struct member is harmless.
 *  2. Attributes written before the declarator (in the specifiers) run with
 *     ctx->ident == NULL. We record them with their source position and
 *     attach them to the members of the declaration that follows in the same
 *     stream (see ch_attr_lookup(); model.c groups "T a, b;" by the ','
 *     at each member's endpos).
 *
 *  3. The same pointer tells a struct member from anything else: for a
 *     declaration at file or block scope, external_declaration() points
 *     ctx->ident at a local variable, i.e. into the stack (context_of()).
 *     That is how "applies only to struct or union members" is diagnosed.
 *  4. An attribute after a struct's closing brace is parsed with
 *     ctx->ctype.base_type set to the struct (randomize_layout).
 *  5. A label's attributes ("out: __attribute__((..))", statement() ->
 *     handle_label_attributes()) run with an empty decl_state, as a
 *     specifier's do. They come right after the label's lookup in NS_LABEL
 *     (label_symbol()), with only keyword lookups (NS_KEYWORD, or NS_TYPEDEF
 *     for '__attribute__') in between, while every declaration starts with
 *     a lookup in NS_TYPEDEF|NS_SYMBOL
 *     (declaration_specifiers(), lookup_type()). lookup_symbol() is wrapped
 *     (ld --wrap, rules.mk) to remember the label just looked up.
 *
 * We also wrap the op of sparse's own "aligned" attribute so that we know
 * whether a member's alignment came from an attribute (GCC's DECL_USER_ALIGN,
 * which the padding-macro rule needs): after examine_symbol_type() the
 * member's alignment no longer says where it came from.
 *
 * Keywords registered with create_symbol(.., SYM_KEYWORD, NS_KEYWORD) and an
 * op with .attribute make __has_attribute(cacheline_hot) true
 * (pre-process.c: expand_has_attribute()).
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

/* ---- member -> tag map (the core's index, keyed by the symbol pointer) --- */
struct tag {
	const void *key;          /* struct symbol * of the member (maybe bogus) */
	enum ch_class cls;
	const char *group;        /* malloc'd, or NULL */
	int user_align;
};
static struct tag *tags;
static size_t ntags, captags;
static struct ch_index tag_index;
static int any_class;      /* a class attribute was seen (any context) */

/* Tags written in declaration specifiers (ctx->ident == NULL), per stream in
 * parse order (positions only grow within one stream). */
struct pending {
	struct position pos;
	enum ch_class cls;
	const char *group;
	int user_align;
};
struct pending_vec {
	struct pending *v;
	size_t n, cap;
};
static struct pending_vec *pend;   /* indexed by stream */
static size_t npendstreams;

static int tag_is(size_t item, const void *key, const void *arg)
{
	return tags[item].key == key;
}

static uint64_t tag_hash(size_t item, const void *arg)
{
	return ch_hash_ptr(tags[item].key);
}

/* The tag of member key, or NULL; create: a new zeroed one when it has none
 * (the pointer holds until the next create). */
static struct tag *tag_slot(const void *key, int create)
{
	size_t i = ch_index_find(&tag_index, ch_hash_ptr(key), tag_is, key, NULL);
	if (i != CH_INDEX_NONE)
		return &tags[i];
	if (!create)
		return NULL;
	CH_GROW(tags, ntags, captags, 256);
	memset(&tags[ntags], 0, sizeof(*tags));
	tags[ntags].key = key;
	ch_index_add(&tag_index, ntags, ch_hash_ptr(key), tag_hash, NULL);
	return &tags[ntags++];
}

/* Where ctx->ident points decides the context (parse.c):
 *  - NULL: declaration specifiers, before any declarator;
 *  - into the stack: external_declaration()'s local 'ident' (a variable,
 *    function or typedef at file or block scope): not a struct member;
 *  - elsewhere: &symbol->ident of a struct member (declaration_list()) or a
 *    parameter (parameter_declaration()); container_of gives the symbol. */
enum attr_ctx ch_attr_context(struct decl_state *ctx)
{
	char here;
	uintptr_t p, sp = (uintptr_t)&here;
	if (!ctx || !ctx->ident)
		return ATTR_SPECIFIER;
	p = (uintptr_t)ctx->ident;
	/* our callers' frames lie above this one, well within 8 MB */
	if (p > sp && p - sp < (8u << 20))
		return ATTR_NOT_MEMBER;
	return ATTR_MEMBER;
}

struct symbol *ch_attr_member(struct decl_state *ctx)
{
	if (ch_attr_context(ctx) != ATTR_MEMBER)
		return NULL;
	return (struct symbol *)((char *)ctx->ident - offsetof(struct symbol, ident));
}

static const char *class_attr_name(enum ch_class c)
{
	return c == CH_CLASS_HOT ? "cacheline_hot" : c == CH_CLASS_EXCLUSIVE ?
		"cacheline_exclusive" : "cacheline_read_mostly";
}

struct position ch_attr_name_pos(struct position p, const struct ident *id)
{
	if (id)
		p.pos = ch_name_column(stream_name(p.stream), p.line, p.pos, show_ident(id));
	return p;
}

/* First non-blank column of a line (GCC's location for its own attribute
 * argument-count errors, the start of the declaration). */
static struct position line_start(struct position p)
{
	size_t len, i;
	unsigned c = 1;
	const char *t = ch_source_line(stream_name(p.stream), p.line, &len);
	if (!t)
		return p;
	for (i = 0; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
		c = t[i] == '\t' ? c + tabstop - (c - 1) % tabstop : c + 1;
	p.pos = c;
	return p;
}

/* Variables whose class came from an attribute in this file: a sidecar
 * line for the same name does not override it (ch_attr_var_annotated). */
static const struct ident **attr_vars;
static size_t nattr_vars;

int ch_attr_var_annotated(const struct ident *id)
{
	size_t i;
	for (i = 0; i < nattr_vars; i++)
		if (attr_vars[i] == id)
			return 1;
	return 0;
}

/* A variable of static storage is being declared (a global, or a static or
 * extern one in a function): not a function, not a typedef, not automatic. */
static int static_variable(struct decl_state *ctx)
{
	struct symbol *bt = ctx->ctype.base_type;
	if (!ctx->ident || !*ctx->ident || ctx->storage_class == MOD_USERTYPE ||
	    (bt && bt->type == SYM_FN))
		return 0;
	return toplevel(block_scope) || (ctx->storage_class & (MOD_STATIC | MOD_EXTERN));
}

struct position ch_attr_decl_name_pos(struct decl_state *ctx, struct position pos)
{
	struct position p = pos;
	const struct ident *id = *ctx->ident;
	size_t len, i;
	const char *t = id ? ch_source_line(stream_name(p.stream), p.line, &len) : NULL;
	if (t) {
		size_t nl = id->len;
		unsigned c = 1, found = 0;
		for (i = 0; i < len && c < pos.pos; i++) {
			if (i + nl <= len && !memcmp(t + i, id->name, nl) &&
			    (i == 0 || !(t[i - 1] == '_' || isalnum((unsigned char)t[i - 1]))) &&
			    (i + nl == len || !(t[i + nl] == '_' || isalnum((unsigned char)t[i + nl]))))
				found = c;
			c = t[i] == '\t' ? c + tabstop - (c - 1) % tabstop : c + 1;
		}
		if (found)
			p.pos = found;
	}
	return p;
}

static void record(struct decl_state *ctx, struct position pos, enum ch_class cls,
		   const char *group, int user_align)
{
	struct symbol *m = ch_attr_member(ctx);
	if (cls != CH_CLASS_NONE)
		any_class = 1;
	if (m) {
		struct tag *t = tag_slot(m, 1);
		if (cls != CH_CLASS_NONE) {
			if (t->cls != CH_CLASS_NONE) {
				/* an identical repeat ("hot, hot") is no conflict */
				if (t->cls == cls && (t->group && group ? !strcmp(t->group, group)
							: !t->group && !group))
					return;
				ch_sparse_error(ch_attr_name_pos(m->pos, m->ident), CH_CHECK_ANNOTATION,
					     ch_msg_attr_conflict_groups(ch_sparse_ctx, class_attr_name(cls),
									 group, class_attr_name(t->cls),
									 t->group));
				return;
			}
			t->cls = cls;
			t->group = group ? strdup(group) : NULL;
		}
		t->user_align |= user_align;
		return;
	}
	if (ch_attr_context(ctx) == ATTR_NOT_MEMBER) {
		if (cls != CH_CLASS_NONE) {
			/* GCC: at the declared name, which precedes the attribute */
			struct position p = ch_attr_decl_name_pos(ctx, pos);
			const struct ident *id = *ctx->ident;
			if (static_variable(ctx)) {
				/* a global or static: judged on the binary by
				 * cachehot-layout (the manifest carries the class) */
				if (id) {
					attr_vars = realloc(attr_vars, (nattr_vars + 1) * sizeof(*attr_vars));
					if (!attr_vars)
						die("cachehot-sparse: out of memory");
					attr_vars[nattr_vars++] = id;
				}
				if (id && ch_opts.manifest) {
					struct ch_loc l;
					memset(&l, 0, sizeof(l));
					l.file = stream_name(p.stream);
					l.line = p.line;
					l.col = p.pos;
					ch_manifest_add_global(ch_sparse_ctx, show_ident(id), cls, group, l,
							       "sparse");
				}
				return;
			}
			ch_sparse_error(p, CH_CHECK_ANNOTATION, ch_msg_attr_not_member(ch_sparse_ctx, class_attr_name(cls)));
		}
		return;
	}
	if ((size_t)pos.stream >= npendstreams) {
		size_t n = (size_t)pos.stream + 64, i;
		pend = realloc(pend, n * sizeof(*pend));
		if (!pend)
			die("cachehot-sparse: out of memory");
		for (i = npendstreams; i < n; i++)
			pend[i].v = NULL, pend[i].n = pend[i].cap = 0;
		npendstreams = n;
	}
	{
		struct pending_vec *pv = &pend[pos.stream];
		if (pv->n == pv->cap) {
			pv->cap = pv->cap ? pv->cap * 2 : 16;
			pv->v = realloc(pv->v, pv->cap * sizeof(*pv->v));
			if (!pv->v)
				die("cachehot-sparse: out of memory");
		}
		pv->v[pv->n].pos = pos;
		pv->v[pv->n].cls = cls;
		pv->v[pv->n].group = group ? strdup(group) : NULL;
		pv->v[pv->n].user_align = user_align;
		pv->n++;
	}
}

/* ---- attributes on labels (private fact 5) ------------------------------ */
static struct ident *label_just_seen;   /* NS_LABEL lookup, nothing since */
struct label_attr {
	struct ident *label;
	const char *attr;                   /* the attribute's name (static) */
};
static struct label_attr *label_attrs;
static size_t nlabel_attrs, caplabel_attrs;

struct symbol *__real_lookup_symbol(struct ident *ident, enum namespace ns);
struct symbol *__wrap_lookup_symbol(struct ident *ident, enum namespace ns);
struct symbol *__wrap_lookup_symbol(struct ident *ident, enum namespace ns)
{
	if (ns == NS_LABEL)
		label_just_seen = ident;
	else if (ns & (NS_SYMBOL | NS_STRUCT))   /* NS_TYPEDEF alone: match_attribute() */
		label_just_seen = NULL;
	else if (ns == NS_PREPROCESSOR)          /* a directive: linesize.c */
		return ch_linesize_directive(ident, __real_lookup_symbol(ident, ns));
	return __real_lookup_symbol(ident, ns);
}

/* A class attribute on a label: 1 if ctx is a label's, and the error is
 * noted for ch_attr_end_function(), which knows the label's position. */
static int on_label(struct decl_state *ctx, const char *name)
{
	if (!label_just_seen || !ctx || ctx->ident || ctx->ctype.base_type)
		return 0;
	if (nlabel_attrs == caplabel_attrs) {
		caplabel_attrs = caplabel_attrs ? 2 * caplabel_attrs : 8;
		label_attrs = realloc(label_attrs, caplabel_attrs * sizeof(*label_attrs));
		if (!label_attrs)
			die("cachehot-sparse: out of memory");
	}
	label_attrs[nlabel_attrs].label = label_just_seen;
	label_attrs[nlabel_attrs].attr = name;
	nlabel_attrs++;
	return 1;
}

/* At the end of a function body (its labels still bound): "applies only to
 * struct or union members" at each annotated label, as GCC says it there. */
void ch_attr_end_function(void)
{
	size_t i;
	for (i = 0; i < nlabel_attrs; i++) {
		struct symbol *l = __real_lookup_symbol(label_attrs[i].label, NS_LABEL);
		struct position p;
		if (!l)
			continue;
		p = l->stmt ? l->stmt->pos : l->pos;
		ch_sparse_error(p, CH_CHECK_ANNOTATION, ch_msg_attr_not_member(ch_sparse_ctx, label_attrs[i].attr));
	}
	nlabel_attrs = 0;
}

static int pos_before(struct position a, struct position b)
{
	if (a.line != b.line)
		return a.line < b.line;
	return a.pos < b.pos;
}

int ch_attr_lookup(const struct symbol *member, struct position after,
		   enum ch_class *cls, const char **group, int *user_align)
{
	struct tag *t = tag_slot(member, 0);
	size_t i;
	*cls = CH_CLASS_NONE;
	*group = NULL;
	*user_align = 0;
	if (t) {
		*cls = t->cls;
		*group = t->group;
		*user_align = t->user_align;
	}
	/* specifier-position attributes: after 'after' (the previous member or
	 * the struct's tag) and before this member, in the same stream */
	if (after.stream == member->pos.stream && (size_t)after.stream < npendstreams) {
		const struct pending_vec *pv = &pend[after.stream];
		size_t lo = 0, hi = pv->n;
		while (lo < hi) {   /* first entry not before-or-at 'after' */
			size_t mid = (lo + hi) / 2;
			if (pos_before(after, pv->v[mid].pos))
				hi = mid;
			else
				lo = mid + 1;
		}
		for (i = lo; i < pv->n && pos_before(pv->v[i].pos, member->pos); i++) {
			if (pv->v[i].cls != CH_CLASS_NONE && *cls == CH_CLASS_NONE) {
				*cls = pv->v[i].cls;
				*group = pv->v[i].group;
			}
			*user_align |= pv->v[i].user_align;
		}
	}
	return *cls != CH_CLASS_NONE || *user_align;
}

int ch_attr_has_pending(int stream)
{
	return stream >= 0 && (size_t)stream < npendstreams && pend[stream].n > 0;
}

int ch_attr_any_class(void)
{
	return any_class;
}

void ch_attr_reset(void)
{
	/* Member tags stay: structs from "-include" files outlive one input
	 * file. Specifier-position tags are per stream and streams are per file. */
	size_t i, j;
	nattr_vars = 0;
	for (i = 0; i < npendstreams; i++) {
		for (j = 0; j < pend[i].n; j++)
			free((void *)pend[i].v[j].group);
		pend[i].n = 0;
	}
}

/* ---- the attribute callbacks --------------------------------------------- */
/* Texts of these errors are the GCC plugin's (plugin/attributes.c) so that
 * both engines say the same. */
static int count_args(const struct expression *e)
{
	return e && e->type == EXPR_COMMA ? count_args(e->left) + count_args(e->right) : 1;
}

/* A class attribute on a struct rather than a member, an error in GCC and so
 * in the plugin, at the struct's tag (sparse was silent):
 *  - after the closing brace: ctx->ctype.base_type is the struct (parse.c,
 *    struct_union_enum_specifier(), as for randomize_layout);
 *  - between 'struct' and the tag: the attribute list is followed by the
 *    tag and '{' (a member's specifier attribute is followed by a type). */
static int misplaced_on_struct(struct decl_state *ctx, struct token *token, const char *name)
{
	struct symbol *s = ctx ? ctx->ctype.base_type : NULL;
	struct token *t = token;
	if (s && (s->type == SYM_STRUCT || s->type == SYM_UNION) && !ctx->ident && s->ident) {
		ch_sparse_error(s->pos, CH_CHECK_ANNOTATION, ch_msg_attr_not_member(ch_sparse_ctx, name));
		return 1;
	}
	if (!ctx || ctx->ident || ctx->ctype.base_type)
		return 0;
	while (match_op(t, ')') || match_op(t, ','))
		t = t->next;
	if (token_type(t) == TOKEN_IDENT && match_op(t->next, '{') &&
	    !lookup_symbol(t->ident, NS_TYPEDEF)) {
		ch_sparse_error(t->pos, CH_CHECK_ANNOTATION, ch_msg_attr_not_member(ch_sparse_ctx, name));
		return 1;
	}
	return 0;
}

static struct token *class_attr(struct token *token, enum ch_class cls, const char *name,
				struct decl_state *ctx, int takes_group)
{
	struct position pos = token->pos;
	struct symbol *m = ch_attr_member(ctx);
	struct position at = m ? ch_attr_name_pos(m->pos, m->ident) : pos;
	const char *group = NULL;

	if (match_op(token, '(')) {
		struct expression *expr = NULL;
		int n;
		token = parens_expression(token, &expr, "in attribute");
		n = count_args(expr);
		if (n > takes_group) {
			struct position ls = m ? line_start(m->pos) : pos;
			sparse_error(ls, "wrong number of arguments specified for '%s' attribute", name);
			info(ls, "note: expected between 0 and %d, found %d",
			     takes_group, n);
			return token;
		}
		if (!expr || expr->type != EXPR_STRING || !expr->string) {
			ch_sparse_error(at, CH_CHECK_ANNOTATION, ch_msg_attr_group_not_string(ch_sparse_ctx, name));
			return token;
		}
		group = expr->string->data;
		if (!group[0] && expr->string->length <= 1) {
			ch_sparse_error(at, CH_CHECK_ANNOTATION, ch_msg_attr_group_empty(ch_sparse_ctx, name));
			return token;
		}
		/* length counts the terminating NUL */
		if (!ch_group_name_valid(group, expr->string->length - 1)) {
			ch_sparse_error(at, CH_CHECK_ANNOTATION, ch_msg_attr_group_not_identifier(ch_sparse_ctx, name, group,
										expr->string->length - 1));
			return token;
		}
	}
	if (misplaced_on_struct(ctx, token, name) || on_label(ctx, name))
		return token;
	record(ctx, pos, cls, group, 0);
	return token;
}

static struct token *hot_attr(struct token *token, struct symbol *attr, struct decl_state *ctx)
{
	return class_attr(token, CH_CLASS_HOT, "cacheline_hot", ctx, 1);
}

static struct token *excl_attr(struct token *token, struct symbol *attr, struct decl_state *ctx)
{
	return class_attr(token, CH_CLASS_EXCLUSIVE, "cacheline_exclusive", ctx, 0);
}

static struct token *rm_attr(struct token *token, struct symbol *attr, struct decl_state *ctx)
{
	return class_attr(token, CH_CLASS_READ_MOSTLY, "cacheline_read_mostly", ctx, 0);
}

static struct symbol_op hot_op = { .type = KW_ATTRIBUTE, .attribute = hot_attr };
static struct symbol_op excl_op = { .type = KW_ATTRIBUTE, .attribute = excl_attr };
static struct symbol_op rm_op = { .type = KW_ATTRIBUTE, .attribute = rm_attr };

/* sparse's own "aligned" op, wrapped to note user alignment on members. */
static struct symbol_op aligned_op;
static struct token *(*sparse_aligned)(struct token *, struct symbol *, struct decl_state *);

static struct token *aligned_attr(struct token *token, struct symbol *attr, struct decl_state *ctx)
{
	struct position pos = token->pos;
	token = sparse_aligned(token, attr, ctx);
	record(ctx, pos, CH_CLASS_NONE, NULL, 1);
	return token;
}

void ch_attr_add_keyword(const char *name, struct symbol_op *op)
{
	struct symbol *sym = create_symbol(0, name, SYM_KEYWORD, NS_KEYWORD);
	sym->ident->keyword = 1;
	sym->op = op;
}

void ch_attr_register(void)
{
	static const char *aligned_names[] = { "aligned", "__aligned__" };
	size_t i;

	ch_attr_add_keyword("cacheline_hot", &hot_op);
	ch_attr_add_keyword("__cacheline_hot__", &hot_op);
	ch_attr_add_keyword("cacheline_exclusive", &excl_op);
	ch_attr_add_keyword("__cacheline_exclusive__", &excl_op);
	ch_attr_add_keyword("cacheline_read_mostly", &rm_op);
	ch_attr_add_keyword("__cacheline_read_mostly__", &rm_op);

	for (i = 0; i < sizeof(aligned_names) / sizeof(aligned_names[0]); i++) {
		struct symbol *sym = lookup_keyword(built_in_ident(aligned_names[i]), NS_KEYWORD);
		if (!sym || !sym->op || !sym->op->attribute)
			continue;
		if (!sparse_aligned) {
			sparse_aligned = sym->op->attribute;
			aligned_op = *sym->op;
			aligned_op.attribute = aligned_attr;
		}
		if (sym->op->attribute == sparse_aligned)
			sym->op = &aligned_op;
	}
}

