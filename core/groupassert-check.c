/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groupassert-check.c -- [cachehot-group-assert]: the asserts read by
 * groupassert.c against the groups of a real layout (core/groups.c), and
 * the paste-ready block of asserts for a struct. Rules: docs/kernel-groups.md.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "cachehot-groupassert.h"
#include "cachehot-netcl.h"

static const char *tword(ch_ctx *ctx, const struct ch_type *t)
{
	return t->name_is_typedef ? t->name
				  : ch_printf(ctx, "%s %s", t->is_union ? "union" : "struct", t->name);
}

static const struct ch_group *group_named(const struct ch_groups *gs, const char *name)
{
	size_t i;
	for (i = 0; i < gs->n; i++)
		if (!strcmp(gs->v[i].name, name))
			return &gs->v[i];
	return NULL;
}

/* Member path "a.b" (through anonymous aggregates): absolute offset. */
static const struct ch_member *find_path(const struct ch_type *t, const char *path,
					 uint64_t *off)
{
	char head[256];
	const char *dot;
	const struct ch_member *m = NULL;
	uint64_t o;
	*off = 0;
	while (t) {
		size_t l;
		dot = strchr(path, '.');
		l = dot ? (size_t)(dot - path) : strlen(path);
		if (l >= sizeof(head))
			return NULL;
		memcpy(head, path, l);
		head[l] = 0;
		m = ch_member_find(t, head, &o);
		if (!m)
			return NULL;
		*off += o;
		if (!dot)
			return m;
		t = m->type;
		path = dot + 1;
	}
	return NULL;
}

struct key { const char *group, *member; size_t idx; };

static int by_key(const void *a, const void *b)
{
	const struct key *x = (const struct key *)a, *y = (const struct key *)b;
	int c = strcmp(x->group, y->group);
	if (c)
		return c;
	c = strcmp(x->member, y->member);
	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int asserted(const struct key *k, size_t n, const char *group, const char *member)
{
	size_t lo = 0, hi = n;
	struct key q;
	q.group = group;
	q.member = member;
	q.idx = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (by_key(&k[mid], &q) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(k[lo].group, group) && !strcmp(k[lo].member, member);
}

struct gctx {
	ch_ctx *ctx;
	const struct ch_config *cfg;
	struct ch_type *t;
	ch_emit_fn emit;
	void *arg;
	int warnings;
};

/* ident: what the finding is about, beyond field (its record's key): one
 * assert ("size:G", "member:G:M"), a repeated one ("repeat:G:M"), or a
 * missing one ("no-member-assert:G:M", "no-size-assert:G"). */
static void put(struct gctx *g, enum ch_severity sev, const char *field, uint64_t off,
		uint64_t size, struct ch_loc loc, const char *ident, const char *msg)
{
	struct ch_finding f;
	memset(&f, 0, sizeof(f));
	f.check = CH_CHECK_GROUP_ASSERT;
	f.severity = sev == CH_SEV_WARNING ? g->cfg->severity : sev;
	f.struct_name = g->t->name;
	f.field_a = field;
	f.offset_a = off;
	f.size_a = size;
	f.line_size = ch_config_line_size(g->cfg);
	f.line_index = off / f.line_size;
	f.loc = loc;
	f.ident = ident;
	f.message = ch_printf(g->ctx, "%s [%s]", msg, ch_check_id(CH_CHECK_GROUP_ASSERT));
	if (f.severity >= CH_SEV_WARNING)
		g->warnings++;
	g->emit(&f, g->arg);
}

static const char *span(ch_ctx *ctx, const struct ch_group *gr, unsigned ls)
{
	uint64_t size = gr->end - gr->begin;
	if (!size)
		return ch_printf(ctx, "offsets %llu..%llu", (unsigned long long)gr->begin,
				 (unsigned long long)gr->end);
	return ch_printf(ctx, "offsets %llu..%llu, cache line%s %llu%s", (unsigned long long)gr->begin,
			 (unsigned long long)gr->end,
			 (gr->end - 1) / ls != gr->begin / ls ? "s" : "",
			 (unsigned long long)(gr->begin / ls),
			 (gr->end - 1) / ls != gr->begin / ls
			 ? ch_printf(ctx, "-%llu", (unsigned long long)((gr->end - 1) / ls)) : "");
}

/* 1 if a named member inside anonymous aggregate type t (recursively) is
 * asserted in group g; *first: its first named member that offsetof() can
 * name, *names: them all, for the message. */
static int any_asserted(ch_ctx *ctx, const struct key *k, size_t nk, const char *g,
			const struct ch_type *t, const char **first, const char **names, int depth)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (!m->name) {
			if (m->type && depth < 64 &&
			    any_asserted(ctx, k, nk, g, m->type, first, names, depth + 1))
				return 1;
			continue;
		}
		if (asserted(k, nk, g, m->name))
			return 1;
		if (!*first && !m->bit_size)
			*first = m->name;
		*names = **names ? ch_printf(ctx, "%s, '%s'", *names, m->name)
				 : ch_printf(ctx, "'%s'", m->name);
	}
	return 0;
}

