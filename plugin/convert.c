/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert.c -- GCC's laid-out struct and union types into the core
 * model (core/model.c): members, offsets and sizes in bytes (bit-fields in
 * bits), alignment, the layout attributes, locations as every engine places
 * them
 * (plugin/layout-check.h lists the layout check's parts).
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "input.h"
#include "cpplib.h"
#include "layout-check.h"

static struct ch_loc to_loc(location_t l)
{
	struct ch_loc loc;
	expanded_location x = expand_location(l);
	loc.file = ch_strdup(cachehot_ctx, x.file);
	loc.line = x.line > 0 ? (unsigned)x.line : 0;
	loc.col = x.column > 0 ? (unsigned)x.column : 0;
	loc.fe_loc = (uint64_t)l;
	return loc;
}

/* Where a kernel group marker is reported: its name is pasted inside
 * __cacheline_group_begin(G), so GCC locates it in the macro's definition;
 * the other engines (and the reader) want G in the macro's arguments. Any
 * other field whose name the macro's body spells: the macro's use. Else
 * its own location. */
/* A line of the user's source, from the core's indexed cache: GCC 12's
 * location_get_source_line() scans the file on every call, which made
 * thousands of findings in one file quadratic (docs/reliability.md). */
char_span cachehot_source_line(const char *file, int line)
{
	size_t len = 0;
	const char *t = line > 0 ? ch_source_line(file, (unsigned)line, &len) : NULL;
	return t ? char_span(t, len) : char_span(NULL, 0);
}

static location_t marker_location(tree field)
{
	location_t l = DECL_SOURCE_LOCATION(field), exp;
	const char *g;
	expanded_location x;
	size_t n;

	if (!linemap_location_from_macro_expansion_p(line_table, l))
		return l;
	if (!DECL_NAME(field) ||
	    ch_marker_kind(IDENTIFIER_POINTER(DECL_NAME(field)), &g) == CH_MARKER_NONE) {
		/* a name spelt in the macro's body (pasted: HAProxy's
		 * THREAD_PAD(63) declares char __pad_<line>[63]) is reported where
		 * the macro is used, as DWARF and sparse place it; a name from the
		 * macro's arguments (PC_PADDING(_pad1_)) where it is written */
		location_t sp = linemap_resolve_location(line_table, l, LRK_SPELLING_LOCATION, NULL);
		exp = linemap_resolve_location(line_table, l, LRK_MACRO_EXPANSION_POINT, NULL);
		expanded_location xs = expand_location(sp), xe = expand_location(exp);
		if (xs.file && xe.file && (xs.line != xe.line || strcmp(xs.file, xe.file)))
			return exp;
		return l;
	}
	exp = linemap_resolve_location(line_table, l, LRK_MACRO_EXPANSION_POINT, NULL);
	x = expand_location(exp);
	if (!x.file || x.line <= 0 || x.column <= 0)
		return exp;
	char_span line = cachehot_source_line(x.file, x.line);
	n = strlen(g);
	for (size_t c = x.column - 1; line && c + n <= line.length(); c++)
		if (!strncmp(line.get_buffer() + c, g, n) &&
		    (c == 0 || !(ISALNUM(line[c - 1]) || line[c - 1] == '_')) &&
		    (c + n == line.length() || !(ISALNUM(line[c + n]) || line[c + n] == '_')))
			return linemap_position_for_loc_and_offset(line_table, exp,
								   c - (x.column - 1));
	return exp;
}

static uint64_t uhwi_or_zero(tree t)
{
	return t && TREE_CODE(t) == INTEGER_CST && tree_fits_uhwi_p(t) ? tree_to_uhwi(t) : 0;
}

/* Element count of an array type; *flexible set for [] (no upper bound). */
static uint64_t array_count(tree atype, int *flexible)
{
	tree dom = TYPE_DOMAIN(atype), max;
	if (!dom || !(max = TYPE_MAX_VALUE(dom))) {
		*flexible = 1;
		return 0;
	}
	if (TREE_CODE(max) != INTEGER_CST)
		return 0;                       /* variable length: treat as unknown */
	if (tree_int_cst_sgn(max) < 0)
		return 0;                       /* GNU zero-length array x[0] */
	return tree_fits_uhwi_p(max) ? tree_to_uhwi(max) + 1 : 0;
}

static const char *elem_type_name(tree t)
{
	const char *n = type_tag(t);
	if (n)
		return n;
	return is_aggregate(t) ? "<anonymous>" : "?";
}

/* Both halves of layout-check.h's test over the whole type. */
bool cachehot_laid_out(tree type)
{
	tree f;
	if (!is_aggregate(type) || !size_fixed(type))
		return false;
	for (f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f))
		if (TREE_CODE(f) == FIELD_DECL && !field_placed(f))
			return false;
	return true;
}

