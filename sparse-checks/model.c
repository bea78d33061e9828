// SPDX-License-Identifier: GPL-2.0
/*
 * model.c -- sparse's view of a struct turned into core's ch_type model.
 *
 * Sparse lays structs out itself (symbol.c, examine_struct_union_type):
 * member->offset is in bytes, member->bit_offset/bit_size in bits,
 * ctype.alignment in bytes. measured: these equal gcc's offsets for
 * page_counter, mem_cgroup, zone, lruvec. Direct members only; a member that
 * is a struct/union (or array of them) points at that type's own ch_type
 * (built first, memoised in core under the sparse symbol as key).
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

static int is_idch(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* ---- file names: one ctx-owned string per sparse stream ----------------- */
static const char **stream_files;
static size_t nstream_files;

static const char *file_of(int stream)
{
	if (stream < 0)
		return NULL;
	if ((size_t)stream >= nstream_files) {
		size_t n = (size_t)stream + 256, i;
		stream_files = realloc(stream_files, n * sizeof(*stream_files));
		if (!stream_files)
			die("cachehot-sparse: out of memory");
		for (i = nstream_files; i < n; i++)
			stream_files[i] = NULL;
		nstream_files = n;
	}
	if (!stream_files[stream])
		stream_files[stream] = ch_strdup(ch_sparse_ctx, stream_name(stream));
	return stream_files[stream];
}

static int stream_of(const char *file)
{
	size_t i;
	for (i = 0; i < nstream_files; i++)
		if (stream_files[i] == file)
			return (int)i;
	return -1;
}

struct ch_loc ch_sparse_loc(struct position pos)
{
	struct ch_loc l = { file_of(pos.stream), pos.line, pos.pos, 0 };
	return l;
}

/* ---- typedefs of anonymous structs ------------------------------------- */
/* Sparse names an anonymous struct after its first typedef (parse.c,
 * external_declaration: base_type->ident = ident) but does not bind it as a
 * tag. As the plugin does, such a struct is judged under the typedef name,
 * with the alignment written on the typedef ("} foo_t __aligned(64);"). */
struct tdinfo { const struct symbol *s; unsigned long align; };
static struct tdinfo *tdn;
static size_t ntdn, captdn;

static void note_typedef(struct symbol *td)
{
	struct symbol *b = td->ctype.base_type;
	size_t i;
	if (!b || (b->type != SYM_STRUCT && b->type != SYM_UNION) || b->namespace == NS_STRUCT)
		return;
	for (i = 0; i < ntdn; i++)
		if (tdn[i].s == b)
			return;   /* the first typedef names it */
	if (ntdn == captdn) {
		captdn = captdn ? 2 * captdn : 64;
		tdn = realloc(tdn, captdn * sizeof(*tdn));
		if (!tdn)
			die("cachehot-sparse: out of memory");
	}
	tdn[ntdn].s = b;
	tdn[ntdn].align = td->ctype.alignment;
	ntdn++;
}

static unsigned long typedef_align(const struct symbol *s)
{
	size_t i;
	for (i = 0; i < ntdn; i++)
		if (tdn[i].s == s)
			return tdn[i].align;
	return 0;
}

/* A struct with a tag of its own (bound in sparse's tag namespace). */
static int is_tagged(const struct symbol *s)
{
	return s->namespace == NS_STRUCT && s->ident;
}

/* ---- building ------------------------------------------------------------ */
static int is_aggregate(const struct symbol *s)
{
	return s && (s->type == SYM_STRUCT || s->type == SYM_UNION);
}

/* Strip nodes (typedefs, qualifiers) to the underlying type. */
static struct symbol *base_of(struct symbol *s)
{
	while (s && s->type == SYM_NODE)
		s = s->ctype.base_type;
	return s;
}

static struct ch_type *build_type(struct symbol *s, int depth);

static int c_type_word(const char *w, size_t n)
{
	static const char *const kw[] = { "char", "short", "int", "long", "signed",
		"unsigned", "_Bool", "bool", "const", "volatile", "__signed__", NULL };
	int i;
	for (i = 0; kw[i]; i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], w, n))
			return 1;
	return 0;
}