/* A group member without a MEMBER assert. An anonymous struct or union lies
 * whole between the group's markers (they are its siblings): one asserted
 * member inside covers it. Bit-fields cannot be asserted. */
static void unasserted(struct gctx *g, const struct key *k, size_t nk, const struct ch_group *gr,
		       const struct ch_member *m, const struct ch_loc *where)
{
	const char *tw = tword(g->ctx, g->t), *name = m->name, *what;
	struct ch_loc loc = m->loc;
	const char *at = where ? ch_printf(g->ctx, " next to the group's asserts (%s:%u)",
					   where->file, where->line) : "";
	if (!m->name) {
		const char *first = NULL, *names = "";
		if (!m->type || any_asserted(g->ctx, k, nk, gr->name, m->type, &first, &names, 0) ||
		    !first)
			return;
		name = first;
		if (!loc.file) {   /* the reader gave the anonymous member no position */
			uint64_t o;
			const struct ch_member *fm = ch_member_find(m->type, first, &o);
			if (fm)
				loc = fm->loc;
		}
		what = ch_printf(g->ctx, "the anonymous %s (offset %llu, size %llu: %s)",
				 m->type->is_union ? "union" : "struct",
				 (unsigned long long)m->offset, (unsigned long long)m->size, names);
	} else {
		if (m->bit_size || ch_marker_kind(m->name, NULL) != CH_MARKER_NONE ||
		    asserted(k, nk, gr->name, m->name))
			return;
		what = ch_printf(g->ctx, "member '%s' (offset %llu, size %llu)", m->name,
				 (unsigned long long)m->offset, (unsigned long long)m->size);
	}
	put(g, CH_SEV_WARNING, name, m->offset, m->size, loc,
	    ch_printf(g->ctx, "no-member-assert:%s:%s", gr->name, name),
	    ch_printf(g->ctx, "%s of group '%s' of '%s' has no CACHELINE_ASSERT_GROUP_MEMBER; "
		      "add CACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s)%s", what, gr->name, tw, tw,
		      gr->name, name, at));
}

