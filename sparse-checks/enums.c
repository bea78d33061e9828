// SPDX-License-Identifier: GPL-2.0
/*
 * enums.c -- enum types laid out as GCC lays them out.
 *
 * Sparse 0.6.4 gives every enum at least the size and alignment of int
 * (symbol.c, examine_enum_type(): bits_in_enum, enum_alignment) and drops
 * the attributes that make GCC choose a smaller type. GCC's rule (the C
 * front end, c-decl.c finish_enum()): with the enumerators' minimum
 * precision P (signed when any value is negative),
 *   - 'packed' on the enum (after the '}', before the tag, on its typedef'd
 *     definition) or -fshort-enums: the smallest integer type of at least P
 *     bits (1, 2, 4 or 8 bytes);
 *   - 'mode(M)' on the enum: the integer type of mode M (QI/byte 1, HI 2,
 *     SI 4, DI/word/pointer 8, TI 16 bytes on x86-64);
 *   - otherwise int / unsigned int, or a 64-bit type when P > 32 (sparse
 *     already agrees here);
 * size and alignment are that type's: 'aligned(N)' written on an enum's
 * definition is overwritten by finish_enum() and has no effect.
 * 'mode(M)' on a declaration of enum type ("enum e x __attribute__((mode(QI)))")
 * gives that declaration the integer type of mode M (sparse said "don't know
 * how to apply mode to enum e").
 *
 * Every later layout (struct offsets, bit-field placement, sizeof) follows,
 * and so does sparse's own view of the type (a packed enum of one byte is
 * loaded and stored as one byte, as GCC does).
 *
 * How: like attrs.c, this relies on private details of libsparse 0.6.4.
 * The 'enum' keyword's symbol_op.declarator (parse.c enum_specifier()) is
 * replaced by one that calls sparse's and then, for a definition, examines
 * the new enum and sets its bit_size and alignment; sparse never examines
 * it again (examined stays 1). The mode keywords' to_mode callbacks are
 * wrapped to accept enum types.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "expression.h"
#include "target.h"

#include "cachehot-sparse.h"

static int short_enums;   /* -fshort-enums: every enum as if packed */

void ch_enum_options(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-fshort-enums"))
			short_enums = 1;
		else if (!strcmp(argv[i], "-fno-short-enums"))
			short_enums = 0;
	}
}

/* The integer type GCC picks for a size in bytes (1, 2, 4, 8, 16). */
static struct symbol *int_of_size(unsigned bytes, int is_unsigned)
{
	switch (bytes) {
	case 1: return is_unsigned ? &uchar_ctype : &schar_ctype;
	case 2: return is_unsigned ? &ushort_ctype : &sshort_ctype;
	case 4: return is_unsigned ? &uint_ctype : &sint_ctype;
	case 8:
		if (bits_in_long == 64)
			return is_unsigned ? &ulong_ctype : &slong_ctype;
		return is_unsigned ? &ullong_ctype : &sllong_ctype;
	case 16: return is_unsigned ? &uint128_ctype : &sint128_ctype;
	}
	return NULL;
}

/* Size in bytes of the integer type of mode keyword id, 0 if none. */
static unsigned mode_bytes(struct ident *id)
{
	struct symbol *kw = lookup_keyword(id, NS_KEYWORD), *t;
	if (!kw || !kw->op || !(kw->op->type & KW_MODE) || !kw->op->to_mode)
		return 0;
	t = kw->op->to_mode(&sint_ctype);
	return t && t->bit_size > 0 ? (unsigned)t->bit_size / 8 : 0;
}

/* Bits GCC needs for value v (wi::min_precision): signed counts a sign bit. */
static unsigned min_precision(unsigned long long v, int is_signed)
{
	unsigned n = 0;
	if (is_signed && (long long)v < 0)
		v = ~v;
	while (v) {
		n++;
		v >>= 1;
	}
	return n + (is_signed ? 1 : 0);
}

/* The size in bytes GCC gives enum e (defined by the tokens from..to), or 0
 * when it is sparse's own (int, or 8 bytes for wider values). */
