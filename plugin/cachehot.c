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
 * This file: plugin_init and its arguments, the events, and which types
 * are judged; plugin/layout-check.h lists the layout check's other parts.
 *
 * C-style code compiled with g++, in the manner of the kernel's
 * scripts/gcc-plugins/ (but without gcc-common.h, whose '#define gimple gimple_ptr' mangles GCC headers included after it).
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "type-memo.h"
#include "cpplib.h"
#include "input.h"
#include "langhooks.h"
#include <string>
#include "layout-check.h"

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
static int unmatched_note = 1;
static bool names_seen_any;

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

void cachehot_attribute_seen(void)
{
	cachehot_any_attribute_seen = true;
	skip_clear();
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
	/* cachehot_laid_out() folded into the walk below (one walk of the fields,
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
		if (cachehot_any_attribute_seen &&
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
		fixed = cachehot_laid_out(type);
	if (!fixed)
		return false;   /* never judged, never remembered: as cachehot_laid_out() first */
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

struct ch_type *cachehot_convert(tree type)
{
	return cachehot_laid_out(TYPE_MAIN_VARIANT(type)) ? cachehot_convert_type(type) : NULL;
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
	t = cachehot_convert_type(type);
	if (typedef_name && !t->name) {
		t->name = ch_strdup(cachehot_ctx, typedef_name);
		t->name_is_typedef = 1;
	}
	if (variant && TYPE_ALIGN_UNIT(variant) > t->align)
		t->align = TYPE_ALIGN_UNIT(variant);
	cachehot_config(&cfg);
	if (cachehot_opts.manifest && cfg.smp)   /* the rules once for both */
		ch_check_type_manifest(cachehot_ctx, t, &cfg, cachehot_emit, NULL, "plugin");
	else
		ch_check_type(cachehot_ctx, t, &cfg, cachehot_emit, NULL);
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
	if (!cachehot_any_attribute_seen && !ch_sidecar_count(cachehot_ctx) && !has_group_markers(type))
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
	if (!cachehot_any_attribute_seen || memo)
		return;
	if (!cachehot_laid_out(TYPE_MAIN_VARIANT(type))) {
		/* a variable-length member or a template pattern: say so once
		 * when it carries annotations, rather than staying silent */
		tree f;
		for (f = TYPE_FIELDS(type); f && cachehot_any_attribute_seen; f = DECL_CHAIN(f))
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
	/* no attribute seen yet (a variable's sets cachehot_any_attribute_seen): no
	 * lookups (most units, every variable) */
	for (i = 0; cachehot_any_attribute_seen && i < ARRAY_SIZE(cachehot_layout_attrs) && cls == CH_CLASS_NONE; i++) {
		tree a = lookup_attribute(cachehot_layout_attrs[i], DECL_ATTRIBUTES(decl));
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
	if (!cachehot_laid_out(main) || type_tag(main) || judged_contains(main))
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
		if (cachehot_any_attribute_seen || ch_sidecar_count(cachehot_ctx)) {
			if (cachehot_per_thread_possible())
				cachehot_per_thread_var(decl);
			record_global(decl);
		}
		/* inline-addr's part (static initializers) */
		if (cachehot_opts.inline_addr && TREE_STATIC(decl) && !DECL_EXTERNAL(decl) &&
		    DECL_INITIAL(decl))
			cachehot_inline_finish_decl(decl);
	} else if (TREE_CODE(decl) == TYPE_DECL && DECL_NAME(decl) &&
		   (cachehot_any_attribute_seen || ch_sidecar_count(cachehot_ctx))) {
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
	cachehot_record_at(UNKNOWN_LOCATION, &r);
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
	bool recording = false;

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
			recording = true;
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
	register_callback(info->base_name, PLUGIN_ATTRIBUTES, cachehot_register_attributes, NULL);
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
	cachehot_dispatch_init(info->base_name, recording);
	return 0;
}
