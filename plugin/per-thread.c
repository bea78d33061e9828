/* SPDX-License-Identifier: GPL-2.0 */
/*
 * per-thread.c -- [cachehot-array-sharing] in the GCC plugin: arrays of
 * per-thread elements (core/array.c judges them).
 *
 * Marked by the attribute cacheline_per_thread (__cacheline_per_thread of
 * <cachehot.h>) on a variable, a struct member or a struct type, or by the
 * sidecar ("NAME[] per_thread", "NAME[N] per_thread",
 * "STRUCT.FIELD[] per_thread"; NAME a variable or a struct tag). Judged:
 *   - a variable of static storage that is an array of structs (count and
 *     alignment from the declaration: its type's or an alignment attribute,
 *     not what GCC adds to large objects), or a pointer to a struct (a heap
 *     array: count from the sidecar, start aligned as its type);
 *   - a member that is such an array or pointer (offset within the struct;
 *     the struct assumed to start on a line when it is aligned to one);
 *   - a marked variable that is an array of scalars (pointers, integers: an
 *     LRU's list heads) the same way, and arrays of types from system
 *     headers (pthread_mutex_t): their element type cannot be aligned where
 *     it is declared, so the fix wraps each element (ch_type.wrap);
 *   - a marked struct type: "arrays of 'struct x'" (count unknown), once,
 *     at its definition; variables and members of a marked type are then
 *     not reported again.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "hash-set.h"
#include "cachehot-plugin.h"

static hash_set<tree> *pt_done;
/* cacheline_per_thread was applied somewhere in this unit: until then no
 * attribute list is searched for it (most units never use it). */
static bool pt_attr_seen;

/* An attribute mark, for cachehot-layout (DWARF/BTF carry no attributes):
 * the manifest's "per_thread" names. */
static void to_manifest(const char *name)
{
	if (cachehot_opts.manifest && name)
		ch_manifest_per_thread(cachehot_ctx, name);
}

bool cachehot_per_thread_possible(void)
{
	return pt_attr_seen || ch_sidecar_per_thread_count(cachehot_ctx);
}

static tree handle_per_thread(tree *node, tree name, tree, int, bool *no_add_attrs)
{
	tree n = *node;
	/* a unit with no other annotation is still looked at */
	cachehot_attribute_seen();
	if (TREE_CODE(n) == VAR_DECL || TREE_CODE(n) == FIELD_DECL ||
	    TREE_CODE(n) == RECORD_TYPE || TREE_CODE(n) == UNION_TYPE) {
		pt_attr_seen = true;
		return NULL_TREE;
	}
	if (TREE_CODE(n) == TYPE_DECL && TREE_TYPE(n) &&
	    (TREE_CODE(TREE_TYPE(n)) == RECORD_TYPE || TREE_CODE(TREE_TYPE(n)) == UNION_TYPE)) {
		pt_attr_seen = true;
		return NULL_TREE;
	}
	cachehot_error(CH_CHECK_ARRAY_SHARING, DECL_P(n) ? DECL_SOURCE_LOCATION(n) : input_location,
		       ch_msg_attr_per_thread(cachehot_ctx, IDENTIFIER_POINTER(name)));
	*no_add_attrs = true;
	return NULL_TREE;
}

static struct attribute_spec attr_per_thread = {
	"cacheline_per_thread", 0, 0, false, false, false, false, handle_per_thread, NULL
};

void cachehot_per_thread_attributes(void)
{
	register_attribute(&attr_per_thread);
}

static const char *tag_of(tree type)
{
	tree n = TYPE_NAME(type);
	if (n && TREE_CODE(n) == TYPE_DECL)
		n = DECL_NAME(n);
	return n && TREE_CODE(n) == IDENTIFIER_NODE ? IDENTIFIER_POINTER(n) : NULL;
}

/* A struct type marked per-thread (attribute on the type or its typedef, or
 * a sidecar entry naming its tag). */
static bool type_marked(tree type)
{
	const char *tag;
	bool side;
	if (!type || (TREE_CODE(type) != RECORD_TYPE && TREE_CODE(type) != UNION_TYPE))
		return false;
	tag = tag_of(TYPE_MAIN_VARIANT(type));
	side = tag && ch_sidecar_per_thread(cachehot_ctx, tag, NULL);
	if (pt_attr_seen &&
	    (lookup_attribute("cacheline_per_thread", TYPE_ATTRIBUTES(type)) ||
	     lookup_attribute("cacheline_per_thread", TYPE_ATTRIBUTES(TYPE_MAIN_VARIANT(type))))) {
		to_manifest(tag);
		return true;
	}
	return side;
}

/* Element type and count of an array (flattened), or of a pointer (count 0). */
static tree element_of(tree type, uint64_t *n, bool *heap)
{
	*n = 1;
	*heap = false;
	if (type && TREE_CODE(type) == POINTER_TYPE) {
		*heap = true;
		*n = 0;
		return TREE_TYPE(type);
	}
	if (!type || TREE_CODE(type) != ARRAY_TYPE)
		return NULL_TREE;
	while (TREE_CODE(type) == ARRAY_TYPE) {
		tree dom = TYPE_DOMAIN(type), max = dom ? TYPE_MAX_VALUE(dom) : NULL_TREE;
		if (max && TREE_CODE(max) == INTEGER_CST && tree_fits_uhwi_p(max))
			*n *= tree_to_uhwi(max) + 1;
		else
			*n = 0;
		type = TREE_TYPE(type);
	}
	return type;
}

