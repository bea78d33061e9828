// SPDX-License-Identifier: GPL-2.0
/*
 * shard.c -- "cachehot check --shard K/N" and "cachehot check --merge":
 * the plugin-only checks of a tree split over N CI jobs, then joined into
 * the report one unsharded run gives (docs/cachehot.rst, "Sharding").
 *
 * Shard K of N checks the units i (0-based, in compile-database order)
 * with i % N == K - 1 and writes its raw findings -- before anything that
 * needs every unit (unmatched sidecar entries are folded over all units,
 * duplicates merged, the order fixed) -- to a shard file (JSON, schema 1):
 *   { "cachehot_shard": 1, "shard": K, "of": N, "units": U, "lines": L,
 *     "whole": true, "trouble": false,
 *     "findings": [ { "file", "abspath", "line", "col", "severity",
 *                     "check", "message", "engines", "struct", "field",
 *                     "other", "lines", "ident": the identity from its
 *                     record, null for none } ] }
 * The merge reads the N files (each shard exactly once, one N), sums units
 * and lines, and goes on as one run does after its engines: the same fold,
 * sort and report, so its output equals the unsharded run's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "driver.h"

int shard_parse(const char *spec, unsigned *k, unsigned *n)
{
	char *end;
	unsigned long a, b;
	a = strtoul(spec, &end, 10);
	if (end == spec || *end != '/')
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (*end || a < 1 || b < 1 || a > b || b > 100000)
		return -1;
	*k = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

static const char *sev_word(enum sev s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

static int write_cb(FILE *f, void *arg)
{
	json_t *root = arg;
	if (json_dumpf(root, f, JSON_INDENT(1) | JSON_SORT_KEYS))
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

int shard_write(const char *path, const struct shard_info *si, const struct findings *fs)
{
	json_t *root = json_object(), *arr = json_array();
	int rc;
	json_object_set_new(root, "cachehot_shard", json_integer(1));
	json_object_set_new(root, "shard", json_integer(si->k));
	json_object_set_new(root, "of", json_integer(si->n));
	json_object_set_new(root, "units", json_integer((json_int_t)si->units));
	json_object_set_new(root, "lines", json_integer((json_int_t)si->lines));
	json_object_set_new(root, "whole", json_boolean(si->whole));
	json_object_set_new(root, "trouble", json_boolean(si->trouble));
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(x->file));
		json_object_set_new(o, "abspath", json_string(x->abspath));
		json_object_set_new(o, "line", json_integer(x->line));
		json_object_set_new(o, "col", json_integer(x->col));
		json_object_set_new(o, "severity", json_string(sev_word(x->sev)));
		json_object_set_new(o, "check", json_string(x->check));
		json_object_set_new(o, "message", json_string(x->message));
		json_object_set_new(o, "engines", json_string(x->engines));
		/* the record's identity (docs/findings.md) */
		json_object_set_new(o, "struct", x->scope ? json_string(x->scope) : json_null());
		json_object_set_new(o, "field", x->field ? json_string(x->field) : json_null());
		json_object_set_new(o, "other", x->other ? json_string(x->other) : json_null());
		json_object_set_new(o, "lines", x->lines ? json_string(x->lines) : json_null());
		json_object_set_new(o, "ident", x->ident ? json_string(x->ident) : json_null());
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "findings", arr);
	rc = write_atomic(path, write_cb, root);
	json_decref(root);
	return rc < 0 ? -1 : 0;
}

static char *str_of(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? xstrdup(s) : NULL;
}

int shard_merge(const struct strv *files, struct findings *fs, struct shard_info *total)
{
	unsigned n = 0;
	char *seen = NULL;
	memset(total, 0, sizeof(*total));
	for (size_t i = 0; i < files->n; i++) {
		json_error_t jerr;
		json_t *root = json_load_file(files->v[i], 0, &jerr), *arr, *o;
		unsigned k, of;
		size_t j;
		if (!root) {
			fprintf(stderr, "cachehot: --merge: %s: %s\n", files->v[i], jerr.text);
			goto fail;
		}
		k = (unsigned)json_integer_value(json_object_get(root, "shard"));
		of = (unsigned)json_integer_value(json_object_get(root, "of"));
		arr = json_object_get(root, "findings");
		if (json_integer_value(json_object_get(root, "cachehot_shard")) != 1 || !json_is_array(arr) ||
		    k < 1 || of < 1 || k > of || of > 100000) {
			fprintf(stderr, "cachehot: --merge: %s: not a cachehot shard file "
				"(cachehot check --shard K/N -o FILE writes one)\n", files->v[i]);
			json_decref(root);
			goto fail;
		}
		if (!n) {
			n = of;
			seen = xmalloc(n);
			memset(seen, 0, n);
		} else if (of != n) {
			fprintf(stderr, "cachehot: --merge: %s is shard %u of %u, the others are of %u\n",
				files->v[i], k, of, n);
			json_decref(root);
			goto fail;
		}
		if (seen[k - 1]++) {
			fprintf(stderr, "cachehot: --merge: shard %u of %u given twice (%s)\n", k, n,
				files->v[i]);
			json_decref(root);
			goto fail;
		}
		total->units += (size_t)json_integer_value(json_object_get(root, "units"));
		total->lines += (unsigned long)json_integer_value(json_object_get(root, "lines"));
		total->whole |= json_is_true(json_object_get(root, "whole"));
		total->trouble |= json_is_true(json_object_get(root, "trouble"));
		json_array_foreach(arr, j, o) {
			struct finding f = {0};
			const char *sev = json_string_value(json_object_get(o, "severity"));
			f.file = str_of(o, "file");
			f.abspath = str_of(o, "abspath");
			f.check = str_of(o, "check");
			f.message = str_of(o, "message");
			f.engines = str_of(o, "engines");
			f.scope = str_of(o, "struct");
			f.field = str_of(o, "field");
			f.other = str_of(o, "other");
			f.lines = str_of(o, "lines");
			f.ident = str_of(o, "ident");
			f.line = (unsigned)json_integer_value(json_object_get(o, "line"));
			f.col = (unsigned)json_integer_value(json_object_get(o, "col"));
			f.sev = sev && !strcmp(sev, "error") ? SEV_ERROR
				: sev && !strcmp(sev, "warning") ? SEV_WARNING : SEV_NOTE;
			if (!f.file || !f.abspath || !f.check || !f.message || !f.engines) {
				fprintf(stderr, "cachehot: --merge: %s: finding %zu lacks a field\n",
					files->v[i], j + 1);
				finding_free(&f);
				json_decref(root);
				goto fail;
			}
			findings_add(fs, &f);
		}
		json_decref(root);
	}
	for (unsigned k = 0; k < n; k++)
		if (!seen[k]) {
			fprintf(stderr, "cachehot: --merge: shard %u of %u is missing: the report would "
				"not be the whole tree's\n", k + 1, n);
			goto fail;
		}
	free(seen);
	total->n = n;
	return 0;
fail:
	free(seen);
	return -1;
}
