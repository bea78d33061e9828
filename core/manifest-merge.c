/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest-merge.c -- the manifest beyond one struct's record (schema:
 * core/manifest.c): global variables' records, records skipped by digest
 * built again when the file no longer holds them, merging manifests (units'
 * records carried in objects, whole files), and writing the file under its
 * lock, atomically. The unit's text for its object: core/manifest-cache.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "manifest-internal.h"

void ch_manifest_rebuild_one(ch_ctx *ctx, struct ch_skipped_record *r)
{
	struct ch_leaf *leaves;
	size_t n;
	if (!r->finds)
		return;
	ch_flatten(ctx, r->t, &leaves, &n);
	ch_manifest_build_record(ctx, r->t, r->has_cfg ? &r->cfg : NULL, r->tool, r->finds,
				 leaves, n, r->digest);
	r->finds = NULL;   /* taken */
}

void ch_manifest_rebuild_skipped(ch_ctx *ctx, const char *text)
{
	struct ch_skipped_record *v = (struct ch_skipped_record *)ctx->manifest_skipped;
	size_t i;
	for (i = 0; i < ctx->nmanifest_skipped; i++) {
		char key[40];
		ch_manifest_digest_key(key, sizeof(key), v[i].digest);
		if (!v[i].finds || (text && strstr(text, key)))
			continue;
		ch_manifest_rebuild_one(ctx, &v[i]);
	}
}

/* "globals": { NAME: { "class": "hot", "group": null, "file": ..., "line": N,
 * "col": N, "tool": "plugin" } }: global variables annotated in the source
 * (the class attributes on a variable, or the sidecar), for cachehot-layout
 * to judge where the link put them. Records of one name at other places are
 * the record's "other_definitions" (merge_global). */
static int global_before(json_t *a, json_t *b)
{
	const char *fa = json_string_value(json_object_get(a, "file"));
	const char *fb = json_string_value(json_object_get(b, "file"));
	json_int_t la = json_integer_value(json_object_get(a, "line"));
	json_int_t lb = json_integer_value(json_object_get(b, "line"));
	int c = strcmp(fa ? fa : "", fb ? fb : "");
	char *ta, *tb;
	if (c || la != lb)
		return c ? c < 0 : la < lb;
	ta = ch_manifest_record_text(a);
	tb = ch_manifest_record_text(b);
	c = strcmp(ta ? ta : "", tb ? tb : "");
	free(ta);
	free(tb);
	return c < 0;
}

/* 1 if records a and b are the definition at one file:line (one variable
 * seen twice: by the plugin and sparse, or a header's in two units). */
static int global_same_place(json_t *a, json_t *b)
{
	const char *fa = json_string_value(json_object_get(a, "file"));
	const char *fb = json_string_value(json_object_get(b, "file"));
	return !strcmp(fa ? fa : "", fb ? fb : "") &&
	       json_integer_value(json_object_get(a, "line")) ==
		       json_integer_value(json_object_get(b, "line"));
}

/* Add rec to the sorted array others unless a record of its place is
 * there (then the first by text stays). */
static void others_add(json_t *others, json_t *rec)
{
	size_t i, n = json_array_size(others);
	for (i = 0; i < n; i++) {
		json_t *o = json_array_get(others, i);
		if (global_same_place(o, rec)) {
			if (global_before(rec, o))
				json_array_set(others, i, rec);
			return;
		}
		if (global_before(rec, o))
			break;
	}
	json_array_insert(others, i, rec);
}

/* Records of one name at distinct places (function statics 'calls' of
 * f() and g(), statics of two units) are distinct variables: the first by
 * file and line is the record, the others its "other_definitions" (sorted
 * by file and line), so cachehot-layout matches each symbol by its DWARF
 * declaration. Order-independent. */
static void merge_global(json_t *globals, const char *name, json_t *rec)
{
	json_t *prev = json_object_get(globals, name), *all, *r, *first, *rest;
	size_t i;
	if (!json_is_object(prev)) {
		json_object_set(globals, name, rec);
		return;
	}
	/* every record of both, flattened, in one sorted array */
	all = json_array();
	for (i = 0; i < 2; i++) {
		json_t *x = i ? rec : prev, *od = json_object_get(x, "other_definitions");
		size_t k;
		r = json_deep_copy(x);
		json_object_del(r, "other_definitions");
		others_add(all, r);
		json_decref(r);
		for (k = 0; k < json_array_size(od); k++)
			others_add(all, json_array_get(od, k));
	}
	first = json_incref(json_array_get(all, 0));
	if (json_array_size(all) > 1) {
		rest = json_array();
		for (i = 1; i < json_array_size(all); i++)
			json_array_append(rest, json_array_get(all, i));
		json_object_set_new(first, "other_definitions", rest);
	}
	json_object_set_new(globals, name, first);
	json_decref(all);
}

