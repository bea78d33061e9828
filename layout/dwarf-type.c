/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf-type.c -- one aggregate DIE as a core type (lt_dwarf_build): its
 * members' offsets, sizes, bit positions, alignment (natural or
 * DW_AT_alignment), array counts, source positions, nested and anonymous
 * aggregates, built once per DIE; and the DIE helpers the reader shares
 * (layout/dwarf.c walks the units). Why libdw: layout/dwarf.c.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"
#include "dwarf-internal.h"
#include "macros.h"

/* DW_AT_data_member_location in bytes: a constant (DWARF 3+), or in DWARF 2
 * a location expression DW_OP_plus_uconst N, which libdw decodes. 1 found,
 * 0 absent (offset 0: a union member), -1 computed at run time (the
 * expression of a C++ virtual base). */
static int member_location(Dwarf_Die *die, Dwarf_Word *v)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	*v = 0;
	if (!dwarf_attr_integrate(die, DW_AT_data_member_location, &a))
		return 0;
	if (dwarf_formudata(&a, v) == 0)
		return 1;
	if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
	    (ops[0].atom == DW_OP_plus_uconst || ops[0].atom == DW_OP_constu)) {
		*v = ops[0].number;
		return 1;
	}
	*v = 0;
	return -1;
}

/* Strip typedefs and qualifiers. Returns 0 for void. */
int lt_dwarf_strip(Dwarf_Die *in, Dwarf_Die *out)
{
	Dwarf_Die cur = *in;
	int depth = 0;
	for (;;) {
		int tag = dwarf_tag(&cur);
		if ((tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
		     tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
		     tag == DW_TAG_atomic_type) && depth++ < 64) {
			Dwarf_Die n;
			if (!lt_die_type(&cur, &n))
				return 0;
			cur = n;
			continue;
		}
		*out = cur;
		return 1;
	}
}

int lt_dwarf_is_agg_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type;
}

/* Array: element type (stripped of arrays) and element count (product of
 * the dimensions); *flex when a dimension has no bound. */
