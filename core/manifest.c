/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest.c -- JSON record of every annotated struct, for the tools that
 * come after the compiler (cachehot-layout --manifest, the cachehot driver).
 *
 * Schema (version 1), one object keyed by struct name:
 * { "cachehot_manifest": 1,
 *   "structs": { "page_counter": {
 *       "file": "include/linux/page_counter.h", "line": 9, "tool": "plugin",
 *       "digest": "8c0f2e1a9b3d4c5e",
 *       "size": 192, "align": 64, "line_size": 64, "predict": 0, "smp": true,
 *       "randomized": false,
 *       "annotations": [ { "field": "usage", "class": "exclusive", "group": null } ],
 *       "fields": [ { "name": "usage", "offset": 0, "size": 8, "bit_offset": 0,
 *                     "bit_size": 0, "class": "exclusive", "group": null,
 *                     "padding": "none", "line": 0 } ],
 *       "findings": [ { "check": "cachehot-false-sharing", "severity": "warning",
 *                       "field": "min", "offset": 8, "size": 8, "other": "usage",
 *                       "other_offset": 0, "other_size": 8, "line": 0,
 *                       "line_size": 64, "file": "...", "line_no": 12, "col": 16,
 *                       "message": "..." } ] } } }
 *   "per_thread": { "stats": true, "pool.workers": true, "thread_stats": true } }
 * Offsets and sizes in bytes; "fields" are flattened (absolute offsets);
 * "annotations" are the direct members' classes (attributes and sidecar).
 * "per_thread" (only when there is one): the names the compiler saw marked
 * __cacheline_per_thread, in the sidecar's "NAME[] per_thread" namespace --
 * a variable, "STRUCT.FIELD" or a struct tag ([cachehot-array-sharing]);
 * DWARF and BTF do not carry the attribute, cachehot-layout reads it here.
 * "other_definitions" (only when it happens): every other distinct record
 * of the same struct name (another defining location, e.g. two translation
 * units with their own "struct foo", a file-scope and a function-scope
 * struct of one name, or another layout at the same location), each a full
 * record like the first. The records of a name are kept in one order --
 * by file, line, then their canonical JSON text -- whatever order the
 * compiles ran in, and written with sorted keys: the same build gives a
 * byte-identical manifest under any -j.
 * "digest": 16 hex digits, FNV-1a (64-bit) over everything the record is
 * made of (ch_manifest_use: a unit skips records the file already holds).
 * "globals" (only when a variable is annotated): NAME -> { "class", "group",
 * "file", "line", "col", "tool" [, "other_definitions": [records of other
 * variables of that name: function statics, statics of other units]] },
 * see ch_manifest_add_global().
 * Written with jansson; merged under flock; written to an unnamed file and
 * renamed into place (ch_atomic_open), so no partial file is ever seen.
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

static const char *pad_name(enum ch_pad_kind k)
{
	switch (k) {
	case CH_PAD_UNIFIED: return "cacheline_padding";
	case CH_PAD_PRIVATE: return "private";
	case CH_PAD_BYTES: return "bytes";
	case CH_PAD_ALIGNED: return "aligned";
	default: return "none";
	}
}

static const char *sev_name(enum ch_severity s)
{
	return s == CH_SEV_ERROR ? "error" : s == CH_SEV_WARNING ? "warning" : "note";
}

json_t *ch_manifest_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void add_finding(const struct ch_finding *f, void *arg)
{
	json_t *a = (json_t *)arg, *o = json_object();
	json_object_set_new(o, "check", json_string(ch_check_id(f->check)));
	json_object_set_new(o, "severity", json_string(sev_name(f->severity)));
	json_object_set_new(o, "field", ch_manifest_str_or_null(f->field_a));
	json_object_set_new(o, "offset", json_integer((json_int_t)f->offset_a));
	json_object_set_new(o, "size", json_integer((json_int_t)f->size_a));
	json_object_set_new(o, "other", ch_manifest_str_or_null(f->field_b));
	json_object_set_new(o, "other_offset", json_integer((json_int_t)f->offset_b));
	json_object_set_new(o, "other_size", json_integer((json_int_t)f->size_b));
	json_object_set_new(o, "line", json_integer((json_int_t)f->line_index));
	json_object_set_new(o, "line_size", json_integer(f->line_size));
	json_object_set_new(o, "file", ch_manifest_str_or_null(f->loc.file));
	json_object_set_new(o, "line_no", json_integer(f->loc.line));
	json_object_set_new(o, "col", json_integer(f->loc.col));
	json_object_set_new(o, "message", json_string(f->message));
	json_array_append_new(a, o);
}

