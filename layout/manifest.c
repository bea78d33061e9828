/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest.c -- reading the plugin's JSON manifest (core/manifest.c writes
 * it; schema version 1) with jansson: the annotation classes the compiler
 * saw, and the flattened layout it computed, for the binary-vs-source
 * comparison.
 *
 * A name may have several records (the record and its full
 * "other_definitions": two units' own "struct foo"s, a file-scope and a
 * function-scope one). A struct of the binary is matched to the record of
 * the same name and defining location (file -- equal, or one path a suffix
 * of the other at a '/' -- and line, from DW_AT_decl_file/decl_line); a
 * name with one record matches it wherever it is defined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "lt.h"

struct lt_manifest {
	json_t *root;
	json_t *structs;           /* borrowed from root */
	char *path;
	json_t *globals_matched;   /* names of "globals" some data symbol had */
};

/* The manifest records the objects carry (core/objsec-emit.c), merged as
 * the plugin merges units into a manifest file. */
struct from_objects {
	ch_ctx *ctx;
	size_t n;
	int failed;
};

static int object_record(const char *text, size_t len, const char *origin, void *arg)
{
	struct from_objects *fo = arg;
	(void)len;
	static const char head[] = "{\"cachehot_manifest\":";
	if (strncmp(text, head, sizeof(head) - 1))
		return 0;   /* access facts */
	fo->n++;
	if (ch_manifest_merge_text(fo->ctx, text, origin)) {
		fo->failed = 1;
		return 1;
	}
	return 0;
}

/* path: an object, an archive, or a build tree (its *.o and *.a); the
 * merged manifest's text, or NULL with err. */
static char *manifest_from_objects(const char *path, int is_dir, char *err, size_t errsz)
{
	static const char *const suffixes[] = { ".o", ".a", NULL };
	struct from_objects fo = { ch_ctx_new(), 0, 0 };
	char **v = NULL, *one[1], *text = NULL;
	size_t n, i;
	if (is_dir) {
		n = ch_find_files(path, suffixes, &v);
	} else {
		one[0] = (char *)path;
		n = 1;
	}
	for (i = 0; i < n && !fo.failed; i++) {
		char e[512];
		if (ch_objsec_read(is_dir ? v[i] : one[0], object_record, &fo, e, sizeof(e)) < 0) {
			snprintf(err, errsz, "%s", fo.failed ? ch_ctx_error(fo.ctx) : e);
			fo.failed = 1;
		}
	}
	if (!fo.failed && !fo.n)
		snprintf(err, errsz, "%s: no manifest records in %s (compiled without "
			 "-fplugin-arg-cachehot-manifest, or with object-records=0)", path,
			 is_dir ? "its objects" : "it");
	else if (!fo.failed)
		text = ch_manifest_text(fo.ctx);
	if (is_dir) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
	}
	ch_ctx_free(fo.ctx);
	return text;
}

