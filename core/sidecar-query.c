/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sidecar-query.c -- what the sidecar says (syntax and storage:
 * core/sidecar.c): the class of a struct's field, by name or along the
 * struct's chain of entries, member paths, kernel groups' classes,
 * per-thread, owned and addressable entries, global variables and the
 * hints for names that miss, and the entries no struct matched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

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
	e = ch_sidecar_find_entry(ctx, type_name, field);
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
	const struct ch_side_type *t = type ? ch_sidecar_find_type(ctx, type) : NULL;
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
	const struct ch_side_type *t = type_name ? ch_sidecar_find_type(ctx, type_name) : NULL;
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
	struct ch_sidecar_entry *e = type_name && field ? ch_sidecar_find_entry(ctx, type_name, field) : NULL;
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
	e = ch_sidecar_find_entry(ctx, type_name, key);
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
	e = ch_sidecar_find_entry(ctx, key, NULL);
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
	return ch_sidecar_find_type(ctx, key) != NULL;
}

int ch_sidecar_owned(ch_ctx *ctx, const char *type_name)
{
	struct ch_sidecar_entry *e;
	/* asked for every struct instance a judged struct holds: one
	 * counter settles a sidecar without "STRUCT owned" lines (entries
	 * still to be parsed from an index may be such lines) */
	if (!ctx->nside_pending && !ctx->nside_owned)
		return 0;
	e = type_name && ch_sidecar_count(ctx) ? ch_sidecar_find_entry(ctx, type_name, "") : NULL;
	if (!e)
		return 0;
	e->matched = 1;
	return 1;
}

int ch_sidecar_addressable(ch_ctx *ctx, const char *func)
{
	struct ch_sidecar_entry *e = func ? ch_sidecar_find_entry(ctx, func, NULL) : NULL;
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
	const struct ch_side_type *t = type_name ? ch_sidecar_find_type(ctx, type_name) : NULL;
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
	st = ch_sidecar_find_type(ctx, t->name);
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
	e = ch_sidecar_find_entry(ctx, key, NULL);
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

struct prefix_key { const char *s; size_t len; };

static int prefix_is(size_t item, const void *key, const void *arg)
{
	const struct ch_name_prefix *p = &((const ch_ctx *)arg)->side_prefixes[item];
	const struct prefix_key *k = (const struct prefix_key *)key;
	return p->len == k->len && !memcmp(p->s, k->s, k->len);
}

static uint64_t prefix_rehash(size_t item, const void *arg)
{
	const struct ch_name_prefix *p = &((const ch_ctx *)arg)->side_prefixes[item];
	return ch_hash_bytes(p->s, p->len);
}

/* The prefix table for the variable lines loaded so far: each proper prefix
 * of their names once. */
static void build_prefixes(ch_ctx *ctx)
{
	size_t i;
	ch_index_free(&ctx->side_prefix_idx);
	ctx->nside_prefixes = 0;
	for (i = 0; i < ctx->nside; i++) {
		const char *name = ctx->side[i].type;   /* "NAME=" */
		size_t l, n;
		if (!ctx->side[i].global)
			continue;
		n = strlen(name) - 1;
		for (l = 1; l < n; l++) {
			struct prefix_key k = { name, l };
			uint64_t h = ch_hash_bytes(name, l);
			if (ch_index_find(&ctx->side_prefix_idx, h, prefix_is, &k, ctx) != CH_INDEX_NONE)
				continue;
			CH_GROW(ctx->side_prefixes, ctx->nside_prefixes, ctx->cap_side_prefixes, 64);
			ctx->side_prefixes[ctx->nside_prefixes].s = name;
			ctx->side_prefixes[ctx->nside_prefixes].len = l;
			ch_index_add(&ctx->side_prefix_idx, ctx->nside_prefixes++, h, prefix_rehash, ctx);
		}
	}
	ctx->nside_prefixes_for = ctx->nside_global;
}

int ch_sidecar_hint_tag(ch_ctx *ctx, const char *tag)
{
	struct prefix_key k;
	if (!ctx->nside_global || !tag)
		return 0;
	if (ctx->nside_prefixes_for != ctx->nside_global)
		build_prefixes(ctx);
	k.s = tag;
	k.len = strlen(tag);
	return ch_index_find(&ctx->side_prefix_idx, ch_hash_bytes(tag, k.len), prefix_is, &k,
			     ctx) != CH_INDEX_NONE;
}

void ch_sidecar_hint_member(ch_ctx *ctx, const char *tag, const char *member)
{
	struct ch_sidecar_entry *e;
	char key[512];
	size_t tl;
	if (!ctx->nside_global || !tag || !member ||
	    (size_t)snprintf(key, sizeof(key), "%s%s=", tag, member) >= sizeof(key))
		return;
	e = ch_sidecar_find_entry(ctx, key, NULL);
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
	e = ch_sidecar_find_entry(ctx, key, NULL);
	return e ? e->hint : NULL;
}
