// SPDX-License-Identifier: GPL-2.0
/*
 * check.c -- the structs of a scope judged by the core: which ones the
 * annotations or the sidecar make relevant, their models (model.c), the
 * shapes sparse lays out unlike GCC said instead of judged, sidecar entries
 * that name no member.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "scope.h"
#include "expression.h"
#include "options.h"

#include "cachehot-sparse.h"

/* ---- checking ------------------------------------------------------------ */
static int cmp_pos(const void *a, const void *b)
{
	const struct symbol *x = *(struct symbol * const *)a, *y = *(struct symbol * const *)b;
	if (x->pos.stream != y->pos.stream)
		return x->pos.stream < y->pos.stream ? -1 : 1;
	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	if (x->pos.pos != y->pos.pos)
		return x->pos.pos < y->pos.pos ? -1 : 1;
	return 0;
}

/* The plugin's cheap pre-check (plugin/cachehot.c relevant()): any cachehot
 * attribute or sidecar entry in this type or a nested one. Types that are
 * not relevant are not judged, exactly as in the plugin. */
/* Whether the sidecar names any struct (a cheap gate, set once the files
 * are loaded); which ones, the core's hash index says: one lookup per
 * struct asked (relevant() asks once per tagged struct). This used to be a
 * list of interned idents built by walking every entry at start-up, with a
 * linear search per name: quadratic in the sidecar's struct names (a
 * 100k-entry sidecar cost 31x stock sparse on mm/page_counter.c). */
static int side_structs;

void ch_sidecar_names_init(void)
{
	side_structs = ch_sidecar_count(ch_sparse_ctx) > ch_sidecar_global_count(ch_sparse_ctx);
}

/* 1 if a sidecar entry names struct id ("id.FIELD ...", "id.@GROUP ...",
 * "id.FIELD[] per_thread"). */
static int in_sidecar(const struct ident *id)
{
	char buf[256];
	if (!id || !side_structs)   /* id->len < 256: an unsigned char */
		return 0;
	memcpy(buf, id->name, id->len);
	buf[id->len] = 0;
	return ch_sidecar_names_type(ch_sparse_ctx, buf) ||
	       ch_sidecar_per_thread_members(ch_sparse_ctx, buf);
}

/* memo: symbol -> 1 relevant, 2 not (the core's index on the pointer) */
static const struct symbol **memo_k;
static unsigned char *memo_v;
static size_t memo_n, memo_cap;
static struct ch_index memo_index;

static int memo_is(size_t item, const void *key, const void *arg)
{
	return memo_k[item] == key;
}

static uint64_t memo_hash(size_t item, const void *arg)
{
	return ch_hash_ptr(memo_k[item]);
}

/* s's answer, or NULL; create: a new one (0) when it has none (the pointer
 * holds until the next create). */
static unsigned char *memo_slot(const struct symbol *s, int create)
{
	size_t i = ch_index_find(&memo_index, ch_hash_ptr(s), memo_is, s, NULL);
	if (i != CH_INDEX_NONE)
		return &memo_v[i];
	if (!create)
		return NULL;
	if (memo_n == memo_cap) {
		memo_cap = memo_cap ? 2 * memo_cap : 1024;
		memo_k = (const struct symbol **)ch_xrealloc(memo_k, memo_cap * sizeof(*memo_k));
		memo_v = (unsigned char *)ch_xrealloc(memo_v, memo_cap);
	}
	memo_k[memo_n] = s;
	memo_v[memo_n] = 0;
	ch_index_add(&memo_index, memo_n, ch_hash_ptr(s), memo_hash, NULL);
	return &memo_v[memo_n++];
}

/* A stable copy of an identifier's text: show_ident() returns one of four
 * rotating buffers, so a name kept across further show_ident() calls (a
 * struct name while its members are named) was overwritten from the fourth
 * member on, and a sidecar entry for it never matched. */
