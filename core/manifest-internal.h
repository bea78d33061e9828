/* SPDX-License-Identifier: GPL-2.0 */
/* manifest-internal.h -- what core/manifest.c (records: built, ordered,
 * digested) and core/manifest-merge.c (global variables' records, merging
 * manifests, writing the file) share. Private to the core. */
#ifndef CACHEHOT_MANIFEST_INTERNAL_H
#define CACHEHOT_MANIFEST_INTERNAL_H
#include <stdio.h>
#include <jansson.h>
#include "internal.h"

/* The member a record's compact JSON text holds for its digest
 * ("digest":"<16 hex digits>", as ch_manifest_build_record sets it), into
 * key (at least 40 bytes); its length. Found in a text by memmem/strstr:
 * the manifest cache's entries, the manifest file under its lock. */
static inline size_t ch_manifest_digest_key(char *key, size_t size, unsigned long long digest)
{
	return (size_t)snprintf(key, size, "\"digest\":\"%016llx\"", digest);
}

/* A record skipped because the manifest held its digest. */
struct ch_skipped_record {
	unsigned long long digest;
	struct ch_type *t;          /* ctx-owned */
	struct ch_config cfg;
	int has_cfg;
	const char *tool;           /* a literal or ctx-owned */
	json_t *finds;              /* a reference */
};

/* json_string(s), or null for NULL (a new reference). */
json_t *ch_manifest_str_or_null(const char *s);
/* r's canonical text (sorted keys, compact): malloc'd. */
char *ch_manifest_record_text(json_t *r);
/* structs[name] := every distinct record of prev (may be NULL) and mine,
 * the first in order as the record itself, the rest as its
 * other_definitions. Takes a reference to mine. */
void ch_manifest_merge_record(json_t *structs, const char *name, json_t *mine);
/* ctx's manifest, created empty when it has none (borrowed). */
json_t *ch_manifest_root(ch_ctx *ctx);
/* The record of t into ctx's manifest; takes the reference to finds. h: its
 * digest; leaves (n): t flattened. */
void ch_manifest_build_record(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			      const char *tool, json_t *finds, const struct ch_leaf *leaves,
			      size_t n, unsigned long long h);
/* r's record built into ctx's manifest now, unless it was (r->finds
 * taken). */
void ch_manifest_rebuild_one(ch_ctx *ctx, struct ch_skipped_record *r);
/* Under the manifest's lock, with the file's text (NULL: no file): every
 * skipped record whose digest the text no longer holds, built. */
void ch_manifest_rebuild_skipped(ch_ctx *ctx, const char *text);
#endif
