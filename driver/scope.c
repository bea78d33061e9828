// SPDX-License-Identifier: GPL-2.0
/*
 * scope.c -- which struct/union or function a source line belongs to.
 *
 * A small tokenizer (comments, string and character literals and
 * preprocessor lines skipped) tracks braces: "struct NAME {", a typedef'd
 * anonymous "typedef struct { ... } NAME;" and "NAME(...) {" at file level
 * open named scopes. Attribute-like words (starting with "__" or
 * "____cacheline") between the keyword, the name and the brace are skipped.
 * It is a heuristic for baselines and patch-only mode, not a parser.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

struct tok { const char *s; size_t len; unsigned line; };

static int is_kw(const struct tok *t, const char *kw)
{
	return t->len == strlen(kw) && !strncmp(t->s, kw, t->len);
}
static int is_ident(const struct tok *t) { return isalpha((unsigned char)t->s[0]) || t->s[0] == '_'; }
static int is_punct(const struct tok *t, char c) { return t->len == 1 && t->s[0] == c; }
static int in_list(const struct tok *t, const char *const *list)
{
	for (; *list; list++)
		if (is_kw(t, *list))
			return 1;
	return 0;
}
/* Attribute macros that take an argument list. */
static const char *const arg_attrs[] = {
	"__attribute__", "__attribute", "__aligned", "__acquires", "__releases",
	"__must_hold", "__cond_acquires", "__cond_releases", "__acquires_shared",
	"__releases_shared", "__printf", "__scanf", "__section", "__alloc_size",
	"__diag_ignore", "__no_sanitize", "__counted_by", NULL
};
/* Attribute words without arguments that may stand between "struct", the
 * tag and the brace. */
static const char *const bare_attrs[] = {
	"__packed", "__randomize_layout", "__no_randomize_layout", "__designated_init",
	"__aligned_largest", "__may_alias", NULL
};
static int is_bare_attr(const struct tok *t)
{
	return in_list(t, bare_attrs) || (t->len > 13 && !strncmp(t->s, "____cacheline", 13));
}
static void add_scope(struct scopes *out, const char *name, size_t len, int is_func, unsigned first)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 32;
		out->v = xrealloc(out->v, out->cap * sizeof(*out->v));
	}
	out->v[out->n].name = name ? xstrndup(name, len) : NULL;
	out->v[out->n].is_func = is_func;
	out->v[out->n].first = first;
	out->v[out->n].last = first;
	out->n++;
}

/* Index of the token before the balanced (...) group ending at i, or -1. */
static long skip_parens_back(const struct tok *t, long i)
{
	int depth = 0;
	for (; i >= 0; i--) {
		if (is_punct(&t[i], ')')) depth++;
		else if (is_punct(&t[i], '(') && --depth == 0) return i - 1;
	}
	return -1;
}

/* Skip attributes (and their argument groups) backwards from i. */
static long skip_attrs_back(const struct tok *t, long i, long stop)
{
	while (i > stop) {
		if (is_punct(&t[i], ')')) {
			long j = skip_parens_back(t, i);
			if (j > stop && in_list(&t[j], arg_attrs)) { i = j - 1; continue; }
			return i;
		}
		if (is_bare_attr(&t[i])) { i--; continue; }
		return i;
	}
	return i;
}

/* Skip attributes forwards from i (up to end, exclusive). */
static long skip_attrs_fwd(const struct tok *t, long i, long end)
{
	while (i < end) {
		if (in_list(&t[i], arg_attrs) && i + 1 < end && is_punct(&t[i + 1], '(')) {
			int depth = 0;
			for (i++; i < end; i++) {
				if (is_punct(&t[i], '(')) depth++;
				else if (is_punct(&t[i], ')') && --depth == 0) break;
			}
			i++;
			continue;
		}
		if (is_bare_attr(&t[i])) { i++; continue; }
		break;
	}
	return i;
}