static void convert_field(struct ch_type *t, tree field)
{
	struct ch_member *m;
	tree ftype = TREE_TYPE(field), elem;
	/* bit_position() without building its tree: it folds a new
	 * INTEGER_CST for every field of every judged struct into GCC's
	 * collected pages and constant table, after which cc1's own
	 * allocations come in another order (mm/mmzone.c: 0.3-0.6 M
	 * instructions of cc1's malloc) */
	tree off = DECL_FIELD_OFFSET(field), bit = DECL_FIELD_BIT_OFFSET(field);
	uint64_t bitpos = 0;
	if (off && bit && TREE_CODE(off) == INTEGER_CST && TREE_CODE(bit) == INTEGER_CST) {
		offset_int pos = wi::to_offset(off) * BITS_PER_UNIT + wi::to_offset(bit);
		if (wi::fits_uhwi_p(pos))
			bitpos = pos.to_uhwi();
	}
	uint64_t n = 1;
	int flexible = 0;
	tree a;

	m = ch_type_add_member(cachehot_ctx, t,
			       DECL_NAME(field) ? IDENTIFIER_POINTER(DECL_NAME(field)) : NULL);
	m->loc = to_loc(marker_location(field));
	m->align = DECL_ALIGN_UNIT(field);
	m->user_align = DECL_USER_ALIGN(field) ? 1 : 0;
	/* an anonymous struct/union member is where its 'struct {' is, as
	 * sparse and DWARF (the type's decl_line) place it */
	if (!DECL_NAME(field) && is_aggregate(ftype) && TYPE_STUB_DECL(ftype) &&
	    DECL_SOURCE_LOCATION(TYPE_STUB_DECL(ftype)) > BUILTINS_LOCATION)
		m->loc = to_loc(DECL_SOURCE_LOCATION(TYPE_STUB_DECL(ftype)));
	/* DECL_BIT_FIELD is cleared for a bit-field GCC can access as a plain
	 * integer ('char f : 8' on a byte): it still is a declared bit-field */
	if (DECL_BIT_FIELD_TYPE(field)) {
		m->offset = bitpos / 8;
		m->bit_offset = (unsigned)(bitpos % 8);
		m->bit_size = (unsigned)uhwi_or_zero(DECL_SIZE(field));
		m->size = (m->bit_offset + m->bit_size + 7) / 8;
		/* one unit, as for any bit-field (sparse and DWARF say the
		 * same), also when GCC made a full-width one a plain field */
		if (!DECL_USER_ALIGN(field))
			m->align = 1;
		ftype = DECL_BIT_FIELD_TYPE(field) ? DECL_BIT_FIELD_TYPE(field) : ftype;
	} else {
		m->offset = bitpos / 8;
		m->size = uhwi_or_zero(DECL_SIZE_UNIT(field));
	}
	elem = ftype;
	while (elem && TREE_CODE(elem) == ARRAY_TYPE) {
		int flex = 0;
		uint64_t c = array_count(elem, &flex);
		if (flex)
			flexible = 1;
		n *= c;
		elem = TREE_TYPE(elem);
	}
	if (ftype && TREE_CODE(ftype) == ARRAY_TYPE) {
		m->nelems = n;
		/* GCC 12 gives x[] and GNU x[0] both no upper bound; only a true
		 * flexible array member has no DECL_SIZE (x[0] has size 0) */
		m->flexible = flexible && !DECL_SIZE(field);
		m->elem_size = uhwi_or_zero(TYPE_SIZE_UNIT(elem));
		m->type_name = ch_printf(cachehot_ctx, "%s[%llu]", elem_type_name(elem),
					 (unsigned long long)n);
	} else {
		m->elem_size = m->size;
		if (is_aggregate(elem))
			m->type_name = ch_printf(cachehot_ctx, "%s %s",
						 TREE_CODE(elem) == UNION_TYPE ? "union" : "struct",
						 elem_type_name(elem));
	}
	m->is_integer = elem && INTEGRAL_TYPE_P(elem);
	if (is_aggregate(elem) && cachehot_laid_out(TYPE_MAIN_VARIANT(elem))) {
		struct ch_type *nt = cachehot_convert_type(elem);
		/* an anonymous struct used through its typedef is named by it,
		 * as sparse and DWARF name it */
		if (nt && !nt->name && TYPE_NAME(elem) && TREE_CODE(TYPE_NAME(elem)) == TYPE_DECL &&
		    DECL_NAME(TYPE_NAME(elem))) {
			nt->name = ch_strdup(cachehot_ctx, IDENTIFIER_POINTER(DECL_NAME(TYPE_NAME(elem))));
			nt->name_is_typedef = 1;
		}
		m->type = nt;
	}

	if ((a = lookup_attribute("cacheline_hot", DECL_ATTRIBUTES(field)))) {
		m->cls = CH_CLASS_HOT;
		if (TREE_VALUE(a) && TREE_CODE(TREE_VALUE(TREE_VALUE(a))) == STRING_CST)
			m->group = ch_strdup(cachehot_ctx,
					     TREE_STRING_POINTER(TREE_VALUE(TREE_VALUE(a))));
	} else if (lookup_attribute("cacheline_exclusive", DECL_ATTRIBUTES(field))) {
		m->cls = CH_CLASS_EXCLUSIVE;
	} else if (lookup_attribute("cacheline_read_mostly", DECL_ATTRIBUTES(field))) {
		m->cls = CH_CLASS_READ_MOSTLY;
	}
}

