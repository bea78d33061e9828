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
 * falls back to the default line size.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct ev {
	const char *p;
	ch_macro_lookup_fn lookup;
	void *arg;
	int depth;
	int err;
};

static long long ev_expr(struct ev *e);

static void skip_ws(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long long ev_body(struct ev *parent, const char *body)
{
	struct ev sub = *parent;
	long long v;
	if (parent->depth > 16 || !body) {
		parent->err = 1;
		return 0;
	}
	sub.p = body;
	sub.depth++;
	v = ev_expr(&sub);
	skip_ws(&sub);
	if (sub.err || *sub.p)
		parent->err = 1;
	return v;
}

static long long ev_primary(struct ev *e)
{
	skip_ws(e);
	if (*e->p == '(') {
		long long v;
		e->p++;
		v = ev_expr(e);
		skip_ws(e);
		if (*e->p != ')') {
			e->err = 1;
			return 0;
		}
		e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -ev_primary(e);
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		long long v = strtoll(e->p, &end, 0);
		e->p = end;
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' || *e->p == 'L')
			e->p++;
		return v;
	}
	if (isalpha((unsigned char)*e->p) || *e->p == '_') {
		char name[128];
		size_t n = 0;
		while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n < sizeof(name) - 1)
			name[n++] = *e->p++;
		name[n] = 0;
		skip_ws(e);
		/* _AC(X, Y) and _UL(X) / _ULL(X) from include/uapi/linux/const.h */
		if (*e->p == '(' && (!strcmp(name, "_AC") || !strcmp(name, "_UL") ||
				     !strcmp(name, "_ULL") || !strcmp(name, "UL"))) {
			long long v;
			e->p++;
			v = ev_expr(e);
			skip_ws(e);
			if (*e->p == ',') {
				while (*e->p && *e->p != ')')
					e->p++;
			}
			if (*e->p != ')') {
				e->err = 1;
				return 0;
			}
			e->p++;
			return v;
		}
		return ev_body(e, e->lookup ? e->lookup(name, e->arg) : NULL);
	}
	e->err = 1;
	return 0;
}

static long long ev_mul(struct ev *e)
{
	long long v = ev_primary(e);
	for (;;) {
		skip_ws(e);
		if (*e->p == '*') {
			e->p++;
			v *= ev_primary(e);
		} else if (*e->p == '/') {
			long long d;
			e->p++;
			d = ev_primary(e);
			if (!d) {
				e->err = 1;
				return 0;
			}
			v /= d;
		} else
			return v;
	}
}

static long long ev_add(struct ev *e)
{
	long long v = ev_mul(e);
	for (;;) {
		skip_ws(e);
		if (*e->p == '+') {
			e->p++;
			v += ev_mul(e);
		} else if (*e->p == '-') {
			e->p++;
			v -= ev_mul(e);
		} else
			return v;
	}
}

static long long ev_expr(struct ev *e)
{
	long long v = ev_add(e);
	for (;;) {
		skip_ws(e);
		if (e->p[0] == '<' && e->p[1] == '<') {
			long long s;
			e->p += 2;
			s = ev_add(e);
			if (s < 0 || s > 40) {
				e->err = 1;
				return 0;
			}
			v <<= s;
		} else if (e->p[0] == '>' && e->p[1] == '>') {
			long long s;
			e->p += 2;
			s = ev_add(e);
			if (s < 0 || s > 62) {
				e->err = 1;
				return 0;
			}
			v >>= s;
		} else
			return v;
	}
}

int ch_eval_macro(const char *body, ch_macro_lookup_fn lookup, void *arg, long long *out)
{
	struct ev e;
	long long v;
	if (!body)
		return -1;
	memset(&e, 0, sizeof(e));
	e.p = body;
	e.lookup = lookup;
	e.arg = arg;
	v = ev_expr(&e);
	skip_ws(&e);
	if (e.err || *e.p)
		return -1;
	*out = v;
	return 0;
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

unsigned ch_line_size_from_macros(ch_macro_lookup_fn lookup, void *arg)
{
	static const char *const names[] = { "SMP_CACHE_BYTES", "L1_CACHE_BYTES" };
	size_t i;
	for (i = 0; i < 2; i++) {
		long long v;
		const char *body = lookup(names[i], arg);
		if (body && !ch_eval_macro(body, lookup, arg, &v) && v >= 8 && v <= 4096 &&
		    !(v & (v - 1)))
			return (unsigned)v;
	}
	return 0;
}

int ch_smp_from_macros(int (*defined)(const char *name, void *arg), void *arg)
{
	return !(defined("__KERNEL__", arg) && !defined("CONFIG_SMP", arg));
}

int ch_kernel_from_macros(int (*defined)(const char *name, void *arg), void *arg)
{
	return defined("__KERNEL__", arg) ? 1 : 0;
}
