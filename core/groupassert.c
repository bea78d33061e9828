/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groupassert.c -- CACHELINE_ASSERT_GROUP_MEMBER/_SIZE: read them from
 * preprocessed source, check them against the groups of a layout
 * ([cachehot-group-assert]) and write the block the kernel keeps by hand.
 * Source of the rule: include/linux/cache.h (6.8, "cache: enforce cache
 * groups"): MEMBER holds when offsetof(M) >= offsetofend(begin marker) and
 * offsetofend(M) <= offsetof(end marker); SIZE holds when
 * offsetof(end) - offsetofend(begin) <= SIZE.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memmem */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "cachehot-groupassert.h"
#include "cachehot-netcl.h"

struct ch_asserts {
	ch_ctx *ctx;
	struct ch_group_assert *v;
	size_t n, cap;
	/* the source file last looked at for columns: its text and lines */
	const char *src_name;
	char *src;
	size_t *src_lines, src_nlines;
};

ch_asserts *ch_asserts_new(ch_ctx *ctx)
{
	ch_asserts *a = (ch_asserts *)calloc(1, sizeof(*a));
	if (!a)
		abort();
	a->ctx = ctx;
	return a;
}

void ch_asserts_free(ch_asserts *a)
{
	if (!a)
		return;
	free(a->v);
	free(a->src);
	free(a->src_lines);
	free(a);
}

size_t ch_asserts_count(const ch_asserts *a) { return a->n; }
const struct ch_group_assert *ch_asserts_get(const ch_asserts *a, size_t i) { return &a->v[i]; }

int ch_asserts_names_type(const ch_asserts *a, const char *type_name)
{
	size_t i;
	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].type_name, type_name))
			return 1;
	return 0;
}

/* ---- columns: GCC's display column of the macro name in the real source -- */
static void load_src(ch_asserts *a, const char *file)
{
	size_t n = 0, i;
	if (a->src_name && !strcmp(a->src_name, file))
		return;
	free(a->src);
	free(a->src_lines);
	a->src = NULL;
	a->src_lines = NULL;
	a->src_nlines = 0;
	a->src_name = file;
	a->src = ch_read_input(file, &n);   /* a regular file, never a device */
	if (!a->src)
		return;
	a->src_lines = (size_t *)ch_xrealloc(NULL, (n + 2) * sizeof(size_t));
	a->src_lines[a->src_nlines++] = 0;
	for (i = 0; i < n; i++)
		if (a->src[i] == '\n')
			a->src_lines[a->src_nlines++] = i + 1;
}

/* 1-based, tabs to multiples of 8, as GCC shows it; 1 when unknown. */
static unsigned display_col(ch_asserts *a, const char *file, unsigned line)
{
	const char *s, *hit;
	unsigned col = 1;
	load_src(a, file);
	if (!a->src || !line || line > a->src_nlines)
		return 1;   /* source not at hand: the line's start */
	s = a->src + a->src_lines[line - 1];
	{
		const char *e = strchr(s, '\n');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		hit = (const char *)memmem(s, l, "CACHELINE_ASSERT_GROUP_", 23);
	}
	if (!hit)
		return 1;
	for (; s < hit; s++)
		col = *s == '\t' ? ((col - 1) / 8 + 1) * 8 + 1 : col + 1;
	return col;
}

/* ---- scanning ---------------------------------------------------------------- */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A C string literal at *pp: its contents unescaped (ctx-owned), or NULL. */
static const char *string_lit(ch_ctx *ctx, const char **pp)
{
	const char *p = skip_ws(*pp), *q;
	char *out;
	size_t n = 0;
	if (*p != '"')
		return NULL;
	/* find the end first: allocate the literal's length, not the text's */
	for (q = p + 1; *q && *q != '"' && *q != '\n'; q++)
		if (*q == '\\' && q[1] && q[1] != '\n')
			q++;
	if (*q != '"')
		return NULL;
	out = (char *)ch_alloc(ctx, (size_t)(q - p));
	for (p++; p < q; p++) {
		if (*p == '\\')
			p++;
		out[n++] = *p;
	}
	*pp = q + 1;
	return out;
}

