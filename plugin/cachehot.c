/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot.c -- GCC plugin: cache-line layout checks at build time.
 *
 * Load with -fplugin=plugin/cachehot.so; arguments -fplugin-arg-cachehot-KEY[=VAL]
 * are listed once, in plugin/options.c (help, docs/plugin.rst).
 *
 * Each struct definition is converted once into the core model (core/) on
 * PLUGIN_FINISH_TYPE (typedefs of anonymous structs on PLUGIN_FINISH_DECL),
 * judged by ch_check_type(), and every finding printed through GCC's
 * diagnostics at the member's location. The plugin holds no rule of its own.
 *
 * C-style code compiled with g++, in the manner of the kernel's
 * scripts/gcc-plugins/ (but without gcc-common.h, whose '#define gimple gimple_ptr' mangles GCC headers included after it).
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "c-family/c-common.h"   /* before diagnostic-core.h: maybe_add_include_fixit */
#include "diagnostic-core.h"
#include "diagnostic.h"         /* global_dc: werror=0 */
#include "hash-map.h"
#include "hash-set.h"
#include "type-memo.h"
#include "cpplib.h"
#include "c-family/c-pragma.h"
#include "input.h"
#include "langhooks.h"
#include "cgraph.h"          /* symtab->state: still parsing? */
#include <string>
#include <vector>
#include "cachehot-plugin.h"

/* C front-end symbols, weak: lto1 (the link step of -flto builds, where
 * -fplugin= reaches the compiler again) and other front ends lack them, and a
 * strong reference made dlopen fail ("undefined symbol: parse_in") and broke
 * the link. plugin_init does nothing where they are absent. */
extern cpp_reader *parse_in __attribute__((weak));
extern void maybe_add_include_fixit(rich_location *, const char *, bool) __attribute__((weak));

__attribute__((visibility("default"))) int plugin_is_GPL_compatible;

struct cachehot_opts cachehot_opts;
ch_ctx *cachehot_ctx;

static const char *plugin_name_used = "cachehot";
static struct plugin_info cachehot_info = { CH_VERSION, NULL };

/* The help text, made from the one table of arguments (plugin/options.c). */
static const char *plugin_help(void)
{
	static ch_ctx *hctx;
	if (!hctx)
		hctx = ch_ctx_new();
	return ch_printf(hctx, "cache-line layout checks: false sharing of annotated hot and "
			 "read-mostly fields,\nprivate padding macros, inline functions used as "
			 "values.\nArguments (-fplugin-arg-cachehot-KEY=VALUE):\n%s"
			 "Docs: docs/plugin.rst, docs/checks.rst",
			 ch_options_help(hctx, cachehot_plugin_options, "", 27));
}

/* per struct type: relevance verdict, judged, hinted (plugin/type-memo.h) */
static struct type_memo types;

/* true if t was judged before; t is judged from now on */
static bool judged_add(tree t)
{
	struct type_memo_slot *s = type_memo_add(&types, t);
	bool was = s->judged;
	s->judged = 1;
	return was;
}

static inline bool judged_contains(tree t)
{
	struct type_memo_slot *s = type_memo_find(&types, t);
	return s && s->judged;
}

/* true if t's members gave hints before; they have from now on */
static bool hinted_add(tree t)
{
	struct type_memo_slot *s = type_memo_add(&types, t);
	bool was = s->hinted;
	s->hinted = 1;
	return was;
}
static bool any_attribute_seen;
static int unmatched_note = 1;
static bool names_seen_any;
static void record_at(location_t loc, struct ch_record *r);

/* Weak stubs: plugin/inline-addr.c provides the real ones. */
__attribute__((weak)) void cachehot_inline_attributes(void) {}
__attribute__((weak)) void cachehot_inline_init(const char *) {}
__attribute__((weak)) void cachehot_inline_finish_decl(tree) {}
__attribute__((weak)) void cachehot_counter_updaters(const char *, const char *) {}
__attribute__((weak)) void cachehot_counter_init(const char *) {}
__attribute__((weak)) bool cachehot_counter_enums;
__attribute__((weak)) void cachehot_counter_enum(tree) {}

/* FINISH_TYPE fires on every use of a type (2 300 times on page_counter.c),
 * and nearly every one is a tagged type found irrelevant before, with no
 * per-thread check possible: such a type is kept in its slot here (one
 * per pointer hash), so that its next events return after one compare
 * instead of two hash lookups. Emptied whenever that answer could change:
 * an attribute (a per-thread one makes the per-thread check possible) or a
 * sidecar line from #pragma cachehot. */
#define SKIP_SLOTS 1024
static tree skip_slot[SKIP_SLOTS];
static bool skip_any;

static inline tree *skip_slot_of(tree main)
{
	return &skip_slot[((uintptr_t)main >> 4) & (SKIP_SLOTS - 1)];
}

static void skip_clear(void)
{
	if (skip_any) {
		memset(skip_slot, 0, sizeof(skip_slot));
		skip_any = false;
	}
}

void cachehot_sidecar_changed(void)
{
	skip_clear();
}

/* ---- attributes ----------------------------------------------------------- */

static const char *const layout_attrs[] = { "cacheline_hot", "cacheline_exclusive",
					    "cacheline_read_mostly" };

void cachehot_attribute_seen(void)
{
	any_attribute_seen = true;
	skip_clear();
}

static tree handle_layout_attr(tree *node, tree name, tree args, int, bool *no_add_attrs)
{
	tree decl = *node;
	unsigned i;

	any_attribute_seen = true;
	/* a variable of static storage (a global, a static local): where it
	 * lands is only known in the binary; recorded in the manifest for
	 * cachehot-layout ([cachehot-global-sharing], finish_decl) */
	if (TREE_CODE(decl) != FIELD_DECL &&
	    !(TREE_CODE(decl) == VAR_DECL && (TREE_STATIC(decl) || DECL_EXTERNAL(decl)))) {
		/* on a struct type: at its tag, as sparse reports it (GCC's
		 * input_location is wherever parsing stopped: the '}') */
		cachehot_error(CH_CHECK_ANNOTATION, DECL_P(decl) ? DECL_SOURCE_LOCATION(decl)
			 : TYPE_P(decl) && TYPE_STUB_DECL(decl) &&
			   DECL_SOURCE_LOCATION(TYPE_STUB_DECL(decl)) > BUILTINS_LOCATION
			 ? DECL_SOURCE_LOCATION(TYPE_STUB_DECL(decl)) : input_location,
			 ch_msg_attr_not_member(cachehot_ctx, IDENTIFIER_POINTER(name)));
		*no_add_attrs = true;
		return NULL_TREE;
	}
	if (args) {
		tree arg = TREE_VALUE(args);
		if (TREE_CODE(arg) != STRING_CST) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_not_string(cachehot_ctx, IDENTIFIER_POINTER(name)));
			*no_add_attrs = true;
			return NULL_TREE;
		}
		if (TREE_STRING_LENGTH(arg) <= 1) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_empty(cachehot_ctx, IDENTIFIER_POINTER(name)));
			*no_add_attrs = true;
			return NULL_TREE;
		}
		/* "a\nb" would break every line-based reader, "a\0b" read as "a" */
		if (!ch_group_name_valid(TREE_STRING_POINTER(arg), TREE_STRING_LENGTH(arg) - 1)) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_not_identifier(cachehot_ctx, IDENTIFIER_POINTER(name),
								  TREE_STRING_POINTER(arg),
								  TREE_STRING_LENGTH(arg) - 1));
			*no_add_attrs = true;
			return NULL_TREE;
		}
	}
	for (i = 0; i < ARRAY_SIZE(layout_attrs); i++) {
		tree old = lookup_attribute(layout_attrs[i], DECL_ATTRIBUTES(decl));
		if (old) {
			tree oa = TREE_VALUE(old);
			const char *og = oa && TREE_CODE(TREE_VALUE(oa)) == STRING_CST
					 ? TREE_STRING_POINTER(TREE_VALUE(oa)) : NULL;
			const char *ng = args ? TREE_STRING_POINTER(TREE_VALUE(args)) : NULL;
			*no_add_attrs = true;
			/* "hot, hot": the same annotation twice, as the sidecar
			 * ignores an identical repeat */
			if (is_attribute_p(layout_attrs[i], name) &&
			    (og && ng ? !strcmp(og, ng) : og == ng))
				return NULL_TREE;
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_conflict_groups(cachehot_ctx, IDENTIFIER_POINTER(name), ng,
							     layout_attrs[i], og));
			return NULL_TREE;
		}
	}
	return NULL_TREE;
}