static unsigned gcc_enum_bytes(struct symbol *e, struct token *from, struct token *to)
{
	static struct ident *mode_id, *mode2_id;
	struct symbol *base = e->ctype.base_type, *m;
	struct token *t;
	unsigned prec = 1, mode = 0, bytes;
	int depth = 0, is_signed;

	if (!mode_id) {
		mode_id = built_in_ident("mode");
		mode2_id = built_in_ident("__mode__");
	}
	/* mode(M) among the attributes around the body (not inside it) */
	for (t = from; t && t != to && !eof_token(t); t = t->next) {
		if (match_op(t, '{'))
			depth++;
		else if (match_op(t, '}'))
			depth--;
		else if (!depth && token_type(t) == TOKEN_IDENT &&
			 (t->ident == mode_id || t->ident == mode2_id) &&
			 match_op(t->next, '(') && token_type(t->next->next) == TOKEN_IDENT)
			mode = mode_bytes(t->next->next->ident);
	}
	if (!mode && !e->packed && !short_enums)
		return 0;
	if (!base || !is_int_type(base) || base->bit_size <= 0)
		return 0;   /* bad or bitwise enums: left to sparse */
	is_signed = !(base->ctype.modifiers & MOD_UNSIGNED);
	FOR_EACH_PTR(e->symbol_list, m) {
		struct expression *x = m->initializer;
		unsigned long long v;
		unsigned p;
		if (!x)
			continue;
		v = x->type == EXPR_VALUE ? x->value : get_expression_value_silent(x);
		if (base->bit_size < 64) {   /* the value as the base type holds it */
			unsigned long long sign = 1ull << (base->bit_size - 1);
			v &= (sign << 1) - 1;
			if (is_signed)
				v = (v ^ sign) - sign;
		}
		p = min_precision(v, is_signed);
		if (p > prec)
			prec = p;
	} END_FOR_EACH_PTR(m);
	if (mode)
		return mode;   /* GCC errors when prec > mode: nothing to judge */
	for (bytes = 1; bytes < 8 && bytes * 8 < prec; bytes *= 2)
		;
	return bytes;
}

static struct token *(*sparse_enum_declarator)(struct token *, struct symbol *,
					       struct decl_state *);
static struct symbol_op enum_op;

static struct token *enum_declarator(struct token *token, struct symbol *kw,
				     struct decl_state *ctx)
{
	struct token *end = sparse_enum_declarator(token, kw, ctx), *t;
	struct symbol *e = ctx->ctype.base_type, *it;
	unsigned bytes;

	if (!e || e->type != SYM_ENUM || !e->symbol_list)
		return end;
	/* a definition: its '{' is among the tokens just parsed */
	for (t = token; t != end && !eof_token(t) && !match_op(t, '{'); t = t->next)
		;
	if (t == end || eof_token(t))
		return end;
	bytes = gcc_enum_bytes(e, token, end);
	it = bytes ? int_of_size(bytes, e->ctype.modifiers & MOD_UNSIGNED) : NULL;
	if (!it)
		return end;
	examine_symbol_type(e);
	e->bit_size = it->bit_size;
	e->ctype.alignment = it->ctype.alignment;
	return end;
}

/* mode(M) on a declaration of enum type: the integer type of mode M, of
 * the enum's signedness (GCC's handle_mode_attribute()). One wrapper per
 * distinct sparse callback. */
typedef struct symbol *to_mode_fn(struct symbol *);
#define NMODES 8
static to_mode_fn *sparse_to_mode[NMODES];
static struct symbol_op mode_ops[NMODES];

static struct symbol *mode_of(int i, struct symbol *t)
{
	if (t && t->type == SYM_ENUM)
		t = t->ctype.modifiers & MOD_UNSIGNED ? &uint_ctype : &sint_ctype;
	return sparse_to_mode[i](t);
}
#define MODE_WRAP(i) static struct symbol *mode_##i(struct symbol *t) { return mode_of(i, t); }
MODE_WRAP(0) MODE_WRAP(1) MODE_WRAP(2) MODE_WRAP(3)
MODE_WRAP(4) MODE_WRAP(5) MODE_WRAP(6) MODE_WRAP(7)
static to_mode_fn *const mode_wraps[NMODES] = {
	mode_0, mode_1, mode_2, mode_3, mode_4, mode_5, mode_6, mode_7
};

void ch_enum_register(void)
{
	static const char *const modes[] = { "QI", "HI", "SI", "DI", "TI", "byte",
		"pointer", "word", NULL };
	struct symbol *kw = lookup_keyword(built_in_ident("enum"), NS_TYPEDEF);
	int i, j, n = 0;

	if (kw && kw->op && kw->op->declarator && kw->op != &enum_op) {
		sparse_enum_declarator = kw->op->declarator;
		enum_op = *kw->op;
		enum_op.declarator = enum_declarator;
		kw->op = &enum_op;
	}
	for (i = 0; modes[i]; i++) {
		char name[32];
		int pass;
		for (pass = 0; pass < 2; pass++) {
			struct symbol *m;
			snprintf(name, sizeof(name), pass ? "__%s__" : "%s", modes[i]);
			m = lookup_keyword(built_in_ident(name), NS_KEYWORD);
			if (!m || !m->op || !(m->op->type & KW_MODE) || !m->op->to_mode)
				continue;
			for (j = 0; j < n; j++)
				if (m->op == &mode_ops[j] || sparse_to_mode[j] == m->op->to_mode)
					break;
			if (j == n) {
				if (n == NMODES)
					continue;
				sparse_to_mode[n] = m->op->to_mode;
				mode_ops[n] = *m->op;
				mode_ops[n].to_mode = mode_wraps[n];
				n++;
			}
			m->op = &mode_ops[j];
		}
	}
}
