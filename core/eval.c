/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eval.c -- value of a constant macro such as SMP_CACHE_BYTES.
 *
 * Front-ends hand us the body of an object-like macro; we evaluate the small
 * integer expressions the kernel uses for cache sizes:
 *   #define L1_CACHE_SHIFT (CONFIG_X86_L1_CACHE_SHIFT)
 *   #define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)      (arch/x86/include/asm/cache.h)
 *   #define L1_CACHE_BYTES (_AC(1,UL) << L1_CACHE_SHIFT)
 * This is not a C expression parser: anything else fails and the caller
 * falls back to the default line size with a note naming the macro.
 * Evaluation is total: overflow, division by zero, shifts of 63
 * or more or negative, nesting and size past fixed limits all fail cleanly
 * instead of trapping (LLONG_MIN / -1 raised SIGFPE in every engine).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Limits that make every evaluation finish: macro bodies nested inside
 * each other, parentheses and unary operators nested inside one body, and
 * the total number of operands over all expansions (a body that names
 * another twice at each of 16 levels would otherwise take 2^16 steps per
 * level of fan-out). */
#define EV_MACRO_DEPTH 16
#define EV_NEST_DEPTH 64
#define EV_STEPS 100000

struct ev {
	const char *p;
	ch_macro_lookup_fn lookup;
	void *arg;
	int depth;          /* macro bodies */
	int nest;           /* parentheses and unary operators, all bodies */
	long steps;
	char *why;          /* first problem, or "" */
	size_t whysz;
	int err;
};

static void fail(struct ev *e, const char *fmt, const char *name)
{
	if (!e->err && e->why && e->whysz)
		snprintf(e->why, e->whysz, fmt, name ? name : "");
	e->err = 1;
}

static long long ev_expr(struct ev *e);