static struct attribute_spec attr_hot = {
	"cacheline_hot", 0, 1, false, false, false, false, handle_layout_attr, NULL
};
static struct attribute_spec attr_exclusive = {
	"cacheline_exclusive", 0, 0, false, false, false, false, handle_layout_attr, NULL
};
static struct attribute_spec attr_read_mostly = {
	"cacheline_read_mostly", 0, 0, false, false, false, false, handle_layout_attr, NULL
};

static void register_attributes(void *, void *)
{
	register_attribute(&attr_hot);
	register_attribute(&attr_exclusive);
	register_attribute(&attr_read_mostly);
	cachehot_per_thread_attributes();
	cachehot_inline_attributes();
}

/* ---- tree -> core model --------------------------------------------------- */

static const char *type_tag(tree type)
{
	tree n = TYPE_NAME(type);
	if (!n)
		return NULL;
	if (TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

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
static char_span source_line(const char *file, int line)
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
	char_span line = source_line(x.file, x.line);
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

static bool is_aggregate(tree t)
{
	return t && (TREE_CODE(t) == RECORD_TYPE || TREE_CODE(t) == UNION_TYPE);
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

static struct ch_type *convert_type(tree type);

/* A type GCC has really laid out: constant size, every field at a constant
 * offset. A C++ template pattern or a struct with a variable-length member
 * is not (bit_position() on its fields would crash cc1). */
/* The two halves, each asked by relevant_1() in its own walk of the
 * fields: the type's size is a constant; field f (a FIELD_DECL, whose type
 * is never NULL) has a valid type and a constant byte offset. Its bit
 * offset is then a constant too: stor-layout.cc's place_field (and C++'s build_base_field) keep the bit
 * offset below the offset's alignment, a constant, wherever they set a
 * constant DECL_FIELD_OFFSET; a field never laid out has neither. One
 * test less per field: relevant_1() asks it of every field of every
 * struct a unit defines (1 615 on mm/page_counter.c; testing the bit
 * offset too cost 11 k instructions there, callgrind). */
static inline bool size_fixed(tree type)
{
	return COMPLETE_TYPE_P(type) && TYPE_SIZE_UNIT(type) &&
	       TREE_CODE(TYPE_SIZE_UNIT(type)) == INTEGER_CST;
}

static inline bool field_placed(tree f)
{
	return DECL_FIELD_OFFSET(f) && TREE_CODE(DECL_FIELD_OFFSET(f)) == INTEGER_CST &&
	       TREE_TYPE(f) != error_mark_node;
}

static bool laid_out(tree type)
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
	if (is_aggregate(elem) && laid_out(TYPE_MAIN_VARIANT(elem))) {
		struct ch_type *nt = convert_type(elem);
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
static struct ch_type *convert_type(tree type)
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

/* 1 if the member name id is a kernel cacheline group marker. Every marker
 * name starts "__cacheline_group_": the length and a letter turn away
 * nearly every member without a call. */
static bool marker_name(tree id)
{
	return IDENTIFIER_LENGTH(id) > 18 && IDENTIFIER_POINTER(id)[2] == 'c' &&
	       ch_marker_kind(IDENTIFIER_POINTER(id), NULL) != CH_MARKER_NONE;
}

/* 1 if type has a kernel cacheline group marker among its direct fields
 * (zero-size members named __cacheline_group_begin__G ...) or inside an
 * anonymous struct/union field: the core reads groups there too
 * (ch_type_has_groups, core/groups.c, the one rule). */
static bool has_group_markers_1(tree type, int depth)
{
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		if (TREE_CODE(f) != FIELD_DECL)
			continue;
		if (DECL_NAME(f) ? marker_name(DECL_NAME(f))
				 : depth < 64 && is_aggregate(TREE_TYPE(f)) &&
				   has_group_markers_1(TREE_TYPE(f), depth + 1))
			return true;
	}
	return false;
}

static bool has_group_markers(tree type)
{
	return has_group_markers_1(type, 0);
}

/* Cheap pre-check, memoised: any cachehot attribute or sidecar entry in
 * this type or a nested one? Keeps the plugin's cost near zero on the
 * thousands of structs a kernel file defines. 'outer' is the name sidecar
 * entries use for an untagged nested struct: the enclosing struct's (its
 * members are named directly, docs/annotations.rst). */
static bool relevant_1(tree type, const char *outer, int depth, int *verdict);

static bool relevant(tree type, const char *outer, int depth)
{
	int v;
	return relevant_1(type, outer, depth, &v);
}

/* relevant(), and *verdict the memo's value (0: none kept) */
static bool relevant_1(tree type, const char *outer, int depth, int *verdict)
{
	struct type_memo_slot *memo;
	tree field;
	bool r = false, named, markers = false, fixed;
	const char *name;

	*verdict = 0;
	type = TYPE_MAIN_VARIANT(type);
	if (!is_aggregate(type))
		return false;
	/* deeper than any real struct: judged, so that the core's walk
	 * limit says it was not walked whole, instead of silence */
	if (depth > 32)
		return true;
	if ((memo = type_memo_find(&types, type)) && memo->verdict) {
		*verdict = memo->verdict;
		return memo->verdict == 1;
	}
	name = type_tag(type);
	if (!name)
		name = outer;
	/* one lookup per type: a sidecar entry for a member of 'name'
	 * exists only when the sidecar names 'name' at all */
	named = name && ch_sidecar_count(cachehot_ctx) && ch_sidecar_names_type(cachehot_ctx, name);
	/* laid_out() folded into the walk below (one walk of the fields,
	 * not two): a field without a constant offset (a variable-length
	 * member, a C++ template pattern) makes the type one never judged */
	fixed = size_fixed(type);
	for (field = TYPE_FIELDS(type); field && !r && fixed; field = DECL_CHAIN(field)) {
		tree ft;
		if (TREE_CODE(field) != FIELD_DECL)
			continue;
		if (!field_placed(field)) {
			fixed = false;
			break;
		}
		if (!markers && (DECL_NAME(field) ? marker_name(DECL_NAME(field))
					: is_aggregate(TREE_TYPE(field)) &&
					  has_group_markers(TREE_TYPE(field))))
			markers = true;
		if (any_attribute_seen &&
		    (lookup_attribute("cacheline_hot", DECL_ATTRIBUTES(field)) ||
		     lookup_attribute("cacheline_exclusive", DECL_ATTRIBUTES(field)) ||
		     lookup_attribute("cacheline_read_mostly", DECL_ATTRIBUTES(field))))
			r = true;
		/* a struct the sidecar names is judged even when no entry
		 * matches a member: a misspelt entry then "names no member" */
		if (!r && named && (name == type_tag(type) || (!depth && !type_tag(type))))
			r = true;
		if (!r && named && DECL_NAME(field)) {
			const char *g;
			if (ch_sidecar_class(cachehot_ctx, name, IDENTIFIER_POINTER(DECL_NAME(field)), &g)
			    != CH_CLASS_NONE)
				r = true;
		}
		ft = TREE_TYPE(field);
		while (!r && ft && TREE_CODE(ft) == ARRAY_TYPE)
			ft = TREE_TYPE(ft);
		if (!r && is_aggregate(ft) && relevant(ft, name, depth + 1))
			r = true;
	}
	/* the walk stopped early at a relevant field: the rest of the
	 * fields still decide whether the layout is fixed */
	if (r && fixed)
		fixed = laid_out(type);
	if (!fixed)
		return false;   /* never judged, never remembered: as laid_out() first */
	/* an untagged type's answer depends on 'outer' (the typedef name is
	 * only known on FINISH_DECL): remember only a final one. 3: not
	 * relevant, but kernel group markers among the direct fields (the
	 * walk above saw them all) */
	if (r || type_tag(type)) {
		*verdict = r ? 1 : markers ? 3 : 2;
		type_memo_add(&types, type)->verdict = (unsigned char)*verdict;
	}
	return r;
}

/* ---- configuration from the translation unit ------------------------------ */

static const char *macro_body(const char *name, void *)
{
	cpp_hashnode *node;
	const unsigned char *def;
	const char *p;
	if (!parse_in)
		return NULL;
	node = cpp_lookup(parse_in, (const unsigned char *)name, strlen(name));
	if (!node || !cpp_user_macro_p(node) || cpp_fun_like_macro_p(node))
		return NULL;
	def = cpp_macro_definition(parse_in, node);
	if (!def)
		return NULL;
	p = (const char *)def + strlen(name);   /* "NAME body" */
	return ch_strdup(cachehot_ctx, p);
}

static int macro_defined(const char *name, void *)
{
	return parse_in && cpp_defined(parse_in, (const unsigned char *)name, strlen(name));
}

static void current_config(struct ch_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->severity = cachehot_opts.severity;
	cfg->predict = cachehot_opts.predict;
	/* a kernel translation unit without CONFIG_SMP is uniprocessor */
	cfg->smp = ch_smp_from_macros(macro_defined, NULL);
	cfg->kernel = ch_kernel_from_macros(macro_defined, NULL);
	if (!cfg->kernel && lang_GNU_CXX())
		cfg->kernel = 2;   /* C++: alignas */
	if (cachehot_opts.line_size) {
		cfg->line_size = cachehot_opts.line_size;
		return;
	}
	{
		/* the value in effect now, where the struct being judged is
		 * complete (as ____cacheline_aligned in it expands): a macro
		 * defined after a struct or redefined between two gives each
		 * struct its own (docs/checks.rst, "Line size"; it was the
		 * first value found, for the whole unit). The core's total
		 * evaluation, as every engine: a body it cannot evaluate gives
		 * the default and one note at the macro's definition. */
		static location_t noted;   /* the definition last noted */
		static bool noted_any;
		const char *note = NULL, *which = NULL;
		cfg->line_size = ch_line_size_eval(cachehot_ctx, macro_body, NULL, &note, &which);
		if (note && parse_in) {
			cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)which,
							strlen(which));
			location_t at = node && cpp_user_macro_p(node)
				? cpp_macro_definition_location(node) : UNKNOWN_LOCATION;
			if (!noted_any || at != noted) {
				noted_any = true;
				noted = at;
				struct ch_record r;
				ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, note);
				r.field = which;
				r.ident = "line-size-macro";
				record_at(at, &r);
				inform(at, "%s", note);
			}
		}
	}
	if (!cfg->line_size)
		cfg->line_size = CH_DEFAULT_LINE_SIZE;
}

