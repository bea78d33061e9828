// SPDX-License-Identifier: GPL-2.0
/*
 * model.c -- sparse's view of a struct turned into core's ch_type model
 * (check.c judges what it builds, report.c prints).
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


/* ---- typedefs of anonymous structs ------------------------------------- */
/* Sparse names an anonymous struct after its first typedef (parse.c,
 * external_declaration: base_type->ident = ident) but does not bind it as a
 * tag. As the plugin does, such a struct is judged under the typedef name,
 * with the alignment written on the typedef ("} foo_t __aligned(64);"). */
struct tdinfo { const struct symbol *s; unsigned long align; };
static struct tdinfo *tdn;
static size_t ntdn, captdn;

void ch_sparse_note_typedef(struct symbol *td)
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

unsigned long ch_sparse_typedef_align(const struct symbol *s)
{
	size_t i;
	for (i = 0; i < ntdn; i++)
		if (tdn[i].s == s)
			return tdn[i].align;
	return 0;
}

/* A struct with a tag of its own (bound in sparse's tag namespace). */
int ch_sparse_is_tagged(const struct symbol *s)
{
	return s->namespace == NS_STRUCT && s->ident;
}

/* ---- building ------------------------------------------------------------ */
int ch_sparse_is_aggregate(const struct symbol *s)
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
	else if (ch_sparse_is_aggregate(t) && !t->ident)
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
		if (ch_sparse_is_aggregate(elem))
			m->type = build_type(elem, depth + 1);
		if (t && t->type == SYM_ARRAY) {
			/* the plugin's "ELEM[N]" (N = 0 for a flexible array) */
			const char *en = ch_sparse_is_aggregate(elem)
				? (elem->ident ? show_ident(elem->ident) : "<anonymous>")
				: elem_name(mem, elem);
			m->type_name = ch_printf(ch_sparse_ctx, "%s[%llu]", en,
						 (unsigned long long)m->nelems);
		} else if (ch_sparse_is_aggregate(t)) {
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

const char *ch_sparse_no_layout_why(const struct ch_type *ct, int *vla)
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
		if (ct->members[i].type && ch_sparse_no_layout_why(ct->members[i].type, NULL)) {
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
	ct->name_is_typedef = name && !ch_sparse_is_tagged(s);
	ct->packed = s->packed;
	ct->randomized = ch_attr_randomized(s);
	ct->loc = ch_sparse_loc(s->pos);
	if (!ch_sparse_is_tagged(s))
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
	return ch_sparse_is_aggregate(s) ? build_type(s, 0) : NULL;
}

struct symbol *ch_sparse_base(struct symbol *s)
{
	return base_of(s);
}