void ch_manifest_add_global(ch_ctx *ctx, const char *name, enum ch_class cls,
			    const char *group, struct ch_loc loc, const char *tool)
{
	json_t *root, *globals, *g;
	if (!name || cls == CH_CLASS_NONE)
		return;
	root = ch_manifest_root(ctx);
	globals = json_object_get(root, "globals");
	if (!globals) {
		globals = json_object();
		json_object_set_new(root, "globals", globals);
	}
	g = json_object();
	json_object_set_new(g, "class", json_string(ch_class_name(cls)));
	json_object_set_new(g, "group", ch_manifest_str_or_null(group));
	json_object_set_new(g, "file", ch_manifest_str_or_null(loc.file));
	json_object_set_new(g, "line", json_integer(loc.line));
	json_object_set_new(g, "col", json_integer(loc.col));
	json_object_set_new(g, "tool", json_string(tool ? tool : "cachehot"));
	merge_global(globals, name, g);
	json_decref(g);
}

/* Every record of mine merged into old (see merge_record). */
static void merge_structs(json_t *old, json_t *mine)
{
	const char *name;
	json_t *rec;
	json_object_foreach(mine, name, rec)
		ch_manifest_merge_record(old, name, json_incref(rec));
}

/* The manifest text 'text' (as ch_manifest_write writes it) already holds
 * every record of mine: merging would give the same file. Every unit of a
 * kernel build judges the same header structs (zone, pglist_data, ...), so
 * after the first this is the usual case, and parsing, merging and writing
 * the whole file again cost each unit up to 4% of cc1
 * (bench/plugin-overhead). A record is held when its digest is (anywhere:
 * a digest covers the record's name and every input, and a merge keeps
 * every distinct record of a name); a unit with "globals" or "per_thread"
 * to add, or a record without a digest: 0, the full merge decides. */
static int manifest_holds(const char *text, json_t *mine)
{
	static const char head[] = "{\"cachehot_manifest\":1,\"structs\":{";
	const char *name;
	json_t *rec;
	size_t n = strlen(text);
	if (json_object_size(json_object_get(mine, "globals")) ||
	    json_object_size(json_object_get(mine, "per_thread")))
		return 0;
	if (strncmp(text, head, sizeof(head) - 1) || n < sizeof(head) + 2 ||
	    strcmp(text + n - 3, "}}\n"))
		return 0;
	json_object_foreach(json_object_get(mine, "structs"), name, rec) {
		const char *d = json_string_value(json_object_get(rec, "digest"));
		char key[40];
		if (!d || strlen(d) != 16 || json_object_get(rec, "other_definitions"))
			return 0;
		snprintf(key, sizeof(key), "\"digest\":\"%s\"", d);
		if (!strstr(text, key))
			return 0;
	}
	return 1;
}

static void merge_manifests(json_t *old, json_t *mine);