/* ---- judging ---------------------------------------------------------------- */

/* A fix-it that replaces the name of the padding macro whose expansion
 * declares the member at loc (PC_PADDING(_pad1_) -> CACHELINE_PADDING(_pad1_));
 * -fdiagnostics-generate-patch prints it as a unified diff. */
static void add_macro_fixit(rich_location *rich, location_t loc, const char *replacement)
{
	const line_map *map;
	const line_map_macro *mm;
	location_t at;
	const char *name;

	if (!replacement || loc <= BUILTINS_LOCATION || !linemap_location_from_macro_expansion_p(line_table, loc))
		return;
	map = linemap_lookup(line_table, loc);
	if (!map || !linemap_macro_expansion_map_p(map))
		return;
	mm = linemap_check_macro(map);
	/* the outermost expansion: the macro the struct's author wrote */
	while (linemap_location_from_macro_expansion_p(line_table,
						       MACRO_MAP_EXPANSION_POINT_LOCATION(mm))) {
		map = linemap_lookup(line_table, MACRO_MAP_EXPANSION_POINT_LOCATION(mm));
		if (!map || !linemap_macro_expansion_map_p(map))
			return;
		mm = linemap_check_macro(map);
	}
	at = MACRO_MAP_EXPANSION_POINT_LOCATION(mm);
	name = (const char *)NODE_NAME(MACRO_MAP_MACRO(mm));
	if (!name || !strcmp(name, replacement))
		return;
	rich->add_fixit_replace(source_range::from_locations(at,
				linemap_position_for_loc_and_offset(line_table, at, strlen(name) - 1)),
				replacement);
	/* ZONE_PADDING-style macros carry their own ';' and are used without
	 * one: CACHELINE_PADDING(name) needs it after the ')' */
	{
		const unsigned char *def = parse_in ? cpp_macro_definition(parse_in, MACRO_MAP_MACRO(mm)) : NULL;
		size_t n = def ? strlen((const char *)def) : 0;
		expanded_location x = expand_location(at);
		while (n && ISSPACE(def[n - 1]))
			n--;
		if (n && def[n - 1] == ';' && x.file && x.line > 0 && x.column > 0) {
			char_span line = source_line(x.file, x.line);
			int depth = 0;
			for (size_t c = x.column - 1; line && c < line.length(); c++) {
				if (line[c] == '(')
					depth++;
				else if (line[c] == ')' && --depth == 0) {
					rich->add_fixit_insert_after(
						linemap_position_for_loc_and_offset(line_table, at,
										    c - (x.column - 1)),
						";");
					break;
				}
			}
		}
	}
	/* kernel code: CACHELINE_PADDING comes from <linux/cache.h> */
	if (maybe_add_include_fixit && macro_defined("__KERNEL__", NULL))
		maybe_add_include_fixit(rich, "<linux/cache.h>", false);
}

/* Where the declaration of the member named at loc starts: after the
 * previous ';' or '{' on its line, else at the line's first non-blank
 * column (*line_start then says so and *indent is the line's indentation).
 * false when the member comes from a macro, the line is unreadable, or a
 * '}' comes first (a member of a nested struct type written inline). */
static bool decl_start(location_t loc, location_t *at, location_t *bol, bool *line_start,
		       std::string *indent)
{
	expanded_location x;
	if (loc <= BUILTINS_LOCATION || linemap_location_from_macro_expansion_p(line_table, loc))
		return false;
	x = expand_location(loc);
	if (!x.file || x.line <= 0 || x.column <= 0)
		return false;
	char_span line = source_line(x.file, x.line);
	if (!line || (size_t)x.column > line.length())
		return false;
	size_t c = 0, j = (size_t)x.column - 1, s;
	while (c < line.length() && (line[c] == ' ' || line[c] == '\t'))
		c++;
	if (c > j)
		return false;
	indent->assign(line.get_buffer(), c);
	*line_start = true;
	s = c;
	while (j > c) {
		char ch = line[j - 1];
		if (ch == '}')
			return false;
		if (ch == ';' || ch == '{') {
			s = j;
			while (s < (size_t)x.column - 1 && (line[s] == ' ' || line[s] == '\t'))
				s++;
			*line_start = false;
			break;
		}
		j--;
	}
	*at = linemap_position_for_loc_and_offset(line_table, loc, (int)s + 1 - x.column);
	*bol = linemap_position_for_loc_and_offset(line_table, loc, 1 - x.column);
	return *at != 0 && *bol != 0;
}

/* The declaration of members first..last written "SPEC a, b, c;" on one
 * line with plain names: *spec gets "SPEC ", *from and *to the columns (0-based)
 * of the declaration's start and of its ';'. false for any other shape
 * (pointers, arrays, bit-fields: no fix-it, the message says it). */
static bool simple_decl(const struct ch_member *first, const struct ch_member *last,
			std::string *spec, size_t *from, size_t *to)
{
	size_t len, b = 0, e, k;
	const char *s = ch_source_line(first->loc.file, first->loc.line, &len);
	const char *name = first->name;
	if (!s || !name)
		return false;
	while (b < len && (s[b] == ' ' || s[b] == '\t'))
		b++;
	const char *semi = (const char *)memchr(s + b, ';', len - b);
	if (!semi)
		return false;
	e = (size_t)(semi - s);
	/* the first declarator's name starts the list */
	size_t nl = strlen(name), at = std::string::npos;
	for (k = b; k + nl <= e; k++)
		if (!memcmp(s + k, name, nl) && (k == b || !(ISIDNUM(s[k - 1]))) &&
		    !ISIDNUM(s[k + nl])) {
			at = k;
			break;
		}
	if (at == std::string::npos || at == b)
		return false;
	for (k = at; k < e; k++)
		if (!(ISIDNUM(s[k]) || s[k] == ',' || s[k] == ' ' || s[k] == '\t'))
			return false;
	for (k = b; k < at; k++)
		if (s[k] == '*' || s[k] == '[' || s[k] == '(' || s[k] == ':' || s[k] == '{')
			return false;
	(void)last;
	spec->assign(s + b, at - b);
	*from = b;
	*to = e;
	return true;
}

/* decl_start for member m; a member whose struct or union type is defined
 * in its declaration ("struct body { ... } body;") starts at that type's
 * keyword. */