static const char *ident_text(const struct ident *id)
{
	return id ? ch_printf(ch_sparse_ctx, "%.*s", id->len, id->name) : NULL;
}

/* 'sid': the name sidecar entries use for s: its tag, or for an untagged
 * nested struct the enclosing struct's (members of anonymous members are
 * named directly, docs/annotations.rst); NULL: none. */
static int relevant(struct symbol *s, const struct ident *sid, int depth)
{
	struct symbol *mem;
	unsigned char *memo;
	int r = 0;
	int attrs = ch_attr_any_class();
	int side = sid && in_sidecar(sid);
	const char *name = side ? ident_text(sid) : NULL;

	if (!ch_sparse_is_aggregate(s) || !s->symbol_list)
		return 0;
	/* deeper than any real struct: judged, so that the core's walk limit
	 * says it was not walked whole (the plugin's rule) */
	if (depth > 32)
		return 1;
	if ((memo = memo_slot(s, 0)) && *memo)
		return *memo == 1;
	FOR_EACH_PTR(s->symbol_list, mem) {
		enum ch_class cls;
		const char *g;
		int ua;
		struct symbol *ft;
		if (r)
			break;
		if (mem->type != SYM_NODE)
			continue;
		if (attrs && ch_attr_lookup(mem, s->pos, &cls, &g, &ua) && cls != CH_CLASS_NONE)
			r = 1;
		/* a struct the sidecar names is judged even when no entry
		 * matches a member (the plugin's rule) */
		if (!r && side && s->ident == sid && (ch_sparse_is_tagged(s) || !depth))
			r = 1;   /* (or the typedef name of an anonymous struct) */
		if (!r && side && mem->ident &&
		    ch_sidecar_class(ch_sparse_ctx, name, show_ident(mem->ident), &g) != CH_CLASS_NONE)
			r = 1;
		ft = ch_sparse_base(mem->ctype.base_type);
		while (!r && ft && ft->type == SYM_ARRAY)
			ft = ch_sparse_base(ft->ctype.base_type);
		if (!r && ch_sparse_is_aggregate(ft) &&
		    relevant(ft, ft->ident ? ft->ident : sid, depth + 1))
			r = 1;
	} END_FOR_EACH_PTR(mem);
	/* an untagged type's answer depends on sid: remember only a final one */
	if (r || ch_sparse_is_tagged(s))
		*memo_slot(s, 1) = r ? 1 : 2;
	return r;
}

/* A flexible array that is not the last member: only a GNU variable-length
 * array member looks like that (sparse gives both a negative size). */
static int no_fixed_layout(const struct ch_type *ct)
{
	size_t i;
	for (i = 0; i + 1 < ct->nmembers; i++)
		if (ct->members[i].flexible)
			return 1;
	return 0;
}

/* A [cachehot] warning (a sidecar entry's problem) at loc: entry, in
 * struct scope, ident the kind (docs/findings.md). */
static void warn_at(const struct ch_loc *loc, const char *message, const char *scope,
		    const char *entry, const char *ident)
{
	struct ch_finding f;
	memset(&f, 0, sizeof(f));
	f.check = CH_CHECK_ANNOTATION;
	f.severity = CH_SEV_WARNING;
	f.loc = *loc;
	f.message = message;
	f.struct_name = scope;
	f.field_a = entry;
	f.ident = ident;
	ch_print_finding(&f, NULL);
}

static void report_missing_field(const char *file, unsigned line, const char *entry, void *arg)
{
	const struct ch_type *t = arg;
	warn_at(&t->loc, ch_msg_sidecar_no_member(ch_sparse_ctx, entry, file, line, t->name),
		t->name, entry, "no-member");
}

/* An entry naming a typedef of a tagged struct ("CQ.lock" for "typedef
 * struct conn_queue CQ;"): a warning at the typedef, as the plugin says. */
