/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diag.c -- printing and recording findings: every finding the
 * plugin prints goes through GCC's diagnostics here (cachehot_diag,
 * cachehot_report, cachehot_emit) and is recorded for findings=PATH at the
 * place GCC prints it
 * (plugin/layout-check.h lists the layout check's parts).
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic-core.h"
#include "diagnostic.h"
#include "hash-map.h"
#include "hash-set.h"
#include "input.h"
#include "cgraph.h"
#include "layout-check.h"

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
void cachehot_record_at(location_t loc, struct ch_record *r)
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
	cachehot_record_at((location_t)loc, r);
	cachehot_diag(loc, r->severity, r->message, not_fatal);
}

void cachehot_error(enum ch_check check, unsigned loc, const char *msg)
{
	struct ch_record r;
	ch_record_init(&r, check, CH_SEV_ERROR, msg);
	loc = cachehot_where((location_t)loc);
	cachehot_record_at((location_t)loc, &r);
	error_at((location_t)loc, "%s", msg);
}

static void emit_finding(const struct ch_finding *f, void *)
{
	location_t loc = f->loc.fe_loc ? cachehot_where((location_t)f->loc.fe_loc)
				       : UNKNOWN_LOCATION;
	if (ch_records_on(cachehot_ctx)) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		cachehot_record_at(loc, &r);
	}
	rich_location rich(line_table, loc);
	cachehot_add_fixits(&rich, loc, f);
	cachehot_diag(&rich, f->severity, f->message);
}

void cachehot_emit(const struct ch_finding *f, void *arg)
{
	emit_finding(f, arg);
}