static bool member_decl_start(const struct ch_member *m, location_t *at, location_t *bol,
			      bool *line_start, std::string *indent)
{
	if (decl_start(cachehot_where((location_t)m->loc.fe_loc), at, bol, line_start, indent))
		return true;
	if (m->type && m->type->loc.fe_loc && m->type->loc.file && m->loc.file &&
	    !strcmp(m->type->loc.file, m->loc.file) && m->type->loc.line < m->loc.line)
		return decl_start((location_t)m->type->loc.fe_loc, at, bol, line_start, indent);
	return false;
}

/* A member declared alone on a line of its own ("\tT name; comment"): its
 * line's start, indentation, and the text from the declaration to the end
 * of the line. */
struct own_line {
	location_t bol, at;
	std::string indent, text;
	size_t from, len;   /* columns (0-based) of the declaration and the line's length */
	const char *file;
	unsigned line;
};

static bool member_own_line(const struct ch_type *t, const struct ch_member *m, own_line *o)
{
	bool ls;
	size_t len, k, a, b;
	const char *s;
	if (!m->name || !m->loc.file ||
	    !decl_start((location_t)m->loc.fe_loc, &o->at, &o->bol, &ls, &o->indent) || !ls ||
	    o->indent.empty())
		return false;
	ch_decl_group(t, (size_t)(m - t->members), &a, &b);
	if (a != b)
		return false;
	s = ch_source_line(m->loc.file, m->loc.line, &len);
	if (!s)
		return false;
	/* one ';', then nothing but a comment */
	const char *semi = (const char *)memchr(s, ';', len);
	if (!semi || memchr(s, '{', len) || memchr(s, '}', len))
		return false;
	for (k = (size_t)(semi - s) + 1; k < len && (s[k] == ' ' || s[k] == '\t'); k++)
		;
	if (k < len && !(s[k] == '/' && k + 1 < len && (s[k + 1] == '/' || s[k + 1] == '*')))
		return false;
	if (k < len && s[k + 1] == '*' && !strstr(s + k, "*/"))
		return false;
	o->from = o->indent.size();
	o->len = len;
	o->text.assign(s + o->from, len - o->from);
	o->file = m->loc.file;
	o->line = m->loc.line;
	return true;
}

/* Column 1 of the line after o's, in o's line map, or 0. */
static location_t next_line_start(const own_line *o)
{
	location_t sp = linemap_resolve_location(line_table, o->bol, LRK_SPELLING_LOCATION, NULL);
	const line_map *map = linemap_lookup(line_table, sp);
	if (!map || linemap_macro_expansion_map_p(map))
		return 0;
	const line_map_ordinary *ord = linemap_check_ordinary(map);
	location_t l = linemap_position_for_line_and_column(line_table, ord, o->line + 1, 1);
	expanded_location x = expand_location(l);
	if (!x.file || strcmp(x.file, o->file) || x.line != (int)o->line + 1 || x.column != 1)
		return 0;
	return l;
}

/* Where an attribute after member m's declarator goes on line s (len
 * bytes): after its name and any array bounds; 0 when not found. */
