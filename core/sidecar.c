/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sidecar.c -- annotations for unmodified trees, one field per line:
 *
 *     STRUCT.FIELD CLASS[:GROUP]     CLASS: hot | exclusive | read_mostly
 *     STRUCT.MEMBER.FIELD CLASS      a field of an embedded struct, in this
 *                                    container only (a member path)
 *     VARIABLE CLASS[:GROUP]         a global variable ([cachehot-global-sharing])
 *     FUNCTION() addressable         inline function meant to be addressable
 *     STRUCT owned                   every object of STRUCT is used by one
 *                                    thread or CPU at a time: no false
 *                                    sharing inside it (core/rules.c)
 *     # comment
 *
 * e.g. "page_counter.usage exclusive", "page_counter.failcnt hot:charge".
 * Names are C identifiers; FIELD names a direct member (an anonymous
 * struct/union member's fields are named directly, as in C).
 *
 * This file reads lines into entries and indexes them (struct ch_index:
 * by STRUCT and member, and each STRUCT's chain of entries);
 * sidecar-query.c answers the questions the rules ask; sidecar-index.c
 * keeps a per-build index file that loads a struct's entries on demand.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* 1 if s[0..n) is a C identifier (shared by the sidecar and net_cachelines readers). */
int ch_is_ident(const char *s, size_t n)
{
	size_t i;
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return 1;
}

/* 1 if s is FIELD or FIELD.FIELD... (a member path: "out_rate.curr") */
static int is_path(const char *s)
{
	const char *d;
	while ((d = strchr(s, '.'))) {
		if (!ch_is_ident(s, (size_t)(d - s)))
			return 0;
		s = d + 1;
	}
	return ch_is_ident(s, strlen(s));
}

/* ch_hash_str: in this process only (the index file has its own,
 * sidecar-index.c). STRUCT, then the member key or a marker for
 * "FUNCTION() addressable", whose field is NULL. */
static uint64_t entry_hash(const char *type, const char *field)
{
	uint64_t h = ch_hash_str(type) * 0x9E3779B97F4A7C15ull;
	h ^= field ? ch_hash_str(field) : 0xfe;
	return h ^ (h >> 29);
}

static int same_key(const struct ch_sidecar_entry *e, const char *type, const char *field)
{
	if (strcmp(e->type, type))
		return 0;
	if (!e->field || !field)
		return !e->field && !field;
	return !strcmp(e->field, field);
}

void ch_sidecar_pending_need(ch_ctx *ctx, const char *type)
{
	if (ctx->nside_pending && ctx->side_lazy_ops)
		ctx->side_lazy_ops->need(ctx, type);
}

void ch_sidecar_pending_all(ch_ctx *ctx)
{
	if (ctx->side_lazy_ops)
		ctx->side_lazy_ops->all(ctx);
}

struct entry_key { const char *type, *field; };

static int entry_is(size_t item, const void *key, const void *arg)
{
	const struct entry_key *k = (const struct entry_key *)key;
	return same_key(&((const ch_ctx *)arg)->side[item], k->type, k->field);
}

static uint64_t entry_rehash(size_t item, const void *arg)
{
	return ((const ch_ctx *)arg)->side[item].key_hash;
}

static int type_is(size_t item, const void *key, const void *arg)
{
	return !strcmp(((const ch_ctx *)arg)->side_types[item].name, (const char *)key);
}

static uint64_t type_rehash(size_t item, const void *arg)
{
	return ((const ch_ctx *)arg)->side_types[item].hash;
}

/* The entry for (type, field), field NULL for FUNCTION() addressable; or
 * NULL. O(1) expected. */
struct ch_sidecar_entry *ch_sidecar_find_entry(const ch_ctx *ctx, const char *type,
					       const char *field)
{
	struct entry_key k = { type, field };
	size_t i;
	/* pending lines name structs whose bits are set (index_need would
	 * find nothing for another name) */
	if (ctx->nside_pending &&
	    ch_side_bit_in(ctx->side_pending_bloom, ch_side_type_bit(type, strlen(type))))
		ch_sidecar_pending_need((ch_ctx *)ctx, type);
	i = ch_index_find(&ctx->side_idx, entry_hash(type, field), entry_is, &k, ctx);
	return i == CH_INDEX_NONE ? NULL : &ctx->side[i];
}

void ch_side_type_mark(ch_ctx *ctx, const char *name, size_t n)
{
	ch_side_bit_set(ctx->side_type_bloom, ch_side_type_bit(name, n));
}

void ch_side_type_mark_all(ch_ctx *ctx)
{
	ctx->side_type_bloom[0] = ctx->side_type_bloom[1] = ~0ULL;
	ctx->side_pending_bloom[0] = ctx->side_pending_bloom[1] = ~0ULL;
}

/* The chain of STRUCT type, or NULL; the pointer holds until the next
 * struct is added. Most names a unit asks about are in no sidecar: their
 * bit settles them. */
struct ch_side_type *ch_sidecar_find_type(const ch_ctx *ctx, const char *type)
{
	size_t i;
	unsigned bit = ch_side_type_bit(type, strlen(type));
	if (!ch_side_bit_in(ctx->side_type_bloom, bit))
		return NULL;
	if (ctx->nside_pending && ch_side_bit_in(ctx->side_pending_bloom, bit))
		ch_sidecar_pending_need((ch_ctx *)ctx, type);
	i = ch_index_find(&ctx->side_type_idx, ch_hash_str(type), type_is, type, ctx);
	return i == CH_INDEX_NONE ? NULL : &ctx->side_types[i];
}

/* A new chain: STRUCT name, entry idx (0-based) its first. */
static void new_type(ch_ctx *ctx, const char *name, size_t idx)
{
	struct ch_side_type *t;
	CH_GROW(ctx->side_types, ctx->nside_types, ctx->cap_side_types, 16);
	t = &ctx->side_types[ctx->nside_types];
	t->name = name;
	t->hash = ch_hash_str(name);
	t->first = t->last = idx + 1;
	t->n = 1;
	ch_index_add(&ctx->side_type_idx, ctx->nside_types, t->hash, type_rehash, ctx);
	ch_side_type_mark(ctx, name, strlen(name));
	ctx->nside_types++;
}

/* 1 if some entry names struct type_name: most structs of a translation
 * unit are not in the sidecar, and one lookup settles them. */
int ch_sidecar_names_type(const ch_ctx *ctx, const char *type_name)
{
	return type_name && ch_sidecar_find_type(ctx, type_name) != NULL;
}

/* Put entry idx (0-based) into both indices. */
static void index_entry(ch_ctx *ctx, size_t idx)
{
	struct ch_sidecar_entry *e = &ctx->side[idx];
	struct ch_side_type *t;
	e->key_hash = entry_hash(e->type, e->field);
	ch_index_add(&ctx->side_idx, idx, e->key_hash, entry_rehash, ctx);
	e->next_of_type = 0;
	if (e->global)
		ctx->nside_glob++;
	if (e->owned)
		ctx->nside_owned++;
	/* a lookup may parse waiting lines of an index (index_need), whose
	 * entries move ctx->side: e is taken again after each */
	if (e->pt_struct && !ch_sidecar_find_type(ctx, e->pt_struct))
		new_type(ctx, ctx->side[idx].pt_struct, idx);
	e = &ctx->side[idx];
	if (!e->field)
		return;
	t = ch_sidecar_find_type(ctx, e->type);
	if (t) {
		ctx->side[t->last - 1].next_of_type = idx + 1;
		t->last = idx + 1;
		t->n++;
		return;
	}
	new_type(ctx, e->type, idx);
}

/* Rebuild both indices from the entries: after a failed load is undone. */
static void reindex(ch_ctx *ctx)
{
	size_t i;
	ch_index_free(&ctx->side_idx);
	ch_index_free(&ctx->side_type_idx);
	ctx->nside_types = 0;
	/* the bits of the names an index still holds stay (a bit too many
	 * only costs a lookup) */
	if (!ctx->nside_pending)
		ctx->side_type_bloom[0] = ctx->side_type_bloom[1] = 0;
	ctx->nside_glob = 0;
	ctx->nside_owned = 0;
	ctx->side_gen++;
	for (i = 0; i < ctx->nside; i++)
		index_entry(ctx, i);
}

static void add_entry(ch_ctx *ctx, const struct ch_sidecar_entry *e)
{
	if (ctx->nside == ctx->capside) {
		ctx->capside = ctx->capside ? 2 * ctx->capside : 32;
		ctx->side = (struct ch_sidecar_entry *)ch_xrealloc(ctx->side,
						ctx->capside * sizeof(*e));
	}
	ctx->side[ctx->nside] = *e;
	ctx->side[ctx->nside++].seq = ctx->side_seq;
	ctx->side_gen++;
	index_entry(ctx, ctx->nside - 1);
}

/* "STRUCT.@GROUP CLASS": the class of the kernel cacheline group GROUP of
 * STRUCT (core/groups.c), overriding the one its name gives. CLASS is
 * written (or hot), read_mostly, or none. Stored as an entry whose field is
 * "@GROUP" (no member can be called that). */
static int parse_group_line(ch_ctx *ctx, struct ch_sidecar_entry *e, char *type, char *dot,
			    const char *cls, const char *file, unsigned lineno)
{
	const struct ch_sidecar_entry *o;
	if (!ch_is_ident(dot + 2, strlen(dot + 2))) {
		ch_set_error(ctx, "%s:%u: bad group name '%s' (a C identifier is expected after '@')",
			     file, lineno, dot + 2);
		return -1;
	}
	if (!strcmp(cls, "written") || !strcmp(cls, "hot"))
		e->cls = CH_CLASS_HOT;
	else if (!strcmp(cls, "read_mostly") || !strcmp(cls, "read-mostly"))
		e->cls = CH_CLASS_READ_MOSTLY;
	else if (!strcmp(cls, "none"))
		e->cls = CH_CLASS_NONE;
	else {
		ch_set_error(ctx, "%s:%u: unknown group class '%s' (expected written, read_mostly or none)",
			     file, lineno, cls);
		return -1;
	}
	*dot = 0;
	e->type = ch_strdup(ctx, type);
	e->field = ch_strdup(ctx, dot + 1);
	o = ch_sidecar_find_entry(ctx, e->type, e->field);
	if (o) {
		if (o->cls == e->cls)
			return 0;
		ch_set_error(ctx, "%s:%u: group '%s.%s' is already given class '%s' at %s:%u: one class per group",
			     file, lineno, e->type, e->field,
			     o->cls == CH_CLASS_HOT ? "written" : o->cls == CH_CLASS_READ_MOSTLY
			     ? "read_mostly" : "none", o->file, o->line);
		return -1;
	}
	add_entry(ctx, e);
	return 0;
}

static int parse_line(ch_ctx *ctx, const char *file, unsigned lineno, char *s);

/* Parse one line (NUL-terminated, comment already cut). */
int ch_sidecar_parse_line(ch_ctx *ctx, const char *file, unsigned lineno, char *s)
{
	return parse_line(ctx, file, lineno, s);
}

static int parse_line(ch_ctx *ctx, const char *file, unsigned lineno, char *s)
{
	char *tok[3];
	int n = 0;
	char *p = s, *dot, *colon;
	struct ch_sidecar_entry e;

	while (n < 3) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = 0;
	}
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (n == 0)
		return 0;
	if (n != 2 || *p) {
		ch_set_error(ctx, "%s:%u: expected 'STRUCT.FIELD CLASS[:GROUP]', 'STRUCT.@GROUP CLASS' or 'FUNCTION() addressable'",
			     file, lineno);
		return -1;
	}
	memset(&e, 0, sizeof(e));
	e.file = ch_strdup(ctx, file);
	e.line = lineno;
	/* NAME[] per_thread, NAME[N] per_thread, STRUCT.FIELD[] per_thread:
	 * an array (or a pointer to a heap array) of per-thread elements;
	 * NAME is a variable or a struct tag (every array of that type) */
	if (!strcmp(tok[1], "per_thread")) {
		char *br = strchr(tok[0], '['), *dt, *end;
		size_t l = strlen(tok[0]);
		unsigned long long cnt = 0;
		if (!br || tok[0][l - 1] != ']') {
			ch_set_error(ctx, "%s:%u: '%s per_thread' needs '[]' or '[N]' after the name",
				     file, lineno, tok[0]);
			return -1;
		}
		*br = 0;
		if (br[1] != ']') {
			cnt = strtoull(br + 1, &end, 10);
			if (end != tok[0] + l - 1 || !cnt || cnt > (1ull << 40)) {
				ch_set_error(ctx, "%s:%u: bad element count in '%s[%s'", file, lineno,
					     tok[0], br + 1);
				return -1;
			}
		}
		dt = strchr(tok[0], '.');
		if (dt ? !ch_is_ident(tok[0], (size_t)(dt - tok[0])) || !ch_is_ident(dt + 1, strlen(dt + 1))
		       : !ch_is_ident(tok[0], strlen(tok[0]))) {
			ch_set_error(ctx, "%s:%u: '%s' is not NAME or STRUCT.FIELD", file, lineno, tok[0]);
			return -1;
		}
		e.type = ch_printf(ctx, "%s[]", tok[0]);
		e.count = cnt;
		if (dt)
			e.pt_struct = ch_printf(ctx, "%.*s.", (int)(dt - tok[0]), tok[0]);
		if (!ch_sidecar_find_entry(ctx, e.type, NULL)) {
			add_entry(ctx, &e);
			ctx->nside_per_thread++;
		}
		return 0;
	}
	/* STRUCT owned: every object of the struct belongs to one thread or
	 * CPU (cachehot annotate's ownership evidence, or the user's word).
	 * Kept in STRUCT's chain under the member key "" (no member has that
	 * name), so that engines judge STRUCT and report a stale entry. */
	if (!strcmp(tok[1], "owned")) {
		if (!ch_is_ident(tok[0], strlen(tok[0]))) {
			ch_set_error(ctx, "%s:%u: '%s owned' needs a struct tag (STRUCT owned)",
				     file, lineno, tok[0]);
			return -1;
		}
		e.type = ch_strdup(ctx, tok[0]);
		e.field = ch_strdup(ctx, "");
		e.owned = 1;
		if (!ch_sidecar_find_entry(ctx, e.type, e.field))
			add_entry(ctx, &e);
		return 0;
	}
	/* FUNCTION() addressable */
	{
		size_t l = strlen(tok[0]);
		if (l > 2 && !strcmp(tok[0] + l - 2, "()")) {
			if (!ch_is_ident(tok[0], l - 2)) {
				ch_set_error(ctx, "%s:%u: '%s' is not a function name", file, lineno, tok[0]);
				return -1;
			}
			if (strcmp(tok[1], "addressable")) {
				ch_set_error(ctx, "%s:%u: unknown function class '%s' (expected 'addressable')",
					     file, lineno, tok[1]);
				return -1;
			}
			tok[0][l - 2] = 0;
			e.type = ch_strdup(ctx, tok[0]);
			add_entry(ctx, &e);
			return 0;
		}
	}
	dot = strchr(tok[0], '.');
	if (dot && dot[1] == '@' && ch_is_ident(tok[0], (size_t)(dot - tok[0])))
		return parse_group_line(ctx, &e, tok[0], dot, tok[1], file, lineno);
	if (!dot && ch_is_ident(tok[0], strlen(tok[0]))) {
		/* VARIABLE CLASS[:GROUP]: a global variable, judged where its
		 * place is known (cachehot-layout, ELF symbol table) */
		e.global = 1;
		ctx->nside_global++;
	} else if (!dot || !ch_is_ident(tok[0], (size_t)(dot - tok[0])) || !is_path(dot + 1)) {
		ch_set_error(ctx, dot ? "%s:%u: '%s' is not STRUCT.FIELD"
				      : "%s:%u: '%s' is not STRUCT.FIELD or a variable name",
			     file, lineno, tok[0]);
		return -1;
	} else
		*dot = 0;
	colon = strchr(tok[1], ':');
	if (colon) {
		*colon = 0;
		if (!ch_is_ident(colon + 1, strlen(colon + 1))) {
			ch_set_error(ctx, "%s:%u: bad group name '%s' (a C identifier is expected)",
				     file, lineno, colon + 1);
			return -1;
		}
	}
	if (ch_class_parse(tok[1], &e.cls)) {
		ch_set_error(ctx, "%s:%u: unknown class '%s' (expected hot, exclusive or read_mostly)",
			     file, lineno, tok[1]);
		return -1;
	}
	if (colon && e.cls != CH_CLASS_HOT) {
		ch_set_error(ctx, "%s:%u: only 'hot' takes a group (got '%s:%s')",
			     file, lineno, tok[1], colon + 1);
		return -1;
	}
	e.type = e.global ? ch_printf(ctx, "%s=", tok[0]) : ch_strdup(ctx, tok[0]);
	e.field = e.global ? NULL : ch_strdup(ctx, dot + 1);
	e.group = colon ? ch_strdup(ctx, colon + 1) : NULL;
	{
		/* one class per field, as for attributes: a repeat is ignored,
		 * a different class is an error naming both lines */
		const struct ch_sidecar_entry *o = ch_sidecar_find_entry(ctx, e.type, e.field);
		if (o) {
			if (o->cls == e.cls && !strcmp(o->group ? o->group : "", e.group ? e.group : ""))
				return 0;
			ch_set_error(ctx, "%s:%u: '%s%s%s' is already annotated '%s%s%s' at %s:%u: one class per %s",
				     file, lineno, e.global ? tok[0] : e.type, e.global ? "" : ".",
				     e.global ? "" : e.field, ch_class_name(o->cls),
				     o->group ? ":" : "", o->group ? o->group : "", o->file, o->line,
				     e.global ? "variable" : "field");
			return -1;
		}
	}
	add_entry(ctx, &e);
	return 0;
}

int ch_sidecar_load_string(ch_ctx *ctx, const char *name, const char *text)
{
	unsigned lineno = 0;
	const char *p = text;
	size_t before;
	int inferred = 0;
	ch_sidecar_pending_all(ctx);   /* a file loaded through its index: whole now */
	before = ctx->nside;
	while (*p) {
		const char *nl;
		/* a UTF-8 byte order mark (editors on Windows write one) is no
		 * part of an entry: quoted, it would be invisible in the error.
		 * Skipped at the start of every line, not only of the file:
		 * sidecars joined with "cat a.ann b.ann" carry b's mark at the
		 * start of its first line. */
		if (!strncmp(p, "\xef\xbb\xbf", 3))
			p += 3;
		nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = (char *)malloc(len + 1), *hash;
		int rc;
		memcpy(line, p, len);
		line[len] = 0;
		lineno++;
		/* what follows was inferred by cachehot annotate (its first
		 * line): its findings are reported once per struct */
		if (!strncmp(line, "# cachehot annotate:", 20))
			inferred = 1;
		ctx->side_seq = ctx->side_seq_next + lineno;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		{
			size_t was = ctx->nside;
			rc = parse_line(ctx, name, lineno, line);
			for (; !rc && inferred && was < ctx->nside; was++)
				ctx->side[was].inferred = 1;
		}
		free(line);
		if (rc) {
			ctx->nside = before;   /* all or nothing */
			reindex(ctx);
			return -1;
		}
		p += len;
		if (*p)
			p++;
	}
	ctx->side_seq_next += (size_t)lineno + 1;
	return 0;
}

int ch_sidecar_load_line(ch_ctx *ctx, const char *name, unsigned lineno, const char *text)
{
	size_t before;
	char *line, *hash;
	int rc;
	ch_sidecar_pending_all(ctx);   /* conflicts with pending lines are found now */
	before = ctx->nside;
	ctx->side_seq = ++ctx->side_seq_next;
	if (strchr(text, '\n')) {
		ch_set_error(ctx, "%s:%u: one sidecar line per pragma", name, lineno);
		return -1;
	}
	line = (char *)malloc(strlen(text) + 1);
	if (!line)
		abort();
	strcpy(line, text);
	if ((hash = strchr(line, '#')))
		*hash = 0;
	rc = parse_line(ctx, name, lineno, line);
	free(line);
	if (rc) {
		ctx->nside = before;
		reindex(ctx);
		return -1;
	}
	return 0;
}

int ch_sidecar_load(ch_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int rc;
	if (!f) {
		ch_set_error(ctx, "%s: cannot open annotations file: %s", path, strerror(errno));
		return -1;
	}
	buf = ch_read_stream(f, &n);
	if (!buf) {
		ch_set_error(ctx, "%s: cannot read annotations file: %s", path,
			     errno == EISDIR ? "it is a directory" : strerror(errno));
		fclose(f);
		return -1;
	}
	fclose(f);
	if (memchr(buf, 0, n)) {
		ch_set_error(ctx, "%s: not a text file", path);
		free(buf);
		return -1;
	}
	rc = ch_sidecar_load_string(ctx, path, buf);
	free(buf);
	return rc;
}