struct lt_manifest *lt_manifest_load(const char *path, char *err, size_t errsz)
{
	json_error_t jerr;
	json_t *root, *v, *structs;
	struct lt_manifest *m;
	const char *key;
	struct stat st;
	int is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	if (is_dir || ch_objsec_kind(path) != CH_OBJ_NONE) {
		char *text = manifest_from_objects(path, is_dir, err, errsz);
		if (!text)
			return NULL;
		root = json_loads(text, 0, &jerr);
		free(text);
	} else {
		root = json_load_file(path, 0, &jerr);
	}
	if (!root) {
		if (jerr.line > 0)
			snprintf(err, errsz, "%s:%d:%d: not valid JSON: %s", path, jerr.line,
				 jerr.column, jerr.text);
		else
			snprintf(err, errsz, "%s: %s", path, jerr.text);
		return NULL;
	}
	v = json_object_get(root, "cachehot_manifest");
	structs = json_object_get(root, "structs");
	if (!json_is_integer(v) || !json_is_object(structs)) {
		snprintf(err, errsz, "%s: not a cachehot manifest (no \"cachehot_manifest\" "
			 "version or \"structs\" object)", path);
		json_decref(root);
		return NULL;
	}
	if (json_integer_value(v) != 1) {
		snprintf(err, errsz, "%s: manifest version %lld; this cachehot-layout reads "
			 "version 1", path, (long long)json_integer_value(v));
		json_decref(root);
		return NULL;
	}
	json_object_foreach(structs, key, v) {
		if (!json_is_object(v) || !json_is_array(json_object_get(v, "fields"))) {
			snprintf(err, errsz, "%s: struct \"%s\": no \"fields\" array", path, key);
			json_decref(root);
			return NULL;
		}
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		abort();
	m->root = root;
	m->structs = structs;
	m->path = strdup(path);
	return m;
}

void lt_manifest_free(struct lt_manifest *m)
{
	if (!m)
		return;
	json_decref(m->root);
	if (m->globals_matched)
		json_decref(m->globals_matched);
	free(m->path);
	free(m);
}

/* Records of a name: the record, then its full other_definitions. */
static size_t records(struct lt_manifest *m, const char *name, json_t **out, size_t max)
{
	json_t *r = json_object_get(m->structs, name), *o;
	size_t n = 0, i;
	if (!r)
		return 0;
	out[n++] = r;
	json_array_foreach(json_object_get(r, "other_definitions"), i, o)
		if (n < max && json_is_object(o) && json_is_array(json_object_get(o, "fields")))
			out[n++] = o;
	return n;
}

/* "a/b/x.h" and "/src/a/b/x.h" name one file: equal, or one a suffix of
 * the other at a '/'. */
static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	while (!strncmp(a, "./", 2))
		a += 2;
	while (!strncmp(b, "./", 2))
		b += 2;
	la = strlen(a);
	lb = strlen(b);
	if (la == lb)
		return !strcmp(a, b);
	if (la < lb)
		return b[lb - la - 1] == '/' && !strcmp(b + lb - la, a);
	return a[la - lb - 1] == '/' && !strcmp(a + la - lb, b);
}

/* The record of t's name defined where t is (file and line); one with t's
 * size when no location matches; else the first. NULL: no record. */
static json_t *record_for(struct lt_manifest *m, const char *name, const struct ch_type *t)
{
	json_t *r[64];
	size_t n = records(m, name, r, 64), i;
	if (n <= 1)
		return n ? r[0] : NULL;
	for (i = 0; t && t->loc.file && i < n; i++) {
		const char *f = json_string_value(json_object_get(r[i], "file"));
		json_t *l = json_object_get(r[i], "line");
		if (f && json_is_integer(l) && (unsigned)json_integer_value(l) == t->loc.line &&
		    same_file(f, t->loc.file))
			return r[i];
	}
	for (i = 0; t && i < n; i++) {
		json_t *sz = json_object_get(r[i], "size");
		if (json_is_integer(sz) && (uint64_t)json_integer_value(sz) == t->size)
			return r[i];
	}
	return r[0];
}

int lt_manifest_randomized(struct lt_manifest *m, const char *name)
{
	json_t *r[64];
	size_t n = records(m, name, r, 64), i;
	for (i = 0; i < n; i++)
		if (json_is_true(json_object_get(r[i], "randomized")))
			return 1;
	return 0;
}

int lt_manifest_per_thread(struct lt_manifest *m, const char *name)
{
	json_t *pt = m && name ? json_object_get(m->root, "per_thread") : NULL;
	return json_is_object(pt) && json_object_get(pt, name) != NULL;
}

int lt_manifest_any_per_thread(struct lt_manifest *m)
{
	json_t *pt = m ? json_object_get(m->root, "per_thread") : NULL;
	return json_is_object(pt) && json_object_size(pt) > 0;
}

/* Member of t called name, looking through anonymous struct/union members
 * (whose fields read as t's own, as in C). Returns the member and sets *owner. */