static size_t after_declarator(const char *s, size_t len, const char *name)
{
	size_t nl = strlen(name), k, e;
	for (k = 0; k + nl <= len; k++) {
		if (memcmp(s + k, name, nl) || (k && ISIDNUM(s[k - 1])) ||
		    (k + nl < len && ISIDNUM(s[k + nl])))
			continue;
		e = k + nl;
		while (e < len && (s[e] == '[' || s[e] == ' ' || s[e] == '\t')) {
			if (s[e] == '[') {
				while (e < len && s[e] != ']')
					e++;
				if (e >= len)
					return 0;
			}
			e++;
		}
		while (e > k + nl && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		return e;
	}
	return 0;
}

/* " TEXT" after member m's declarator, on its line. */
static bool add_suffix(rich_location *rich, const struct ch_member *m, const char *text)
{
	size_t len, c;
	const char *s;
	location_t at, bol;
	bool ls;
	std::string indent;
	if (!m->name || !m->loc.file || !decl_start((location_t)m->loc.fe_loc, &at, &bol, &ls, &indent))
		return false;
	s = ch_source_line(m->loc.file, m->loc.line, &len);
	if (!s || !(c = after_declarator(s, len, m->name)))
		return false;
	rich->add_fixit_insert_before(linemap_position_for_loc_and_offset(line_table, bol, (int)c),
				      (std::string(" ") + text).c_str());
	return true;
}

/* The struct's one fix as fix-its (-fdiagnostics-generate-patch,
 * -fdiagnostics-parseable-fixits), attached to the first finding of the
 * struct only, so that a patch applies each edit once. A break on a member
 * declared with others rewrites that declaration as one per field, the
 * edit in front of its member. A moved member's line is emptied and its
 * declaration inserted after the line of the member it now follows (or
 * before the first member's line); moves need every member involved
 * declared alone on a line of its own, else the fix is given as text. */
static void add_struct_fixits(rich_location *rich, const struct ch_fix *fx)
{
	size_t i, k, nm = fx->type ? fx->type->nmembers : 0;
	const struct ch_type *t = fx->type;
	bool moves = false;
	for (i = 0; i < fx->nedits; i++)
		if (fx->edits[i].after)
			moves = true;
	for (i = 0; i < fx->nedits; i++) {
		location_t at, bol;
		bool ls;
		std::string indent, spec;
		size_t a, b;
		const struct ch_fix_edit *e = &fx->edits[i];
		if (!member_decl_start(e->member, &at, &bol, &ls, &indent))
			return;
		if (e->decl_first && !simple_decl(e->decl_first, e->decl_last, &spec, &a, &b))
			return;
		if (fx->suffix && !e->after) {
			size_t len;
			const char *ln = e->member->name && e->member->loc.file
				? ch_source_line(e->member->loc.file, e->member->loc.line, &len) : NULL;
			if (!ln || !after_declarator(ln, len, e->member->name))
				return;
		}
	}
	if (moves) {
		/* new order: each member, whether it moved, its break's text */
		std::vector<const char *> pad(nm, (const char *)NULL);
		std::vector<char> moved(nm, 0);
		std::vector<own_line> ol(nm);
		std::vector<char> have(nm, 0);
		if (!t || !fx->order)
			return;
		for (i = 0; i < fx->nedits; i++) {
			size_t m = (size_t)(fx->edits[i].member - t->members);
			if (fx->edits[i].after)
				moved[m] = 1;
			else
				pad[m] = fx->edits[i].text;
			if (fx->edits[i].decl_first)
				return;
		}
		for (i = 0; i < nm; i++)
			if (moved[i]) {
				if (!member_own_line(t, &t->members[i], &ol[i]))
					return;
				have[i] = 1;
			}
		/* where each moved member goes: after the nearest earlier member
		 * (in the new order) that did not move, else before the first */
		std::vector<location_t> where(nm, 0);
		for (k = 0; k < nm; k++) {
			size_t m = fx->order[k], r;
			size_t q = k;
			if (!moved[m])
				continue;
			while (q > 0 && moved[fx->order[q - 1]])
				q--;
			if (q == 0) {
				own_line f;
				if (!member_own_line(t, &t->members[0], &f))
					return;
				where[m] = f.bol;
			} else {
				r = fx->order[q - 1];
				if (!have[r]) {
					if (!member_own_line(t, &t->members[r], &ol[r]))
						return;
					have[r] = 1;
				}
				if (!(where[m] = next_line_start(&ol[r])))
					return;
			}
		}
		for (k = 0; k < nm; k++) {
			size_t m = fx->order[k];
			if (moved[m]) {
				std::string text;
				std::string decl = ol[m].text;
				if (pad[m] && fx->suffix) {
					size_t c = after_declarator(decl.c_str(), decl.size(),
								    t->members[m].name);
					if (!c)
						return;
					decl.insert(c, std::string(" ") + pad[m]);
				}
				if (pad[m] && !fx->suffix)
					text = fx->insert ? ol[m].indent + pad[m] + ";\n" + ol[m].indent
							  : ol[m].indent + pad[m] + " ";
				else
					text = ol[m].indent;
				text += decl + "\n";
				rich->add_fixit_insert_before(where[m], text.c_str());
			} else if (pad[m]) {
				location_t at, bol;
				bool ls;
				std::string indent;
				member_decl_start(&t->members[m], &at, &bol, &ls, &indent);
				if (fx->suffix) {
					if (!add_suffix(rich, &t->members[m], pad[m]))
						return;
				} else if (fx->insert && ls)
					rich->add_fixit_insert_before(bol, (indent + pad[m] + ";\n").c_str());
				else if (fx->insert)
					rich->add_fixit_insert_before(at, (std::string(pad[m]) + "; ").c_str());
				else
					rich->add_fixit_insert_before(at, (std::string(pad[m]) + " ").c_str());
			}
		}
		for (i = 0; i < nm; i++)
			if (moved[i]) {
				location_t l0 = linemap_position_for_loc_and_offset(line_table, ol[i].bol,
										    (int)ol[i].from);
				location_t l1 = linemap_position_for_loc_and_offset(line_table, ol[i].bol,
										    (int)ol[i].len - 1);
				rich->add_fixit_remove(source_range::from_locations(l0, l1));
			}
		return;
	}
	for (i = 0; i < fx->nedits; i++) {
		const struct ch_fix_edit *e = &fx->edits[i];
		location_t at, bol;
		bool ls;
		std::string indent;
		member_decl_start(e->member, &at, &bol, &ls, &indent);
		if (fx->suffix) {
			if (!add_suffix(rich, e->member, e->text))
				return;
		} else if (e->decl_first) {
			std::string spec, text;
			size_t a, b;
			const struct ch_member *m;
			simple_decl(e->decl_first, e->decl_last, &spec, &a, &b);
			for (m = e->decl_first; m <= e->decl_last; m++) {
				if (m != e->decl_first)
					text += " ";
				if (m == e->member)
					text += std::string(e->text) + (fx->insert ? "; " : " ");
				text += spec + m->name + ";";
			}
			location_t l0 = linemap_position_for_loc_and_offset(line_table, bol, (int)a);
			location_t l1 = linemap_position_for_loc_and_offset(line_table, bol, (int)b);
			rich->add_fixit_replace(source_range::from_locations(l0, l1), text.c_str());
		} else if (fx->insert && ls)   /* a line of its own: GCC takes a newline
					 * only in an insertion at column 1 */
			rich->add_fixit_insert_before(bol, (indent + e->text + ";\n").c_str());
		else if (fx->insert)
			rich->add_fixit_insert_before(at, (std::string(e->text) + "; ").c_str());
		else
			rich->add_fixit_insert_before(at, (std::string(e->text) + " ").c_str());
	}
}

static void evict_unit_sources(void);

/* f is a file the parser is still in: the current file or one that
 * includes it (its line count grows while parsing goes on). */
static bool file_open_now(const char *f)
{
	const line_map_ordinary *m;
	if (!LINEMAPS_ORDINARY_USED(line_table))
		return false;
	for (m = LINEMAPS_LAST_ORDINARY_MAP(line_table); m;
	     m = linemap_included_from_linemap(line_table, m))
		if (ORDINARY_MAP_FILE_NAME(m) == f || !strcmp(ORDINARY_MAP_FILE_NAME(m), f))
			return true;
	return false;
}

/* While parsing, the file of a finding's location may be in GCC's
 * source-line cache with a line index sized by the lines read so far (see
 * evict_unit_sources): reading it again from the start costs less than the
 * caret and fix-it lines through that index (a struct finding in mmzone.h:
 * 1.1 M instructions, in every unit). Evicted once the file is complete
 * (its lines are all known then: GCC sizes the index it reads next by all
 * of them), and while it is open only when parsing went on since the last
 * eviction: evicting for every finding read a header again for each of
 * them (a 600-entry sidecar on Apache httpd: 438 findings in one unit,
 * 45 M instructions, 9 % of the compile). */
static void evict_parsing_source(const char *f)
{
	struct evicted { location_t at; bool complete; };
	static hash_map<const char *, evicted, simple_hashmap_traits<nofree_ptr_hash<const char>, evicted> >
		*seen;
	evicted *r, now;
	if (!seen)
		seen = new hash_map<const char *, evicted,
				    simple_hashmap_traits<nofree_ptr_hash<const char>, evicted> >;
	r = seen->get(f);
	if (r && r->complete)
		return;
	now.at = line_table->highest_location;
	now.complete = !file_open_now(f);
	if (r && !now.complete && r->at == now.at)
		return;
	diagnostics_file_cache_forcibly_evict_file(f);
	seen->put(f, now);
}

void cachehot_diag(rich_location *rich, enum ch_severity sev, const char *msg, bool not_fatal)
{
	static bool sources_evicted;
	if (cachehot_once_printed(rich->get_loc(), msg))   /* once=DIR */
		return;
	if (symtab->state == PARSING) {
		expanded_location x = expand_location(rich->get_loc());
		if (x.file)
			evict_parsing_source(x.file);
	} else if (!sources_evicted) {
		sources_evicted = true;
		evict_unit_sources();
	}
	switch (sev) {
	case CH_SEV_ERROR:
		error_at(rich, "%s", msg);
		break;
	case CH_SEV_WARNING: {
		/* GCC turns every warning into an error under -Werror (option
		 * index 0 cannot be named by -Wno-error=): werror=0 keeps ours
		 * warnings, so a -Werror build lives with them while the CI gate
		 * (cachehot check --log) still fails on them */
		bool saved = global_dc->warning_as_error_requested;
		if (!cachehot_opts.werror || not_fatal)
			global_dc->warning_as_error_requested = false;
		warning_at(rich, 0, "%s", msg);
		global_dc->warning_as_error_requested = saved;
		break;
	}
	default:
		inform(rich, "%s", msg);
		break;
	}
}

void cachehot_diag(unsigned loc, enum ch_severity sev, const char *msg, bool not_fatal)
{
	rich_location rich(line_table, (location_t)loc);
	cachehot_diag(&rich, sev, msg, not_fatal);
}

/* GCC 12's source-line cache (input.cc) sizes each file's table of line
 * starts by the file's line count as known when the file is first read:
 * -Wmisleading-indentation reads every file while it is still being
 * parsed, so the count is the line reached then and the table holds the
 * first lines only. Every later read of an earlier line rescans the file
 * from the top: each caret line and display column of a diagnostic printed
 * after parsing (counter-batch, inline-addr) cost about 0.5 M instructions
 * on mm/memcontrol.c, 42 M for its 6 diagnostics (bench/plugin-overhead).
 * Before the first diagnostic printed after parsing, every file of the
 * unit is evicted from the cache once (GCC then reads each again with its
 * whole length). Evicting, not destroying the cache: the cache also holds
 * the front end's input settings (-finput-charset, skipping a UTF-8 BOM),
 * which diagnostic_file_cache_fini() would drop for the rest of the unit. */
static void evict_unit_sources(void)
{
	hash_set<const char *, false, nofree_ptr_hash<const char> > seen;
	const char *last = NULL;
	for (unsigned i = 0; i < LINEMAPS_ORDINARY_USED(line_table); i++) {
		const char *f = ORDINARY_MAP_FILE_NAME(LINEMAPS_ORDINARY_MAP_AT(line_table, i));
		if (!f || f == last)
			continue;
		last = f;   /* line maps share the name's storage: runs of one file */
		if (!seen.add(f))
			diagnostics_file_cache_forcibly_evict_file(f);
	}
}

/* Where a finding at loc is reported, the same place every engine names: a
 * token written in a macro's body (a member a macro declares: STATS_FIELDS;
 * a pasted group marker) is reported at the outermost expansion point, the
 * line in the struct that holds the macro, as sparse and DWARF's decl_line
 * place it; a token written in the source (a macro argument, plain code)
 * where it was written. GCC alone would point into the macro's definition,
 * and running two engines printed one finding twice. For declarations only:
 * the code checks (counter-batch, inline-addr) keep GCC's place. */
location_t cachehot_where(location_t loc)
{
	if (loc > BUILTINS_LOCATION && linemap_location_from_macro_expansion_p(line_table, loc) &&
	    linemap_location_from_macro_definition_p(line_table, loc))
		return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
	return loc;
}

/* r's location: where GCC prints a diagnostic at loc (the spelling point,
 * GCC's column), unless the caller set one. */
static void record_at(location_t loc, struct ch_record *r)
{
	if (!ch_records_on(cachehot_ctx))
		return;
	if (!r->file && loc > BUILTINS_LOCATION) {
		expanded_location x = expand_location_to_spelling_point(loc);
		r->file = x.file;
		r->line = x.line > 0 ? (unsigned)x.line : 0;
		r->col = x.column > 0 ? (unsigned)diagnostic_converted_column(global_dc, x) : 0;
	}
	ch_record_add(cachehot_ctx, r);
}

void cachehot_report(unsigned loc, struct ch_record *r, bool not_fatal)
{
	/* declarations (members, structs, sidecar entries about them) where
	 * every engine places them; code (a loop, a use of a function's
	 * address) where GCC's spelling point is, as it always was */
	if (r->check != CH_CHECK_COUNTER_BATCH && r->check != CH_CHECK_INLINE_ADDR)
		loc = cachehot_where((location_t)loc);
	record_at((location_t)loc, r);
	cachehot_diag(loc, r->severity, r->message, not_fatal);
}

void cachehot_error(enum ch_check check, unsigned loc, const char *msg)
{
	struct ch_record r;
	ch_record_init(&r, check, CH_SEV_ERROR, msg);
	loc = cachehot_where((location_t)loc);
	record_at((location_t)loc, &r);
	error_at((location_t)loc, "%s", msg);
}

static void emit_finding(const struct ch_finding *f, void *)
{
	location_t loc = f->loc.fe_loc ? cachehot_where((location_t)f->loc.fe_loc)
				       : UNKNOWN_LOCATION;
	if (ch_records_on(cachehot_ctx)) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		record_at(loc, &r);
	}
	rich_location rich(line_table, loc);
	add_macro_fixit(&rich, loc, f->fix_macro);
	if (f->fix && f->fix_first)
		add_struct_fixits(&rich, f->fix);
	cachehot_diag(&rich, f->severity, f->message);
}

