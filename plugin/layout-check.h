/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout-check.h -- what the parts of the plugin's layout check share
 * (C++ only; include after GCC's tree.h, input.h and diagnostic-core.h).
 *
 *   plugin/cachehot.c    plugin_init, the events (FINISH_TYPE, FINISH_DECL,
 *                        FINISH_UNIT), which types are judged (relevance)
 *   plugin/attributes.c  the layout attributes (cacheline_hot, ...)
 *   plugin/convert.c     GCC's laid-out struct types -> the core model
 *   plugin/config.c      the unit's configuration (line size, SMP, kernel)
 *   plugin/fixits.c      a finding's fix as GCC fix-its
 *   plugin/diag.c        printing and recording findings through GCC's
 *                        diagnostics
 *
 * The rules are the core's (core/); nothing here decides a finding.
 */
#ifndef CACHEHOT_LAYOUT_CHECK_H
#define CACHEHOT_LAYOUT_CHECK_H

#include "cachehot-plugin.h"

/* C front-end symbols, weak: lto1 (the link step of -flto builds, where
 * -fplugin= reaches the compiler again) and other front ends lack them, and a
 * strong reference made dlopen fail ("undefined symbol: parse_in") and broke
 * the link. plugin_init does nothing where they are absent. */
extern cpp_reader *parse_in __attribute__((weak));
extern void maybe_add_include_fixit(rich_location *, const char *, bool) __attribute__((weak));

/* A layout attribute was applied in this unit (attributes.c): until then
 * no type is searched for one. */
extern bool cachehot_any_attribute_seen;
/* The three layout attributes' names, in class order: hot, exclusive,
 * read-mostly (attributes.c). */
extern const char *const cachehot_layout_attrs[3];
/* PLUGIN_ATTRIBUTES: registers the layout attributes and the other parts'
 * (per-thread, inline-addr). */
void cachehot_register_attributes(void *gcc_data, void *user_data);

/* The tag (or typedef name) of a struct type, or NULL. */
static inline const char *type_tag(tree type)
{
	tree n = TYPE_NAME(type);
	if (!n)
		return NULL;
	if (TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

static inline bool is_aggregate(tree t)
{
	return t && (TREE_CODE(t) == RECORD_TYPE || TREE_CODE(t) == UNION_TYPE);
}

/* A type GCC has really laid out: constant size, every field at a constant
 * offset. A C++ template pattern or a struct with a variable-length member
 * is not (bit_position() on its fields would crash cc1). */
/* The two halves, each asked by relevant_1() (cachehot.c) in its own walk
 * of the fields: the type's size is a constant; field f (a FIELD_DECL,
 * whose type is never NULL) has a valid type and a constant byte offset.
 * Its bit offset is then a constant too: stor-layout.cc's place_field (and
 * C++'s build_base_field) keep the bit offset below the offset's alignment,
 * a constant, wherever they set a constant DECL_FIELD_OFFSET; a field never
 * laid out has neither. One test less per field: relevant_1() asks it of
 * every field of every struct a unit defines (1 615 on mm/page_counter.c;
 * testing the bit offset too cost 11 k instructions there, callgrind). */
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

/* convert.c: both halves over the whole type (false for a non-struct). */
bool cachehot_laid_out(tree type);
/* convert.c: the core model of a laid-out struct/union type, converted once
 * per main variant (the core's type table owns it); the caller has checked
 * cachehot_laid_out(). */
struct ch_type *cachehot_convert_type(tree type);
/* convert.c: line 'line' (1-based) of file, without its newline, from the
 * core's indexed source cache (ch_source_line); empty if unreadable. */
char_span cachehot_source_line(const char *file, int line);

/* config.c: 1 if the unit defines macro 'name' now (a ch_macro_defined_fn). */
int cachehot_macro_defined(const char *name, void *arg);

/* fixits.c: f's fixes as fix-its on rich (a private padding macro's name,
 * and on a struct's first finding the struct's one fix); loc is where f is
 * reported. Nothing is added where an edit cannot be placed exactly. */
void cachehot_add_fixits(rich_location *rich, location_t loc, const struct ch_finding *f);

/* diag.c: records r (findings=PATH) at loc's spelling point and GCC's
 * printed column, unless r->file is set; nothing when records are off. */
void cachehot_record_at(location_t loc, struct ch_record *r);

#endif