static bool is_scalar(tree t)
{
	switch (t ? TREE_CODE(t) : ERROR_MARK) {
	case INTEGER_TYPE: case POINTER_TYPE: case REAL_TYPE: case ENUMERAL_TYPE:
	case BOOLEAN_TYPE:
		return true;
	default:
		return false;
	}
}

/* An element type judged on a marked array: a struct or union, or a scalar. */
static bool judgeable(tree elem)
{
	return elem && (TREE_CODE(elem) == RECORD_TYPE || TREE_CODE(elem) == UNION_TYPE ||
			is_scalar(elem));
}

/* How the fix must wrap elem (ch_type.wrap): a scalar, or a type declared
 * in a system header (the core's test on the declaring file, as the other
 * engines make it). */
static int wrap_kind(tree elem)
{
	tree d = TYPE_NAME(elem);
	if (is_scalar(elem))
		return CH_WRAP_SCALAR;
	if (!d || TREE_CODE(d) != TYPE_DECL)
		d = TYPE_STUB_DECL(TYPE_MAIN_VARIANT(elem));
	if (d && DECL_P(d) &&
	    ch_is_system_header(expand_location(DECL_SOURCE_LOCATION(d)).file))
		return CH_WRAP_SYSTEM;
	return CH_WRAP_NONE;
}

/* Judge the elements elem of a marked array (core/array.c: where it lies
 * and its name from ch_per_thread_site). */
static void check(tree elem, const struct ch_pt_judgement *j, location_t loc)
{
	struct ch_config cfg;
	struct ch_type *et;
	struct ch_loc l;
	expanded_location x = expand_location(loc);
	if (!elem || !COMPLETE_TYPE_P(elem) || !TYPE_SIZE_UNIT(elem) ||
	    !tree_fits_uhwi_p(TYPE_SIZE_UNIT(elem)))
		return;
	if (is_scalar(elem))
		et = ch_type_new(cachehot_ctx, NULL, NULL, 0, tree_to_uhwi(TYPE_SIZE_UNIT(elem)),
				 TYPE_ALIGN_UNIT(elem));
	else
		et = cachehot_convert(elem);
	if (!et)
		return;
	et->wrap = wrap_kind(elem);
	if (!et->name && TYPE_NAME(elem) && TREE_CODE(TYPE_NAME(elem)) == TYPE_DECL &&
	    DECL_NAME(TYPE_NAME(elem))) {   /* typedef struct { ... } name_t; */
		et->name = ch_strdup(cachehot_ctx, IDENTIFIER_POINTER(DECL_NAME(TYPE_NAME(elem))));
		et->name_is_typedef = 1;
	}
	cachehot_config(&cfg);
	memset(&l, 0, sizeof(l));
	l.file = ch_strdup(cachehot_ctx, x.file);
	l.line = x.line > 0 ? (unsigned)x.line : 0;
	l.col = x.column > 0 ? (unsigned)x.column : 0;
	l.fe_loc = (uint64_t)loc;
	ch_check_array(cachehot_ctx, et, tree_to_uhwi(TYPE_SIZE_UNIT(elem)), j->nelems, j->base_off,
		       j->base_known, j->what, l, &cfg, cachehot_emit, NULL);
}

/* A marked struct type: judged once for arrays of it (count unknown). */
void cachehot_per_thread_type(tree type)
{
	unsigned L;
	struct ch_config cfg;
	struct ch_pt_site site;
	struct ch_pt_judgement j;
	type = TYPE_MAIN_VARIANT(type);
	if (!pt_done)
		pt_done = new hash_set<tree>;
	if (!type_marked(type) || !TYPE_STUB_DECL(type) || pt_done->contains(type))
		return;
	pt_done->add(type);
	cachehot_config(&cfg);
	L = ch_config_line_size(&cfg);
	memset(&site, 0, sizeof(site));
	site.kind = CH_PT_TYPE;
	site.name = tag_of(type);
	site.is_union = TREE_CODE(type) == UNION_TYPE;
	site.elem_align = TYPE_ALIGN_UNIT(type);
	ch_per_thread_site(cachehot_ctx, &site, L, &j);
	check(type, &j, DECL_SOURCE_LOCATION(TYPE_STUB_DECL(type)));
}