static int comma(const char **pp)
{
	const char *p = skip_ws(*pp);
	if (*p != ',')
		return -1;
	*pp = p + 1;
	return 0;
}

static const char *no_macro(const char *name, void *arg)
{
	(void)name;
	(void)arg;
	return NULL;
}

static struct ch_group_assert *add(ch_asserts *a)
{
	CH_GROW(a->v, a->n, a->cap, 64);
	memset(&a->v[a->n], 0, sizeof(*a->v));
	return &a->v[a->n++];
}

/* One call at p (just after its '('); the rest of the line is lim. */
static int parse_call(ch_asserts *a, int is_size, const char *p, const char *file,
		      unsigned line, const char *name)
{
	ch_ctx *ctx = a->ctx;
	struct ch_group_assert *x;
	const char *type, *group, *third;
	const char *what = is_size ? "__cachehot_assert_group_size" : "__cachehot_assert_group_member";

	type = string_lit(ctx, &p);
	if (!type || comma(&p) || !(group = string_lit(ctx, &p)) || comma(&p) ||
	    !(third = string_lit(ctx, &p))) {
		ch_set_error(ctx, "%s:%u: malformed %s() call (preprocessed with "
			     "include/cachehot-asserts.h?)", name, line, what);
		return -1;
	}
	x = add(a);
	x->kind = is_size ? CH_ASSERT_SIZE : CH_ASSERT_MEMBER;
	if (!strncmp(type, "struct ", 7))
		type += 7;
	else if (!strncmp(type, "union ", 6))
		type += 6;
	x->type_name = type;
	x->group = group;
	x->loc.file = file;
	x->loc.line = line;
	if (!is_size) {
		x->member = third;
	} else {
		const char *s;
		int depth = 0;
		long long v;
		x->size_text = third;
		if (comma(&p)) {
			a->n--;
			ch_set_error(ctx, "%s:%u: malformed %s() call: no expanded bound", name, line, what);
			return -1;
		}
		p = skip_ws(p);
		for (s = p; *s && *s != '\n' && (depth || *s != ')'); s++)
			depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
		if (*s != ')') {
			a->n--;
			ch_set_error(ctx, "%s:%u: malformed %s() call: unbalanced parentheses", name,
				     line, what);
			return -1;
		}
		x->size_expr = ch_printf(ctx, "%.*s", (int)(s - p), p);
		if (!ch_eval_macro(x->size_expr, no_macro, NULL, &v) && v >= 0) {
			x->size_known = 1;
			x->size = (uint64_t)v;
		}
	}
	x->loc.col = display_col(a, file, line);
	return 0;
}

int ch_asserts_scan(ch_asserts *a, const char *name, const char *text)
{
	ch_ctx *ctx = a->ctx;
	const char *p = text, *file;
	unsigned line = 1;
	static const char tag[] = "__cachehot_assert_group_";

	name = ch_strdup(ctx, name);
	file = name;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (p[0] == '#' && p[1] == ' ' && p[2] >= '0' && p[2] <= '9') {
			/* linemarker: # LINE "FILE" FLAGS... */
			const char *q = p + 2, *fs;
			unsigned long l = strtoul(q, (char **)&q, 10);
			q = skip_ws(q);
			fs = string_lit(ctx, &q);
			if (fs)
				file = fs;
			line = (unsigned)l;
		} else {
			const char *h = p, *end = p + len;
			/* memmem bounded by the line: linear in the text */
			while ((h = (const char *)memmem(h, (size_t)(end - h), tag,
							 sizeof(tag) - 1))) {
				const char *q = h + sizeof(tag) - 1;
				int is_size = -1;
				if (!strncmp(q, "member(", 7))
					is_size = 0, q += 7;
				else if (!strncmp(q, "size(", 5))
					is_size = 1, q += 5;
				if (is_size >= 0 && parse_call(a, is_size, q, file, line, name))
					return -1;
				h = q;
			}
			line++;
		}
		p = eol ? eol + 1 : p + len;
	}
	return 0;
}

int ch_asserts_read(ch_asserts *a, const char *path)
{
	char *buf = ch_read_text_file(a->ctx, path);
	int rc;
	if (!buf)
		return -1;
	rc = ch_asserts_scan(a, path, buf);
	free(buf);
	return rc;
}