void cachehot_emit(const struct ch_finding *f, void *arg)
{
	emit_finding(f, arg);
}

void cachehot_config(struct ch_config *cfg)
{
	current_config(cfg);
}

struct ch_type *cachehot_convert(tree type)
{
	return laid_out(TYPE_MAIN_VARIANT(type)) ? convert_type(type) : NULL;
}

/* A stale sidecar entry: at the configured severity, but never more than a
 * warning and never an error under -Werror (docs/annotations.rst). */
static void report_missing_field(const char *file, unsigned line, const char *entry, void *arg)
{
	struct ch_type *t = (struct ch_type *)arg;
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_ANNOTATION,
		       cachehot_opts.severity == CH_SEV_NOTE ? CH_SEV_NOTE : CH_SEV_WARNING,
		       ch_msg_sidecar_no_member(cachehot_ctx, entry, file, line, t->name));
	r.scope = t->name;
	r.field = entry;
	r.ident = "no-member";
	cachehot_report(t->loc.fe_loc ? (location_t)t->loc.fe_loc : UNKNOWN_LOCATION, &r, true);
}

static __attribute__((noinline)) void judge(tree type, const char *typedef_name, tree variant)
{
	struct ch_type *t;
	struct ch_config cfg;

	if (judged_add(TYPE_MAIN_VARIANT(type)))
		return;
	names_seen_any = true;
	t = convert_type(type);
	if (typedef_name && !t->name) {
		t->name = ch_strdup(cachehot_ctx, typedef_name);
		t->name_is_typedef = 1;
	}
	if (variant && TYPE_ALIGN_UNIT(variant) > t->align)
		t->align = TYPE_ALIGN_UNIT(variant);
	current_config(&cfg);
	if (cachehot_opts.manifest && cfg.smp)   /* the rules once for both */
		ch_check_type_manifest(cachehot_ctx, t, &cfg, emit_finding, NULL, "plugin");
	else
		ch_check_type(cachehot_ctx, t, &cfg, emit_finding, NULL);
	if (t->name) {   /* a tag, or the typedef name of an anonymous struct */
		ch_sidecar_mark_members(cachehot_ctx, t);
		ch_sidecar_missing_fields(cachehot_ctx, t->name, report_missing_field, t);
	}
	cachehot_per_thread_members(TYPE_MAIN_VARIANT(type), t->name);
	cachehot_per_thread_type(TYPE_MAIN_VARIANT(type));
}


/* Every member name of tag's struct (anonymous members' names as its own)
 * to the core: a sidecar variable entry "TAGMEMBER" gets the hint
 * "TAG.MEMBER" (ch_sidecar_hint_member). */
static void hint_members(const char *tag, tree type, int depth)
{
	for (tree f = TYPE_FIELDS(type); f && depth < 16; f = DECL_CHAIN(f)) {
		if (TREE_CODE(f) != FIELD_DECL)
			continue;
		if (DECL_NAME(f))
			ch_sidecar_hint_member(cachehot_ctx, tag, IDENTIFIER_POINTER(DECL_NAME(f)));
		else if (is_aggregate(TREE_TYPE(f)))
			hint_members(tag, TREE_TYPE(f), depth + 1);
	}
}

static void finish_type_1(tree type);

/* The usual event returns here, in a function that saves no registers. */
static void finish_type(void *gcc_data, void *)
{
	tree type = (tree)gcc_data;
	if (!type || type == error_mark_node)
		return;
	if (!is_aggregate(type)) {
		if (TREE_CODE(type) == ENUMERAL_TYPE && cachehot_counter_enums)
			cachehot_counter_enum(type);
		return;
	}
	if (!COMPLETE_TYPE_P(type))
		return;
	if (*skip_slot_of(TYPE_MAIN_VARIANT(type)) == TYPE_MAIN_VARIANT(type))
		return;
	finish_type_1(type);
}

static __attribute__((noinline)) void finish_type_1(tree type)
{
	int memo;
	bool pt;
	/* FINISH_TYPE fires on every use of a type: its members once */
	if (ch_sidecar_global_count(cachehot_ctx) &&
	    ch_sidecar_hint_tag(cachehot_ctx, type_tag(TYPE_MAIN_VARIANT(type))) &&
	    !hinted_add(TYPE_MAIN_VARIANT(type)))
		hint_members(type_tag(TYPE_MAIN_VARIANT(type)), TYPE_MAIN_VARIANT(type), 0);
	if (!any_attribute_seen && !ch_sidecar_count(cachehot_ctx) && !has_group_markers(type))
		return;
	if (!type_tag(TYPE_MAIN_VARIANT(type)))
		return;   /* anonymous: judged as part of its container or typedef */
	/* the usual event: a use of a tagged type found irrelevant before
	 * (one lookup instead of two; the same answer as below) */
	if (struct type_memo_slot *m = type_memo_find(&types, TYPE_MAIN_VARIANT(type)))
		if (m->verdict == 2 && !cachehot_per_thread_possible()) {
			*skip_slot_of(TYPE_MAIN_VARIANT(type)) = TYPE_MAIN_VARIANT(type);
			skip_any = true;
			return;
		}
	if (judged_contains(TYPE_MAIN_VARIANT(type)))
		return;
	if (relevant_1(type, NULL, 0, &memo)) {
		judge(type, NULL, NULL);
		return;
	}
	/* relevant() remembers every laid-out tagged type it was asked
	 * about, and whether it saw group markers: no second walk */
	pt = cachehot_per_thread_possible();
	if (memo && (memo == 3 ||
		     (pt && cachehot_per_thread_any(TYPE_MAIN_VARIANT(type),
						    type_tag(TYPE_MAIN_VARIANT(type)))))) {
		judge(type, NULL, NULL);
		return;
	}
	if (pt)
		cachehot_per_thread_type(TYPE_MAIN_VARIANT(type));
	else if (memo == 2) {
		/* the next event of this type would return at the memo above */
		*skip_slot_of(TYPE_MAIN_VARIANT(type)) = TYPE_MAIN_VARIANT(type);
		skip_any = true;
	}
	/* relevant() remembers every laid-out type; what it does not know is
	 * a type without a fixed layout */
	if (!any_attribute_seen || memo)
		return;
	if (!laid_out(TYPE_MAIN_VARIANT(type))) {
		/* a variable-length member or a template pattern: say so once
		 * when it carries annotations, rather than staying silent */
		tree f;
		for (f = TYPE_FIELDS(type); f && any_attribute_seen; f = DECL_CHAIN(f))
			if (TREE_CODE(f) == FIELD_DECL &&
			    (lookup_attribute("cacheline_hot", DECL_ATTRIBUTES(f)) ||
			     lookup_attribute("cacheline_exclusive", DECL_ATTRIBUTES(f)) ||
			     lookup_attribute("cacheline_read_mostly", DECL_ATTRIBUTES(f)))) {
				judged_add(TYPE_MAIN_VARIANT(type));
				struct ch_record r;
				ch_record_init(&r, CH_CHECK_FALSE_SHARING, CH_SEV_NOTE, NULL);
				r.scope = type_tag(TYPE_MAIN_VARIANT(type));
				r.ident = "no-layout";
				r.message = ch_msg_no_layout(cachehot_ctx, r.scope,
							     TREE_CODE(type) == UNION_TYPE);
				cachehot_report(TYPE_STUB_DECL(type)
						? DECL_SOURCE_LOCATION(TYPE_STUB_DECL(type))
						: input_location, &r);
				break;
			}
	}
}