/* A variable of static storage. */
void cachehot_per_thread_var(tree decl)
{
	uint64_t n = 0, cnt = 0;
	bool heap, attr;
	tree elem;
	const char *name;
	struct ch_config cfg;
	struct ch_pt_site site;
	struct ch_pt_judgement j;
	unsigned L;
	if (!DECL_NAME(decl) || !TREE_STATIC(decl) || DECL_EXTERNAL(decl))
		return;
	elem = element_of(TREE_TYPE(decl), &n, &heap);
	if (!judgeable(elem))
		return;
	name = IDENTIFIER_POINTER(DECL_NAME(decl));
	attr = lookup_attribute("cacheline_per_thread", DECL_ATTRIBUTES(decl)) != NULL;
	if (attr)
		to_manifest(name);
	if (!ch_per_thread_marked(cachehot_ctx, name, attr, 1, &cnt)) {
		if (type_marked(elem))
			cachehot_per_thread_type(elem);   /* reported at the type */
		return;
	}
	cachehot_config(&cfg);
	L = ch_config_line_size(&cfg);
	memset(&site, 0, sizeof(site));
	site.kind = CH_PT_VARIABLE;
	site.name = name;
	site.heap = heap;
	site.nelems = heap ? cnt : n;
	site.elem_align = TYPE_ALIGN_UNIT(elem);
	/* the alignment the declaration asks for: GCC raises that of large
	 * objects that bind locally (x86-64: to 64 bytes), which neither a
	 * -fPIC build nor the other engines can count on */
	site.decl_align = DECL_USER_ALIGN(decl) ? DECL_ALIGN_UNIT(decl) : 0;
	ch_per_thread_site(cachehot_ctx, &site, L, &j);
	check(elem, &j, DECL_SOURCE_LOCATION(decl));
}

/* The members of a struct just judged (or marked only through them). */
void cachehot_per_thread_members(tree type, const char *sname)
{
	struct ch_config cfg;
	unsigned L;
	bool side = sname && ch_sidecar_per_thread_members(cachehot_ctx, sname);
	cachehot_config(&cfg);
	L = ch_config_line_size(&cfg);
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		uint64_t n, cnt = 0;
		bool heap, attr;
		tree elem, pos;
		const char *fname, *key;
		struct ch_pt_site site;
		struct ch_pt_judgement j;
		if (TREE_CODE(f) != FIELD_DECL || !DECL_NAME(f))
			continue;
		elem = element_of(TREE_TYPE(f), &n, &heap);
		if (!elem || (TREE_CODE(elem) != RECORD_TYPE && TREE_CODE(elem) != UNION_TYPE))
			continue;
		fname = IDENTIFIER_POINTER(DECL_NAME(f));
		attr = pt_attr_seen && lookup_attribute("cacheline_per_thread", DECL_ATTRIBUTES(f));
		if (attr && sname)
			to_manifest(ch_printf(cachehot_ctx, "%s.%s", sname, fname));
		/* no sidecar lookup (nothing to mark matched) when no
		 * "STRUCT.FIELD[] per_thread" line names this struct; the name
		 * made only when something may mark it */
		key = side || attr ? ch_printf(cachehot_ctx, "%s.%s", sname ? sname : "?", fname)
				   : NULL;
		if (!ch_per_thread_marked(cachehot_ctx, key, attr, side, &cnt)) {
			if (type_marked(elem))
				cachehot_per_thread_type(elem);
			continue;
		}
		pos = bit_position(f);
		memset(&site, 0, sizeof(site));
		site.kind = CH_PT_MEMBER;
		site.name = key;
		site.heap = heap;
		site.nelems = heap ? cnt : n;
		site.offset = pos && tree_fits_uhwi_p(pos) ? tree_to_uhwi(pos) / 8 : 0;
		site.elem_align = TYPE_ALIGN_UNIT(elem);
		site.decl_align = TYPE_ALIGN_UNIT(type);
		ch_per_thread_site(cachehot_ctx, &site, L, &j);
		check(elem, &j, DECL_SOURCE_LOCATION(f));
	}
}

/* 1 if a member of type carries a per-thread mark (the struct needs a look
 * even with nothing else annotated). */
bool cachehot_per_thread_any(tree type, const char *sname)
{
	/* asked of every struct of the unit: one lookup settles the usual
	 * case (no mark anywhere), instead of one per member (8% of cc1 on
	 * mm/page_counter.c, bench/plugin-overhead) */
	bool side = sname && ch_sidecar_per_thread_members(cachehot_ctx, sname);
	if (!pt_attr_seen && !side)
		return false;
	for (tree f = TYPE_FIELDS(type); f; f = DECL_CHAIN(f)) {
		if (TREE_CODE(f) != FIELD_DECL || !DECL_NAME(f))
			continue;
		if (pt_attr_seen && lookup_attribute("cacheline_per_thread", DECL_ATTRIBUTES(f)))
			return true;
		if (side) {
			char key[512];
			uint64_t n;
			bool heap;
			tree elem = element_of(TREE_TYPE(f), &n, &heap);
			/* only an array or pointer of structs is judged (as in
			 * cachehot_per_thread_members): an entry naming another
			 * member stays unmatched, and is reported (sparse, layout) */
			if (!elem || (TREE_CODE(elem) != RECORD_TYPE && TREE_CODE(elem) != UNION_TYPE))
				continue;
			if ((size_t)snprintf(key, sizeof(key), "%s.%s", sname,
					     IDENTIFIER_POINTER(DECL_NAME(f))) < sizeof(key) &&
			    ch_sidecar_per_thread(cachehot_ctx, key, NULL))
				return true;
		}
	}
	return false;
}