struct typedef_arg { struct ch_loc loc; const char *name, *tag; int is_union; };
static void report_typedef_entry(const char *file, unsigned line, const char *entry, void *arg)
{
	const struct typedef_arg *a = arg;
	warn_at(&a->loc, ch_msg_sidecar_typedef(ch_sparse_ctx, entry, file, line, a->name, a->tag,
						 a->is_union), a->tag, entry, "typedef-entry");
}

static void typedef_of_tag(struct symbol *td)
{
	struct symbol *b = td->ctype.base_type;
	struct typedef_arg a;
	if (!td->ident || !b || !ch_sparse_is_aggregate(b) || !ch_sparse_is_tagged(b) || b->ident == td->ident ||
	    !ch_sidecar_count(ch_sparse_ctx) || !in_sidecar(td->ident))
		return;
	a.loc = ch_sparse_loc(td->pos);
	a.name = ident_text(td->ident);
	a.tag = ident_text(b->ident);
	a.is_union = b->type == SYM_UNION;
	ch_sidecar_missing_fields(ch_sparse_ctx, a.name, report_typedef_entry, &a);
}

/* 1 if struct t has a kernel cacheline group marker among its direct
 * members or inside an anonymous struct/union member (the core reads groups
 * there too: ch_type_has_groups, core/groups.c, the one rule): judged for
 * its groups, not its containers. */
static int direct_markers_1(struct symbol *t, int depth)
{
	struct symbol *mem;
	FOR_EACH_PTR(t->symbol_list, mem) {
		struct symbol *b;
		if (mem->ident) {
			if (ch_marker_kind(show_ident(mem->ident), NULL) != CH_MARKER_NONE)
				return 1;
			continue;
		}
		b = ch_sparse_base(mem);
		if (depth < 64 && ch_sparse_is_aggregate(b) && direct_markers_1(b, depth + 1))
			return 1;
	} END_FOR_EACH_PTR(mem);
	return 0;
}

static int direct_markers(struct symbol *t)
{
	return direct_markers_1(t, 0);
}

/* 1 if a struct of list has a kernel cacheline group marker among its
 * direct members (core/groups.c): such structs are judged without any
 * cachehot annotation. One name test per member. */
static int has_group_markers(struct symbol_list *list)
{
	struct symbol *sym;
	int r = 0;
	FOR_EACH_PTR(list, sym) {
		struct symbol *t = sym->namespace == NS_STRUCT ? sym :
			sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE ? sym->ctype.base_type : NULL;
		if (r || !t || !ch_sparse_is_aggregate(t) || !t->symbol_list)
			continue;
		r = direct_markers(t);
	} END_FOR_EACH_PTR(sym);
	return r;
}

/* Struct tags and typedefs of block scopes (struct definitions inside
 * function bodies), saved before sparse unbinds them. */
static struct symbol_list *block_syms;

void ch_note_block_scope(struct scope *sc)
{
	struct symbol *sym;
	if (!sc || (!ch_attr_any_class() && !side_structs && !has_group_markers(sc->symbols)))
		return;
	FOR_EACH_PTR(sc->symbols, sym) {
		if ((sym->namespace == NS_STRUCT && sym->symbol_list) ||
		    (sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE))
			add_symbol(&block_syms, sym);
	} END_FOR_EACH_PTR(sym);
}

