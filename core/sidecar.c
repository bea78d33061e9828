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
 * sidecar-index.c) */
static size_t type_hash(const char *type, size_t cap)
{
	return (size_t)ch_hash_str(type) & (cap - 1);
}

/* STRUCT, then the member key or a marker for "FUNCTION() addressable",
 * whose field is NULL */
static size_t entry_hash(const char *type, const char *field, size_t cap)
{
	uint64_t h = ch_hash_str(type) * 0x9E3779B97F4A7C15ull;
	h ^= field ? ch_hash_str(field) : 0xfe;
	return (size_t)(h ^ (h >> 29)) & (cap - 1);
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

/* The entry for (type, field), field NULL for FUNCTION() addressable; or
 * NULL. O(1) expected. */
static struct ch_sidecar_entry *find_entry(const ch_ctx *ctx, const char *type,
					   const char *field)
{
	size_t i;
	if (ctx->nside_pending)
		ch_sidecar_pending_need((ch_ctx *)ctx, type);
	if (!ctx->cap_side_idx)
		return NULL;
	for (i = entry_hash(type, field, ctx->cap_side_idx); ctx->side_idx[i];
	     i = (i + 1) & (ctx->cap_side_idx - 1)) {
		struct ch_sidecar_entry *e = &ctx->side[ctx->side_idx[i] - 1];
		if (same_key(e, type, field))
			return e;
	}
	return NULL;
}

static struct ch_side_type *find_type(const ch_ctx *ctx, const char *type)
{
	size_t i;
	if (ctx->nside_pending)
		ch_sidecar_pending_need((ch_ctx *)ctx, type);
	if (!ctx->cap_side_types)
		return NULL;
	for (i = type_hash(type, ctx->cap_side_types); ctx->side_types[i].name;
	     i = (i + 1) & (ctx->cap_side_types - 1))
		if (!strcmp(ctx->side_types[i].name, type))
			return &ctx->side_types[i];
	return NULL;
}

/* 1 if some entry names struct type_name: most structs of a translation
 * unit are not in the sidecar, and one lookup settles them. */
int ch_sidecar_names_type(const ch_ctx *ctx, const char *type_name)
{
	return type_name && find_type(ctx, type_name) != NULL;
}

/* Put entry idx (0-based) into both indices; they have room. */
static void index_entry(ch_ctx *ctx, size_t idx)
{
	struct ch_sidecar_entry *e = &ctx->side[idx];
	struct ch_side_type *t;
	size_t i;
	for (i = entry_hash(e->type, e->field, ctx->cap_side_idx); ctx->side_idx[i];
	     i = (i + 1) & (ctx->cap_side_idx - 1))
		;
	ctx->side_idx[i] = idx + 1;
	e->next_of_type = 0;
	if (e->global)
		ctx->nside_glob++;
	if (e->owned)
		ctx->nside_owned++;
	if (e->pt_struct && !find_type(ctx, e->pt_struct)) {
		for (i = type_hash(e->pt_struct, ctx->cap_side_types); ctx->side_types[i].name;
		     i = (i + 1) & (ctx->cap_side_types - 1))
			;
		ctx->side_types[i].name = e->pt_struct;
		ctx->side_types[i].first = ctx->side_types[i].last = idx + 1;
		ctx->side_types[i].n = 1;
		ctx->nside_types++;
	}
	if (!e->field)
		return;
	t = find_type(ctx, e->type);
	if (t) {
		ctx->side[t->last - 1].next_of_type = idx + 1;
		t->last = idx + 1;
		t->n++;
		return;
	}
	for (i = type_hash(e->type, ctx->cap_side_types); ctx->side_types[i].name;
	     i = (i + 1) & (ctx->cap_side_types - 1))
		;
	ctx->side_types[i].name = e->type;
	ctx->side_types[i].first = ctx->side_types[i].last = idx + 1;
	ctx->side_types[i].n = 1;
	ctx->nside_types++;
}

/* Rebuild both indices from the entries, sized for want entries: on
 * growth (amortized O(1) per entry) and after a failed load is undone. */
static void reindex(ch_ctx *ctx, size_t want)
{
	size_t cap = 16, i;
	while (cap < 2 * want)
		cap *= 2;
	free(ctx->side_idx);
	free(ctx->side_types);
	ctx->side_idx = (size_t *)calloc(cap, sizeof(size_t));
	ctx->side_types = (struct ch_side_type *)calloc(cap, sizeof(struct ch_side_type));
	if (!ctx->side_idx || !ctx->side_types)
		abort();
	ctx->cap_side_idx = ctx->cap_side_types = cap;
	ctx->nside_types = 0;
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
	if (2 * ctx->nside > ctx->cap_side_idx)
		reindex(ctx, 2 * ctx->nside);
	else
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
	o = find_entry(ctx, e->type, e->field);
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
		if (!find_entry(ctx, e.type, NULL)) {
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
		if (!find_entry(ctx, e.type, e.field))
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
		const struct ch_sidecar_entry *o = find_entry(ctx, e.type, e.field);
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
			reindex(ctx, ctx->nside);
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
		reindex(ctx, ctx->nside);
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

enum ch_class ch_sidecar_class(ch_ctx *ctx, const char *type_name,
			       const char *field, const char **group)
{
	return ch_sidecar_class_inferred(ctx, type_name, field, group, NULL);
}

enum ch_class ch_sidecar_class_inferred(ch_ctx *ctx, const char *type_name,
					const char *field, const char **group, int *inferred)
{
	struct ch_sidecar_entry *e;
	if (inferred)
		*inferred = 0;
	if (!type_name || !field)
		return CH_CLASS_NONE;
	e = find_entry(ctx, type_name, field);
	if (!e)
		return CH_CLASS_NONE;
	e->matched = 1;
	if (group)
		*group = e->group;
	if (inferred)
		*inferred = e->inferred;
	return e->cls;
}

int ch_sidecar_chain(ch_ctx *ctx, const char *type, struct ch_side_chain *c)
{
	const struct ch_side_type *t = type ? find_type(ctx, type) : NULL;
	c->type = type;
	c->first = t ? t->first : 0;
	c->n = t ? t->n : 0;
	return t != NULL;
}

void ch_type_chain(ch_ctx *ctx, struct ch_type *t, struct ch_side_chain *c)
{
	if (t->side_gen && t->side_gen == ctx->side_gen + 1 && t->side_name == t->name) {
		c->type = t->name;
		c->first = t->side_first;
		c->n = t->side_n;
		return;
	}
	ch_sidecar_chain(ctx, t->name, c);
	/* after the look-up: it may parse the struct's lines from an index */
	t->side_name = t->name;
	t->side_first = c->first;
	t->side_n = c->n;
	t->side_gen = ctx->side_gen + 1;
}

/* Walked up to this many entries (a struct's members asked one by one:
 * beyond it, the hash) */
#define CH_CHAIN_WALK 8

enum ch_class ch_sidecar_class_chain(ch_ctx *ctx, const struct ch_side_chain *c,
				     const char *field, const char **group, int *inferred)
{
	size_t i;
	if (!c->first || !field) {
		if (inferred)
			*inferred = 0;
		return CH_CLASS_NONE;
	}
	if (c->n > CH_CHAIN_WALK)
		return ch_sidecar_class_inferred(ctx, c->type, field, group, inferred);
	if (inferred)
		*inferred = 0;
	/* to the chain's end: entries parsed after c was filled are on it */
	for (i = c->first; i; i = ctx->side[i - 1].next_of_type) {
		struct ch_sidecar_entry *e = &ctx->side[i - 1];
		if (!e->field || strcmp(e->field, field))
			continue;
		e->matched = 1;
		if (group)
			*group = e->group;
		if (inferred)
			*inferred = e->inferred;
		return e->cls;
	}
	return CH_CLASS_NONE;
}

int ch_sidecar_path_under(const ch_ctx *ctx, const char *type_name, const char *prefix)
{
	const struct ch_side_type *t = type_name ? find_type(ctx, type_name) : NULL;
	size_t i, n = prefix ? strlen(prefix) : 0;
	for (i = t ? t->first : 0; i; i = ctx->side[i - 1].next_of_type) {
		const char *fl = ctx->side[i - 1].field;
		if (!fl || !strchr(fl, '.'))
			continue;
		if (!prefix || (!strncmp(fl, prefix, n) && fl[n] == '.'))
			return 1;
	}
	return 0;
}

/* Does path ("a.b.c") name a member of t, through named members (and
 * anonymous ones, whose members C names directly) of struct/union type? */
static int resolves(const struct ch_type *t, const char *path, int depth)
{
	const char *dot = strchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : strlen(path), i;
	if (!t || depth > 16)
		return 0;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (!m->name) {
			if (m->type && resolves(m->type, path, depth + 1))
				return 1;
			continue;
		}
		if (strlen(m->name) != len || strncmp(m->name, path, len))
			continue;
		return !dot || (m->type && resolves(m->type, dot + 1, depth + 1));
	}
	return 0;
}

int ch_sidecar_inferred(ch_ctx *ctx, const char *type_name, const char *field)
{
	struct ch_sidecar_entry *e = type_name && field ? find_entry(ctx, type_name, field) : NULL;
	return e && e->inferred;
}

int ch_sidecar_group_class(ch_ctx *ctx, const char *type_name, const char *group,
			   enum ch_class *out)
{
	struct ch_sidecar_entry *e;
	char key[256];
	if (!type_name || !group || strlen(group) + 2 > sizeof(key) || !ch_sidecar_count(ctx))
		return 0;
	key[0] = '@';
	strcpy(key + 1, group);
	e = find_entry(ctx, type_name, key);
	if (!e)
		return 0;
	e->matched = 1;
	*out = e->cls;
	return 1;
}

int ch_sidecar_per_thread(ch_ctx *ctx, const char *name, uint64_t *count)
{
	struct ch_sidecar_entry *e;
	char key[512];
	if (!name || !ctx->nside_per_thread ||
	    (size_t)snprintf(key, sizeof(key), "%s[]", name) >= sizeof(key))
		return 0;
	e = find_entry(ctx, key, NULL);
	if (!e)
		return 0;
	e->matched = 1;
	if (count)
		*count = e->count;
	return 1;
}

int ch_sidecar_per_thread_members(const ch_ctx *ctx, const char *type_name)
{
	char key[512];
	if (!type_name || !ctx->nside_per_thread ||
	    (size_t)snprintf(key, sizeof(key), "%s.", type_name) >= sizeof(key))
		return 0;
	return find_type(ctx, key) != NULL;
}

int ch_sidecar_owned(ch_ctx *ctx, const char *type_name)
{
	struct ch_sidecar_entry *e;
	/* asked for every struct instance a judged struct holds: one
	 * counter settles a sidecar without "STRUCT owned" lines (entries
	 * still to be parsed from an index may be such lines) */
	if (!ctx->nside_pending && !ctx->nside_owned)
		return 0;
	e = type_name && ch_sidecar_count(ctx) ? find_entry(ctx, type_name, "") : NULL;
	if (!e)
		return 0;
	e->matched = 1;
	return 1;
}

int ch_sidecar_addressable(ch_ctx *ctx, const char *func)
{
	struct ch_sidecar_entry *e = func ? find_entry(ctx, func, NULL) : NULL;
	if (!e)
		return 0;
	e->matched = 1;
	return 1;
}

static const ch_ctx *sort_ctx;
static int by_seq(const void *a, const void *b)
{
	size_t x = sort_ctx->side[*(const size_t *)a].seq, y = sort_ctx->side[*(const size_t *)b].seq;
	return x < y ? -1 : x > y;
}

size_t ch_sidecar_unmatched(ch_ctx *ctx,
			    void (*fn)(const char *file, unsigned line,
				       const char *entry, void *arg),
			    void *arg)
{
	size_t i, n = 0, *order = NULL;
	if (ctx->side_lazy) {
		/* struct lines parsed on demand were appended out of file
		 * order: all parsed now, listed by their place in the files */
		ch_sidecar_pending_all(ctx);
		order = (size_t *)malloc((ctx->nside + 1) * sizeof(*order));
		if (!order)
			abort();
		for (i = 0; i < ctx->nside; i++)
			order[i] = i;
		sort_ctx = ctx;
		qsort(order, ctx->nside, sizeof(*order), by_seq);
	}
	for (i = 0; i < ctx->nside; i++) {
		const struct ch_sidecar_entry *e = &ctx->side[order ? order[i] : i];
		/* a global variable's entry is judged on the linked binary
		 * (cachehot-layout, ch_sidecar_globals), never per unit */
		if (e->matched || e->global)
			continue;
		n++;
		if (fn)
			fn(e->file, e->line, e->owned ? ch_printf(ctx, "%s owned", e->type)
					     : e->field ? ch_printf(ctx, "%s.%s", e->type, e->field)
					     : strchr(e->type, '[') ? e->type
					     : ch_printf(ctx, "%s()", e->type), arg);
	}
	free(order);
	return n;
}

size_t ch_sidecar_missing_fields(ch_ctx *ctx, const char *type_name,
				 void (*fn)(const char *file, unsigned line,
					    const char *entry, void *arg),
				 void *arg)
{
	const struct ch_side_type *t = type_name ? find_type(ctx, type_name) : NULL;
	size_t i, n = 0;
	for (i = t ? t->first : 0; i; i = ctx->side[i - 1].next_of_type) {
		struct ch_sidecar_entry *e = &ctx->side[i - 1];
		if (e->owned)
			e->matched = 1;   /* names the struct, not a member */
		if (e->matched)
			continue;
		e->matched = 2;   /* reported here, not again at the end */
		n++;
		if (fn)
			fn(e->file, e->line, ch_printf(ctx, "%s.%s", e->type, e->field), arg);
	}
	return n;
}

size_t ch_sidecar_count(const ch_ctx *ctx)
{
	return ctx->nside + ctx->nside_pending;
}

size_t ch_sidecar_per_thread_count(const ch_ctx *ctx)
{
	return ctx->nside_per_thread;
}

/* Entries for members of t (and of its anonymous struct/union members,
 * whose fields are named directly) count as matched even when an attribute
 * gave the member its class: an entry is stale only when no such member
 * exists, never because the source annotates the member too. */
static void mark_members(ch_ctx *ctx, const char *type_name, const struct ch_type *t, int depth)
{
	size_t i;
	const char *g;
	if (!t || depth > 16)
		return;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (m->name)
			ch_sidecar_class(ctx, type_name, m->name, &g);
		else if (m->type)
			mark_members(ctx, type_name, m->type, depth + 1);
	}
}

void ch_sidecar_mark_members(ch_ctx *ctx, const struct ch_type *t)
{
	const struct ch_side_type *st;
	size_t i;
	if (!t || !t->name || !ch_sidecar_count(ctx))
		return;
	mark_members(ctx, t->name, t, 0);
	ch_sidecar_owned(ctx, t->name);   /* "STRUCT owned": the struct exists */
	/* member paths ("global.out_rate.curr") that lead to a member */
	st = find_type(ctx, t->name);
	for (i = st ? st->first : 0; i; i = ctx->side[i - 1].next_of_type) {
		struct ch_sidecar_entry *e = &ctx->side[i - 1];
		if (!e->matched && e->field && strchr(e->field, '.') && resolves(t, e->field, 0))
			e->matched = 1;
	}
}

enum ch_class ch_sidecar_global_class(ch_ctx *ctx, const char *name, const char **group)
{
	struct ch_sidecar_entry *e;
	char key[512];
	/* asked for every static and extern variable of a unit: no
	 * formatting while the sidecar names no variable */
	if (!name || !ctx->nside_glob ||
	    (size_t)snprintf(key, sizeof(key), "%s=", name) >= sizeof(key))
		return CH_CLASS_NONE;
	e = find_entry(ctx, key, NULL);
	if (!e)
		return CH_CLASS_NONE;
	e->matched = 1;
	if (group)
		*group = e->group;
	return e->cls;
}

size_t ch_sidecar_globals(ch_ctx *ctx,
			  void (*fn)(const char *name, enum ch_class cls, const char *group,
				     const char *file, unsigned line, int matched, void *arg),
			  void *arg)
{
	size_t i, n = 0;
	for (i = 0; i < ctx->nside; i++) {
		const struct ch_sidecar_entry *e = &ctx->side[i];
		char *name;
		size_t l;
		if (!e->global)
			continue;
		n++;
		if (!fn)
			continue;
		l = strlen(e->type);
		name = (char *)ch_alloc(ctx, l);
		memcpy(name, e->type, l - 1);   /* without the key's '=' */
		fn(name, e->cls, e->group, e->file, e->line, e->matched, arg);
	}
	return n;
}

const char *ch_sidecar_global_entry(ch_ctx *ctx, const char *name, enum ch_class cls,
				    const char *group)
{
	return ch_printf(ctx, "%s %s%s%s", name, ch_class_name(cls), group ? ":" : "",
			 group ? group : "");
}

static size_t prefix_hash(const char *s, size_t len)
{
	size_t h = 2166136261u, i;   /* FNV-1a */
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The prefix table for the variable lines loaded so far: sum of the name
 * lengths slots (x2), each prefix once. */
static void build_prefixes(ch_ctx *ctx)
{
	size_t i, total = 0, cap = 16;
	for (i = 0; i < ctx->nside; i++)
		if (ctx->side[i].global)
			total += strlen(ctx->side[i].type);
	while (cap < 2 * total)
		cap *= 2;
	ctx->side_prefixes = (struct ch_name_prefix *)ch_alloc(ctx, cap * sizeof(*ctx->side_prefixes));
	memset(ctx->side_prefixes, 0, cap * sizeof(*ctx->side_prefixes));
	ctx->cap_side_prefixes = cap;
	for (i = 0; i < ctx->nside; i++) {
		const char *name = ctx->side[i].type;   /* "NAME=" */
		size_t l, n;
		if (!ctx->side[i].global)
			continue;
		n = strlen(name) - 1;
		for (l = 1; l < n; l++) {
			size_t h = prefix_hash(name, l) & (cap - 1);
			while (ctx->side_prefixes[h].s &&
			       !(ctx->side_prefixes[h].len == l && !memcmp(ctx->side_prefixes[h].s, name, l)))
				h = (h + 1) & (cap - 1);
			ctx->side_prefixes[h].s = name;
			ctx->side_prefixes[h].len = l;
		}
	}
	ctx->nside_prefixes_for = ctx->nside_global;
}

int ch_sidecar_hint_tag(ch_ctx *ctx, const char *tag)
{
	size_t l, h;
	if (!ctx->nside_global || !tag)
		return 0;
	if (ctx->nside_prefixes_for != ctx->nside_global)
		build_prefixes(ctx);
	l = strlen(tag);
	for (h = prefix_hash(tag, l) & (ctx->cap_side_prefixes - 1); ctx->side_prefixes[h].s;
	     h = (h + 1) & (ctx->cap_side_prefixes - 1))
		if (ctx->side_prefixes[h].len == l && !memcmp(ctx->side_prefixes[h].s, tag, l))
			return 1;
	return 0;
}

void ch_sidecar_hint_member(ch_ctx *ctx, const char *tag, const char *member)
{
	struct ch_sidecar_entry *e;
	char key[512];
	size_t tl;
	if (!ctx->nside_global || !tag || !member ||
	    (size_t)snprintf(key, sizeof(key), "%s%s=", tag, member) >= sizeof(key))
		return;
	e = find_entry(ctx, key, NULL);
	tl = strlen(tag);
	/* the longest tag wins: "a_bc" read as a_b.c over a.bc */
	if (e && (!e->hint || strchr(e->hint, '.') - e->hint < (ptrdiff_t)tl))
		e->hint = ch_printf(ctx, "%s.%s", tag, member);
}

static void hint_members(ch_ctx *ctx, const char *tag, const struct ch_type *t, int depth)
{
	size_t i;
	if (!t || depth > 16)
		return;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (m->name)
			ch_sidecar_hint_member(ctx, tag, m->name);
		else
			hint_members(ctx, tag, m->type, depth + 1);
	}
}

void ch_sidecar_hint_type(ch_ctx *ctx, const struct ch_type *t)
{
	if (t && t->name && ch_sidecar_hint_tag(ctx, t->name))
		hint_members(ctx, t->name, t, 0);
}

size_t ch_sidecar_global_count(const ch_ctx *ctx)
{
	return ctx->nside_global;
}

const char *ch_sidecar_global_hint(ch_ctx *ctx, const char *name)
{
	const struct ch_sidecar_entry *e;
	char key[512];
	if (!name || !ctx->nside_global || (size_t)snprintf(key, sizeof(key), "%s=", name) >= sizeof(key))
		return NULL;
	e = find_entry(ctx, key, NULL);
	return e ? e->hint : NULL;
}
