/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest-cache.c -- the unit's manifest records as one text for its
 * object (ch_manifest_unit_text; plugin/build.c writes it into the section
 * of core/objsec-emit.c), assembled from each record's text kept across
 * units instead of built and dumped again in every unit.
 *
 * Why: the object carries every record of the unit, the ones the manifest
 * file already held too (skipped by their digest, core/manifest.c). Built
 * again (ch_flatten, the JSON objects) and dumped whole by jansson, these
 * cost mm/mmzone.c of Linux 6.1 6.41 M instructions per unit (rebuild
 * 2.06 M, json_dumps 4.35 M: 0.50% of cc1; callgrind), for texts that are
 * the same in every unit including mmzone.h (struct zone, pglist_data).
 *
 * The cache: for a record of struct NAME and digest D (16 hex digits,
 * FNV-1a over every input of the record, core/manifest.c), the file
 *
 *   DIR/rec-N.cmr   (DIR: the cache directory of core/fix-cache.c,
 *                    ctx->fix_cache_dir: $CACHEHOT_CACHE_DIR, ...;
 *                    N: ch_hash_str(NAME), so one file per struct name:
 *                    a changed record, or another binary's, replaces the
 *                    old text instead of adding a file for every digest
 *                    ever made; two records of one name in one build
 *                    take turns, each unit then dumping as before)
 *
 * holds a header (magic, the identity of the binary that wrote it: device,
 * inode, size and mtime of the plugin's .so, as fix-cache.c keys its
 * files; D; the lengths of the name and the text; a hash of the text),
 * the struct's name and the record's text: exactly what
 * json_dumps(record, JSON_COMPACT | JSON_SORT_KEYS) gave for it. A file is
 * used only if everything matches: its size, magic, binary, digest, name,
 * the text's hash (ch_hash_bytes: a bit flipped anywhere in it), no NUL
 * in it, braces at both ends and its own "digest":"D" inside; anything
 * else (garbage, truncated, another binary's, another record's) is
 * ignored, the record is built and dumped as before, and the file is
 * written again. Files are written whole or not at all (ch_cache_put:
 * ch_atomic_open and rename), so concurrent units never see half a file;
 * only texts dumped by this process from a record it built itself (a
 * skipped one, built here) are written. The directory may be removed any
 * time; without one (no cache directory can be named, the binary cannot
 * be named) the text is made as before.
 *
 * The text: {"cachehot_manifest":1,...,"structs":{"NAME":TEXT,...}}, the
 * root's members in jansson's sorted order (strcmp), each member but
 * "structs" dumped by jansson as before, the structs in name order: byte
 * for byte what json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS) gives after
 * every skipped record is built (tests/core: test_unit_text). A name with
 * more than one record in the unit (its "other_definitions"), and a name
 * or key JSON would escape, go the old way (the record built and merged,
 * then dumped), so the texts stay jansson's own.
 *
 * Cost (callgrind, cc1 of 6.1's mm/mmzone.c, its records skipped and
 * cached, a unit after a first one): this text 0.08 M instructions instead
 * of 6.41 M; with the emitter's 0.48 M (was 1.37 M), plugin/build.c's
 * finish_unit 0.55 M instead of 7.78 M (0.04% of cc1, was 0.61%);
 * mm/page_counter.c 0.05 M instead of 0.69 M. The first unit to see a
 * record dumps it as before and writes its file.
 *
 * Ownership: the text returned is the caller's (malloc'd). Skipped records
 * whose text came from the cache are not built into ctx's manifest (the
 * object's text is the only use left once the manifest file is written:
 * plugin/build.c runs after the write); those built here stay in it.
 * Errors: none reported; a cache that cannot be read or written is not
 * used (the text is made as before), and a text jansson cannot make gives
 * NULL, as json_dumps did.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memmem */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "manifest-internal.h"

#define CMR_MAGIC "chmrec1\n"
/* bigger is not a record of ours: not read */
#define CMR_MAX ((size_t)64 << 20)

struct cmr_header {
	char magic[8];
	uint64_t id[4];          /* ch_code_identity() of the writer */
	uint64_t digest;
	uint64_t name_len;
	uint64_t text_len;
	uint64_t text_hash;      /* ch_hash_bytes(text, text_len) */
};

/* One record of the unit, by name. */
struct unit_rec {
	const char *name;               /* the structs key, or the type's name */
	json_t *rec;                    /* built (borrowed), or NULL */
	struct ch_skipped_record *sk;   /* skipped, or NULL */
	char *mem;                      /* malloc'd: text is inside */
	const char *text;
	size_t len;
};