void lt_dwarf_array_info(Dwarf_Die *arr, Dwarf_Die *elem, uint64_t *nelems, int *flex)
{
	Dwarf_Die cur = *arr, child;
	uint64_t n = 1;
	*flex = 0;
	for (;;) {
		Dwarf_Die st;
		if (!lt_dwarf_strip(&cur, &st) || dwarf_tag(&st) != DW_TAG_array_type)
			break;
		if (dwarf_child(&st, &child) == 0) {
			do {
				Dwarf_Word c, ub, lb = 0;
				if (dwarf_tag(&child) != DW_TAG_subrange_type)
					continue;
				if (lt_die_udata(&child, DW_AT_count, &c)) {
					/* a GNU zero-length array x[0] has count 0
					 * (size 0); a flexible x[] has no count */
					n *= c;
				}
				else if (lt_die_udata(&child, DW_AT_upper_bound, &ub)) {
					lt_die_udata(&child, DW_AT_lower_bound, &lb);
					n *= ub + 1 - lb;
				} else {
					*flex = 1;
					n = 0;
				}
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		if (!lt_die_type(&st, &cur)) {
			memset(&cur, 0, sizeof(cur));
			break;
		}
	}
	*elem = cur;
	*nelems = n;
}

static uint64_t type_size(Dwarf_Die *t)
{
	Dwarf_Word sz;
	Dwarf_Die st;
	if (dwarf_aggregate_size(t, &sz) == 0)
		return sz;
	if (lt_dwarf_strip(t, &st) && (dwarf_tag(&st) == DW_TAG_pointer_type ||
			       dwarf_tag(&st) == DW_TAG_reference_type))
		return 8;
	return 0;
}

/* Natural alignment of a type in bytes: explicit DW_AT_alignment on the type
 * or a typedef on the way, else the C rules for x86_64/ELF ABIs. */
static unsigned type_align(struct rd *rd, Dwarf_Die *t)
{
	Dwarf_Die cur = *t;
	Dwarf_Word a;
	int depth = 0;
	while (depth++ < 64) {
		int tag = dwarf_tag(&cur);
		Dwarf_Die n;
		if (lt_die_udata(&cur, DW_AT_alignment, &a) && a)
			return (unsigned)a;
		switch (tag) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
		case DW_TAG_array_type:
			if (tag == DW_TAG_array_type && dwarf_hasattr(&cur, DW_AT_GNU_vector)) {
				/* GCC aligns a vector_size(N) type to N bytes */
				Dwarf_Word vs = type_size(&cur);
				unsigned al = 1;
				while (al < vs && al < 4096)
					al <<= 1;
				return al;
			}
			if (!lt_die_type(&cur, &n))
				return 1;
			cur = n;
			continue;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_class_type: {
			struct ch_type *ct = lt_dwarf_build(rd, &cur, NULL);
			return ct && ct->align ? ct->align : 1;
		}
		default: {
			Dwarf_Word sz = type_size(&cur);
			unsigned al = 1;
			if (!sz)
				return 1;
			while (al < sz && al < 16)
				al <<= 1;
			/* non-power-of-two sizes (long double as 10 bytes on
			 * some ABIs): largest power of two dividing size */
			while (al > 1 && sz % al)
				al >>= 1;
			return al;
		}
		}
	}
	return 1;
}

static int is_integer_type(Dwarf_Die *t)
{
	Dwarf_Die st;
	Dwarf_Word enc;
	if (!lt_dwarf_strip(t, &st))
		return 0;
	if (dwarf_tag(&st) == DW_TAG_enumeration_type)
		return 1;
	if (dwarf_tag(&st) != DW_TAG_base_type || !lt_die_udata(&st, DW_AT_encoding, &enc))
		return 0;
	return enc == DW_ATE_signed || enc == DW_ATE_unsigned ||
	       enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char ||
	       enc == DW_ATE_boolean;
}


static const char *intern_file(struct rd *rd, const char *raw)
{
	return lt_src_intern(rd->s, rd->comp_dir, rd->comp_dir_len, raw);
}

void lt_dwarf_set_loc(struct rd *rd, Dwarf_Die *die, struct ch_loc *loc)
{
	/* the file table of the unit (of the skeleton for a split unit): not
	 * dwarf_decl_file(), which asserts when a split unit has none */
	Dwarf_Word fi;
	const char *f = rd->files && lt_die_udata(die, DW_AT_decl_file, &fi) ?
			dwarf_filesrc(rd->files, fi, NULL, NULL) : NULL;
	int line = 0, col = 0;
	loc->file = f ? intern_file(rd, f) : NULL;
	dwarf_decl_line(die, &line);
	dwarf_decl_column(die, &col);
	loc->line = line > 0 ? (unsigned)line : 0;
	/* a byte column; printed as GCC's display column (lt_display_col) */
	loc->col = col > 0 ? (unsigned)col : 0;
}

/* "typedef struct TAG NAME;" where a sidecar uses NAME as a struct name:
 * kept (once per name) for main.c to report the entries. */
void lt_dwarf_note_typedef_of_tag(struct rd *rd, Dwarf_Die *td, Dwarf_Die *agg, const char *path)
{
	struct lt_set *s = rd->s;
	const char *name = dwarf_diename(td), *tag = dwarf_diename(agg);
	struct lt_typedef *t;
	size_t i;
	if (!name || !tag || !strcmp(name, tag) || !ch_sidecar_count(s->ctx) ||
	    !ch_sidecar_names_type(s->ctx, name))
		return;
	for (i = 0; i < s->ntds; i++)
		if (!strcmp(s->tds[i].name, name))
			return;
	t = realloc(s->tds, (s->ntds + 1) * sizeof(*s->tds));
	if (!t)
		abort();
	s->tds = t;
	t = &s->tds[s->ntds++];
	memset(t, 0, sizeof(*t));
	t->name = ch_strdup(s->ctx, name);
	t->tag = ch_strdup(s->ctx, tag);
	t->is_union = dwarf_tag(agg) == DW_TAG_union_type;
	t->input = ch_strdup(s->ctx, path);
	lt_dwarf_set_loc(rd, td, &t->loc);
}

static const void *key_of(struct rd *rd, Dwarf_Die *die)
{
	uint64_t k = ((uint64_t)rd->fileno << 44) | (uint64_t)dwarf_dieoffset(die);
	return (const void *)(uintptr_t)(k + 1);
}

/* [cachehot-array-sharing] (perthread.c): a member of t that points to an
 * aggregate and that the sidecar or manifest marks per-thread, a heap array
 * (the last member added). The pointee is resolved after reading (it may be
 * t itself, still being built): by its DIE, else by its name. */
static void note_pointer_member(struct rd *rd, struct ch_type *t, const char *mname, Dwarf_Die *mt)
{
	Dwarf_Die st, pt, pst;
	Dwarf_Attribute a;
	struct lt_ptr_member p;
	char key[512];
	if (!lt_dwarf_strip(mt, &st) || dwarf_tag(&st) != DW_TAG_pointer_type || !lt_die_type(&st, &pt) ||
	    !lt_dwarf_strip(&pt, &pst) || !lt_dwarf_is_agg_tag(dwarf_tag(&pst)) ||
	    (size_t)snprintf(key, sizeof(key), "%s.%s", t->name, mname) >= sizeof(key) ||
	    !lt_pt_marked(rd->s, key, NULL))
		return;
	memset(&p, 0, sizeof(p));
	p.owner = t;
	p.member = t->nmembers - 1;
	p.pointee_key = dwarf_attr(&pst, DW_AT_declaration, &a) ? NULL : key_of(rd, &pst);
	p.pointee_name = dwarf_diename(&pst);
	lt_pt_add_ptr(rd->s, &p);
}

/* Build (or find) the ch_type of an aggregate DIE. name overrides the DIE's
 * own name (typedef of an anonymous struct). NULL for a declaration. */
struct ch_type *lt_dwarf_build(struct rd *rd, Dwarf_Die *die, const char *name)
{
	ch_ctx *ctx = rd->s->ctx;
	const void *key = key_of(rd, die);
	struct ch_type *t = ch_type_lookup(ctx, key);
	Dwarf_Word size = 0, al = 0;
	Dwarf_Die child;
	Dwarf_Attribute a;
	unsigned maxal = 1;
	int explicit_align, packed = 0, has_bases = 0;
	size_t i;
	struct lt_typeinfo *ti;
	char **decls = NULL;
	size_t ndecls = 0, capdecls = 0;

	if (t) {
		unsigned q;
		for (q = 0; q < rd->nbuilding; q++)
			if (rd->building[q] == dwarf_dieoffset(die))
				rd->bad = 1;   /* contains itself by value: malformed */
		return rd->bad ? NULL : t;
	}
	if (dwarf_attr(die, DW_AT_declaration, &a) || !lt_die_udata(die, DW_AT_byte_size, &size))
		return NULL;
	if (rd->nbuilding >= LT_MAX_DWARF_NEST) {
		rd->too_deep = 1;
		return NULL;
	}
	CH_GROW(rd->building, rd->nbuilding, rd->capbuilding, 64);
	explicit_align = lt_die_udata(die, DW_AT_alignment, &al) && al;
	t = ch_type_new(ctx, key, name ? name : dwarf_diename(die),
			dwarf_tag(die) == DW_TAG_union_type, size,
			explicit_align ? (unsigned)al : 1);
	lt_dwarf_set_loc(rd, die, &t->loc);
	rd->building[rd->nbuilding++] = dwarf_dieoffset(die);

	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Die mt, elem, est;
			struct ch_type *nested = NULL;
			struct ch_member *m;
			Dwarf_Word loc = 0, bsize = 0, dbo, balign = 0;
			uint64_t nelems = 1, esize;
			int flex = 0, has_type, stripped;
			unsigned malign;
			const char *mname;

			if (dwarf_tag(&child) == DW_TAG_inheritance) {
				/* a C++ base: GCC lays a non-virtual one out as an
				 * unnamed field, as the plugin sees it; a virtual
				 * one sits at a run-time offset (an expression): not
				 * a field of this layout in any engine */
				Dwarf_Word bl;
				if (member_location(&child, &bl) != 1 ||
				    dwarf_hasattr(&child, DW_AT_virtuality))
					continue;
				has_bases = 1;
			} else if (dwarf_tag(&child) != DW_TAG_member)
				continue;
			if (dwarf_attr(&child, DW_AT_external, &a) ||
			    dwarf_attr(&child, DW_AT_declaration, &a))
				continue; /* C++ static member */
			has_type = lt_die_type(&child, &mt);
			mname = dwarf_diename(&child);
			/* element type, nested aggregate; est is set only when
			 * lt_dwarf_strip() succeeds (a typedef chain that ends in no type
			 * leaves it unset: never read it then) */
			stripped = has_type && lt_dwarf_strip(&mt, &est);
			if (stripped && dwarf_tag(&est) == DW_TAG_array_type &&
			    !dwarf_hasattr(&est, DW_AT_GNU_vector)) {
				lt_dwarf_array_info(&mt, &elem, &nelems, &flex);
				esize = elem.addr ? type_size(&elem) : 0;
			} else if (stripped && dwarf_tag(&est) == DW_TAG_array_type) {
				/* a vector_size type is one scalar, as GCC sees it */
				memset(&elem, 0, sizeof(elem));
				esize = type_size(&mt);
			} else {
				elem = mt;
				esize = has_type ? type_size(&mt) : 0;
			}
			if (has_type && elem.addr && lt_dwarf_strip(&elem, &est) && lt_dwarf_is_agg_tag(dwarf_tag(&est)))
				nested = lt_dwarf_build(rd, &est, NULL);
			malign = has_type ? type_align(rd, &mt) : 1;

			m = ch_type_add_member(ctx, t, mname);
			if (has_type && mname && t->name && lt_pt_any(rd->s))
				note_pointer_member(rd, t, mname, &mt);
			m->type = nested;
			m->nelems = nelems;
			m->elem_size = esize;
			m->flexible = flex;
			m->size = has_type ? type_size(&mt) : 0;
			m->is_integer = has_type && elem.addr && is_integer_type(&elem);
			m->align = malign;
			if (lt_die_udata(&child, DW_AT_alignment, &balign) && balign) {
				m->align = (unsigned)balign;
				m->user_align = 1;
			}
			{
				char *tn;
				if (has_type && lt_dwarf_strip(&mt, &est) && dwarf_tag(&est) == DW_TAG_array_type &&
				    !dwarf_hasattr(&est, DW_AT_GNU_vector)) {
					/* "char[56]": the element's name (tag without
					 * "struct") and the total element count */
					char *en = elem.addr ? lt_dwarf_decl(&elem, "") : lt_dwarf_decl(NULL, "");
					const char *e = en;
					size_t k = strlen(en) + 32;
					if (!strncmp(e, "struct ", 7))
						e += 7;
					else if (!strncmp(e, "union ", 6))
						e += 6;
					else if (!strncmp(e, "enum ", 5))
						e += 5;
					tn = malloc(k);
					if (!tn)
						abort();
					snprintf(tn, k, "%s[%llu]", e, (unsigned long long)nelems);
					free(en);
				} else if (rd->s->want_decls || nested)
					tn = has_type ? lt_dwarf_decl(&mt, "") : lt_dwarf_decl(NULL, "");
				else
					tn = NULL;  /* the plugin names arrays and aggregates only */
				char *dn = !rd->s->want_decls ? NULL : has_type ?
					   lt_dwarf_decl(&mt, mname ? mname : "") :
					   lt_dwarf_decl(NULL, mname ? mname : "");
				m->type_name = tn ? ch_strdup(ctx, tn) : NULL;
				free(tn);
				CH_GROW(decls, ndecls, capdecls, 16);
				decls[ndecls++] = dn;
			}
			lt_dwarf_set_loc(rd, &child, &m->loc);
			/* an anonymous struct/union member has no position of its
			 * own: its type's (the 'struct {'), as GCC and sparse say */
			if (!mname && !m->loc.line && nested && has_type && lt_dwarf_strip(&mt, &est))
				lt_dwarf_set_loc(rd, &est, &m->loc);

			if (lt_die_udata(&child, DW_AT_bit_size, &bsize) && bsize) {
				uint64_t bitpos;
				if (lt_die_udata(&child, DW_AT_data_bit_offset, &dbo))
					bitpos = dbo;
				else {
					/* DWARF 2-4: big-endian bit numbering within
					 * the storage unit (little-endian target) */
					Dwarf_Word bo = 0, bs = 0;
					member_location(&child, &loc);
					lt_die_udata(&child, DW_AT_bit_offset, &bo);
					if (!lt_die_udata(&child, DW_AT_byte_size, &bs))
						bs = m->size;
					bitpos = loc * 8 + bs * 8 - bo - bsize;
				}
				m->offset = bitpos / 8;
				m->bit_offset = (unsigned)(bitpos % 8);
				m->bit_size = (unsigned)bsize;
				/* GCC's DECL_ALIGN of a bit-field is one unit, as the
				 * plugin and sparse see it; its type still aligns the
				 * struct (x86-64 ABI), counted below */
				if (m->align > maxal)
					maxal = m->align;
				if (!m->user_align)
					m->align = 1;
				m->size = (m->bit_offset + bsize + 7) / 8;
				if (decls[ndecls - 1]) {
					char *d = decls[ndecls - 1];
					size_t k = strlen(d) + 24;
					decls[ndecls - 1] = realloc(d, k);
					if (!decls[ndecls - 1])
						abort();
					snprintf(decls[ndecls - 1] + strlen(decls[ndecls - 1]), 24, ":%u",
						 (unsigned)bsize);
				}
			} else {
				if (member_location(&child, &loc) < 0)
					rd->vbase = 1;
				m->offset = loc;
			}
			if (!m->user_align && m->align > maxal)
				maxal = m->align;
			else if (m->user_align && m->align > maxal)
				maxal = m->align;
		} while (dwarf_siblingof(&child, &child) == 0);
	}

	/* C++: DWARF lists the bases before the vtable pointer, GCC's fields
	 * put them after it: offset order, as the plugin sees them (stable;
	 * only then, so that a randomized struct's order is kept) */
	if (has_bases) {
		size_t a, b;
		for (a = 1; a < t->nmembers; a++)
			for (b = a; b > 0 && t->members[b - 1].offset > t->members[b].offset; b--) {
				struct ch_member tm = t->members[b];
				char *td = decls[b];
				t->members[b] = t->members[b - 1];
				t->members[b - 1] = tm;
				decls[b] = decls[b - 1];
				decls[b - 1] = td;
			}
	}

	/* packed: a member off its natural alignment, or a size that is not a
	 * multiple of the members' alignment (no explicit alignment given) */
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (!m->bit_size && m->align > 1 && m->offset % m->align)
			packed = 1;
	}
	if (!explicit_align && maxal > 1 && size % maxal)
		packed = 1;
	t->packed = packed;
	if (packed) {
		for (i = 0; i < t->nmembers; i++)
			if (!t->members[i].user_align)
				t->members[i].align = 1;
		maxal = 1;
		for (i = 0; i < t->nmembers; i++)
			if (t->members[i].align > maxal)
				maxal = t->members[i].align;
	}
	if (!explicit_align)
		t->align = maxal;
	for (i = 0; i < t->nmembers; i++)
		ch_member_pad_kind(&t->members[i]); /* classification is the core's */

	rd->nbuilding--;
	if (rd->s->want_decls) {
		ti = lt_typeinfo(rd->s, t);
		for (i = 0; i < ndecls && i < ti->n; i++)
			ti->decl[i] = decls[i] ? ch_strdup(ctx, decls[i]) : NULL;
	}
	for (i = 0; i < ndecls; i++)
		free(decls[i]);
	free(decls);
	return t;
}