/* Name of a scalar array element type as GCC spells it: sparse resolves
 * typedefs while parsing, so "u8 pad[56]" would read "unsigned char". When
 * the word just before the member's name in the source is a typedef name
 * (not a C type keyword), use it. */
static const char *elem_name(struct symbol *mem, struct symbol *elem)
{
	const char *text, *name;
	size_t len, nl, i;

	name = mem->ident ? show_ident(mem->ident) : NULL;
	text = name ? ch_source_line(stream_name(mem->pos.stream), mem->pos.line, &len) : NULL;
	if (text) {
		nl = strlen(name);
		for (i = 0; i + nl <= len; i++) {
			size_t e, b;
			if (memcmp(text + i, name, nl) || (i && is_idch((unsigned char)text[i - 1])) ||
			    (i + nl < len && is_idch((unsigned char)text[i + nl])))
				continue;
			e = i;
			while (e > 0 && (text[e - 1] == ' ' || text[e - 1] == '\t'))
				e--;
			b = e;
			while (b > 0 && is_idch((unsigned char)text[b - 1]))
				b--;
			if (b < e && !c_type_word(text + b, e - b) && !(text[b] >= '0' && text[b] <= '9'))
				return ch_printf(ch_sparse_ctx, "%.*s", (int)(e - b), text + b);
			break;
		}
	}
	return show_typename(elem);
}

static unsigned keyword_col(struct position p);

/* Fill m from the sparse member node 'mem'. */
static void fill_member(struct ch_member *m, struct symbol *mem, struct position after, int depth)
{
	struct symbol *t = base_of(mem->ctype.base_type);
	struct symbol *elem = t;
	const char *group;
	enum ch_class cls;
	int user_align;
	long long bits = mem->bit_size;

	m->offset = mem->offset;
	m->align = (unsigned)mem->ctype.alignment;
	m->loc = ch_sparse_loc(mem->pos);
	/* GCC's column is the name, not the start of the declarator: found in
	 * the source only for members that are reported (ch_print_finding) */
	if (mem->ident)
		m->loc.fe_loc = (uint64_t)(uintptr_t)mem;
	else if (is_aggregate(t) && !t->ident)
	{
		m->loc = ch_sparse_loc(t->pos);   /* anonymous struct/union: at its */
		m->loc.col = keyword_col(t->pos);  /* 'struct', as GCC */
	}
	m->nelems = 1;

	if (t && t->type == SYM_BITFIELD) {
		struct symbol *bt = base_of(t->ctype.base_type);
		m->bit_offset = mem->bit_offset;
		m->bit_size = bits > 0 ? (unsigned)bits : 0;
		/* the byte holding the first bit, as the plugin and the DWARF
		 * reader give it (sparse keeps the storage unit's offset): the
		 * fix planner lays members out by offset and size (a bug once:
		 * 'long f : 39' at bit 8 was 6 bytes from offset 0 here, 5 from
		 * offset 1 in the plugin, and the fixes differed) */
		if (m->bit_size) {
			m->offset += m->bit_offset / 8;
			m->bit_offset %= 8;
		}
		m->size = m->bit_size ? (m->bit_offset + m->bit_size + 7) / 8 : 0;
		m->elem_size = m->size;
		m->is_integer = 1;
		m->align = 1;   /* GCC's DECL_ALIGN of a bit-field: one unit */
		m->type_name = bt ? ch_strdup(ch_sparse_ctx, show_typename(bt)) : NULL;
		if (!m->bit_size && !m->name)
			m->size = 0;
	} else {
		if (t && t->type == SYM_ARRAY) {
			elem = base_of(t->ctype.base_type);
			while (elem && elem->type == SYM_ARRAY)   /* int a[2][3]: element int */
				elem = base_of(elem->ctype.base_type);
		}
		if (bits < 0) {                                     /* flexible array */
			m->flexible = 1;
			m->size = 0;
			m->nelems = 0;
		} else {
			m->size = (uint64_t)bits / 8;
		}
		m->elem_size = elem && elem->bit_size > 0 ? (uint64_t)elem->bit_size / 8 : 0;
		if (t && t->type == SYM_ARRAY && !m->flexible && m->elem_size)
			m->nelems = m->size / m->elem_size;
		else if (t && t->type == SYM_ARRAY && !m->flexible) {
			/* zero-size elements (GNU: a struct of only a [0] array):
			 * the count is the declared one, as GCC's domain says
			 * (sparse said 0 elements, and the padding the
			 * plugin saw in each element was missed) */
			struct symbol *a = t;
			m->nelems = 1;
			while (a && a->type == SYM_ARRAY) {
				long long c = a->array_size ? get_expression_value_silent(a->array_size) : 0;
				m->nelems *= c > 0 ? (uint64_t)c : 0;
				a = base_of(a->ctype.base_type);
			}
		}
		else if (!m->flexible)
			m->elem_size = m->size;
		if (elem && (elem->type == SYM_ENUM ||
			     (elem->type == SYM_BASETYPE && elem->ctype.base_type == &int_type) ||
			     elem->type == SYM_RESTRICT || elem->type == SYM_FOULED))
			m->is_integer = 1;
		if (is_aggregate(elem))
			m->type = build_type(elem, depth + 1);
		if (t && t->type == SYM_ARRAY) {
			/* the plugin's "ELEM[N]" (N = 0 for a flexible array) */
			const char *en = is_aggregate(elem)
				? (elem->ident ? show_ident(elem->ident) : "<anonymous>")
				: elem_name(mem, elem);
			m->type_name = ch_printf(ch_sparse_ctx, "%s[%llu]", en,
						 (unsigned long long)m->nelems);
		} else if (is_aggregate(t)) {
			m->type_name = ch_printf(ch_sparse_ctx, "%s %s",
				t->type == SYM_UNION ? "union" : "struct",
				t->ident ? show_ident(t->ident) : "<anonymous>");
		}
	}
	ch_attr_lookup(mem, after, &cls, &group, &user_align);
	m->cls = cls;
	m->group = group;
	/* user_align: an aligned attribute on the member (GCC DECL_USER_ALIGN);
	 * also when the member's alignment differs from its type's. */
	m->user_align = user_align ||
		(t && t->type != SYM_BITFIELD && t->ctype.alignment &&
		 mem->ctype.alignment != t->ctype.alignment);
}

