/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idiom.c -- a struct's own padding and alignment vocabulary, read from the
 * source lines its members were declared on, so that fixes are written the
 * way the tree already writes them (docs/checks.rst "The tree's own
 * idioms").
 *
 * A member declared by a line "NAME(N);" is written with the tree's macro
 * NAME when the member is what such a macro gives:
 *  - a pad macro: a hand-sized byte array of N bytes (HAProxy's
 *    THREAD_PAD(63) -> char __pad_276[63]);
 *  - an alignment macro: a zero-size aggregate member aligned to N bytes
 *    (HAProxy's THREAD_ALIGN(64) and ALWAYS_ALIGN(64) -> union { }
 *    __attribute__((aligned(64))));
 *  - an attribute macro after a member's declarator ("T x NAME(N);",
 *    "T x NAME;"), whose member is aligned to N (or to the line for a bare
 *    NAME such as ____cacheline_aligned or __rte_cache_aligned).
 * Every engine reports the same file and line for a member (the macro's
 * expansion point), so every engine reads the same text: they agree.
 *
 * The separator idiom: a hand-sized byte array of at least (L - 1) bytes
 * between two fields puts them on different L-byte lines wherever the
 * object starts (a calloc'ed object is only 16-byte aligned); HAProxy's
 * server-t.h says so of THREAD_PAD ("for dynamically allocated structures
 * which cannot guarantee alignment").
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

static int ident_start(int c) { return isalpha(c) || c == '_'; }
static int ident_char(int c) { return isalnum(c) || c == '_'; }

/* s[0..len) is, apart from blanks, a trailing ';' and a comment, one call
 * "NAME(N)" with N a decimal or hex constant: *name (ctx-owned) and *n. */
static int macro_call(ch_ctx *ctx, const char *s, size_t len, const char **name,
		      unsigned long long *n)
{
	size_t i = 0, b;
	char *end;
	char num[32];
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i >= len || !ident_start((unsigned char)s[i]))
		return 0;
	b = i;
	while (i < len && ident_char((unsigned char)s[i]))
		i++;
	{
		size_t e = i, k;
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len || s[i] != '(')
			return 0;
		i++;
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		for (k = 0; i < len && k + 1 < sizeof(num) && isalnum((unsigned char)s[i]); )
			num[k++] = s[i++];
		num[k] = 0;
		if (!k)
			return 0;
		*n = strtoull(num, &end, 0);
		if (*end && strspn(end, "uUlL") != strlen(end))
			return 0;
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len || s[i] != ')')
			return 0;
		i++;
		while (i < len && (isspace((unsigned char)s[i]) || s[i] == ';'))
			i++;
		if (i < len && !(s[i] == '/' && i + 1 < len && (s[i + 1] == '*' || s[i + 1] == '/')))
			return 0;
		*name = ch_printf(ctx, "%.*s", (int)(e - b), s + b);
	}
	return 1;
}

/* Keywords and GCC spellings that look like a call but are no tree macro. */
static int reserved(const char *name)
{
	static const char *const words[] = {
		"_Alignas", "alignas", "__attribute__", "__attribute", "_Static_assert",
		"static_assert", "sizeof", "typeof", "__typeof__", "__aligned__", NULL
	};
	size_t i;
	for (i = 0; words[i]; i++)
		if (!strcmp(name, words[i]))
			return 1;
	return 0;
}

/* 1 if name says it aligns ("align" in any case: ____cacheline_aligned,
 * __rte_cache_aligned, THREAD_ALIGNED): a member aligned by _Alignas and
 * annotated __cacheline_hot must not make the annotation a vocabulary. */
static int says_align(const char *name)
{
	size_t i;
	for (i = 0; name[i]; i++)
		if (!strncasecmp(name + i, "align", 5))
			return 1;
	return 0;
}

/* "... NAME(N);" or "... NAME;" after the member's name on its line: an
 * attribute macro (THREAD_ALIGNED(64), ____cacheline_aligned). */
