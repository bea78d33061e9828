/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf-decl.c -- the C declaration text of a DWARF type, as cachehot-layout
 * prints members under --show and --reorganize ("unsigned long x[4]",
 * "struct {...} u", "void (*fn)(int)"): what layout/dwarf.c's reader hands
 * to lt_typeinfo; and the DIE attribute helpers both use. Split out of
 * dwarf.c (which reads the layouts).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf-internal.h"

/* ---- DIE helpers ---------------------------------------------------------- */
int lt_die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	if (!dwarf_attr_integrate(die, DW_AT_type, &a))
		return 0;
	return dwarf_formref_die(&a, out) != NULL;
}

int lt_die_udata(Dwarf_Die *die, unsigned attr, Dwarf_Word *v)
{
	Dwarf_Attribute a;
	if (!dwarf_attr_integrate(die, attr, &a))
		return 0;
	return dwarf_formudata(&a, v) == 0;
}

/* ---- small string buffer ---------------------------------------------- */
struct sb {
	char *p;
	size_t n, cap;
};

static void sb_ins(struct sb *b, size_t at, const char *s)
{
	size_t k = strlen(s);
	if (b->n + k + 1 > b->cap) {
		b->cap = (b->n + k + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memmove(b->p + at + k, b->p + at, b->n - at + 1);
	memcpy(b->p + at, s, k);
	b->n += k;
}

static void sb_init(struct sb *b, const char *s)
{
	b->p = NULL;
	b->n = b->cap = 0;
	b->cap = 64;
	b->p = malloc(b->cap);
	if (!b->p)
		abort();
	b->p[0] = 0;
	sb_ins(b, 0, s);
}

static void sb_add(struct sb *b, const char *s)
{
	sb_ins(b, b->n, s);
}

/* Parameter types of function types nest one declaration in another: a
 * cycle in the DWARF (a function type whose parameter points back to it;
 * found by fuzzing, tests/fuzz/crashes/dwarf/) recursed until the stack
 * overflowed. Deeper than this, a parameter is written "...". */
#define DECL_NEST_MAX 16

static char *decl_1(Dwarf_Die *t, const char *name, int nest);

/* C declaration of an object of type t called name ("" for a type name).
 * Returns malloc'd text. */
char *lt_dwarf_decl(Dwarf_Die *t, const char *name)
{
	return decl_1(t, name, 0);
}

static char *decl_1(Dwarf_Die *t, const char *name, int nest)
{
	struct sb d;
	Dwarf_Die cur;
	int have = t != NULL && t->addr != NULL, depth = 0;
	const char *base = "void";
	char tmp[64];

	sb_init(&d, name);
	if (have)
		cur = *t;
	while (have && depth++ < 64) {
		int tag = dwarf_tag(&cur);
		Dwarf_Die n, child;
		const char *nm = dwarf_diename(&cur);
		switch (tag) {
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
			sb_ins(&d, 0, "*");
			break;
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type: {
			const char *q = tag == DW_TAG_const_type ? "const" :
					tag == DW_TAG_volatile_type ? "volatile" : "restrict";
			/* the qualifier applies to what is left of the
			 * declarator: "char const *p", "char *const p" */
			if (!(d.n > strlen(q) && !strncmp(d.p, q, strlen(q)) &&
			      d.p[strlen(q)] == ' ')) {  /* GCC repeats it on arrays */
				sb_ins(&d, 0, d.n ? " " : "");
				sb_ins(&d, 0, q);
			}
			break;
		}
		case DW_TAG_array_type:
			if (d.n && d.p[0] == '*') {
				sb_ins(&d, 0, "(");
				sb_add(&d, ")");
			}
			if (dwarf_child(&cur, &child) == 0) {
				do {
					Dwarf_Word c, ub, lb = 0;
					if (dwarf_tag(&child) != DW_TAG_subrange_type)
						continue;
					if (lt_die_udata(&child, DW_AT_count, &c))
						snprintf(tmp, sizeof(tmp), "[%llu]", (unsigned long long)c);
					else if (lt_die_udata(&child, DW_AT_upper_bound, &ub)) {
						lt_die_udata(&child, DW_AT_lower_bound, &lb);
						snprintf(tmp, sizeof(tmp), "[%llu]",
							 (unsigned long long)(ub + 1 - lb));
					} else
						snprintf(tmp, sizeof(tmp), "[]");
					sb_add(&d, tmp);
				} while (dwarf_siblingof(&child, &child) == 0);
			}
			break;
		case DW_TAG_subroutine_type: {
			int first = 1;
			Dwarf_Attribute a;
			bool proto = false;
			if (dwarf_attr(&cur, DW_AT_prototyped, &a))
				dwarf_formflag(&a, &proto);
			if (d.n && d.p[0] == '*') {
				sb_ins(&d, 0, "(");
				sb_add(&d, ")");
			}
			sb_add(&d, "(");
			if (dwarf_child(&cur, &child) == 0) {
				do {
					int ct = dwarf_tag(&child);
					Dwarf_Die pt;
					if (ct == DW_TAG_formal_parameter) {
						char *p = nest >= DECL_NEST_MAX ? strdup("...") :
							  lt_die_type(&child, &pt) ?
							  decl_1(&pt, "", nest + 1) : decl_1(NULL, "", nest + 1);
						if (!p)
							abort();
						if (!first)
							sb_add(&d, ", ");
						sb_add(&d, p);
						free(p);
						first = 0;
					} else if (ct == DW_TAG_unspecified_parameters) {
						if (!first)
							sb_add(&d, ", ");
						sb_add(&d, "...");
						first = 0;
					}
				} while (dwarf_siblingof(&child, &child) == 0);
			}
			if (first && proto)
				sb_add(&d, "void");
			sb_add(&d, ")");
			break;
		}
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_enumeration_type: {
			const char *kw = tag == DW_TAG_union_type ? "union " :
					 tag == DW_TAG_enumeration_type ? "enum " : "struct ";
			char *r;
			size_t k;
			nm = nm ? nm : (tag == DW_TAG_union_type ? "{...}" : "{...}");
			k = strlen(kw) + strlen(nm) + d.n + 2;
			r = malloc(k);
			if (!r)
				abort();
			snprintf(r, k, "%s%s%s%s", kw, nm, d.n && d.p[0] != '[' ? " " : "", d.p);
			free(d.p);
			return r;
		}
		default:
			base = nm ? nm : "?";
			have = 0;
			continue;
		}
		if (tag == DW_TAG_typedef)
			break;
		if (!lt_die_type(&cur, &n)) {
			base = "void";
			break;
		}
		cur = n;
	}
	{
		size_t k = strlen(base) + d.n + 2;
		char *r = malloc(k);
		if (!r)
			abort();
		snprintf(r, k, "%s%s%s", base, d.n && d.p[0] != '[' ? " " : "", d.p);
		free(d.p);
		return r;
	}
}