int ch_manifest_write(ch_ctx *ctx, const char *path)
{
	char *lockpath;
	int lfd, rc = -1;
	json_t *old = NULL, *mine = (json_t *)ctx->manifest;
	json_error_t jerr;
	size_t n = strlen(path);

	if (!mine)   /* nothing annotated: still leave a valid manifest */
		mine = ch_manifest_root(ctx);
	{
		int direct;
		char *target = ch_output_target(path, &direct);
		if (!target || direct) {
			ch_set_error(ctx, "%s: the manifest must be a regular file (or a new one): %s",
				     path, target ? "this is a device or FIFO" : strerror(errno));
			free(target);
			return -1;
		}
		path = ch_strdup(ctx, target);   /* a symlink stays a link */
		free(target);
		n = strlen(path);
	}
	lockpath = (char *)malloc(n + 8);
	snprintf(lockpath, n + 8, "%s.lock", path);
	lfd = open(lockpath, O_RDWR | O_CREAT, 0644);
	if (lfd < 0 || flock(lfd, LOCK_EX)) {
		ch_set_error(ctx, "%s: cannot lock manifest: %s", lockpath, strerror(errno));
		goto out;
	}
	if (access(path, F_OK) == 0) {
		char *text = ch_read_text_file(ctx, path);
		ch_manifest_rebuild_skipped(ctx, text);
		if (text && manifest_holds(text, mine)) {
			free(text);
			rc = 0;
			goto out;
		}
		/* from the text already read; json_load_file reads a
		 * character at a time (getc) */
		old = text ? json_loads(text, 0, &jerr) : json_load_file(path, 0, &jerr);
		free(text);
		if (!old || !json_is_object(json_object_get(old, "structs"))) {
			if (old || jerr.line < 1)
				ch_set_error(ctx, "%s: existing file is not a cachehot manifest: %s",
					     path, old ? "no \"structs\" object" : jerr.text);
			else
				ch_set_error(ctx, "%s:%d: existing file is not a cachehot manifest: %s",
					     path, jerr.line, jerr.text);
			goto out;
		}
		merge_manifests(old, mine);
	} else {
		ch_manifest_rebuild_skipped(ctx, NULL);
		old = json_incref(mine);
	}
	{
		struct ch_atomic at;
		if (ch_atomic_open(&at, path)) {
			ch_set_error(ctx, "%s: cannot create a file beside it: %s", path, strerror(errno));
			goto out;
		}
		if (json_dumpfd(old, at.fd, JSON_COMPACT | JSON_SORT_KEYS) ||
		    write(at.fd, "\n", 1) != 1) {
			ch_set_error(ctx, "%s: cannot write manifest: %s", path, strerror(errno));
			ch_atomic_abort(&at);
			goto out;
		}
		if (ch_atomic_commit(&at)) {
			ch_set_error(ctx, "%s: cannot rename into place: %s", path, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	if (old)
		json_decref(old);
	if (lfd >= 0)
		close(lfd);
	free(lockpath);
	return rc;
}

/* other's records (a unit's, or a whole manifest's) merged into mine, as
 * ch_manifest_write merges a unit into the file */
static void merge_manifests(json_t *old, json_t *mine)
{
	json_t *mg = json_object_get(mine, "globals"), *og, *rec;
	const char *name;
	merge_structs(json_object_get(old, "structs"), json_object_get(mine, "structs"));
	if (json_is_object(mg)) {
		og = json_object_get(old, "globals");
		if (!json_is_object(og)) {
			og = json_object();
			json_object_set_new(old, "globals", og);
		}
		json_object_foreach(mg, name, rec)
			merge_global(og, name, rec);
	}
	if (json_is_object(json_object_get(mine, "per_thread"))) {
		json_t *pt = json_object_get(old, "per_thread");
		if (!json_is_object(pt)) {
			pt = json_object();
			json_object_set_new(old, "per_thread", pt);
		}
		json_object_update(pt, json_object_get(mine, "per_thread"));
	}
}

int ch_manifest_merge_text(ch_ctx *ctx, const char *text, const char *origin)
{
	json_error_t jerr;
	json_t *u = json_loads(text, 0, &jerr), *structs;
	const char *name;
	json_t *rec;
	if (!u) {
		ch_set_error(ctx, "%s: a manifest record is not valid JSON: %s", origin, jerr.text);
		return -1;
	}
	structs = json_object_get(u, "structs");
	if (json_integer_value(json_object_get(u, "cachehot_manifest")) != 1 ||
	    !json_is_object(structs)) {
		ch_set_error(ctx, "%s: not a cachehot manifest record", origin);
		json_decref(u);
		return -1;
	}
	json_object_foreach(structs, name, rec)
		if (!json_is_object(rec) || !json_is_array(json_object_get(rec, "fields"))) {
			ch_set_error(ctx, "%s: struct \"%s\": no \"fields\" array", origin, name);
			json_decref(u);
			return -1;
		}
	merge_manifests(ch_manifest_root(ctx), u);
	json_decref(u);
	return 0;
}

char *ch_manifest_text(ch_ctx *ctx)
{
	return json_dumps(ch_manifest_root(ctx), JSON_COMPACT | JSON_SORT_KEYS);
}