/* 1 if the declarator of member 'prev' ends with ',' (another declarator of
 * the same declaration follows: "T a, b;"). Only asked when attributes in
 * declaration-specifier position exist in that stream: it reads the source. */
static int same_declaration(const struct symbol *prev)
{
	const char *text;
	size_t len, i;
	unsigned c = 1;

	if (!ch_attr_has_pending(prev->endpos.stream))
		return 0;
	text = ch_source_line(stream_name(prev->endpos.stream), prev->endpos.line, &len);
	if (!text)
		return 0;
	for (i = 0; i < len; i++) {
		if (c == prev->endpos.pos)
			return text[i] == ',';
		c = text[i] == '\t' ? c + tabstop - (c - 1) % tabstop : c + 1;
	}
	return 0;
}

/* ---- shapes sparse lays out unlike GCC (docs/sparse.rst) ---------------- */
/* Reasons per ch_type (few: only such structs are listed). */
static const struct ch_type **nl_type;
static const char **nl_why;
static int *nl_vla;
static size_t nnl;

static void set_no_layout(const struct ch_type *ct, const char *why, int vla)
{
	size_t i;
	for (i = 0; i < nnl; i++)
		if (nl_type[i] == ct)
			return;   /* the first reason found stays */
	nl_type = realloc(nl_type, (nnl + 1) * sizeof(*nl_type));
	nl_why = realloc(nl_why, (nnl + 1) * sizeof(*nl_why));
	nl_vla = realloc(nl_vla, (nnl + 1) * sizeof(*nl_vla));
	if (!nl_type || !nl_why || !nl_vla)
		die("cachehot-sparse: out of memory");
	nl_type[nnl] = ct;
	nl_why[nnl] = why;
	nl_vla[nnl] = vla;
	nnl++;
}

static const char *no_layout_why(const struct ch_type *ct, int *vla)
{
	size_t i;
	for (i = 0; ct && i < nnl; i++)
		if (nl_type[i] == ct) {
			if (vla)
				*vla = nl_vla[i];
			return nl_why[i];
		}
	return NULL;
}