void ch_check_scope(int builtin, const struct ch_config *cfgp)
{
	/* during sparse_initialize() file_scope is sparse's builtin scope */
	struct scope *sc = file_scope;
	struct symbol **v = NULL, *sym;
	struct symbol_list *lists[2];
	size_t n = 0, cap = 0, i;
	int l;
	struct ch_config cfg = *cfgp;

	/* as the plugin: nothing to judge without any annotation source */
	if (!sc || (!ch_attr_any_class() && !side_structs &&
		    !has_group_markers(sc->symbols) && (builtin || !has_group_markers(block_syms))))
		return;
	lists[0] = sc->symbols;
	lists[1] = builtin ? NULL : block_syms;
	/* typedefs first: they carry the alignment of anonymous structs */
	for (l = 0; l < 2; l++)
	FOR_EACH_PTR(lists[l], sym) {
		if (sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE) {
			ch_sparse_note_typedef(sym);
			typedef_of_tag(sym);
		}
	} END_FOR_EACH_PTR(sym);
	/* the relevant struct definitions of this scope (and of the blocks
	 * of its functions) */
	for (l = 0; l < 2; l++)
	FOR_EACH_PTR(lists[l], sym) {
		struct symbol *t = NULL;
		if (sym->namespace == NS_STRUCT && ch_sparse_is_aggregate(sym))
			t = sym;
		else if (sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE &&
			 ch_sparse_is_aggregate(sym->ctype.base_type) && !ch_sparse_is_tagged(sym->ctype.base_type))
			t = sym->ctype.base_type;
		if (!t || !t->symbol_list)
			continue;
		/* a sidecar may name the typedef of an anonymous struct */
		if (!relevant(t, t->ident, 0) && !direct_markers(t))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die("cachehot-sparse: out of memory");
		}
		v[n++] = t;
	} END_FOR_EACH_PTR(sym);
	if (n)   /* v is NULL when no struct is relevant: qsort(NULL, 0) is undefined (UBSan) */
		qsort(v, n, sizeof(*v), cmp_pos);
	for (i = 0; i < n; i++) {
		struct symbol *s = v[i];
		struct ch_type *ct;
		int tagged = ch_sparse_is_tagged(s);

		if (i && s == v[i - 1])
			continue;
		ct = ch_sparse_type(s);
		if (!ct)
			continue;
		if (!tagged && ch_sparse_typedef_align(s) > ct->align)
			ct->align = (unsigned)ch_sparse_typedef_align(s);
		{
			int vla = 0;
			const char *why = ch_sparse_no_layout_why(ct, &vla);
			if (why || no_fixed_layout(ct)) {
				/* a GNU variable-length member: offsets depend on run
				 * time, as the plugin says (it sees no fixed layout
				 * either); other shapes: sparse's layout is not GCC's */
				if (ch_type_is_annotated(ch_sparse_ctx, ct)) {
					struct ch_finding f;
					memset(&f, 0, sizeof(f));
					f.check = CH_CHECK_FALSE_SHARING;
					f.severity = CH_SEV_NOTE;
					f.loc = ct->loc;
					f.struct_name = ct->name;
					f.ident = "no-layout";
					f.message = !why || vla
						? ch_msg_no_layout(ch_sparse_ctx, ct->name, ct->is_union)
						: ch_msg_sparse_no_layout(ch_sparse_ctx, ct->name,
									  ct->is_union,
									  ct->name_is_typedef, why);
					ch_print_finding(&f, NULL);
				}
				continue;
			}
		}
		if (!ch_opts.line_size) {
			/* the line size in effect where the struct is complete,
			 * as the compiler expands SMP_CACHE_BYTES there */
			cfg.line_size = ch_line_size_at(s->endpos.line ? s->endpos : s->pos);
			if (!cfg.line_size)
				cfg.line_size = CH_DEFAULT_LINE_SIZE;
		}
		ch_check_type(ch_sparse_ctx, ct, &cfg, ch_print_finding, NULL);
		if (ch_opts.manifest && cfg.smp)
			ch_manifest_add(ch_sparse_ctx, ct, &cfg, "sparse");
		if (ct->name && (tagged || ct->name_is_typedef)) {
			ch_sidecar_mark_members(ch_sparse_ctx, ct);
			ch_sidecar_missing_fields(ch_sparse_ctx, ct->name, report_missing_field, ct);
		}
	}
	free(v);
	if (!builtin)
		block_syms = NULL;   /* sparse's allocator owns the list nodes */
}