static struct ch_member *find_member(struct ch_type *t, const char *name, size_t len,
				     struct ch_type **owner)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++) {
		struct ch_member *m = &t->members[i];
		if (m->name && strlen(m->name) == len && !strncmp(m->name, name, len)) {
			*owner = t;
			return m;
		}
	}
	for (i = 0; i < t->nmembers; i++) {
		struct ch_member *m = &t->members[i], *r;
		if (!m->name && m->type &&
		    (r = find_member((struct ch_type *)m->type, name, len, owner)))
			return r;
	}
	return NULL;
}

/* Resolve a flattened path ("memory.usage", "zones[1].lock") to a member. */
static struct ch_member *resolve_path(struct ch_type *t, const char *path)
{
	const char *p = path;
	struct ch_member *m = NULL;
	struct ch_type *cur = t, *owner;
	while (*p && cur) {
		size_t len = strcspn(p, ".[");
		m = find_member(cur, p, len, &owner);
		if (!m)
			return NULL;
		p += len;
		if (*p == '[') {
			p = strchr(p, ']');
			if (!p)
				return NULL;
			p++;
		}
		if (*p == '.') {
			p++;
			cur = (struct ch_type *)m->type;
		} else if (*p)
			return NULL;
		else
			return m;
	}
	return *p ? NULL : m;
}

static void set_class(struct lt_set *s, struct ch_member *m, const char *cls, json_t *group)
{
	enum ch_class c;
	if (!cls || ch_class_parse(cls, &c) || c == CH_CLASS_NONE)
		return;
	m->cls = c;
	m->group = json_is_string(group) ? ch_strdup(s->ctx, json_string_value(group)) : NULL;
}

void lt_manifest_apply(struct lt_manifest *mf, struct lt_set *s)
{
	const char *key;
	json_t *v;
	json_object_foreach(mf->structs, key, v) {
		struct lt_struct *st = lt_set_find(s, key);
		json_t *a;
		size_t i;
		if (!st)
			continue;
		v = record_for(mf, key, st->t);
		json_array_foreach(json_object_get(v, "annotations"), i, a) {
			const char *f = json_string_value(json_object_get(a, "field"));
			struct ch_member *m = f ? resolve_path(st->t, f) : NULL;
			if (m)
				set_class(s, m, json_string_value(json_object_get(a, "class")),
					  json_object_get(a, "group"));
		}
		/* flattened fields carry the classes of nested and anonymous
		 * members too */
		json_array_foreach(json_object_get(v, "fields"), i, a) {
			const char *f = json_string_value(json_object_get(a, "name"));
			const char *c = json_string_value(json_object_get(a, "class"));
			struct ch_member *m;
			if (!f || !c || !strcmp(c, "none"))
				continue;
			m = resolve_path(st->t, f);
			if (m && m->cls == CH_CLASS_NONE)
				set_class(s, m, c, json_object_get(a, "group"));
		}
		if (json_is_true(json_object_get(v, "randomized")))
			st->t->randomized = 1;
		/* the alignment the compiler gave the struct: DWARF records
		 * 'packed' nowhere, and aligned(N) only in DWARF 5, so the one
		 * inferred from the binary can be wrong (same size: same type) */
		a = json_object_get(v, "align");
		if (json_is_integer(a) && json_integer_value(a) > 0 &&
		    json_integer_value(a) <= 1 << 20 &&
		    json_is_integer(json_object_get(v, "size")) &&
		    (uint64_t)json_integer_value(json_object_get(v, "size")) == st->t->size) {
			st->t->align = (unsigned)json_integer_value(a);
			/* no member is aligned beyond its struct (packed, or
			 * #pragma pack, lowered them) */
			for (i = 0; i < st->t->nmembers; i++)
				if (st->t->members[i].align > st->t->align)
					st->t->members[i].align = st->t->align;
		}
	}
}