/* ---- every distinct record of a name, in one order ----------------------- */

char *ch_manifest_record_text(json_t *r)
{
	return json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
}

struct rec { json_t *r; char *text; const char *file; json_int_t line; };

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = (const struct rec *)a, *y = (const struct rec *)b;
	int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->text ? x->text : "", y->text ? y->text : "");
}

/* Append r (borrowed) and, when it carries them, its other_definitions
 * (full records only: version-1 manifests listed {file, line, size}). */
static void collect(json_t *r, struct rec **v, size_t *n, size_t *cap)
{
	json_t *others = json_object_get(r, "other_definitions"), *o;
	size_t i;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*v = (struct rec *)realloc(*v, *cap * sizeof(**v));
		if (!*v)
			abort();
	}
	(*v)[(*n)++].r = json_incref(r);
	json_array_foreach(others, i, o)
		if (json_is_object(o) && json_object_get(o, "fields"))
			collect(o, v, n, cap);
}

/* structs[name] := every distinct record of prev (may be NULL) and mine,
 * the first in order as the record itself, the rest as its
 * other_definitions. Takes a reference to mine. */
void ch_manifest_merge_record(json_t *structs, const char *name, json_t *mine)
{
	json_t *prev = json_object_get(structs, name), *first, *others;
	struct rec *v = NULL;
	size_t n = 0, cap = 0, i, k = 0;
	/* the first record of a name (the usual case within one unit): kept
	 * as it is, without the copy and the text that order and dedupe */
	if (!prev && !json_object_get(mine, "other_definitions")) {
		json_object_set_new(structs, name, mine);
		return;
	}
	if (prev)
		collect(prev, &v, &n, &cap);
	collect(mine, &v, &n, &cap);
	json_decref(mine);
	for (i = 0; i < n; i++) {   /* compare records without their others */
		json_t *c = json_copy(v[i].r), *d;
		json_object_del(c, "other_definitions");
		json_decref(v[i].r);
		v[i].r = c;
		/* ... and without the digest: a record written before digests
		 * existed is the same record */
		d = json_incref(json_object_get(c, "digest"));
		json_object_del(c, "digest");
		v[i].text = ch_manifest_record_text(c);
		if (d)
			json_object_set_new(c, "digest", d);
		v[i].file = json_string_value(json_object_get(c, "file"));
		v[i].line = json_integer_value(json_object_get(c, "line"));
	}
	qsort(v, n, sizeof(*v), cmp_rec);
	for (i = 0; i < n; i++) {   /* drop exact repeats (keeping a digest) */
		if (k && !strcmp(v[k - 1].text, v[i].text)) {
			if (!json_object_get(v[k - 1].r, "digest") && json_object_get(v[i].r, "digest")) {
				json_decref(v[k - 1].r);
				free(v[k - 1].text);
				v[k - 1] = v[i];
				continue;
			}
			json_decref(v[i].r);
			free(v[i].text);
			continue;
		}
		v[k++] = v[i];
	}
	first = v[0].r;
	if (k > 1) {
		others = json_array();
		for (i = 1; i < k; i++)
			json_array_append_new(others, v[i].r);
		json_object_set_new(first, "other_definitions", others);
	}
	json_object_set_new(structs, name, first);
	for (i = 0; i < k; i++)
		free(v[i].text);
	free(v);
}

void ch_manifest_free(ch_ctx *ctx)
{
	if (ctx->manifest)
		json_decref((json_t *)ctx->manifest);
	ctx->manifest = NULL;
	free(ctx->manifest_known);
	ctx->manifest_known = NULL;
	ctx->nmanifest_known = 0;
	ctx->manifest_known_read = 0;
	{
		struct ch_skipped_record *v = (struct ch_skipped_record *)ctx->manifest_skipped;
		size_t i;
		for (i = 0; i < ctx->nmanifest_skipped; i++)
			if (v[i].finds)
				json_decref(v[i].finds);
		free(v);
		ctx->manifest_skipped = NULL;
		ctx->nmanifest_skipped = ctx->cap_manifest_skipped = 0;
	}
}

