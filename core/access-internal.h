/* SPDX-License-Identifier: GPL-2.0 */
/* access-internal.h -- what core/access.c, core/access-merge.c and the
 * inference (core/infer*.c) share (private). */
#ifndef CACHEHOT_ACCESS_INTERNAL_H
#define CACHEHOT_ACCESS_INTERNAL_H
#include <jansson.h>
#include <regex.h>
#include "cachehot-core.h"

struct ch_access_facts {
	json_t *root;       /* the schema of core/access.c */
	char err[512];
	size_t nunits;      /* files merged in */
	json_t *seen;       /* "UNIT\nFLAGS" -> record text (merged sets) */
	size_t nrepeats, nconflicts;   /* units read again (seen_before) */
	size_t nkernel;     /* of them, kernel units (__KERNEL__ defined) */
	size_t nskipped;    /* files left out by the unit filters */
	regex_t only_units, exclude_units;
	int have_only, have_exclude;
	json_t *program_units;     /* --program: unit path -> true, or NULL */
};

void ch_access_set_error(ch_access_facts *a, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* core/access.c: the schema's parts, shared with access-merge.c. obj[key]
 * as an object, created when missing (borrowed). */
json_t *ch_access_child(json_t *obj, const char *key);
/* obj[key] += n (an integer, created as n). */
void ch_access_add_count(json_t *obj, const char *key, json_int_t n);
/* field's counts in function (every kind 0 when new; borrowed). */
json_t *ch_access_fn_counts(json_t *field, const char *function);
/* "FILE:LINE size N layout H" -> "size N layout H": what must agree */
const char *ch_access_def_layout(const char *d);
/* [first, last] line of obj[key]'s calls, widened by [lo, hi] */
void ch_access_widen_lines(json_t *obj, const char *key, json_int_t lo, json_int_t hi);
/* The "functions" entry of function (created when missing; borrowed). */
json_t *ch_access_fn_entry(ch_access_facts *a, const char *function);
/* core/summary.c: settle every function's parameter summaries (merged
 * "params" and "passes"; flags in f["summary"]) */
void ch_summary_resolve(json_t *fns);
/* add to sum[kind] what counts' "passed" addresses stand for */
void ch_summary_add_passed(json_t *fns, json_t *counts, json_int_t sum[CH_ACC__COUNT]);
/* core/infer-graph.c: closures over the merged call graph, linear in
 * functions + call edges (worklists, no round limit).
 * Adds to set (an object used as a set of function keys) every caller,
 * transitively, of a function in it, except keys skip() accepts. */
void ch_infer_callers_closure(json_t *fns, json_t *set, int (*skip)(const char *key));
/* Marks "slow": true (and "slow_why": why, unless set) on every function
 * that candidate() accepts and that has callers (or unlikely_callers), all
 * of whose "callers" are defined functions marked slow: the least fixpoint,
 * so a chain of any depth below a slow function is slow. */
void ch_infer_slow_callees(json_t *fns, int (*candidate)(json_t *f, void *arg), void *arg,
			   const char *why);
/* core/infer-names.c: remove from the merged "structs" every struct whose
 * tag is no C identifier (GCC's "FRAME.N", a damaged facts file; "TAG@FILE:LINE"
 * stays, with no line break) and every
 * member whose path is not IDENT(.IDENT)*: no sidecar line can name them.
 * Returns how many; example (n bytes): one removed struct tag without a
 * line break, or "". */
size_t ch_infer_drop_unnamable(json_t *sts, char *example, size_t n);
#endif