static uint64_t jint(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

int lt_manifest_compare(struct lt_manifest *mf, struct lt_set *s, FILE *out, int *refused)
{
	const char *key;
	json_t *v;
	int diffs = 0;
	*refused = 0;
	json_object_foreach(mf->structs, key, v) {
		struct lt_struct *st = lt_set_find(s, key);
		const char *src;
		unsigned sline;
		char where[512];
		struct ch_leaf *leaves;
		size_t n, i, j;
		json_t *f;
		char *seen;

		if (!st)
			continue;
		v = record_for(mf, key, st->t);
		src = json_string_value(json_object_get(v, "file"));
		sline = (unsigned)jint(v, "line");
		if (src)
			snprintf(where, sizeof(where), "%s:%u", src, sline);
		else
			snprintf(where, sizeof(where), "%s", mf->path);
		if (json_is_true(json_object_get(v, "randomized")) || st->nonmonotonic) {
			fprintf(out, "%s: error: struct %s was laid out by randstruct%s: its binary "
				"layout is not compared with the source nor judged (mark it "
				"__no_randomize_layout to check it)\n", st->input, key,
				json_is_true(json_object_get(v, "randomized")) ? " when compiled" :
				" (member offsets out of declaration order)");
			st->t->randomized = 1;
			(*refused)++;
			continue;
		}
		if (jint(v, "size") != st->t->size)
			fprintf(out, "%s: warning: struct %s is %llu bytes in the binary, %llu when "
				"compiled (%s)\n", st->input, key, (unsigned long long)st->t->size,
				(unsigned long long)jint(v, "size"), where), diffs++;
		ch_flatten(s->ctx, st->t, &leaves, &n);
		seen = calloc(n ? n : 1, 1);
		if (!seen)
			abort();
		json_array_foreach(json_object_get(v, "fields"), i, f) {
			const char *name = json_string_value(json_object_get(f, "name"));
			uint64_t off = jint(f, "offset"), sz = jint(f, "size");
			if (!name)
				continue;
			for (j = 0; j < n; j++)
				if (!seen[j] && !strcmp(leaves[j].path, name))
					break;
			if (j == n) {
				fprintf(out, "%s: warning: struct %s: field '%s' (offset %llu, size "
					"%llu when compiled, %s) is not in the binary\n", st->input,
					key, name, (unsigned long long)off, (unsigned long long)sz, where);
				diffs++;
				continue;
			}
			seen[j] = 1;
			if (leaves[j].offset != off || leaves[j].size != sz) {
				lt_print_loc(out, &leaves[j].member->loc, leaves[j].path, st->input);
				fprintf(out, "warning: struct %s: field '%s' is at offset %llu, size "
					"%llu in the binary but at offset %llu, size %llu when "
					"compiled (%s)\n", key, name,
					(unsigned long long)leaves[j].offset,
					(unsigned long long)leaves[j].size,
					(unsigned long long)off, (unsigned long long)sz, where);
				diffs++;
			}
		}
		for (j = 0; j < n; j++)
			if (!seen[j]) {
				fprintf(out, "%s: warning: struct %s: field '%s' (offset %llu, size "
					"%llu) is in the binary but not in the manifest (%s)\n",
					st->input, key, leaves[j].path,
					(unsigned long long)leaves[j].offset,
					(unsigned long long)leaves[j].size, where);
				diffs++;
			}
		free(seen);
	}
	return diffs;
}

/* Fold the line sizes the records of struct name were judged at into *ls
 * (0: none yet). Returns 0 when they differ from each other or from *ls. */
static int fold_line_size(struct lt_manifest *m, const char *name, unsigned *ls)
{
	json_t *r[64];
	size_t n = records(m, name, r, 64), i;
	for (i = 0; i < n; i++) {
		json_t *l = json_object_get(r[i], "line_size");
		unsigned x = json_is_integer(l) ? (unsigned)json_integer_value(l) : 0;
		if (!x)
			continue;
		if (*ls && x != *ls)
			return 0;
		*ls = x;
	}
	return 1;
}

unsigned lt_manifest_line_size(struct lt_manifest *m)
{
	const char *key;
	json_t *v;
	unsigned ls = 0;
	json_object_foreach(m->structs, key, v)
		if (!fold_line_size(m, key, &ls))
			return 0;   /* compiled at different line sizes: no single answer */
	return ls;
}

/* ---- annotated global variables ("globals", core/manifest-merge.c) -------------- */
/* 1 if path names the file of a record (equal, or one a path ending in
 * the other: the manifest says what the compiler was given, DWARF may say
 * more of the path). */
static int decl_file_is(const char *path, const char *rec)
{
	size_t a = strlen(path), b = strlen(rec);
	if (a == b)
		return !strcmp(path, rec);
	if (a > b)
		return path[a - b - 1] == '/' && !strcmp(path + a - b, rec);
	return rec[b - a - 1] == '/' && !strcmp(rec + b - a, path);
}

int lt_manifest_global(struct lt_manifest *m, ch_ctx *ctx, const char *name,
		       const struct ch_loc *decl, enum ch_class *cls, const char **group,
		       struct ch_loc *loc)
{
	json_t *g = m && name ? json_object_get(json_object_get(m->root, "globals"), name) : NULL;
	json_t *od;
	const char *c, *s;
	if (!json_is_object(g))
		return 0;
	/* several variables of that name: the one declared at decl, none if
	 * no record is there (another variable, unannotated) */
	od = json_object_get(g, "other_definitions");
	if (json_array_size(od) && decl && decl->file && decl->line) {
		size_t i;
		json_t *hit = NULL;
		for (i = 0; i <= json_array_size(od) && !hit; i++) {
			json_t *r = i ? json_array_get(od, i - 1) : g;
			s = json_string_value(json_object_get(r, "file"));
			if (s && decl_file_is(decl->file, s) &&
			    (unsigned)json_integer_value(json_object_get(r, "line")) == decl->line)
				hit = r;
		}
		if (!hit)
			return 0;
		g = hit;
	}
	if (!m->globals_matched)
		m->globals_matched = json_object();
	json_object_set_new(m->globals_matched, name, json_true());
	c = json_string_value(json_object_get(g, "class"));
	if (!c || ch_class_parse(c, cls))
		return 0;
	s = json_string_value(json_object_get(g, "group"));
	*group = s ? ch_strdup(ctx, s) : NULL;
	memset(loc, 0, sizeof(*loc));
	s = json_string_value(json_object_get(g, "file"));
	loc->file = s ? ch_strdup(ctx, s) : NULL;
	loc->line = (unsigned)json_integer_value(json_object_get(g, "line"));
	loc->col = (unsigned)json_integer_value(json_object_get(g, "col"));
	return 1;
}

void lt_manifest_globals_unmatched(struct lt_manifest *m,
				   void (*fn)(const char *name, const char *file, unsigned line,
					      void *arg),
				   void *arg)
{
	json_t *g = m ? json_object_get(m->root, "globals") : NULL, *rec;
	const char *name;
	if (!json_is_object(g))
		return;
	json_object_foreach(g, name, rec) {
		if (m->globals_matched && json_object_get(m->globals_matched, name))
			continue;
		fn(name, json_string_value(json_object_get(rec, "file")),
		   (unsigned)json_integer_value(json_object_get(rec, "line")), arg);
	}
}

int lt_manifest_globals_dup(struct lt_manifest *m)
{
	json_t *g = m ? json_object_get(m->root, "globals") : NULL, *rec;
	const char *name;
	json_object_foreach(g, name, rec)
		if (json_array_size(json_object_get(rec, "other_definitions")))
			return 1;
	return 0;
}

size_t lt_manifest_nglobals(struct lt_manifest *m)
{
	json_t *g = m ? json_object_get(m->root, "globals") : NULL;
	return json_is_object(g) ? json_object_size(g) : 0;
}

unsigned lt_manifest_struct_line_size(struct lt_manifest *m, const char *name)
{
	unsigned ls = 0;
	if (!m || !name)
		return 0;
	/* 0 when its definitions were judged at different line sizes */
	return fold_line_size(m, name, &ls) ? ls : 0;
}