int ch_group_assert_check(ch_ctx *ctx, const ch_asserts *a, struct ch_type *t,
			  const struct ch_config *cfg, ch_emit_fn emit, void *arg)
{
	struct gctx g = { ctx, cfg, t, emit, arg, 0 };
	const struct ch_groups *gs;
	unsigned ls = ch_config_line_size(cfg);
	size_t i, j, n = ch_asserts_count(a), nk = 0;
	struct key *k;
	const char *tw, *ident;

	if (!t->name || !ch_asserts_names_type(a, t->name))
		return 0;
	gs = ch_type_groups(ctx, t);
	tw = tword(ctx, t);
	k = (struct key *)calloc(n + 1, sizeof(*k));
	if (!k)
		abort();
	for (i = 0; i < n; i++) {
		const struct ch_group_assert *x = ch_asserts_get(a, i);
		const struct ch_group *gr;
		if (strcmp(x->type_name, t->name))
			continue;
		gr = group_named(gs, x->group);
		ident = x->kind == CH_ASSERT_SIZE ? ch_printf(ctx, "size:%s", x->group)
						  : ch_printf(ctx, "member:%s:%s", x->group, x->member);
		if (!gr) {
			put(&g, CH_SEV_WARNING, NULL, 0, 0, x->loc, ident, ch_printf(ctx,
			    "CACHELINE_ASSERT_GROUP_%s(%s, %s, %s) names no cacheline group of '%s' "
			    "(%zu group%s); remove it or restore __cacheline_group_begin/end(%s)",
			    x->kind == CH_ASSERT_SIZE ? "SIZE" : "MEMBER", tw, x->group,
			    x->kind == CH_ASSERT_SIZE ? x->size_text : x->member, tw, gs->n,
			    gs->n == 1 ? "" : "s", x->group));
			continue;
		}
		if (x->kind == CH_ASSERT_SIZE) {
			uint64_t size = gr->end - gr->begin;
			if (!x->size_known)
				put(&g, CH_SEV_NOTE, NULL, gr->begin, size, x->loc, ident, ch_printf(ctx,
				    "the bound of CACHELINE_ASSERT_GROUP_SIZE(%s, %s, %s) expands to "
				    "'%s', which cachehot cannot evaluate; group '%s' is %llu bytes (%s)",
				    tw, x->group, x->size_text, x->size_expr, x->group,
				    (unsigned long long)size, span(ctx, gr, ls)));
			else if (size > x->size)
				put(&g, CH_SEV_WARNING, NULL, gr->begin, size, x->loc, ident, ch_printf(ctx,
				    "CACHELINE_ASSERT_GROUP_SIZE(%s, %s, %s) no longer holds: group '%s' "
				    "is %llu bytes (%s), %llu more than the bound; move fields out of the "
				    "group or raise the bound to %llu", tw, x->group, x->size_text,
				    x->group, (unsigned long long)size, span(ctx, gr, ls),
				    (unsigned long long)(size - x->size), (unsigned long long)size));
			else if (size < x->size)
				put(&g, CH_SEV_NOTE, NULL, gr->begin, size, x->loc, ident, ch_printf(ctx,
				    "CACHELINE_ASSERT_GROUP_SIZE(%s, %s, %s) has %llu bytes of slack: "
				    "group '%s' is %llu bytes (%s); tighten the bound to %llu", tw,
				    x->group, x->size_text, (unsigned long long)(x->size - size),
				    x->group, (unsigned long long)size, span(ctx, gr, ls),
				    (unsigned long long)size));
		} else {
			uint64_t off;
			const struct ch_member *m = find_path(t, x->member, &off);
			k[nk].group = x->group;
			k[nk].member = x->member;
			k[nk++].idx = i;
			if (!m)
				put(&g, CH_SEV_WARNING, NULL, 0, 0, x->loc, ident, ch_printf(ctx,
				    "CACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s) names no member of '%s'; "
				    "remove it or rename it to the member's current name", tw, x->group,
				    x->member, tw));
			else if (off < gr->begin || off + m->size > gr->end) {
				const struct ch_group *in = NULL;
				for (j = 0; j < gs->n; j++)
					if (off >= gs->v[j].begin && off + m->size <= gs->v[j].end)
						in = &gs->v[j];
				put(&g, CH_SEV_WARNING, x->member, off, m->size, x->loc, ident, ch_printf(ctx,
				    "CACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s) no longer holds: '%s' "
				    "(offset %llu, size %llu) lies outside group '%s' (%s); %s", tw,
				    x->group, x->member, x->member, (unsigned long long)off,
				    (unsigned long long)m->size, x->group, span(ctx, gr, ls),
				    in ? ch_printf(ctx, "it is in group '%s' now: move it back or "
						   "assert it there", in->name)
				       : "move it back into the group"));
			}
		}
	}
	qsort(k, nk, sizeof(*k), by_key);
	for (i = 1; i < nk; i++)
		if (!strcmp(k[i].group, k[i - 1].group) && !strcmp(k[i].member, k[i - 1].member)) {
			const struct ch_group_assert *x = ch_asserts_get(a, k[i].idx);
			const struct ch_group_assert *first = ch_asserts_get(a, k[i - 1].idx);
			put(&g, CH_SEV_NOTE, x->member, 0, 0, x->loc,
			    ch_printf(ctx, "repeat:%s:%s", x->group, x->member), ch_printf(ctx,
			    "CACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s) repeats the assert at %s:%u; "
			    "remove one", tw, x->group, x->member, first->loc.file, first->loc.line));
		}
	for (i = 0; i < gs->n; i++) {
		const struct ch_group *gr = &gs->v[i];
		const struct ch_loc *where = NULL;
		int has_size = 0;
		for (j = 0; j < n; j++) {
			const struct ch_group_assert *x = ch_asserts_get(a, j);
			if (strcmp(x->type_name, t->name) || strcmp(x->group, gr->name))
				continue;
			if (!where)
				where = &x->loc;
			has_size |= x->kind == CH_ASSERT_SIZE;
		}
		for (j = 0; j < gr->nmembers; j++)
			unasserted(&g, k, nk, gr, gr->members[j], where);
		if (!has_size)
			put(&g, CH_SEV_WARNING, gr->name, gr->begin, gr->end - gr->begin,
			    gr->begin_m->loc, ch_printf(ctx, "no-size-assert:%s", gr->name),
			    ch_printf(ctx, "group '%s' of '%s' (%s, %llu bytes) has "
			    "no CACHELINE_ASSERT_GROUP_SIZE; add CACHELINE_ASSERT_GROUP_SIZE(%s, %s, "
			    "%llu)", gr->name, tw, span(ctx, gr, ls),
			    (unsigned long long)(gr->end - gr->begin), tw, gr->name,
			    (unsigned long long)(gr->end - gr->begin)));
	}
	free(k);
	return g.warnings;
}