static const char *attr_macro(ch_ctx *ctx, const char *s, size_t len, const char *member,
			      unsigned long long *n)
{
	size_t ml = strlen(member), i;
	for (i = 0; i + ml <= len; i++) {
		size_t j;
		const char *name;
		if (memcmp(s + i, member, ml) || (i && ident_char((unsigned char)s[i - 1])) ||
		    (i + ml < len && ident_char((unsigned char)s[i + ml])))
			continue;
		j = i + ml;
		/* skip array bounds */
		while (j < len && (isspace((unsigned char)s[j]) || s[j] == '[')) {
			if (s[j] == '[') {
				while (j < len && s[j] != ']')
					j++;
			}
			if (j < len)
				j++;
		}
		if (j >= len || !ident_start((unsigned char)s[j]))
			return NULL;
		if (macro_call(ctx, s + j, len - j, &name, n))
			return reserved(name) ? NULL : name;
		{
			size_t b = j, k;
			while (j < len && ident_char((unsigned char)s[j]))
				j++;
			k = j;
			while (k < len && isspace((unsigned char)s[k]))
				k++;
			if (k < len && s[k] == ';') {
				*n = 0;
				name = ch_printf(ctx, "%.*s", (int)(j - b), s + b);
				return reserved(name) ? NULL : name;
			}
		}
		return NULL;
	}
	return NULL;
}

static long find_word(const char *s, size_t len, size_t from, const char *w);

void ch_idiom_of(ch_ctx *ctx, const struct ch_type *t, unsigned L, struct ch_idiom *out)
{
	size_t i;
	memset(out, 0, sizeof(*out));
	if (!t)
		return;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		enum ch_pad_kind k = ch_member_pad_kind(m);
		const char *text, *name;
		size_t len;
		unsigned long long n;
		if (k == CH_PAD_BYTES && L && m->size + 1 >= L) {
			if (!out->separator)
				out->separator = m;
			out->nseparators++;
		}
		if (!m->loc.file || !m->loc.line)
			continue;
		if (k == CH_PAD_BYTES) {
			if (out->pad_macro)
				continue;
			text = ch_source_line(m->loc.file, m->loc.line, &len);
			if (text && !memchr(text, '[', len) && macro_call(ctx, text, len, &name, &n) &&
			    !reserved(name) && n == m->size)
				out->pad_macro = name;
			continue;
		}
		if (m->size == 0 && !m->name && m->align > 1 && !m->bit_size) {
			if (out->align_macro)
				continue;
			text = ch_source_line(m->loc.file, m->loc.line, &len);
			if (text && macro_call(ctx, text, len, &name, &n) && !reserved(name) &&
			    n == m->align)
				out->align_macro = name;
			continue;
		}
		if (m->user_align && m->name && m->size > 0 && !out->attr_macro) {
			text = ch_source_line(m->loc.file, m->loc.line, &len);
			name = text ? attr_macro(ctx, text, len, m->name, &n) : NULL;
			if (name && says_align(name) && find_word(text, len, 0, "_Alignas") < 0 &&
			    find_word(text, len, 0, "alignas") < 0 &&
			    (n ? n == m->align : m->align == L)) {
				out->attr_macro = name;
				out->attr_arg = n != 0;
			}
		}
	}
}

/* ---- declarations with several declarators ------------------------------ */

/* Offset of the whole word w in s[from..len), or -1. */
static long find_word(const char *s, size_t len, size_t from, const char *w)
{
	size_t wl = strlen(w), i;
	for (i = from; i + wl <= len; i++)
		if (!memcmp(s + i, w, wl) && (!i || !ident_char((unsigned char)s[i - 1])) &&
		    (i + wl >= len || !ident_char((unsigned char)s[i + wl])))
			return (long)i;
	return -1;
}

/* 1 if members a and b (b declared right after a) are declarators of one
 * declaration: same line, and a ',' (no ';') between their names. */
static int same_decl(const struct ch_member *a, const struct ch_member *b)
{
	const char *s;
	size_t len;
	long pa, pb, k;
	if (!a->name || !b->name || !a->loc.file || !b->loc.file || a->loc.line != b->loc.line ||
	    strcmp(a->loc.file, b->loc.file))
		return 0;
	s = ch_source_line(a->loc.file, a->loc.line, &len);
	if (!s || (pa = find_word(s, len, 0, a->name)) < 0 ||
	    (pb = find_word(s, len, (size_t)pa + strlen(a->name), b->name)) < 0)
		return 0;
	for (k = pa; k < pb; k++) {
		if (s[k] == ';')
			return 0;
		if (s[k] == ',')
			return 1;
	}
	return 0;
}

void ch_decl_group(const struct ch_type *t, size_t i, size_t *first, size_t *last)
{
	size_t a = i, b = i;
	while (a > 0 && same_decl(&t->members[a - 1], &t->members[a]))
		a--;
	while (b + 1 < t->nmembers && same_decl(&t->members[b], &t->members[b + 1]))
		b++;
	*first = a;
	*last = b;
}