/* 1 if jansson writes s as it is between quotes (no escape). */
static int plain_key(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	if (!p)
		return 0;
	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return 0;
	return 1;
}

/* 0, or -1 when the directory's name is too long for path */
static int cmr_path(ch_ctx *ctx, const char *name, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/rec-%016llx.cmr", ctx->fix_cache_dir,
			 (unsigned long long)ch_hash_str(name));
	return n > 0 && (size_t)n < size ? 0 : -1;
}

/* The cached text of the record (name, digest), checked: 1 and r->mem,
 * r->text, r->len, or 0. */
static int cmr_get(ch_ctx *ctx, const uint64_t id[4], const char *name,
		   unsigned long long digest, struct unit_rec *r)
{
	char path[4200], key[40];
	struct cmr_header h;
	size_t nlen = strlen(name), size = 0, klen;
	char *buf, *text;

	if (cmr_path(ctx, name, path, sizeof(path)))
		return 0;
	buf = (char *)ch_cache_get(path, sizeof(h) + nlen + 2, CMR_MAX, &size);
	if (!buf)
		return 0;
	memcpy(&h, buf, sizeof(h));
	text = buf + sizeof(h) + nlen;
	klen = ch_manifest_digest_key(key, sizeof(key), digest);
	if (memcmp(h.magic, CMR_MAGIC, 8) || memcmp(h.id, id, sizeof(h.id)) || h.digest != digest ||
	    h.name_len != nlen || h.text_len != size - sizeof(h) - nlen ||
	    memcmp(buf + sizeof(h), name, nlen) || ch_hash_bytes(text, h.text_len) != h.text_hash ||
	    text[0] != '{' || text[h.text_len - 1] != '}' || memchr(text, 0, h.text_len) ||
	    !memmem(text, h.text_len, key, klen)) {
		free(buf);
		return 0;
	}
	r->mem = buf;   /* ch_cache_get put a NUL after the text */
	r->text = text;
	r->len = h.text_len;
	return 1;
}

static void cmr_put(ch_ctx *ctx, const uint64_t id[4], const char *name,
		    unsigned long long digest, const char *text, size_t len)
{
	char path[4200];
	struct cmr_header h;
	size_t nlen = strlen(name);
	char *buf;
	if (cmr_path(ctx, name, path, sizeof(path)) || !(buf = (char *)malloc(sizeof(h) + nlen + len)))
		return;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CMR_MAGIC, 8);
	memcpy(h.id, id, sizeof(h.id));
	h.digest = digest;
	h.name_len = nlen;
	h.text_len = len;
	h.text_hash = ch_hash_bytes(text, len);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), name, nlen);
	memcpy(buf + sizeof(h) + nlen, text, len);
	ch_cache_put(path, buf, sizeof(h) + nlen + len);
	free(buf);
}

/* A built record's digest, when it is one record with one: 1. */
static int rec_digest(json_t *rec, unsigned long long *d)
{
	const char *s = json_string_value(json_object_get(rec, "digest"));
	char *end;
	if (!s || strlen(s) != 16 || json_object_get(rec, "other_definitions"))
		return 0;
	*d = strtoull(s, &end, 16);
	return *end == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct unit_rec *)a)->name, ((const struct unit_rec *)b)->name);
}

