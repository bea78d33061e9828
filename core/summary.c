/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.c -- what an address passed to a function stands for (merged
 * access facts, core/access.c; docs/annotate.md, "Writes through an
 * address").
 *
 * tree_insert(&ctx->runq, n) is recorded in the caller as "passed" to
 * "tree_insert/0". Its meaning comes from the callee:
 *  - a function some unit defines: its summary for that parameter, the
 *    kinds of access it makes through it ("params") together with those of
 *    every function it hands the parameter on to ("passes"), a least
 *    fixpoint over the merged functions (recursion and mutual recursion
 *    settle; the result does not depend on the order of the input files);
 *  - a function no unit defines (a library's, an indirect call): written,
 *    and read, when the parameter is a pointer to non-const (it may do
 *    anything with it); read when it points to const.
 * One passing stands for one access of each kind the summary holds: the
 * kinds say what the function does to the field, not how many times, and
 * a function that only reads through its parameter (a lock wrapper that
 * loads its handle) never makes the field written. A write the callee makes
 * only on a path marked unlikely, or a call made on such a path in the
 * caller ("passed_unlikely", "passes_unlikely"), is a rare write
 * (CH_ACC_RARE_WRITE): evidence, never a count toward hot.
 */
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"

/* "CALLEE/ARG[/const]" -> callee (into buf), arg, const; 0 on success */
static int parse_target(const char *t, char *buf, size_t n, unsigned *arg, int *is_const)
{
	size_t len = strlen(t);
	const char *slash;
	char *end;
	*is_const = len > 6 && !strcmp(t + len - 6, "/const");
	if (*is_const)
		len -= 6;
	for (slash = t + len; slash > t && slash[-1] != '/'; slash--)
		;
	if (slash == t || (size_t)(slash - 1 - t) >= n)
		return -1;
	memcpy(buf, t, (size_t)(slash - 1 - t));
	buf[slash - 1 - t] = 0;
	*arg = (unsigned)strtoul(slash, &end, 10);
	return end == slash ? -1 : 0;
}

static int defined(json_t *f)
{
	return json_is_object(f) && json_is_string(json_object_get(f, "file"));
}

/* f["summary"][idx]: an array of CH_ACC__COUNT flags (0/1), created from
 * the function's direct accesses through the parameter when missing */
static json_t *summary_of(json_t *f, const char *idx)
{
	json_t *all = json_object_get(f, "summary"), *s, *direct;
	int k;
	if (!json_is_object(all)) {
		all = json_object();
		json_object_set_new(f, "summary", all);
	}
	s = json_object_get(all, idx);
	if (s)
		return s;
	s = json_array();
	direct = json_object_get(json_object_get(f, "params"), idx);
	for (k = 0; k < CH_ACC__COUNT; k++)
		json_array_append_new(s, json_integer(json_integer_value(json_object_get(
			direct, ch_access_kind_name((enum ch_access_kind)k))) > 0));
	json_object_set_new(all, idx, s);
	return s;
}

static void rare(int kinds[CH_ACC__COUNT]);

/* The kinds (flags) one passing to target stands for, with the summaries
 * as they stand now; unlikely: the passing is on a path marked unlikely. */
static void target_kinds(json_t *fns, const char *target, int unlikely, int kinds[CH_ACC__COUNT])
{
	char callee[4096], idx[16];
	unsigned arg;
	int is_const, k;
	json_t *f;
	memset(kinds, 0, CH_ACC__COUNT * sizeof(*kinds));
	if (parse_target(target, callee, sizeof(callee), &arg, &is_const))
		return;
	f = json_object_get(fns, callee);
	if (!defined(f)) {
		kinds[CH_ACC_LOAD] = 1;
		kinds[CH_ACC_STORE] = !is_const;
	} else {
		json_t *s;
		snprintf(idx, sizeof(idx), "%u", arg);
		s = summary_of(f, idx);
		for (k = 0; k < CH_ACC__COUNT; k++)
			kinds[k] = json_integer_value(json_array_get(s, k)) != 0;
	}
	if (unlikely)
		rare(kinds);
}

/* Accesses on a path marked unlikely become rare writes and reads. */
static void rare(int kinds[CH_ACC__COUNT])
{
	if (kinds[CH_ACC_STORE] || kinds[CH_ACC_MSTORE] || kinds[CH_ACC_RMW] || kinds[CH_ACC_UPDATE])
		kinds[CH_ACC_RARE_WRITE] = 1;
	if (kinds[CH_ACC_LOAD] || kinds[CH_ACC_MLOAD])
		kinds[CH_ACC_RARE_READ] = 1;
	kinds[CH_ACC_STORE] = kinds[CH_ACC_MSTORE] = kinds[CH_ACC_RMW] = kinds[CH_ACC_UPDATE] = 0;
	kinds[CH_ACC_LOAD] = kinds[CH_ACC_MLOAD] = 0;
}

void ch_summary_resolve(json_t *fns)
{
	const char *fk, *idx, *tk;
	json_t *f, *passes, *targets, *n;
	int changed = 1, rounds = 0, u;
	/* flags only grow: the least fixpoint is reached in at most
	 * (parameters x kinds) rounds; real call chains settle in a few */
	while (changed && rounds++ < 256) {
		changed = 0;
		json_object_foreach(fns, fk, f)
			for (u = 0; u < 2; u++) {
				passes = json_object_get(f, u ? "passes_unlikely" : "passes");
				json_object_foreach(passes, idx, targets) {
					json_t *s = summary_of(f, idx);
					json_object_foreach(targets, tk, n) {
						int kinds[CH_ACC__COUNT], k;
						target_kinds(fns, tk, u, kinds);
						for (k = 0; k < CH_ACC__COUNT; k++)
							if (kinds[k] && !json_integer_value(json_array_get(s, k))) {
								json_integer_set(json_array_get(s, k), 1);
								changed = 1;
							}
					}
				}
			}
	}
}

void ch_summary_add_passed(json_t *fns, json_t *counts, json_int_t sum[CH_ACC__COUNT])
{
	json_t *passed, *n;
	const char *tk;
	int u;
	for (u = 0; u < 2; u++) {
		passed = json_object_get(counts, u ? "passed_unlikely" : "passed");
		json_object_foreach(passed, tk, n) {
			int kinds[CH_ACC__COUNT], k;
			target_kinds(fns, tk, u, kinds);
			for (k = 0; k < CH_ACC__COUNT; k++)
				if (kinds[k])
					sum[k] += json_integer_value(n);
		}
	}
}