json_t *ch_manifest_root(ch_ctx *ctx)
{
	json_t *root;
	if (!ctx->manifest) {
		root = json_object();
		json_object_set_new(root, "cachehot_manifest", json_integer(1));
		json_object_set_new(root, "structs", json_object());
		ctx->manifest = root;
		ctx->manifest_free = ch_manifest_free;
	}
	return (json_t *)ctx->manifest;
}

void ch_manifest_per_thread(ch_ctx *ctx, const char *name)
{
	json_t *root, *pt;
	if (!name || !*name)
		return;
	root = ch_manifest_root(ctx);
	pt = json_object_get(root, "per_thread");
	if (!json_is_object(pt)) {
		pt = json_object();
		json_object_set_new(root, "per_thread", pt);
	}
	json_object_set_new(pt, name, json_true());
}

/* The annotated members of t, and of its anonymous struct/union members at
 * any depth (C names those directly, as the sidecar does; the flattened
 * "fields" stop at the walk's nesting limit, and without these entries
 * cachehot-layout lost the classes of members nested deeper and judged
 * nothing, silently, before). Depth bounded as the core's walks. */
typedef void (*annotation_fn)(const char *field, enum ch_class c, const char *group, void *arg);

static void each_annotation(ch_ctx *ctx, const char *sname, const struct ch_type *t,
			    annotation_fn fn, void *arg, int depth)
{
	size_t i;
	if (depth > 4096)
		return;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		const char *g = m->group;
		enum ch_class c = m->cls;
		if (c == CH_CLASS_NONE && m->name)
			c = ch_sidecar_class(ctx, sname, m->name, &g);
		if (c == CH_CLASS_NONE) {
			if (!m->name && m->type && m->type != t)
				each_annotation(ctx, sname, m->type, fn, arg, depth + 1);
			continue;
		}
		fn(m->name, c, g, arg);
	}
}

static void annotation_json(const char *field, enum ch_class c, const char *g, void *arg)
{
	json_t *o = json_object();
	json_object_set_new(o, "field", ch_manifest_str_or_null(field));
	json_object_set_new(o, "class", json_string(ch_class_name(c)));
	json_object_set_new(o, "group", ch_manifest_str_or_null(g));
	json_array_append_new((json_t *)arg, o);
}

/* ---- record digests (FNV-1a, 64-bit) ------------------------------------- */

#define DIGEST_SEED 0xcbf29ce484222325ULL

static void dig_bytes(unsigned long long *h, const void *p, size_t n)
{
	const unsigned char *c = (const unsigned char *)p;
	unsigned long long x = *h;
	while (n--) {
		x ^= *c++;
		x *= 0x100000001b3ULL;
	}
	*h = x;
}

/* a string with its terminator, NULL as one distinct byte */
static void dig_str(unsigned long long *h, const char *s)
{
	static const unsigned char null_mark = 0xff;
	if (s)
		dig_bytes(h, s, strlen(s) + 1);
	else
		dig_bytes(h, &null_mark, 1);
}

static void dig_int(unsigned long long *h, long long v)
{
	dig_bytes(h, &v, sizeof(v));
}

static void annotation_digest(const char *field, enum ch_class c, const char *g, void *arg)
{
	unsigned long long *h = (unsigned long long *)arg;
	dig_str(h, field);
	dig_int(h, c);
	dig_str(h, g);
}

/* A JSON value (the findings), in its own order: type tag, then content. */
static void dig_json(unsigned long long *h, json_t *v, int depth)
{
	const char *k;
	json_t *x;
	size_t i;
	dig_int(h, v ? (long long)json_typeof(v) : -1);
	if (!v || depth > 64)
		return;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		json_object_foreach(v, k, x) {
			dig_str(h, k);
			dig_json(h, x, depth + 1);
		}
		break;
	case JSON_ARRAY:
		dig_int(h, (long long)json_array_size(v));
		json_array_foreach(v, i, x)
			dig_json(h, x, depth + 1);
		break;
	case JSON_STRING:
		dig_bytes(h, json_string_value(v), json_string_length(v));
		dig_int(h, (long long)json_string_length(v));
		break;
	case JSON_INTEGER:
		dig_int(h, json_integer_value(v));
		break;
	default:
		break;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return x < y ? -1 : x > y;
}