static int sk_by_name(const void *a, const void *b)
{
	return strcmp((*(struct ch_skipped_record *const *)a)->t->name,
		      (*(struct ch_skipped_record *const *)b)->t->name);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The text from the records' texts; NULL: make it the old way. */
static char *unit_text_cached(ch_ctx *ctx)
{
	json_t *root = ch_manifest_root(ctx), *structs = json_object_get(root, "structs"), *v;
	struct ch_skipped_record *skv = (struct ch_skipped_record *)ctx->manifest_skipped, **ps = NULL;
	struct unit_rec *e = NULL;
	const char **keys = NULL, *k;
	size_t nps = 0, ne = 0, nk = 0, i;
	struct ch_grow b = { NULL, 0, 0 };
	uint64_t id[4];
	int ok = 0;

	if (!ctx->fix_cache_dir || !ch_code_identity(id) || !json_is_object(structs))
		return NULL;
	/* the skipped records by name; a name with another record in the
	 * unit is built and merged (its other_definitions), as before */
	ps = (struct ch_skipped_record **)ch_xrealloc(NULL, (ctx->nmanifest_skipped + 1) * sizeof(*ps));
	for (i = 0; i < ctx->nmanifest_skipped; i++)
		if (skv[i].finds) {
			if (!plain_key(skv[i].t->name))
				goto out;
			ps[nps++] = &skv[i];
		}
	qsort(ps, nps, sizeof(*ps), sk_by_name);
	for (i = 0; i < nps; i++) {
		const char *n = ps[i]->t->name;
		if (json_object_get(structs, n) || (i && !strcmp(ps[i - 1]->t->name, n)) ||
		    (i + 1 < nps && !strcmp(ps[i + 1]->t->name, n)))
			ch_manifest_rebuild_one(ctx, ps[i]);
	}
	e = (struct unit_rec *)calloc(json_object_size(structs) + nps + 1, sizeof(*e));
	if (!e)
		goto out;
	json_object_foreach(structs, k, v) {
		if (!plain_key(k))
			goto out;
		e[ne].name = k;
		e[ne++].rec = v;
	}
	for (i = 0; i < nps; i++)
		if (ps[i]->finds) {
			e[ne].name = ps[i]->t->name;
			e[ne++].sk = ps[i];
		}
	qsort(e, ne, sizeof(*e), by_name);
	for (i = 0; i < ne; i++) {
		unsigned long long d;
		int have = e[i].sk ? (d = e[i].sk->digest, 1) : rec_digest(e[i].rec, &d);
		char *t;
		if (have && cmr_get(ctx, id, e[i].name, d, &e[i]))
			continue;
		if (e[i].sk) {   /* not cached: built, dumped, kept */
			ch_manifest_rebuild_one(ctx, e[i].sk);
			e[i].rec = json_object_get(structs, e[i].name);
		}
		t = json_dumps(e[i].rec, JSON_COMPACT | JSON_SORT_KEYS);
		if (!t)
			goto out;
		e[i].mem = t;
		e[i].text = t;
		e[i].len = strlen(t);
		/* only what this binary built from a skipped record's inputs
		 * (a record merged from elsewhere is never kept) */
		if (e[i].sk && rec_digest(e[i].rec, &d) && d == e[i].sk->digest)
			cmr_put(ctx, id, e[i].name, d, t, e[i].len);
	}
	/* the root's members in jansson's order */
	keys = (const char **)calloc(json_object_size(root) + 1, sizeof(*keys));
	if (!keys)
		goto out;
	json_object_foreach(root, k, v) {
		if (!plain_key(k))
			goto out;
		keys[nk++] = k;
	}
	qsort(keys, nk, sizeof(*keys), by_str);
	ch_grow_put(&b, "{", 1);
	for (i = 0; i < nk; i++) {
		if (i)
			ch_grow_put(&b, ",", 1);
		ch_grow_put(&b, "\"", 1);
		ch_grow_put(&b, keys[i], strlen(keys[i]));
		ch_grow_put(&b, "\":", 2);
		if (!strcmp(keys[i], "structs")) {
			size_t j;
			ch_grow_put(&b, "{", 1);
			for (j = 0; j < ne; j++) {
				if (j)
					ch_grow_put(&b, ",", 1);
				ch_grow_put(&b, "\"", 1);
				ch_grow_put(&b, e[j].name, strlen(e[j].name));
				ch_grow_put(&b, "\":", 2);
				ch_grow_put(&b, e[j].text, e[j].len);
			}
			ch_grow_put(&b, "}", 1);
		} else {
			char *t = json_dumps(json_object_get(root, keys[i]),
					     JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
			if (!t)
				goto out;
			ch_grow_put(&b, t, strlen(t));
			free(t);
		}
	}
	ch_grow_put(&b, "}", 2);   /* and the NUL after it */
	ok = 1;
out:
	for (i = 0; i < ne; i++)
		free(e[i].mem);
	free(e);
	free(ps);
	free(keys);
	if (!ok) {
		free(b.p);
		return NULL;
	}
	return (char *)b.p;
}

char *ch_manifest_unit_text(ch_ctx *ctx)
{
	char *t = unit_text_cached(ctx);
	if (t)
		return t;
	/* the records skipped because the file held them are this unit's
	 * too: the object carries every one */
	ch_manifest_rebuild_skipped(ctx, NULL);
	return json_dumps(ch_manifest_root(ctx), JSON_COMPACT | JSON_SORT_KEYS);
}
