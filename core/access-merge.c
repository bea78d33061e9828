/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access-merge.c -- access facts of many translation units merged into one
 * view (cachehot annotate): unit files read and checked, counts summed, a
 * static function keyed "name@FILE:LINE", a unit read twice counted once,
 * struct definitions that disagree noted. The schema is core/access.c's.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "access-internal.h"

/* ---- merging ---------------------------------------------------------- */

static int get_bool(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* The merged key of a unit's function: "name@FILE:LINE" when static. */
static const char *merged_key(json_t *unit_fns, const char *name, const char *unit,
			      char *buf, size_t n)
{
	json_t *f = json_object_get(unit_fns, name);
	/* main() is one per program: two programs of one tree keep theirs */
	if (json_is_object(f) && (get_bool(f, "static") || !strcmp(name, "main"))) {
		const char *file = json_string_value(json_object_get(f, "file"));
		snprintf(buf, n, "%s@%s:%lld", name, file ? file : unit,
			 (long long)json_integer_value(json_object_get(f, "line")));
		return buf;
	}
	return name;
}

/* A unit's "CALLEE/ARG[/const]" with CALLEE as merged_key() names it. */
static const char *merged_target(json_t *unit_fns, const char *target, const char *unit,
				 char *buf, size_t n)
{
	const char *slash = strchr(target, '/');
	char name[1024], kb[4096];
	if (!slash || (size_t)(slash - target) >= sizeof(name))
		return target;
	memcpy(name, target, (size_t)(slash - target));
	name[slash - target] = 0;
	snprintf(buf, n, "%s%s", merged_key(unit_fns, name, unit, kb, sizeof(kb)), slash);
	return buf;
}

/* into[key] = max(into[key], n) */
static void max_count(json_t *into, const char *key, json_int_t n)
{
	json_t *v = json_object_get(into, key);
	if (!json_is_integer(v))
		json_object_set_new(into, key, json_integer(n));
	else if (json_integer_value(v) < n)
		json_integer_set(v, n);
}

/* A function's "params" and "passes" from one unit: a function defined in
 * a header is the same function in every unit, so counts are not summed. */
static void merge_params(json_t *m, json_t *v, json_t *unit_fns, const char *unit)
{
	json_t *ps = json_object_get(v, "params"), *pp, *x, *c;
	const char *idx, *k;
	char tb[4096];
	json_object_foreach(ps, idx, x) {
		json_t *into = ch_access_child(ch_access_child(m, "params"), idx);
		json_object_foreach(x, k, c)
			if (json_is_integer(c))
				max_count(into, k, json_integer_value(c));
	}
	for (int u = 0; u < 2; u++) {
		const char *key = u ? "passes_unlikely" : "passes";
		pp = json_object_get(v, key);
		json_object_foreach(pp, idx, x) {
			json_t *into = ch_access_child(ch_access_child(m, key), idx);
			json_object_foreach(x, k, c)
				if (json_is_integer(c))
					max_count(into, merged_target(unit_fns, k, unit, tb, sizeof(tb)),
						  json_integer_value(c));
		}
	}
}

static int bad(ch_access_facts *a, const char *path, const char *why)
{
	ch_access_set_error(a, "%s: not a cachehot access file: %s", path, why);
	return -1;
}

static int merge_json(ch_access_facts *a, json_t *u, const char *path);

int ch_access_merge_file(ch_access_facts *a, const char *path)
{
	json_error_t jerr;
	json_t *u = json_load_file(path, 0, &jerr);
	int rc;
	if (!u) {
		if (jerr.line > 0)
			ch_access_set_error(a, "%s:%d: %s", path, jerr.line, jerr.text);
		else
			ch_access_set_error(a, "%s: %s", path, jerr.text);
		return -1;
	}
	rc = merge_json(a, u, path);
	json_decref(u);
	return rc;
}

int ch_access_merge_text(ch_access_facts *a, const char *text, const char *origin)
{
	json_error_t jerr;
	json_t *u = json_loads(text, 0, &jerr);
	int rc;
	if (!u) {
		ch_access_set_error(a, "%s: a record is not valid JSON: %s", origin, jerr.text);
		return -1;
	}
	rc = merge_json(a, u, origin);
	json_decref(u);
	return rc;
}

/* A unit seen before (its "unit" and "flags": one source compiled with one
 * set of options), as the same unit read twice reaches the merge: from its
 * object and from vmlinux.o or an archive holding a copy, or from a facts
 * directory beside the objects. 1: skip it (counted in a->nrepeats, and
 * in a->nconflicts when its content differs: the first one read stays). */
static int seen_before(ch_access_facts *a, json_t *u, const char *unit)
{
	const char *flags = json_string_value(json_object_get(u, "flags"));
	char *key, *text;
	json_t *prev;
	int same;
	if (!flags)   /* written before units had an identity: every file counts */
		return 0;
	if (!a->seen)
		a->seen = json_object();
	key = (char *)malloc(strlen(unit) + strlen(flags) + 2);
	if (!key)
		abort();
	sprintf(key, "%s\n%s", unit, flags);
	text = json_dumps(u, JSON_COMPACT | JSON_SORT_KEYS);
	prev = json_object_get(a->seen, key);
	if (!prev) {
		json_object_set_new(a->seen, key, json_string(text ? text : ""));
		free(key);
		free(text);
		return 0;
	}
	same = text && !strcmp(json_string_value(prev), text);
	free(key);
	free(text);
	a->nrepeats++;
	if (!same)
		a->nconflicts++;
	return 1;
}

static int merge_json(ch_access_facts *a, json_t *u, const char *path)
{
	json_t *fns, *sts, *v, *mf, *ms;
	const char *unit, *k;
	char kb[4096], cb[4096];
	int rc = -1;

	fns = json_object_get(u, "functions");
	sts = json_object_get(u, "structs");
	unit = json_string_value(json_object_get(u, "unit"));
	if (!json_is_object(u) || json_integer_value(json_object_get(u, "cachehot_access")) != 1) {
		rc = bad(a, path, "no \"cachehot_access\": 1");
		goto out;
	}
	if (!json_is_object(fns) || !json_is_object(sts) || !unit) {
		rc = bad(a, path, "no \"unit\", \"functions\" or \"structs\"");
		goto out;
	}
	if ((a->have_only && regexec(&a->only_units, unit, 0, NULL, 0)) ||
	    (a->have_exclude && !regexec(&a->exclude_units, unit, 0, NULL, 0)) ||
	    (a->program_units && !json_object_get(a->program_units, unit))) {
		a->nskipped++;   /* another program: --units / --exclude-units / --program */
		rc = 0;
		goto out;
	}
	if (seen_before(a, u, unit))
		return 0;
	mf = json_object_get(a->root, "functions");
	ms = json_object_get(a->root, "structs");
	json_object_foreach(fns, k, v) {
		const char *key = merged_key(fns, k, unit, kb, sizeof(kb));
		json_t *m = ch_access_fn_entry(a, key), *callers = json_object_get(v, "callers"), *c;
		size_t i;
		static const char *const flags[] = { "static", "exported", "init", "exit", "cold",
						      "inline" };
		unsigned j;
		if (!json_is_object(v)) {
			rc = bad(a, path, "a function entry is not an object");
			goto out;
		}
		json_object_set_new(m, "name", json_string(k));
		if (!json_is_string(json_object_get(m, "file"))) {
			json_t *file = json_object_get(v, "file");
			json_object_set(m, "file", file ? file : json_null());
			json_t *line = json_object_get(v, "line");
			/* (a new 0 is the object's own: json_object_set would
			 * leak it) */
			json_object_set_new(m, "line", line ? json_incref(line) : json_integer(0));
		}
		merge_params(m, v, fns, unit);
		{
			/* slow-path evidence of a userspace program (docs/annotate.md) */
			json_t *x = json_object_get(v, "slow_root"), *mc;
			const char *ck2;
			if (json_is_string(x))
				json_object_set_new(m, "slow_root", json_string(json_string_value(x)));
			if (get_bool(v, "address_taken"))
			json_object_set_new(m, "address_taken", json_true());
		if (get_bool(v, "creates_thread"))
				json_object_set_new(m, "creates_thread", json_true());
			if (get_bool(v, "joins_thread"))
				json_object_set_new(m, "joins_thread", json_true());
			json_object_foreach(json_object_get(v, "main_calls"), ck2, mc)
				if (json_is_array(mc) && json_array_size(mc) == 2)
					ch_access_widen_lines(ch_access_child(m, "main_calls"),
						    merged_key(fns, ck2, unit, cb, sizeof(cb)),
						    json_integer_value(json_array_get(mc, 0)),
						    json_integer_value(json_array_get(mc, 1)));
		}
		for (j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
			if (get_bool(v, flags[j]) || !json_object_get(m, flags[j]))
				json_object_set_new(m, flags[j], json_boolean(get_bool(v, flags[j])));
		json_array_foreach(callers, i, c)
			if (json_is_string(c))
				json_object_set_new(json_object_get(m, "callers"),
					merged_key(fns, json_string_value(c), unit, cb, sizeof(cb)), json_true());
		json_array_foreach(json_object_get(v, "unlikely_callers"), i, c)
			if (json_is_string(c))
				json_object_set_new(ch_access_child(m, "unlikely_callers"),
					merged_key(fns, json_string_value(c), unit, cb, sizeof(cb)), json_true());
	}
	json_object_foreach(sts, k, v) {
		const char *p;
		json_t *f, *mst;
		/* a tag is one struct while its layout (size, members' names and
		 * places) is the same in every unit; another layout of the tag
		 * (a second program of the tree) is kept apart as TAG@FILE:LINE,
		 * where its first member is */
		{
			json_t *ud = json_object_get(json_object_get(u, "struct_defs"), k);
			json_t *md = json_object_get(ch_access_child(a->root, "struct_defs"), k);
			char sk[4096];
			const char *key = k;
			if (json_is_string(ud)) {
				if (!md)
					json_object_set_new(ch_access_child(a->root, "struct_defs"), k,
							    json_string(json_string_value(ud)));
				else if (strcmp(ch_access_def_layout(json_string_value(md)),
						ch_access_def_layout(json_string_value(ud)))) {
					const char *d = json_string_value(ud), *sp = strchr(d, ' ');
					snprintf(sk, sizeof(sk), "%s@%.*s", k,
						 (int)(sp ? (size_t)(sp - d) : strlen(d)), d);
					key = sk;
				}
			}
			mst = ch_access_child(ms, key);
		}
		if (!json_is_object(v)) {
			rc = bad(a, path, "a struct entry is not an object");
			goto out;
		}
		json_object_foreach(v, p, f) {
			json_t *mfield = json_object_get(mst, p), *ffns = json_object_get(f, "functions"), *cnt;
			const char *fn;
			if (!json_is_object(ffns)) {
				rc = bad(a, path, "a field entry has no \"functions\" object");
				goto out;
			}
			if (!json_is_object(mfield)) {
				mfield = json_object();
				json_object_set_new(mfield, "offset", json_integer(
					json_integer_value(json_object_get(f, "offset"))));
				json_t *comp = json_object_get(f, "composite");
				json_object_set_new(mfield, "composite", json_is_string(comp)
						    ? json_string(json_string_value(comp)) : json_false());
				json_object_set_new(mst, p, mfield);
			}
			{
				json_t *ov = json_object_get(f, "owned_via"), *oc;
				const char *ok;
				json_object_foreach(ov, ok, oc)
					if (json_is_integer(oc))
						ch_access_add_count(ch_access_child(mfield, "owned_via"), ok, json_integer_value(oc));
			}
			json_object_foreach(ffns, fn, cnt) {
				json_t *mc = ch_access_fn_counts(mfield, merged_key(fns, fn, unit, kb, sizeof(kb)));
				int kk;
				json_t *passed, *pc;
				const char *tk;
				for (kk = 0; kk < CH_ACC__COUNT; kk++)
					ch_access_add_count(mc, ch_access_kind_name((enum ch_access_kind)kk),
						  json_integer_value(json_object_get(cnt, ch_access_kind_name((enum ch_access_kind)kk))));
				for (int u = 0; u < 2; u++) {
					const char *key = u ? "passed_unlikely" : "passed";
					passed = json_object_get(cnt, key);
					json_object_foreach(passed, tk, pc)
						if (json_is_integer(pc))
							ch_access_add_count(ch_access_child(mc, key),
								  merged_target(fns, tk, unit, cb, sizeof(cb)),
								  json_integer_value(pc));
				}
				static const char *const owned_keys[] = { "owned", "owned_write",
									  "owned_update" };
				for (kk = 0; kk < 3; kk++)
					if (json_is_integer(json_object_get(cnt, owned_keys[kk])))
						ch_access_add_count(mc, owned_keys[kk],
							  json_integer_value(json_object_get(cnt, owned_keys[kk])));
				if (json_is_integer(json_object_get(cnt, "locked")))
					ch_access_add_count(mc, "locked", json_integer_value(json_object_get(cnt, "locked")));
			}
		}
	}
	a->nunits++;
	if (get_bool(u, "kernel"))
		a->nkernel++;
	(void)mf;
	rc = 0;
out:
	return rc;
}

size_t ch_access_units(const ch_access_facts *a)
{
	return a->nunits;
}

size_t ch_access_repeats(const ch_access_facts *a, size_t *conflicts)
{
	if (conflicts)
		*conflicts = a->nconflicts;
	return a->nrepeats;
}