void ch_manifest_use(ch_ctx *ctx, const char *path)
{
	ctx->manifest_path = path;
}

/* The digests of the records the manifest file holds, read once (the
 * file only ever grows by merges, so a digest seen stays). A missing or
 * unreadable file holds none: every record is built. */
static int digest_known(ch_ctx *ctx, unsigned long long d)
{
	static const char key[] = "\"digest\":\"";
	if (!ctx->manifest_path)
		return 0;
	if (!ctx->manifest_known_read) {
		char *text = NULL;
		size_t cap = 0;
		const char *p;
		struct stat st;
		ctx->manifest_known_read = 1;
		ctx->manifest_free = ch_manifest_free;
		/* a regular file only: a FIFO or a device would block or
		 * consume input here (ch_manifest_write refuses them) */
		if (stat(ctx->manifest_path, &st) == 0 && S_ISREG(st.st_mode))
			text = ch_read_text_file(ctx, ctx->manifest_path);
		for (p = text; p && (p = strstr(p, key)) != NULL; p += sizeof(key) - 1) {
			char *end;
			unsigned long long v = strtoull(p + sizeof(key) - 1, &end, 16);
			if (end != p + sizeof(key) - 1 + 16 || *end != '"')
				continue;
			if (ctx->nmanifest_known == cap) {
				cap = cap ? 2 * cap : 16;
				ctx->manifest_known = (unsigned long long *)ch_xrealloc(
					ctx->manifest_known, cap * sizeof(*ctx->manifest_known));
			}
			ctx->manifest_known[ctx->nmanifest_known++] = v;
		}
		free(text);
		if (ctx->nmanifest_known)
			qsort(ctx->manifest_known, ctx->nmanifest_known,
			      sizeof(*ctx->manifest_known), cmp_u64);
	}
	return ctx->nmanifest_known &&
	       bsearch(&d, ctx->manifest_known, ctx->nmanifest_known,
		       sizeof(*ctx->manifest_known), cmp_u64) != NULL;
}

/* One run of the rules feeding the caller's emit and the record. */
struct tee { json_t *finds; ch_emit_fn emit; void *arg; };

static void tee_finding(const struct ch_finding *f, void *p)
{
	struct tee *te = (struct tee *)p;
	add_finding(f, te->finds);
	te->emit(f, te->arg);
}

/* The record of t; finds: its findings (a new reference, taken), or NULL
 * to run the rules here. */
static void manifest_add(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			 const char *tool, json_t *finds);

void ch_manifest_add(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
		     const char *tool)
{
	manifest_add(ctx, t, cfg, tool, NULL);
}

int ch_check_type_manifest(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			   ch_emit_fn emit, void *arg, const char *tool)
{
	struct tee te;
	int r;
	if (!t || !t->name || !ch_type_is_annotated(ctx, t))
		return ch_check_type(ctx, t, cfg, emit, arg);
	te.finds = json_array();
	te.emit = emit;
	te.arg = arg;
	r = ch_check_type(ctx, t, cfg, tee_finding, &te);
	manifest_add(ctx, t, cfg, tool, te.finds);
	return r;
}

static unsigned long long record_digest(ch_ctx *ctx, const struct ch_type *t,
					const struct ch_config *cfg, const char *tool,
					json_t *finds, const struct ch_leaf *leaves, size_t n)
{
	unsigned long long h = DIGEST_SEED;
	size_t i;
	/* every input of ch_manifest_build_record(), in its order */
	dig_str(&h, "cachehot manifest record 1");
	dig_str(&h, t->name);
	dig_str(&h, t->loc.file);
	dig_int(&h, t->loc.line);
	dig_str(&h, tool ? tool : "cachehot");
	dig_int(&h, t->is_union);
	dig_int(&h, (long long)t->size);
	dig_int(&h, t->align);
	dig_int(&h, ch_config_line_size(cfg));
	dig_int(&h, cfg ? cfg->predict : 0);
	dig_int(&h, cfg ? cfg->smp : 1);
	dig_int(&h, t->randomized);
	each_annotation(ctx, t->name, t, annotation_digest, &h, 0);
	dig_int(&h, (long long)n);
	for (i = 0; i < n; i++) {
		dig_str(&h, leaves[i].path);
		dig_int(&h, (long long)leaves[i].offset);
		dig_int(&h, (long long)leaves[i].size);
		dig_int(&h, leaves[i].bit_offset);
		dig_int(&h, leaves[i].bit_size);
		dig_int(&h, leaves[i].cls);
		dig_str(&h, leaves[i].group);
		dig_int(&h, leaves[i].pad);
	}
	dig_json(&h, finds, 0);
	return h;
}