static void skip_ws(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long long ev_body(struct ev *e, const char *name, const char *body)
{
	const char *save = e->p;
	long long v;
	if (!body) {
		fail(e, "'%s' is not an object-like macro with a constant value", name);
		return 0;
	}
	if (e->depth >= EV_MACRO_DEPTH) {
		fail(e, "macros nested more than 16 deep at '%s'", name);
		return 0;
	}
	e->p = body;
	e->depth++;
	v = ev_expr(e);
	skip_ws(e);
	if (!e->err && *e->p)
		fail(e, "the body of '%s' is not a constant expression", name);
	e->depth--;
	e->p = save;
	return e->err ? 0 : v;
}

static long long ev_unary(struct ev *e);

static long long ev_primary(struct ev *e)
{
	skip_ws(e);
	if (e->err)
		return 0;
	if (++e->steps > EV_STEPS) {
		fail(e, "more than 100000 operands%s", NULL);
		return 0;
	}
	if (*e->p == '(') {
		long long v;
		e->p++;
		v = ev_expr(e);
		skip_ws(e);
		if (e->err)
			return 0;
		if (*e->p != ')') {
			fail(e, "not a constant expression%s", NULL);
			return 0;
		}
		e->p++;
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		long long v;
		errno = 0;
		v = strtoll(e->p, &end, 0);
		if (errno == ERANGE) {
			fail(e, "integer constant out of range%s", NULL);
			return 0;
		}
		e->p = end;
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
			e->p++;
		if (isalnum((unsigned char)*e->p) || *e->p == '_' || *e->p == '.') {
			fail(e, "not an integer constant%s", NULL);
			return 0;
		}
		return v;
	}
	if (isalpha((unsigned char)*e->p) || *e->p == '_') {
		char name[128];
		size_t n = 0;
		while (isalnum((unsigned char)*e->p) || *e->p == '_') {
			if (n == sizeof(name) - 1) {
				fail(e, "a name longer than 127 characters%s", NULL);
				return 0;
			}
			name[n++] = *e->p++;
		}
		name[n] = 0;
		skip_ws(e);
		/* _AC(X, Y) and _UL(X) / _ULL(X) from include/uapi/linux/const.h */
		if (*e->p == '(' && (!strcmp(name, "_AC") || !strcmp(name, "_UL") ||
				     !strcmp(name, "_ULL") || !strcmp(name, "UL"))) {
			long long v;
			e->p++;
			v = ev_expr(e);
			skip_ws(e);
			if (!e->err && *e->p == ',') {
				e->p++;
				skip_ws(e);
				while (isalnum((unsigned char)*e->p) || *e->p == '_')
					e->p++;
				skip_ws(e);
			}
			if (!e->err && *e->p != ')')
				fail(e, "'%s(...)' is not a constant expression", name);
			if (e->err)
				return 0;
			e->p++;
			return v;
		}
		return ev_body(e, name, e->lookup ? e->lookup(name, e->arg) : NULL);
	}
	fail(e, "not a constant expression%s", NULL);
	return 0;
}

static long long ev_unary(struct ev *e)
{
	long long v;
	char op;
	skip_ws(e);
	op = *e->p;
	if (op != '-' && op != '+' && op != '~')
		return ev_primary(e);
	if (++e->nest > EV_NEST_DEPTH) {
		fail(e, "operators or parentheses nested more than 64 deep%s", NULL);
		return 0;
	}
	e->p++;
	v = ev_unary(e);
	e->nest--;
	if (e->err)
		return 0;
	if (op == '-') {
		if (v == LLONG_MIN) {
			fail(e, "overflow%s", NULL);
			return 0;
		}
		return -v;
	}
	return op == '~' ? ~v : v;
}

static long long ev_mul(struct ev *e)
{
	long long v = ev_unary(e), d, r = 0;
	for (;;) {
		skip_ws(e);
		if (e->err)
			return 0;
		if (*e->p == '*') {
			e->p++;
			d = ev_unary(e);
			if (!e->err && __builtin_mul_overflow(v, d, &r))
				fail(e, "overflow%s", NULL);
			v = r;
		} else if (*e->p == '/' || *e->p == '%') {
			char op = *e->p++;
			d = ev_unary(e);
			if (e->err)
				return 0;
			if (!d) {
				fail(e, "division by zero%s", NULL);
				return 0;
			}
			if (v == LLONG_MIN && d == -1) {
				fail(e, "overflow%s", NULL);
				return 0;
			}
			v = op == '/' ? v / d : v % d;
		} else
			return v;
	}
}

static long long ev_add(struct ev *e)
{
	long long v = ev_mul(e), d, r = 0;
	for (;;) {
		skip_ws(e);
		if (e->err)
			return 0;
		if (*e->p == '+' || *e->p == '-') {
			char op = *e->p++;
			d = ev_mul(e);
			if (!e->err && (op == '+' ? __builtin_add_overflow(v, d, &r)
						  : __builtin_sub_overflow(v, d, &r)))
				fail(e, "overflow%s", NULL);
			v = r;
		} else
			return v;
	}
}

static long long ev_shift(struct ev *e)
{
	long long v = ev_add(e), s;
	for (;;) {
		skip_ws(e);
		if (e->err)
			return 0;
		if ((e->p[0] == '<' || e->p[0] == '>') && e->p[1] == e->p[0]) {
			char op = e->p[0];
			e->p += 2;
			s = ev_add(e);
			if (e->err)
				return 0;
			if (s < 0 || s >= 63) {
				fail(e, "shift count out of range%s", NULL);
				return 0;
			}
			if (op == '>')
				v >>= s;
			else if (v < 0 || v > (LLONG_MAX >> s)) {
				fail(e, "overflow%s", NULL);
				return 0;
			} else
				v <<= s;
		} else
			return v;
	}
}

static long long ev_expr(struct ev *e)
{
	long long v;
	if (++e->nest > EV_NEST_DEPTH) {
		fail(e, "operators or parentheses nested more than 64 deep%s", NULL);
		return 0;
	}
	v = ev_shift(e);
	e->nest--;
	return e->err ? 0 : v;
}

int ch_eval_macro_why(const char *body, ch_macro_lookup_fn lookup, void *arg,
		      long long *out, char *why, size_t whysz)
{
	struct ev e;
	long long v;
	if (why && whysz)
		why[0] = 0;
	memset(&e, 0, sizeof(e));
	e.why = why;
	e.whysz = whysz;
	if (!body) {
		fail(&e, "no body%s", NULL);
		return -1;
	}
	e.p = body;
	e.lookup = lookup;
	e.arg = arg;
	v = ev_expr(&e);
	skip_ws(&e);
	if (!e.err && *e.p)
		fail(&e, "not a constant expression%s", NULL);
	if (e.err)
		return -1;
	*out = v;
	return 0;
}

int ch_eval_macro(const char *body, ch_macro_lookup_fn lookup, void *arg, long long *out)
{
	return ch_eval_macro_why(body, lookup, arg, out, NULL, 0);
}

int ch_severity_parse(const char *s, enum ch_severity *out)
{
	if (!s)
		return -1;
	if (!strcmp(s, "note"))
		*out = CH_SEV_NOTE;
	else if (!strcmp(s, "warning"))
		*out = CH_SEV_WARNING;
	else if (!strcmp(s, "error"))
		*out = CH_SEV_ERROR;
	else
		return -1;
	return 0;
}

int ch_line_size_parse(const char *s, unsigned *out)
{
	char *end;
	unsigned long v;
	if (!s || !*s)
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v < 8 || v > 4096 || (v & (v - 1)))
		return -1;
	*out = (unsigned)v;
	return 0;
}

unsigned ch_line_size_eval(ch_ctx *ctx, ch_macro_lookup_fn lookup, void *arg,
			   const char **note, const char **macro)
{
	static const char *const names[] = { "SMP_CACHE_BYTES", "L1_CACHE_BYTES" };
	size_t i;
	if (note)
		*note = NULL;
	if (macro)
		*macro = NULL;
	for (i = 0; i < 2; i++) {
		long long v;
		char why[160];
		const char *body = lookup(names[i], arg);
		if (!body)
			continue;
		if (ch_eval_macro_why(body, lookup, arg, &v, why, sizeof(why)))
			;
		else if (v >= 8 && v <= 4096 && !(v & (v - 1)))
			return (unsigned)v;
		else
			snprintf(why, sizeof(why), "%lld is not a line size (a power of two, 8 to 4096 bytes)", v);
		if (note && ctx)
			*note = ch_msg_line_size_fallback(ctx, names[i], why);
		if (macro)
			*macro = names[i];
		return 0;
	}
	return 0;
}

unsigned ch_line_size_from_macros(ch_macro_lookup_fn lookup, void *arg)
{
	return ch_line_size_eval(NULL, lookup, arg, NULL, NULL);
}

int ch_smp_from_macros(int (*defined)(const char *name, void *arg), void *arg)
{
	return !(defined("__KERNEL__", arg) && !defined("CONFIG_SMP", arg));
}

int ch_kernel_from_macros(int (*defined)(const char *name, void *arg), void *arg)
{
	return defined("__KERNEL__", arg) ? 1 : 0;
}