/* An entry naming a typedef of a tagged struct ("CQ.lock" for "typedef
 * struct conn_queue CQ;"): at most a warning, as a stale entry. */
struct typedef_arg { location_t loc; const char *name, *tag; bool is_union; };
static void report_typedef_entry(const char *file, unsigned line, const char *entry, void *arg)
{
	struct typedef_arg *a = (struct typedef_arg *)arg;
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_ANNOTATION,
		       cachehot_opts.severity == CH_SEV_NOTE ? CH_SEV_NOTE : CH_SEV_WARNING,
		       ch_msg_sidecar_typedef(cachehot_ctx, entry, file, line, a->name, a->tag,
					   a->is_union));
	r.scope = a->tag;
	r.field = entry;
	r.ident = "typedef-entry";
	cachehot_report(a->loc, &r, true);
}

/* A global (or static) variable with a class, from its attribute or a
 * sidecar "VARIABLE CLASS" line: into the manifest's "globals", for
 * cachehot-layout --manifest. Nothing is printed: the compiler does not
 * know the variable's neighbours. */
static __attribute__((noinline)) void record_global(tree decl)
{
	enum ch_class cls = CH_CLASS_NONE;
	const char *group = NULL, *name;
	unsigned i;
	struct ch_loc l;
	expanded_location x;
	if (!DECL_NAME(decl) || !(TREE_STATIC(decl) || DECL_EXTERNAL(decl)))
		return;
	name = IDENTIFIER_POINTER(DECL_NAME(decl));
	/* no attribute seen yet (a variable's sets any_attribute_seen): no
	 * lookups (most units, every variable) */
	for (i = 0; any_attribute_seen && i < ARRAY_SIZE(layout_attrs) && cls == CH_CLASS_NONE; i++) {
		tree a = lookup_attribute(layout_attrs[i], DECL_ATTRIBUTES(decl));
		if (!a)
			continue;
		cls = i == 0 ? CH_CLASS_HOT : i == 1 ? CH_CLASS_EXCLUSIVE : CH_CLASS_READ_MOSTLY;
		if (TREE_VALUE(a) && TREE_CODE(TREE_VALUE(TREE_VALUE(a))) == STRING_CST)
			group = TREE_STRING_POINTER(TREE_VALUE(TREE_VALUE(a)));
	}
	{
		/* the lookup marks a sidecar entry of the name matched even when
		 * an attribute gives the class (the attribute wins) */
		const char *sgroup = NULL;
		enum ch_class scls = ch_sidecar_global_class(cachehot_ctx, name, &sgroup);
		if (cls == CH_CLASS_NONE) {
			cls = scls;
			group = sgroup;
		}
	}
	if (cls == CH_CLASS_NONE || !cachehot_opts.manifest)
		return;
	x = expand_location(DECL_SOURCE_LOCATION(decl));
	memset(&l, 0, sizeof(l));
	l.file = x.file;
	l.line = x.line > 0 ? (unsigned)x.line : 0;
	l.col = x.column > 0 ? (unsigned)x.column : 0;
	ch_manifest_add_global(cachehot_ctx, name, cls, group, l, "plugin");
}

/* typedef struct { ... } name_t [__aligned(N)]; */
static __attribute__((noinline)) void finish_typedef(tree decl)
{
	tree type, main;
	type = TREE_TYPE(decl);
	if (!type || !is_aggregate(type))
		return;
	main = TYPE_MAIN_VARIANT(type);
	if (type_tag(main) && ch_sidecar_count(cachehot_ctx) &&
	    strcmp(type_tag(main), IDENTIFIER_POINTER(DECL_NAME(decl))) &&
	    ch_sidecar_names_type(cachehot_ctx, IDENTIFIER_POINTER(DECL_NAME(decl)))) {
		struct typedef_arg a = { DECL_SOURCE_LOCATION(decl),
					 IDENTIFIER_POINTER(DECL_NAME(decl)), type_tag(main),
					 TREE_CODE(main) == UNION_TYPE };
		ch_sidecar_missing_fields(cachehot_ctx, a.name, report_typedef_entry, &a);
	}
	if (!laid_out(main) || type_tag(main) || judged_contains(main))
		return;
	/* a sidecar names the typedef (and members of its anonymous members) */
	if (!relevant(main, IDENTIFIER_POINTER(DECL_NAME(decl)), 0))
		return;
	judge(main, IDENTIFIER_POINTER(DECL_NAME(decl)), type);
}

/* Called for every declaration of the unit (tens of thousands): the
 * common case returns before anything else is set up. */
static void finish_decl_1(tree decl);

static void finish_decl(void *gcc_data, void *)
{
	tree decl = (tree)gcc_data;
	if (!decl)
		return;
	/* an automatic variable (most declarations): nothing to do, in a
	 * function that saves no registers */
	if (TREE_CODE(decl) == VAR_DECL ? !TREE_STATIC(decl) && !DECL_EXTERNAL(decl)
					: TREE_CODE(decl) != TYPE_DECL)
		return;
	finish_decl_1(decl);
}

static __attribute__((noinline)) void finish_decl_1(tree decl)
{
	if (TREE_CODE(decl) == VAR_DECL) {
		if (any_attribute_seen || ch_sidecar_count(cachehot_ctx)) {
			if (cachehot_per_thread_possible())
				cachehot_per_thread_var(decl);
			record_global(decl);
		}
		/* inline-addr's part (static initializers) */
		if (cachehot_opts.inline_addr && TREE_STATIC(decl) && !DECL_EXTERNAL(decl) &&
		    DECL_INITIAL(decl))
			cachehot_inline_finish_decl(decl);
	} else if (TREE_CODE(decl) == TYPE_DECL && DECL_NAME(decl) &&
		   (any_attribute_seen || ch_sidecar_count(cachehot_ctx))) {
		finish_typedef(decl);
	}
}

/* A sidecar entry's report, recorded at the entry (file:line). */
static void sidecar_note(const char *msg, const char *file, unsigned line, const char *entry,
			 const char *ident, const char *hint)
{
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, msg);
	ch_record_entry(&r, file, line, entry, ident, hint);
	record_at(UNKNOWN_LOCATION, &r);
	inform(UNKNOWN_LOCATION, "%s", msg);
}

static void list_unmatched(const char *file, unsigned line, const char *entry, void *)
{
	sidecar_note(ch_msg_sidecar_unmatched(cachehot_ctx, entry, file, line), file, line, entry,
		     "unmatched", NULL);
}

/* A variable entry that named no variable of this unit: a note (it may be
 * defined in another unit; cachehot check decides over the whole run). */
static void list_unmatched_var(const char *name, enum ch_class cls, const char *group,
			       const char *file, unsigned line, int matched, void *)
{
	if (!matched) {
		const char *entry = ch_sidecar_global_entry(cachehot_ctx, name, cls, group);
		const char *hint = ch_sidecar_global_hint(cachehot_ctx, name);
		sidecar_note(ch_msg_sidecar_no_variable_unit(cachehot_ctx, entry, file, line, hint),
			     file, line, entry, "unmatched-variable", hint);
	}
}

static void finish_unit(void *, void *)
{
	if (unmatched_note && !seen_error()) {
		ch_sidecar_unmatched(cachehot_ctx, list_unmatched, NULL);
		if (ch_sidecar_global_count(cachehot_ctx))
			ch_sidecar_globals(cachehot_ctx, list_unmatched_var, NULL);
	}
	if (cachehot_opts.manifest_file && !seen_error() &&
	    ch_manifest_write(cachehot_ctx, cachehot_opts.manifest_file))
		error_at(UNKNOWN_LOCATION, "cachehot: %s", ch_ctx_error(cachehot_ctx));
}

/* findings=PATH: after everything (inline-addr and counter-batch report
 * after the IPA passes), also when the unit had errors (attribute misuse
 * is a finding too). */