/* The record of t into ctx's manifest; takes the reference to finds. */
void ch_manifest_build_record(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			      const char *tool, json_t *finds, const struct ch_leaf *leaves,
			      size_t n, unsigned long long h)
{
	json_t *root, *structs, *s, *fields, *ann;
	size_t i;
	unsigned L = ch_config_line_size(cfg);
	char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", h);
	root = ch_manifest_root(ctx);
	structs = json_object_get(root, "structs");
	s = json_object();
	json_object_set_new(s, "digest", json_string(hex));
	json_object_set_new(s, "file", ch_manifest_str_or_null(t->loc.file));
	json_object_set_new(s, "line", json_integer(t->loc.line));
	json_object_set_new(s, "tool", json_string(tool ? tool : "cachehot"));
	json_object_set_new(s, "union", json_boolean(t->is_union));
	json_object_set_new(s, "size", json_integer((json_int_t)t->size));
	json_object_set_new(s, "align", json_integer(t->align));
	json_object_set_new(s, "line_size", json_integer(L));
	json_object_set_new(s, "predict", json_integer(cfg ? cfg->predict : 0));
	json_object_set_new(s, "smp", json_boolean(cfg ? cfg->smp : 1));
	json_object_set_new(s, "randomized", json_boolean(t->randomized));
	ann = json_array();
	each_annotation(ctx, t->name, t, annotation_json, ann, 0);
	json_object_set_new(s, "annotations", ann);
	fields = json_array();
	for (i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(leaves[i].path));
		json_object_set_new(o, "offset", json_integer((json_int_t)leaves[i].offset));
		json_object_set_new(o, "size", json_integer((json_int_t)leaves[i].size));
		json_object_set_new(o, "bit_offset", json_integer(leaves[i].bit_offset));
		json_object_set_new(o, "bit_size", json_integer(leaves[i].bit_size));
		json_object_set_new(o, "class", json_string(ch_class_name(leaves[i].cls)));
		json_object_set_new(o, "group", ch_manifest_str_or_null(leaves[i].group));
		json_object_set_new(o, "padding", json_string(pad_name(leaves[i].pad)));
		json_object_set_new(o, "line", json_integer((json_int_t)(leaves[i].offset / L)));
		json_array_append_new(fields, o);
	}
	json_object_set_new(s, "fields", fields);
	json_object_set_new(s, "findings", finds);
	ch_manifest_merge_record(structs, t->name, s);
}

static void manifest_add(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			 const char *tool, json_t *finds)
{
	struct ch_leaf *leaves;
	size_t n;
	unsigned long long h;

	if (!t || !t->name || !ch_type_is_annotated(ctx, t)) {
		if (finds)
			json_decref(finds);
		return;
	}
	if (!finds) {
		finds = json_array();
		ch_check_type(ctx, t, cfg, add_finding, finds);
	}
	ch_flatten(ctx, t, &leaves, &n);
	h = record_digest(ctx, t, cfg, tool, finds, leaves, n);
	if (digest_known(ctx, h)) {
		/* the file had this very record when the unit began: the
		 * write checks again under the lock (the file may be gone) */
		struct ch_skipped_record *k;
		ctx->manifest_free = ch_manifest_free;
		if (ctx->nmanifest_skipped == ctx->cap_manifest_skipped) {
			ctx->cap_manifest_skipped = ctx->cap_manifest_skipped ? 2 * ctx->cap_manifest_skipped : 8;
			ctx->manifest_skipped = ch_xrealloc(ctx->manifest_skipped,
				ctx->cap_manifest_skipped * sizeof(struct ch_skipped_record));
		}
		k = &((struct ch_skipped_record *)ctx->manifest_skipped)[ctx->nmanifest_skipped++];
		k->digest = h;
		k->t = t;
		k->has_cfg = cfg != NULL;
		if (cfg)
			k->cfg = *cfg;
		k->tool = tool ? ch_strdup(ctx, tool) : NULL;
		k->finds = finds;
		return;
	}
	ch_manifest_build_record(ctx, t, cfg, tool, finds, leaves, n, h);
}