/* #pragma pack: sparse keeps no trace of it (pre-process.c turns it into an
 * ignored __pragma__). The directives of a file, read once: the pack value
 * in effect after each (0: none), with push/pop. */
struct packdir { unsigned line; unsigned val; };
struct packfile { const char *path; struct packdir *d; size_t n; };
static struct packfile *packfiles;
static size_t npackfiles;

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const struct packfile *pack_scan(const char *path)
{
	struct packfile *pf;
	unsigned stack[64], sp = 0, cur = 0, line;
	size_t i, len;
	const char *text;

	for (i = 0; i < npackfiles; i++)
		if (!strcmp(packfiles[i].path, path))
			return &packfiles[i];
	packfiles = realloc(packfiles, (npackfiles + 1) * sizeof(*packfiles));
	if (!packfiles)
		die("cachehot-sparse: out of memory");
	pf = &packfiles[npackfiles++];
	memset(pf, 0, sizeof(*pf));
	pf->path = ch_strdup(ch_sparse_ctx, path);
	for (line = 1; (text = ch_source_line(path, line, &len)); line++) {
		const char *p = skip_ws(text, text + len), *e = text + len;
		unsigned v;
		int push = 0, pop = 0, got = 0;
		if (p >= e || *p != '#')
			continue;
		p = skip_ws(p + 1, e);
		if (e - p < 6 || memcmp(p, "pragma", 6))
			continue;
		p = skip_ws(p + 6, e);
		if (e - p < 4 || memcmp(p, "pack", 4))
			continue;
		p = skip_ws(p + 4, e);
		if (p >= e || *p != '(')
			continue;
		p = skip_ws(p + 1, e);
		if (e - p >= 4 && !memcmp(p, "push", 4))
			push = 1, p = skip_ws(p + 4, e);
		else if (e - p >= 3 && !memcmp(p, "pop", 3))
			pop = 1, p = skip_ws(p + 3, e);
		if (p < e && *p == ',')
			p = skip_ws(p + 1, e);
		for (v = 0; p < e && *p >= '0' && *p <= '9' && v < 100000; p++)
			v = v * 10 + (unsigned)(*p - '0'), got = 1;
		if (push) {
			if (sp < 64)
				stack[sp++] = cur;
			if (got)
				cur = v;
		} else if (pop) {
			cur = sp ? stack[--sp] : 0;
		} else {
			cur = got ? v : 0;   /* pack(N), or pack() resets */
		}
		pf->d = realloc(pf->d, (pf->n + 1) * sizeof(*pf->d));
		if (!pf->d)
			die("cachehot-sparse: out of memory");
		pf->d[pf->n].line = line;
		pf->d[pf->n].val = cur;
		pf->n++;
	}
	return pf;
}