/* 1 if field is the subobject of a virtual base of C++ class type (its
 * place depends on the most derived class; DWARF gives it as an expression) */
static int is_virtual_base_field(tree type, tree field)
{
	tree binfo = TYPE_BINFO(type), base;
	unsigned i;
	if (!binfo || DECL_NAME(field) || !DECL_ARTIFICIAL(field))
		return 0;
	for (i = 0; BINFO_BASE_ITERATE(binfo, i, base); i++)
		if (BINFO_VIRTUAL_P(base) &&
		    TYPE_MAIN_VARIANT(BINFO_TYPE(base)) == TYPE_MAIN_VARIANT(TREE_TYPE(field)))
			return 1;
	return 0;
}

/* The core model of a complete struct/union type (cached per main variant). */
struct ch_type *cachehot_convert_type(tree type)
{
	struct ch_type *t;
	tree field, stub;

	type = TYPE_MAIN_VARIANT(type);
	if ((t = ch_type_lookup(cachehot_ctx, type)))
		return t;
	t = ch_type_new(cachehot_ctx, type, type_tag(type), TREE_CODE(type) == UNION_TYPE,
			uhwi_or_zero(TYPE_SIZE_UNIT(type)), TYPE_ALIGN_UNIT(type));
	t->packed = TYPE_PACKED(type) ? 1 : 0;
	t->randomized = lookup_attribute("randomize_layout", TYPE_ATTRIBUTES(type)) ||
			lookup_attribute("randomize_performed", TYPE_ATTRIBUTES(type));
	stub = TYPE_STUB_DECL(type);
	if (stub)
		t->loc = to_loc(DECL_SOURCE_LOCATION(stub));
	for (field = TYPE_FIELDS(type); field; field = DECL_CHAIN(field))
		/* an unnamed bit-field is padding bits: no member (DWARF and BTF
		 * do not list it, so every engine names the same fields); nor is
		 * a C++ virtual base, whose offset is decided at run time */
		if (TREE_CODE(field) == FIELD_DECL &&
		    !(DECL_BIT_FIELD_TYPE(field) && !DECL_NAME(field)) &&
		    !is_virtual_base_field(type, field))
			convert_field(t, field);
	if (!t->loc.line && t->nmembers)
		t->loc = t->members[0].loc;
	return t;
}