void scan_scopes(const char *text, struct scopes *out)
{
	struct tok *t = NULL;
	size_t nt = 0, ct = 0;
	struct frame { long scope; int anon_typedef; } *stack = NULL;
	size_t depth = 0, cstack = 0;
	long stmt_start = 0, pending_name = -1;
	unsigned line = 1;
	int bol = 1;  /* at beginning of a line (only spaces so far) */
	const char *p = text;

	while (*p) {
		char c = *p;
		if (c == '\n') { line++; bol = 1; p++; continue; }
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { p++; continue; }
		if (c == '/' && p[1] == '*') {
			p += 2;
			while (*p && !(p[0] == '*' && p[1] == '/')) { if (*p == '\n') line++; p++; }
			if (*p) p += 2;
			continue;
		}
		if (c == '/' && p[1] == '/') { while (*p && *p != '\n') p++; continue; }
		if (c == '#' && bol) {  /* preprocessor line, with continuations */
			while (*p && *p != '\n') {
				if (*p == '\\' && p[1] == '\n') { line++; p++; }
				else if (p[0] == '/' && p[1] == '*') {
					p += 2;
					while (*p && !(p[0] == '*' && p[1] == '/')) { if (*p == '\n') line++; p++; }
					if (!*p)
						break;   /* unterminated: never step past the NUL (make fuzz) */
					p++;
				}
				p++;
			}
			continue;
		}
		bol = 0;
		if (c == '"' || c == '\'') {
			p++;
			while (*p && *p != c && *p != '\n') { if (*p == '\\' && p[1]) p++; p++; }
			if (*p == c) p++;
			continue;
		}
		if (nt == ct) { ct = ct ? 2 * ct : 1024; t = xrealloc(t, ct * sizeof(*t)); }
		struct tok *k = &t[nt];
		k->s = p; k->line = line;
		if (isalpha((unsigned char)c) || c == '_') {
			while (isalnum((unsigned char)*p) || *p == '_') p++;
		} else if (isdigit((unsigned char)c)) {
			while (isalnum((unsigned char)*p) || *p == '.') p++;
		} else {
			p++;
		}
		k->len = p - k->s;
		nt++;
		long i = nt - 1;
		if (pending_name >= 0 && is_ident(k) && !is_bare_attr(k) && !in_list(k, arg_attrs)) {
			struct scope *s = &out->v[pending_name];
			if (!s->name) s->name = xstrndup(k->s, k->len);
			pending_name = -1;
		}
		if (is_punct(k, ';')) { stmt_start = i + 1; pending_name = -1; continue; }
		if (is_punct(k, '{')) {
			long j = skip_attrs_back(t, i - 1, stmt_start - 1);
			long scope = -1, kw = -1;
			int anon_td = 0;
			int in_func = 0;
			for (size_t d = 0; d < depth; d++)
				if (stack[d].scope >= 0 && out->v[stack[d].scope].is_func) in_func = 1;
			/* the last struct/union keyword of the statement */
			for (long q = stmt_start; q < i; q++)
				if (is_kw(&t[q], "struct") || is_kw(&t[q], "union"))
					kw = q;
			long after = kw >= 0 ? skip_attrs_fwd(t, kw + 1, i) : -1;
			if (kw >= 0 && after == i) {
				/* "struct {": anonymous, named by a typedef if any */
				for (long q = stmt_start; q < kw; q++)
					if (is_kw(&t[q], "typedef")) anon_td = 1;
				if (anon_td) {
					add_scope(out, NULL, 0, 0, t[kw].line);
					scope = out->n - 1;
				}
			} else if (kw >= 0 && after < i && is_ident(&t[after]) &&
				   skip_attrs_fwd(t, after + 1, i) == i) {
				/* "struct NAME {" */
				add_scope(out, t[after].s, t[after].len, 0, t[kw].line);
				scope = out->n - 1;
			} else if (j > stmt_start && is_punct(&t[j], ')') && !in_func) {
				long f = skip_parens_back(t, j);
				if (f >= stmt_start && is_ident(&t[f]) && !is_kw(&t[f], "if") &&
				    !is_kw(&t[f], "while") && !is_kw(&t[f], "for") && !is_kw(&t[f], "switch")) {
					add_scope(out, t[f].s, t[f].len, 1, t[f].line);
					scope = out->n - 1;
				}
			}
			if (depth == cstack) {
				cstack = cstack ? 2 * cstack : 64;
				stack = xrealloc(stack, cstack * sizeof(*stack));
			}
			stack[depth].scope = scope;
			stack[depth].anon_typedef = anon_td;
			depth++;
			stmt_start = i + 1;
			continue;
		}
		if (is_punct(k, '}')) {
			if (depth > 0) {
				depth--;
				if (stack[depth].scope >= 0) {
					out->v[stack[depth].scope].last = line;
					if (stack[depth].anon_typedef)
						pending_name = stack[depth].scope;
					/* a function body ends its "statement" */
					if (out->v[stack[depth].scope].is_func) { stmt_start = i + 1; continue; }
				}
			}
			/* "} name;" of a struct keeps the declaration statement going */
			continue;
		}
	}
	free(t);
	free(stack);
	/* Drop typedef'd anonymous structs whose name was never seen. */
	size_t o = 0;
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].name) out->v[o++] = out->v[i];
	out->n = o;
}

void scopes_free(struct scopes *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const struct scope *scope_at(const struct scopes *s, unsigned line)
{
	const struct scope *best = NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct scope *x = &s->v[i];
		if (line < x->first || line > x->last)
			continue;
		if (!best || x->last - x->first < best->last - best->first)
			best = x;
	}
	return best;
}