/* The #pragma pack value in effect at line of path (0: none). */
static unsigned pack_at(const char *path, unsigned line)
{
	const struct packfile *pf = path ? pack_scan(path) : NULL;
	size_t lo = 0, hi = pf ? pf->n : 0;
	while (lo < hi) {   /* last directive before line */
		size_t mid = (lo + hi) / 2;
		if (pf->d[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? pf->d[lo - 1].val : 0;
}

/* Why sparse's layout of s (built as ct) is not GCC's, or NULL. */
static void find_no_layout(struct symbol *s, struct ch_type *ct)
{
	struct symbol *mem;
	size_t i;
	if (pack_at(stream_name(s->pos.stream), s->pos.line)) {
		set_no_layout(ct, "#pragma pack in effect", 0);
		return;
	}
	if (ch_attr_vector_in(s->pos, s->endpos)) {
		set_no_layout(ct, "a vector_size member", 0);
		return;
	}
	FOR_EACH_PTR(s->symbol_list, mem) {
		struct symbol *t;
		if (mem->type != SYM_NODE)
			continue;
		t = base_of(mem->ctype.base_type);
		/* GCC: aligned(N) raises alignment only, on a member and on the
		 * struct; sparse lets it lower both (symbol.c) */
		if (!s->packed && !mem->packed && t && t->type != SYM_BITFIELD &&
		    mem->ctype.alignment && t->ctype.alignment > mem->ctype.alignment) {
			set_no_layout(ct, "an aligned attribute below a member's natural alignment", 0);
			return;
		}
		if (s->packed && !mem->ident && t && t->type == SYM_BITFIELD && !mem->bit_size) {
			set_no_layout(ct, "a zero-width bit-field in a packed struct", 0);
			return;
		}
		if (!s->packed && (mem->ident || !t || t->type != SYM_BITFIELD) &&
		    mem->ctype.alignment > s->ctype.alignment) {
			set_no_layout(ct, "an aligned attribute on the struct below a member's "
				      "alignment", 0);
			return;
		}
		if (t && t->type == SYM_ARRAY && t->array_size &&
		    t->array_size->type != EXPR_VALUE) {
			set_no_layout(ct, "a variable-length member", 1);
			return;
		}
		if (t && t->type == SYM_ARRAY && t->array_size) {
			struct symbol *e = base_of(t->ctype.base_type);
			long long n = get_expression_value_silent(t->array_size);
			if (e && e->bit_size > 0 && n > 0 && (unsigned long long)n * e->bit_size >= (1ull << 31)) {
				set_no_layout(ct, "a member of 256 MiB or more: sparse counts sizes in "
					      "an int of bits", 0);
				return;
			}
		}
		if (mem->ident) {
			const char *w = elem_name(mem, t);
			if (w && ch_attr_vector_typedef(w, strlen(w))) {
				set_no_layout(ct, "a vector_size member", 0);
				return;
			}
		}
	} END_FOR_EACH_PTR(mem);
	/* GCC honours aligned(N) on a member of a packed struct; sparse's
	 * packing ignores it */
	for (i = 0; s->packed && i < ct->nmembers; i++)
		if (ct->members[i].user_align && ct->members[i].align > 1) {
			set_no_layout(ct, "an aligned member in a packed struct", 0);
			return;
		}
	if (s->bit_size < 0) {
		set_no_layout(ct, "a size of 256 MiB or more: sparse counts sizes in an int of bits", 0);
		return;
	}
	for (i = 0; i < ct->nmembers; i++)
		if (ct->members[i].type && no_layout_why(ct->members[i].type, NULL)) {
			const struct ch_type *in = ct->members[i].type;
			set_no_layout(ct, ch_printf(ch_sparse_ctx, "it contains '%s%s', which sparse "
						    "lays out unlike GCC",
						    in->name_is_typedef ? "" : in->is_union ? "union " : "struct ",
						    in->name ? in->name : "<anonymous>"), 0);
			return;
		}
}

/* An untagged struct's position is its '{' in sparse; GCC (and DWARF) put
 * it at the 'struct'/'union' keyword before it on the same line. */
static unsigned keyword_col(struct position p)
{
	size_t len, i, at = (size_t)-1, kw = (size_t)-1;
	unsigned c = 1, col = p.pos;
	const char *text = ch_source_line(stream_name(p.stream), p.line, &len);
	if (!text)
		return p.pos;
	/* sparse's columns expand tabs (tokenize.c): find the '{' byte */
	for (i = 0; i < len && c <= p.pos; i++) {
		if (c == p.pos)
			at = i;
		c = text[i] == '\t' ? c + tabstop - (c - 1) % tabstop : c + 1;
	}
	if (at == (size_t)-1)
		return p.pos;
	i = at;
	while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t'))
		i--;
	if (i >= 6 && !memcmp(text + i - 6, "struct", 6))
		kw = i - 6;
	else if (i >= 5 && !memcmp(text + i - 5, "union", 5))
		kw = i - 5;
	if (kw == (size_t)-1)
		return p.pos;
	for (i = 0, c = 1; i < kw; i++)
		c = text[i] == '\t' ? c + tabstop - (c - 1) % tabstop : c + 1;
	col = c;
	return col;
}

/* Build (or find) the ch_type of struct/union s. NULL for an incomplete or
 * broken type (sparse already said why). */
static struct ch_type *build_type(struct symbol *s, int depth)
{
	struct ch_type *ct = ch_type_lookup(ch_sparse_ctx, s);
	struct symbol *mem, *prev;
	struct position after;
	const char *name;

	if (ct)
		return ct;
	if (depth > 64 || !s->symbol_list)
		return NULL;
	examine_symbol_type(s);
	name = s->ident ? show_ident(s->ident) : NULL;
	ct = ch_type_new(ch_sparse_ctx, s, name, s->type == SYM_UNION,
			 s->bit_size > 0 ? (uint64_t)s->bit_size / 8 : 0,
			 (unsigned)s->ctype.alignment);
	ct->name_is_typedef = name && !is_tagged(s);
	ct->packed = s->packed;
	ct->randomized = ch_attr_randomized(s);
	ct->loc = ch_sparse_loc(s->pos);
	if (!is_tagged(s))
		ct->loc.col = keyword_col(s->pos);
	after = s->pos;
	prev = NULL;
	FOR_EACH_PTR(s->symbol_list, mem) {
		struct ch_member *m;
		if (mem->type != SYM_NODE)
			continue;
		/* a new declaration starts unless "prev, mem" share one */
		if (prev && !same_declaration(prev))
			after = prev->pos;
		/* an unnamed bit-field is padding bits: no member (DWARF and BTF
		 * do not list it either, so every engine names the same fields) */
		if (!mem->ident && base_of(mem->ctype.base_type) &&
		    base_of(mem->ctype.base_type)->type == SYM_BITFIELD) {
			prev = mem;
			continue;
		}
		m = ch_type_add_member(ch_sparse_ctx, ct,
				       mem->ident ? show_ident(mem->ident) : NULL);
		fill_member(m, mem, after, depth);
		prev = mem;
	} END_FOR_EACH_PTR(mem);
	find_no_layout(s, ct);
	return ct;
}

struct ch_type *ch_sparse_type(struct symbol *s)
{
	return is_aggregate(s) ? build_type(s, 0) : NULL;
}

struct symbol *ch_sparse_base(struct symbol *s)
{
	return base_of(s);
}

/* ---- config -------------------------------------------------------------- */
const char *ch_sparse_macro_body(const char *name)
{
	struct symbol *sym = lookup_symbol(built_in_ident(name), NS_MACRO);
	struct token *t;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	const char *copy;

	if (!sym || sym->arglist || !sym->expansion)
		return NULL;
	for (t = sym->expansion; t && !eof_token(t); t = t->next) {
		const char *s;
		size_t l;
		if (token_type(t) > TOKEN_SPECIAL)
			continue;   /* preprocessor markers such as <untaint> */
		s = show_token(t);
		l = strlen(s);
		if (n + l + 2 > cap) {
			cap = 2 * (n + l + 2) + 256;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		memcpy(buf + n, s, l);
		n += l;
		buf[n++] = ' ';
	}
	if (!buf)
		return "";
	buf[n] = 0;
	/* a copy: ch_eval_macro resolves nested names while holding this one */
	copy = ch_strdup(ch_sparse_ctx, buf);
	free(buf);
	return copy;
}

static int macro_defined(const char *name)
{
	return lookup_symbol(built_in_ident(name), NS_MACRO) != NULL;
}

static const char *macro_body(const char *name, void *arg)
{
	(void)arg;
	return ch_sparse_macro_body(name);
}

void ch_file_config(struct ch_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->line_size = ch_opts.line_size;
	if (!cfg->line_size) {
		/* the value at the end of the file; each struct is judged at
		 * the value in effect where it is defined (ch_line_size_at(),
		 * which also prints the note of a body the core cannot
		 * evaluate) */
		cfg->line_size = ch_line_size_eval(ch_sparse_ctx, macro_body, NULL, NULL, NULL);
		if (!cfg->line_size)
			cfg->line_size = CH_DEFAULT_LINE_SIZE;
	}
	cfg->predict = ch_opts.predict;
	cfg->severity = ch_opts.severity;
	if (ch_opts.smp >= 0)
		cfg->smp = ch_opts.smp;
	else    /* a kernel build without CONFIG_SMP has no false sharing */
		cfg->smp = !(macro_defined("__KERNEL__") && !macro_defined("CONFIG_SMP"));
	cfg->kernel = macro_defined("__KERNEL__") ? 1 : 0;
}

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

/* memo: symbol -> 1 relevant, 2 not (open addressing, grows) */
static const struct symbol **memo_k;
static unsigned char *memo_v;
static size_t memo_n, memo_cap;

static unsigned char *memo_slot(const struct symbol *s, int create)
{
	size_t i;
	if (create && (memo_n + 1) * 2 > memo_cap) {
		const struct symbol **ok = memo_k;
		unsigned char *ov = memo_v;
		size_t oc = memo_cap, j;
		memo_cap = memo_cap ? memo_cap * 2 : 1024;
		memo_k = calloc(memo_cap, sizeof(*memo_k));
		memo_v = calloc(memo_cap, 1);
		if (!memo_k || !memo_v)
			die("cachehot-sparse: out of memory");
		for (j = 0; j < oc; j++)
			if (ok[j]) {
				for (i = ((uintptr_t)ok[j] >> 4) & (memo_cap - 1); memo_k[i];
				     i = (i + 1) & (memo_cap - 1))
					;
				memo_k[i] = ok[j];
				memo_v[i] = ov[j];
			}
		free(ok);
		free(ov);
	}
	if (!memo_cap)
		return NULL;
	for (i = ((uintptr_t)s >> 4) & (memo_cap - 1); memo_k[i]; i = (i + 1) & (memo_cap - 1))
		if (memo_k[i] == s)
			return &memo_v[i];
	if (!create)
		return NULL;
	memo_k[i] = s;
	memo_n++;
	return &memo_v[i];
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

	if (!is_aggregate(s) || !s->symbol_list)
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
		if (!r && side && s->ident == sid && (is_tagged(s) || !depth))
			r = 1;   /* (or the typedef name of an anonymous struct) */
		if (!r && side && mem->ident &&
		    ch_sidecar_class(ch_sparse_ctx, name, show_ident(mem->ident), &g) != CH_CLASS_NONE)
			r = 1;
		ft = base_of(mem->ctype.base_type);
		while (!r && ft && ft->type == SYM_ARRAY)
			ft = base_of(ft->ctype.base_type);
		if (!r && is_aggregate(ft) &&
		    relevant(ft, ft->ident ? ft->ident : sid, depth + 1))
			r = 1;
	} END_FOR_EACH_PTR(mem);
	/* an untagged type's answer depends on sid: remember only a final one */
	if (r || is_tagged(s))
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
	if (!td->ident || !b || !is_aggregate(b) || !is_tagged(b) || b->ident == td->ident ||
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
		b = base_of(mem);
		if (depth < 64 && is_aggregate(b) && direct_markers_1(b, depth + 1))
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
		if (r || !t || !is_aggregate(t) || !t->symbol_list)
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
			note_typedef(sym);
			typedef_of_tag(sym);
		}
	} END_FOR_EACH_PTR(sym);
	/* the relevant struct definitions of this scope (and of the blocks
	 * of its functions) */
	for (l = 0; l < 2; l++)
	FOR_EACH_PTR(lists[l], sym) {
		struct symbol *t = NULL;
		if (sym->namespace == NS_STRUCT && is_aggregate(sym))
			t = sym;
		else if (sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE &&
			 is_aggregate(sym->ctype.base_type) && !is_tagged(sym->ctype.base_type))
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
	qsort(v, n, sizeof(*v), cmp_pos);
	for (i = 0; i < n; i++) {
		struct symbol *s = v[i];
		struct ch_type *ct;
		int tagged = is_tagged(s);

		if (i && s == v[i - 1])
			continue;
		ct = build_type(s, 0);
		if (!ct)
			continue;
		if (!tagged && typedef_align(s) > ct->align)
			ct->align = (unsigned)typedef_align(s);
		{
			int vla = 0;
			const char *why = no_layout_why(ct, &vla);
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

/* ---- printing ------------------------------------------------------------ */
unsigned ch_name_column(const char *path, unsigned line, unsigned col, const char *field)
{
	const char *text, *name;
	size_t len, i, nl;
	unsigned c = 1, found = 0;

	if (!field || !line || !col)
		return col;
	name = strrchr(field, '.');
	name = name ? name + 1 : field;
	nl = strcspn(name, "[");
	if (!nl)
		return col;
	text = ch_source_line(path, line, &len);
	if (!text)
		return col;
	for (i = 0; i < len; i++) {
		if (c >= col && !found && i + nl <= len && !memcmp(text + i, name, nl) &&
		    (i == 0 || !is_idch((unsigned char)text[i - 1])) &&
		    (i + nl == len || !is_idch((unsigned char)text[i + nl]))) {
			found = c;
			break;
		}
		if (text[i] == '\t')
			c += tabstop - (c - 1) % tabstop;
		else
			c++;
	}
	return found ? found : col;
}

void ch_print_finding(const struct ch_finding *f, void *arg)
{
	struct position pos;
	int stream = stream_of(f->loc.file);
	unsigned col = f->loc.col;

	memset(&pos, 0, sizeof(pos));
	if (stream >= 0 && f->loc.line) {
		const struct symbol *named = (const struct symbol *)(uintptr_t)f->loc.fe_loc;
		if (named && named->ident) {
			/* a group marker's name is pasted: G is what the source spells */
			const char *nm = show_ident(named->ident), *g;
			if (ch_marker_kind(nm, &g) != CH_MARKER_NONE)
				nm = g;
			col = ch_name_column(f->loc.file, f->loc.line, col, nm);
		}
		pos.stream = stream;
		pos.line = f->loc.line;
		pos.pos = col;
	}
	if (ch_records_on(ch_sparse_ctx)) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		r.file = stream >= 0 ? stream_name(stream) : f->loc.file;
		r.line = pos.line;
		r.col = pos.pos;
		if (f->check == CH_CHECK_INLINE_ADDR) {
			r.confidence = "possible";
			r.evidence = "the address is taken in the source (no call graph)";
		}
		ch_record_add(ch_sparse_ctx, &r);
	}
	if (f->severity == CH_SEV_ERROR) {
		if (strlen(f->message) < 400) {
			sparse_error(pos, "%s", f->message);
			return;
		}
		has_error |= 1;
	} else if (f->severity == CH_SEV_WARNING && strlen(f->message) < 400 && !has_error) {
		/* sparse's own path, for -Wsparse-error; but not under its
		 * warning limit (-fmax-warnings, 100 by default): cachehot's
		 * findings are not sparse's warnings to cap (with
		 * 5000 annotated fields, 98 of 4781 findings were printed) */
		int saved = fmax_warnings;
		fmax_warnings = 2;   /* > 1: no "too many warnings" in its place */
		warning(pos, "%s", f->message);
		fmax_warnings = saved;
		return;
	}
	/* notes, messages too long for sparse's 512-byte buffer, and warnings
	 * after an error (sparse would drop them; GCC, and so the plugin,
	 * prints them: the engines must agree) */
	if (f->severity == CH_SEV_WARNING && Wsparse_error)
		has_error |= 1;
	fflush(stdout);
	fprintf(stderr, "%s:%d:%d: %s%s%s\n", stream >= 0 ? stream_name(stream) : "<unknown>",
		pos.line, pos.pos, diag_prefix,
		f->severity == CH_SEV_ERROR ? "error: " :
		f->severity == CH_SEV_WARNING ? "warning: " : "note: ", f->message);
}

void ch_sparse_report(struct position pos, struct ch_record *r)
{
	if (!r->file && pos.line) {
		r->file = stream_name(pos.stream);
		r->line = pos.line;
		r->col = pos.pos;
	}
	ch_record_add(ch_sparse_ctx, r);
	if (r->severity == CH_SEV_ERROR) {
		sparse_error(pos, "%s", r->message);
		return;
	}
	fflush(stdout);
	if (pos.line)
		fprintf(stderr, "%s:%d:%d: %s%s%s\n", stream_name(pos.stream), pos.line, pos.pos,
			diag_prefix, r->severity == CH_SEV_WARNING ? "warning: " : "note: ",
			r->message);
	else
		fprintf(stderr, "cachehot-sparse: %s%s\n",
			r->severity == CH_SEV_WARNING ? "warning: " : "note: ", r->message);
}

void ch_sparse_error(struct position pos, enum ch_check check, const char *msg)
{
	struct ch_record r;
	ch_record_init(&r, check, CH_SEV_ERROR, msg);
	ch_sparse_report(pos, &r);
}