/* ---- the block --------------------------------------------------------------- */
struct buf { char *s; size_t n, cap; };

static void bput(struct buf *b, const char *s)
{
	size_t l = strlen(s);
	if (b->n + l + 1 > b->cap) {
		b->cap = 2 * (b->n + l + 1);
		b->s = (char *)ch_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, l + 1);
	b->n += l;
}

static void member_lines(ch_ctx *ctx, struct buf *b, const char *tw, const struct ch_group *gr,
			 const struct ch_member *m, int depth)
{
	size_t i;
	if (!m->name) {
		if (m->type && depth < 64)
			for (i = 0; i < m->type->nmembers; i++)
				member_lines(ctx, b, tw, gr, &m->type->members[i], depth + 1);
		return;
	}
	if (ch_marker_kind(m->name, NULL) != CH_MARKER_NONE)
		return;
	if (m->bit_size)
		bput(b, ch_printf(ctx, "\t/* %s: a bit-field, which offsetof() cannot name */\n",
				  m->name));
	else
		bput(b, ch_printf(ctx, "\tCACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s);\n", tw,
				  gr->name, m->name));
}

const char *ch_group_asserts_block(ch_ctx *ctx, struct ch_type *t)
{
	const struct ch_groups *gs = ch_type_groups(ctx, t);
	struct buf b = { NULL, 0, 0 };
	const char *tw, *out;
	size_t i, j;
	if (!t->name) {
		ch_set_error(ctx, "an anonymous type has no name for the asserts");
		return NULL;
	}
	if (gs->nproblems) {
		/* a block without the broken groups would pass while they are
		 * unchecked: say what is wrong instead */
		const char *m = gs->problems[0].message;
		const char *id = strrchr(m, '[');
		ch_set_error(ctx, "%s %s: %.*s%s", t->is_union ? "union" : "struct", t->name,
			     (int)(id && id > m ? id - 1 - m : (int)strlen(m)), m,
			     gs->nproblems > 1 ? ch_printf(ctx, " (and %zu more marker problem%s: "
							   "cachehot-layout --groups lists them)",
							   gs->nproblems - 1,
							   gs->nproblems > 2 ? "s" : "") : "");
		return NULL;
	}
	if (!gs->n) {
		ch_set_error(ctx, "%s %s has no cacheline groups (__cacheline_group_begin/end)",
			     t->is_union ? "union" : "struct", t->name);
		return NULL;
	}
	tw = tword(ctx, t);
	bput(&b, "");
	for (i = 0; i < gs->n; i++) {
		const struct ch_group *gr = &gs->v[i];
		if (i)
			bput(&b, "\n");
		for (j = 0; j < gr->nmembers; j++)
			member_lines(ctx, &b, tw, gr, gr->members[j], 0);
		bput(&b, ch_printf(ctx, "\tCACHELINE_ASSERT_GROUP_SIZE(%s, %s, %llu);\n", tw,
				   gr->name, (unsigned long long)(gr->end - gr->begin)));
	}
	out = ch_strdup(ctx, b.s);
	free(b.s);
	return out;
}