static void write_records(void *, void *)
{
	if (ch_records_write(cachehot_ctx, cachehot_opts.findings, main_input_filename))
		error_at(UNKNOWN_LOCATION, "cachehot: %s", ch_ctx_error(cachehot_ctx));
}

/* ---- arguments ---------------------------------------------------------------- */

static void parse_size(const char *key, const char *val, unsigned *out)
{
	if (ch_line_size_parse(val, out))
		error("cachehot: %<-fplugin-arg-%s-%s=%s%>: expected a power of two from 8 to 4096 bytes",
		      plugin_name_used, key, val ? val : "");
}

static void load_annotations(const char *val)
{
	char *list = xstrdup(val), *save = NULL, *p;
	for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
		/* a big sidecar through its index (core/sidecar-index.c): the
		 * unit parses only the lines of the structs it has */
		if (ch_sidecar_load_cached(cachehot_ctx, p, NULL))
			error("cachehot: %s", ch_ctx_error(cachehot_ctx));
	free(list);
}

__attribute__((visibility("default")))
int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	int i;
	const char *access_path = NULL, *once = NULL;
	std::string sidecars;
	bool records = true;

	plugin_name_used = info->base_name;
	cachehot_info.help = plugin_help();
	if (!plugin_default_version_check(version, &gcc_version)) {
		error("cachehot: plugin built for GCC %s, this is GCC %s: rebuild it (make plugin)",
		      gcc_version.basever, version->basever);
		return 1;
	}
	/* Every check runs where the C or C++ front end parses the source; in
	 * lto1 ("GNU GIMPLE") or a front end without parse_in, load quietly and
	 * do nothing: the findings were reported at compile time. */
	if (&parse_in == NULL || !strcmp(lang_hooks.name, "GNU GIMPLE")) {
		register_callback(info->base_name, PLUGIN_INFO, NULL, &cachehot_info);
		/* recording mode instruments late: under -flto, here */
		for (i = 0; i < info->argc; i++)
			if (!strcmp(info->argv[i].key, "record"))
				if (const char *e = cachehot_record_init(info->base_name, info->argv[i].value))
					error("cachehot: %s", e);
		return 0;
	}
	cachehot_ctx = ch_ctx_new();
	/* a big struct's fix searched by one unit of a build (core/fix-cache.c) */
	ch_fix_cache_enable(cachehot_ctx, NULL);
	cachehot_opts.severity = CH_SEV_WARNING;
	cachehot_opts.inline_addr = 1;
	cachehot_opts.inline_notes = 1;
	cachehot_opts.counter_batch = 1;
	cachehot_opts.werror = 1;
	/* disable: nothing registered, not even the attributes (cachehot.h
	 * then sees no __has_attribute(cacheline_hot) and expands to nothing);
	 * the kernel passes it for a file whose Makefile sets DISABLE_..._PLUGIN */
	for (i = 0; i < info->argc; i++) {
		if (!strcmp(info->argv[i].key, "help")) {
			fprintf(stderr, "%s: version %s\n%s\n", plugin_name_used, cachehot_info.version,
				cachehot_info.help);
		} else if (!strcmp(info->argv[i].key, "disable")) {
			return 0;
		}
	}
	for (i = 0; i < info->argc; i++) {
		if (!strcmp(info->argv[i].key, "help"))
			continue;
		const char *k = info->argv[i].key, *v = info->argv[i].value;
		if (!ch_option_find(cachehot_plugin_options, k)) {
			/* only what the one list (plugin/options.c) has is taken */
			error("cachehot: unknown plugin argument %<-fplugin-arg-%s-%s%> (known: %s)",
			      plugin_name_used, k,
			      ch_options_known(cachehot_ctx, cachehot_plugin_options));
		} else if (!strcmp(k, "annotations")) {
			if (!v || !*v)
				error("cachehot: %<-fplugin-arg-%s-annotations%> needs a file name",
				      plugin_name_used);
			else
				load_annotations(v);
			if (v && *v)
				sidecars += (sidecars.empty() ? "" : ":") + std::string(v);
		} else if (!strcmp(k, "once")) {
			if (!v || !*v)
				error("cachehot: %<-fplugin-arg-%s-once%> needs a directory name",
				      plugin_name_used);
			once = v;
		} else if (!strcmp(k, "object-records")) {
			if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
				records = *v == '1';
			else
				error("cachehot: %<-fplugin-arg-%s-object-records%> takes 0 or 1",
				      plugin_name_used);
		} else if (!strcmp(k, "line-size")) {
			parse_size(k, v, &cachehot_opts.line_size);
		} else if (!strcmp(k, "predict")) {
			parse_size(k, v, &cachehot_opts.predict);
		} else if (!strcmp(k, "severity")) {
			if (ch_severity_parse(v, &cachehot_opts.severity))
				error("cachehot: %<-fplugin-arg-%s-severity%> takes note, warning or error",
				      plugin_name_used);
		} else if (!strcmp(k, "manifest")) {
			if (!v || !*v)
				error("cachehot: %<-fplugin-arg-%s-manifest%> needs a file name",
				      plugin_name_used);
			cachehot_opts.manifest = v;
		} else if (!strcmp(k, "unmatched")) {
			if (v && !strcmp(v, "note"))
				unmatched_note = 1;
			else if (v && !strcmp(v, "ignore"))
				unmatched_note = 0;
			else
				error("cachehot: %<-fplugin-arg-%s-unmatched%> takes note or ignore",
				      plugin_name_used);
		} else if (!strcmp(k, "counter-updaters")) {
			cachehot_counter_updaters(v ? v : "", plugin_name_used);
		} else if (!strcmp(k, "inline-notes") || !strcmp(k, "inline-addr") ||
			   !strcmp(k, "werror") || !strcmp(k, "counter-batch")) {
			if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
				*(!strcmp(k, "inline-notes") ? &cachehot_opts.inline_notes :
				  !strcmp(k, "werror") ? &cachehot_opts.werror :
				  !strcmp(k, "counter-batch") ? &cachehot_opts.counter_batch
							      : &cachehot_opts.inline_addr) = atoi(v);
			else
				error("cachehot: %<-fplugin-arg-%s-%s%> takes 0 or 1",
				      plugin_name_used, k);
		} else if (!strcmp(k, "record")) {
			if (const char *e = cachehot_record_init(info->base_name, v))
				error("cachehot: %s", e);
		} else if (!strcmp(k, "findings")) {
			if (!v || !*v)
				error("cachehot: %<-fplugin-arg-%s-findings%> needs a file or directory name, or - (stderr)",
				      plugin_name_used);
			else
				cachehot_opts.findings = v;
		} else if (!strcmp(k, "access")) {
			if (!v || !*v)
				error("cachehot: %<-fplugin-arg-%s-access%> needs a file or directory name",
				      plugin_name_used);
			else
				access_path = v;
		} else {
			error("cachehot: argument %<-fplugin-arg-%s-%s%> is listed in "
			      "plugin/options.c but not handled", plugin_name_used, k);
		}
	}
	/* manifest=object: the records go into the object only */
	cachehot_opts.manifest_file = cachehot_opts.manifest &&
				      strcmp(cachehot_opts.manifest, "object") ? cachehot_opts.manifest : NULL;
	if (cachehot_opts.manifest_file)
		ch_manifest_use(cachehot_ctx, cachehot_opts.manifest_file);
	if (cachehot_opts.findings) {
		ch_records_begin(cachehot_ctx, "plugin");
		register_callback(info->base_name, PLUGIN_FINISH, write_records, NULL);
	}
	if (const char *problem = ch_predict_problem(cachehot_ctx, cachehot_opts.line_size,
						      cachehot_opts.predict))
		error("cachehot: %s", problem);
	type_memo_init(&types, 11);   /* 2 048 slots: a kernel unit's few hundred structs */
	register_callback(info->base_name, PLUGIN_INFO, NULL, &cachehot_info);
	register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_TYPE, finish_type, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_DECL, finish_decl, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
	if (cachehot_opts.inline_addr)
		cachehot_inline_init(info->base_name);
	if (cachehot_opts.counter_batch)
		cachehot_counter_init(info->base_name);
	if (access_path)
		cachehot_access_init(info->base_name, access_path);
	cachehot_build_init(info->base_name, sidecars.empty() ? NULL : xstrdup(sidecars.c_str()),
			    once, records);
	cachehot_build_finish_init(info->base_name);   /* last */
	return 0;
}
