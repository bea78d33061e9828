/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netcl-check.c -- the net_cachelines tables against a real layout: the
 * locality table (the 2023 analysis's columns), drift, and cross-path false
 * sharing. Rules: docs/net-cachelines.md.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "cachehot-netcl.h"

static const char *const path_names[] = { "tx", "rx", "any" };

const struct ch_member *ch_member_find(const struct ch_type *t, const char *name,
				       uint64_t *offset)
{
	size_t i;
	if (!t)
		return NULL;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (m->name && !strcmp(m->name, name)) {
			*offset = m->offset;
			return m;
		}
	}
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i], *r;
		uint64_t off;
		if (m->name || !m->type || m->nelems != 1)
			continue;
		r = ch_member_find(m->type, name, &off);
		if (r) {
			*offset = m->offset + off;
			return r;
		}
	}
	return NULL;
}

/* The members of a struct by name (through anonymous aggregates), sorted:
 * lookups in O(log n), so tables and structs of any size stay n log n. */
struct mname { const char *name; const struct ch_member *m; uint64_t off; };
struct mindex { struct mname *v; size_t n, cap; };

static void index_add(struct mindex *x, const struct ch_type *t, uint64_t base, int depth)
{
	size_t i;
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		if (!m->name) {
			if (m->type && m->nelems == 1 && depth < 64)
				index_add(x, m->type, base + m->offset, depth + 1);
			continue;
		}
		CH_GROW(x->v, x->n, x->cap, 64);
		x->v[x->n].name = m->name;
		x->v[x->n].m = m;
		x->v[x->n++].off = base + m->offset;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct mname *)a)->name, ((const struct mname *)b)->name);
}

static void index_build(struct mindex *x, const struct ch_type *t)
{
	memset(x, 0, sizeof(*x));
	index_add(x, t, 0, 0);
	if (x->n)
		qsort(x->v, x->n, sizeof(*x->v), by_name);
}

static const struct ch_member *index_find(const struct mindex *x, const char *name,
					  uint64_t *off)
{
	struct mname key, *r;
	key.name = name;
	r = x->n ? (struct mname *)bsearch(&key, x->v, x->n, sizeof(*x->v), by_name) : NULL;
	if (!r)
		return NULL;
	*off = r->off;
	return r->m;
}

/* A member path "icsk_ack.pending": the first name through the index, the
 * rest through the nested types. */
static const struct ch_member *find_path(const struct mindex *x, const char *path,
					 uint64_t *off)
{
	const char *dot = strchr(path, '.');
	const struct ch_member *m;
	char head[256];
	if (!dot)
		return index_find(x, path, off);
	if ((size_t)(dot - path) >= sizeof(head))
		return NULL;
	memcpy(head, path, (size_t)(dot - path));
	head[dot - path] = 0;
	m = index_find(x, head, off);
	while (m && dot) {
		const char *next = strchr(dot + 1, '.');
		uint64_t o;
		size_t l = next ? (size_t)(next - dot - 1) : strlen(dot + 1);
		if (!m->type || l >= sizeof(head))
			return NULL;
		memcpy(head, dot + 1, l);
		head[l] = 0;
		m = ch_member_find(m->type, head, &o);
		if (m)
			*off += o;
		dot = next;
	}
	return m;
}

/* One row resolved against the layout. */
struct fld {
	const struct ch_netcl_row *row;
	const struct ch_member *m;
	uint64_t off, size;       /* bytes; size 0: zero-size member */
};

static int by_off(const void *a, const void *b)
{
	const struct fld *x = (const struct fld *)a, *y = (const struct fld *)b;
	return x->off < y->off ? -1 : x->off > y->off ? 1 : 0;
}

/* The rows of struct t that name a member, in offset order; *n, *missing. */
static struct fld *resolve(const ch_netcl *tab, const struct ch_type *t,
			   const struct mindex *x, size_t *n)
{
	const size_t *idx;
	size_t i, k = 0, cnt = ch_netcl_type_rows(tab, t->name, &idx);
	struct fld *v = (struct fld *)calloc(cnt + 1, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < cnt; i++) {
		const struct ch_netcl_row *r = ch_netcl_row(tab, idx[i]);
		const struct ch_member *m;
		uint64_t off;
		m = find_path(x, r->field, &off);
		if (!m)
			continue;
		v[k].row = r;
		v[k].m = m;
		v[k].off = off;
		v[k].size = m->flexible ? 0 : m->size;
		if (m->bit_size) {   /* the bytes its bits touch */
			v[k].off = off + m->bit_offset / 8;
			v[k].size = (m->bit_offset % 8 + m->bit_size + 7) / 8;
		}
		k++;
	}
	qsort(v, k, sizeof(*v), by_off);
	*n = k;
	return v;
}

/* The access a locality row counts: the path's, or for CH_NC_ANY the
 * stronger of the two (written beats read). */
static enum ch_access acc_on(const struct ch_netcl_row *r, enum ch_nc_path path)
{
	if (path != CH_NC_ANY)
		return r->acc[path];
	if (ch_access_written(r->acc[0]))
		return r->acc[0];
	if (ch_access_written(r->acc[1]) || ch_access_on_path(r->acc[1]))
		return r->acc[1];
	return r->acc[0];
}

void ch_netcl_locality(const ch_netcl *tab, const struct ch_type *t, enum ch_nc_path path,
		       const struct ch_config *cfg, struct ch_locality *loc)
{
	unsigned ls = ch_config_line_size(cfg);
	const size_t *idx;
	size_t n, i, cnt = ch_netcl_type_rows(tab, t->name, &idx);
	struct mindex x;
	struct fld *v;
	uint64_t end = 0, wend = 0, last_line = UINT64_MAX;
	int any = 0;

	index_build(&x, t);
	v = resolve(tab, t, &x, &n);
	memset(loc, 0, sizeof(*loc));
	loc->type_name = t->name;
	loc->path = path;
	loc->line_size = ls;
	loc->type_size = t->size;
	for (i = 0; i < cnt; i++) {
		const struct ch_netcl_row *r = ch_netcl_row(tab, idx[i]);
		uint64_t off;
		if (ch_access_on_path(acc_on(r, path)) &&
		    !find_path(&x, r->field, &off))
			loc->unresolved++;
	}
	/* v is in offset order: the union of ranges is a sweep */
	for (i = 0; i < n; i++) {
		const struct fld *f = &v[i];
		uint64_t s = f->off, e = f->off + f->size, l;
		if (!ch_access_on_path(acc_on(f->row, path)))
			continue;
		loc->fields++;
		if (ch_access_written(acc_on(f->row, path))) {
			loc->written++;
			/* written bytes: v is sorted by start, so a sweep works too */
			if (e > wend) {
				loc->bytes_written += e - (s > wend ? s : wend);
				wend = e;
			}
		}
		if (!f->size)
			continue;
		if (e > end) {
			loc->bytes += e - (s > end ? s : end);
			end = e;
		}
		for (l = s / ls; l <= (e - 1) / ls; l++) {
			if (last_line != UINT64_MAX && l <= last_line)
				continue;
			if (!any)
				loc->first_line = l;
			any = 1;
			loc->lines++;
			last_line = l;
		}
	}
	loc->last_line = any ? last_line : 0;
	loc->min_lines = (loc->bytes + ls - 1) / ls;
	free(v);
	free(x.v);
}

int ch_netcl_locality_print(const struct ch_locality *v, size_t n, int json, FILE *out)
{
	size_t i;
	if (json) {
		json_t *a = json_array();
		char *s;
		for (i = 0; i < n; i++) {
			json_t *o = json_object();
			json_object_set_new(o, "struct", json_string(v[i].type_name));
			json_object_set_new(o, "path", json_string(path_names[v[i].path]));
			json_object_set_new(o, "line_size", json_integer(v[i].line_size));
			json_object_set_new(o, "struct_size", json_integer((json_int_t)v[i].type_size));
			json_object_set_new(o, "fields", json_integer((json_int_t)v[i].fields));
			json_object_set_new(o, "written_fields", json_integer((json_int_t)v[i].written));
			json_object_set_new(o, "rows_naming_no_member",
					    json_integer((json_int_t)v[i].unresolved));
			json_object_set_new(o, "bytes", json_integer((json_int_t)v[i].bytes));
			json_object_set_new(o, "bytes_written", json_integer((json_int_t)v[i].bytes_written));
			json_object_set_new(o, "lines", json_integer((json_int_t)v[i].lines));
			json_object_set_new(o, "min_lines", json_integer((json_int_t)v[i].min_lines));
			json_object_set_new(o, "first_line", json_integer((json_int_t)v[i].first_line));
			json_object_set_new(o, "last_line", json_integer((json_int_t)v[i].last_line));
			json_array_append_new(a, o);
		}
		s = json_dumps(a, JSON_INDENT(2));
		json_decref(a);
		if (!s)
			return -1;
		fprintf(out, "%s\n", s);
		free(s);
	} else {
		fprintf(out, "%-20s %-4s %6s %8s %6s %13s %6s %8s %10s %s\n", "struct", "path",
			"fields", "(written)", "bytes", "(written)", "lines", "minimum", "line span",
			"no member");
		for (i = 0; i < n; i++) {
			char span[48];
			if (v[i].lines)
				snprintf(span, sizeof(span), "%llu-%llu",
					 (unsigned long long)v[i].first_line,
					 (unsigned long long)v[i].last_line);
			else
				snprintf(span, sizeof(span), "-");
			fprintf(out, "%-20s %-4s %6zu %8zu %6llu %13llu %6llu %8llu %10s %zu\n",
				v[i].type_name ? v[i].type_name : "?", path_names[v[i].path],
				v[i].fields, v[i].written, (unsigned long long)v[i].bytes,
				(unsigned long long)v[i].bytes_written,
				(unsigned long long)v[i].lines, (unsigned long long)v[i].min_lines,
				span, v[i].unresolved);
		}
		if (n)
			fprintf(out, "(%u-byte lines; bytes: union of the fields' byte ranges; "
				"minimum: ceil(bytes / line size))\n", v[0].line_size);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- findings -------------------------------------------------------------- */
struct emitter {
	ch_ctx *ctx;
	const struct ch_config *cfg;
	const struct ch_type *t;
	ch_emit_fn emit;
	void *arg;
	int warnings;
};

static void put(struct emitter *e, struct ch_finding *f)
{
	f->struct_name = e->t->name;
	f->line_size = ch_config_line_size(e->cfg);
	if (f->severity >= CH_SEV_WARNING)
		e->warnings++;
	e->emit(f, e->arg);
}

/* The RST row a finding about a row points at: from=FILE:LINE, else the row. */
static struct ch_loc row_loc(ch_ctx *ctx, const struct ch_netcl_row *r)
{
	struct ch_loc l;
	const char *colon = r->from ? strrchr(r->from, ':') : NULL;
	memset(&l, 0, sizeof(l));
	if (colon && colon[1]) {
		l.file = ch_printf(ctx, "%.*s", (int)(colon - r->from), r->from);
		l.line = (unsigned)strtoul(colon + 1, NULL, 10);
	} else {
		l.file = r->file;
		l.line = r->line;
	}
	l.col = l.line ? 1 : 0;
	return l;
}

static int is_marker(const char *name)
{
	return !strncmp(name, "__cacheline_group_", 18);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted field names of the rows of struct tname (malloc'd). */
static const char **row_names(const ch_netcl *tab, const char *tname, size_t *n)
{
	const size_t *idx;
	size_t i, k = 0, cnt = ch_netcl_type_rows(tab, tname, &idx);
	const char **v = (const char **)calloc(cnt + 1, sizeof(char *));
	if (!v)
		abort();
	for (i = 0; i < cnt; i++)
		v[k++] = ch_netcl_row(tab, idx[i])->field;
	qsort(v, k, sizeof(*v), by_str);
	*n = k;
	return v;
}

/* 1 if a row names member name or a field inside it ("name.x"). */
static int row_covers(const char **rows, size_t n, const char *name)
{
	size_t lo = 0, hi = n, l = strlen(name);
	while (lo < hi) {   /* first row >= name */
		size_t mid = (lo + hi) / 2;
		if (strcmp(rows[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && !strncmp(rows[lo], name, l); lo++)
		if (!rows[lo][l] || rows[lo][l] == '.')
			return 1;
	return 0;
}

/* Members of t (through anonymous aggregates) that have no row. */
static void missing_members(struct emitter *e, const char **rows, size_t nrows,
			    const struct ch_type *t, uint64_t base, const char *table_file, int depth)
{
	size_t i;
	unsigned ls = ch_config_line_size(e->cfg);
	for (i = 0; i < t->nmembers; i++) {
		const struct ch_member *m = &t->members[i];
		struct ch_finding f;
		if (!m->name) {
			if (m->type && m->nelems == 1 && depth < 64)
				missing_members(e, rows, nrows, m->type, base + m->offset, table_file,
						depth + 1);
			continue;
		}
		if (is_marker(m->name) || (!m->size && !m->flexible) ||
		    row_covers(rows, nrows, m->name))
			continue;
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_NET_CACHELINES;
		f.severity = CH_SEV_NOTE;
		f.field_a = m->name;
		f.offset_a = base + m->offset;
		f.size_a = m->size;
		f.line_index = f.offset_a / ls;
		f.loc = m->loc;
		f.message = ch_printf(e->ctx, "member '%s' (offset %llu, size %llu, cache line %llu) "
				      "of 'struct %s' has no row in the net_cachelines table; add "
				      "'%s' with its tx/rx access to %s [%s]", m->name,
				      (unsigned long long)f.offset_a, (unsigned long long)m->size,
				      (unsigned long long)f.line_index, e->t->name, m->name,
				      table_file, ch_check_id(CH_CHECK_NET_CACHELINES));
		put(e, &f);
	}
}

/* One entry per (cache line, field) a field touches. */
struct touch { uint64_t line; size_t fi; };

static int by_line(const void *a, const void *b)
{
	const struct touch *x = (const struct touch *)a, *y = (const struct touch *)b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->fi < y->fi ? -1 : x->fi > y->fi ? 1 : 0;
}

static int read_mostly_only(const struct ch_netcl_row *r, int path)
{
	return r->acc[path] == CH_ACC_READ_MOSTLY && !ch_access_written(r->acc[!path]);
}

#define MAX_NAMED 4

static void cross_path(struct emitter *e, const struct fld *v, size_t n)
{
	unsigned ls = ch_config_line_size(e->cfg);
	struct touch *tv;
	size_t nt = 0, cap = 0, i, j, a, b;

	for (i = 0; i < n; i++)
		if (v[i].size)
			cap += (v[i].off + v[i].size - 1) / ls - v[i].off / ls + 1;
	tv = (struct touch *)calloc(cap + 1, sizeof(*tv));
	if (!tv)
		abort();
	for (i = 0; i < n; i++) {
		uint64_t l;
		if (!v[i].size)
			continue;
		for (l = v[i].off / ls; l <= (v[i].off + v[i].size - 1) / ls; l++) {
			tv[nt].line = l;
			tv[nt++].fi = i;
		}
	}
	qsort(tv, nt, sizeof(*tv), by_line);
	for (i = 0; i < nt; i = j) {
		for (j = i; j < nt && tv[j].line == tv[i].line; j++)
			;
		/* tv[i..j) touch one line: each field written on a path
		 * against the fields read-mostly on the other */
		for (a = i; a < j; a++) {
			const struct fld *w = &v[tv[a].fi];
			int p;
			for (p = 0; p < 2; p++) {
				const char *names = "";
				size_t cnt = 0;
				const struct fld *first = NULL;
				struct ch_finding f;
				if (!ch_access_written(w->row->acc[p]))
					continue;
				for (b = i; b < j; b++) {
					const struct fld *r = &v[tv[b].fi];
					if (r == w || !read_mostly_only(r->row, !p))
						continue;
					if (!first)
						first = r;
					if (cnt < MAX_NAMED)
						names = ch_printf(e->ctx, "%s%s'%s' (offset %llu, size %llu)",
								  names, cnt ? ", " : "", r->row->field,
								  (unsigned long long)r->off,
								  (unsigned long long)r->size);
					cnt++;
				}
				if (!cnt)
					continue;
				if (cnt > MAX_NAMED)
					names = ch_printf(e->ctx, "%s and %zu more", names, cnt - MAX_NAMED);
				memset(&f, 0, sizeof(f));
				f.check = CH_CHECK_FALSE_SHARING;
				f.severity = e->cfg->severity;
				f.field_a = w->row->field;
				f.offset_a = w->off;
				f.size_a = w->size;
				f.field_b = first->row->field;
				f.offset_b = first->off;
				f.size_b = first->size;
				f.line_index = tv[i].line;
				f.loc = w->m->loc;
				f.message = ch_printf(e->ctx, "field '%s' (offset %llu, size %llu) is "
					"written on the %s path (%s) and shares cache line %llu "
					"(%u-byte lines) of 'struct %s' with %zu field%s read-mostly on "
					"the %s path: %s; keep the %s path's written fields and the %s "
					"path's read-mostly fields on separate lines (move '%s' or the "
					"read-mostly field%s) [%s]", w->row->field,
					(unsigned long long)w->off, (unsigned long long)w->size,
					path_names[p], ch_access_name(w->row->acc[p]),
					(unsigned long long)tv[i].line, ls, e->t->name, cnt,
					cnt == 1 ? "" : "s", path_names[!p], names, path_names[p],
					path_names[!p], w->row->field, cnt == 1 ? "" : "s",
					ch_check_id(CH_CHECK_FALSE_SHARING));
				put(e, &f);
			}
		}
	}
	free(tv);
}

/* 1 if group path gp serves net_cachelines path p. */
static int group_serves(enum ch_path gp, int p)
{
	return gp == CH_PATH_TXRX || (p == CH_NC_TX ? gp == CH_PATH_TX : gp == CH_PATH_RX);
}

/* Fast-path fields outside every group of their path (structs with groups
 * only). A field sits in a group when its bytes lie between the markers. */
static void outside_groups(struct emitter *e, const struct ch_groups *gs, const struct fld *v,
			   size_t n)
{
	unsigned ls = ch_config_line_size(e->cfg);
	size_t i, j;
	int p;
	for (i = 0; i < n; i++) {
		const struct fld *f = &v[i];
		const struct ch_group *in = NULL;
		for (j = 0; j < gs->n; j++)
			if (f->off >= gs->v[j].begin && f->off + f->size <= gs->v[j].end) {
				in = &gs->v[j];
				break;
			}
		for (p = 0; p < 2; p++) {
			const struct ch_group *to = NULL;
			enum ch_class want;
			int both;
			struct ch_finding x;
			if (!ch_access_on_path(f->row->acc[p]) || (in && group_serves(in->path, p)))
				continue;
			both = ch_access_on_path(f->row->acc[!p]);
			want = ch_access_written(f->row->acc[0]) || ch_access_written(f->row->acc[1])
				? CH_CLASS_HOT : CH_CLASS_READ_MOSTLY;
			/* on both paths: a txrx group; else the path's own, then txrx */
			for (j = 0; j < gs->n && !to; j++)
				if (gs->v[j].cls == want &&
				    gs->v[j].path == (both ? CH_PATH_TXRX
						      : p == CH_NC_TX ? CH_PATH_TX : CH_PATH_RX))
					to = &gs->v[j];
			for (j = 0; j < gs->n && !to && !both; j++)
				if (group_serves(gs->v[j].path, p) && gs->v[j].cls == want)
					to = &gs->v[j];
			memset(&x, 0, sizeof(x));
			x.check = CH_CHECK_NET_CACHELINES;
			x.severity = e->cfg->severity;
			x.field_a = f->row->field;
			x.offset_a = f->off;
			x.size_a = f->size;
			x.line_index = f->off / ls;
			x.loc = f->m->loc;
			x.message = ch_printf(e->ctx, "field '%s' (offset %llu, size %llu, cache line %llu) "
				"is %s on the %s fast path (net_cachelines) but lies outside every %s "
				"group of 'struct %s' (%s); %s [%s]", f->row->field,
				(unsigned long long)f->off, (unsigned long long)f->size,
				(unsigned long long)x.line_index, ch_access_name(f->row->acc[p]),
				path_names[p], path_names[p], e->t->name,
				in ? ch_printf(e->ctx, "it is in '%s', a %s group", in->name,
					       ch_path_name(in->path)) : "it is in no group",
				to ? ch_printf(e->ctx, "move it into '%s' or correct the table", to->name)
				   : ch_printf(e->ctx, "add a %s %s group for it or correct the table",
					       want == CH_CLASS_HOT ? "written" : "read-mostly",
					       both ? "txrx" : path_names[p]),
				ch_check_id(CH_CHECK_NET_CACHELINES));
			put(e, &x);
		}
	}
}

int ch_netcl_check(ch_ctx *ctx, const ch_netcl *tab, const struct ch_type *t,
		   const struct ch_config *cfg, ch_emit_fn emit, void *arg)
{
	struct emitter e = { ctx, cfg, t, emit, arg, 0 };
	const size_t *idx;
	size_t i, n, cnt = ch_netcl_type_rows(tab, t->name, &idx);
	const char *table_file = NULL, **rows;
	struct fld *v;
	struct mindex x;

	if (!t->name || !ch_netcl_has_type(tab, t->name) || t->is_union)
		return 0;
	index_build(&x, t);
	/* rows naming no member */
	for (i = 0; i < cnt; i++) {
		const struct ch_netcl_row *r = ch_netcl_row(tab, idx[i]);
		uint64_t off;
		struct ch_finding f;
		if (!table_file) {
			struct ch_loc l = row_loc(ctx, r);
			table_file = l.file ? l.file : "the table";
		}
		if (find_path(&x, r->field, &off))
			continue;
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_NET_CACHELINES;
		f.severity = cfg->severity;
		f.field_a = r->field;
		f.loc = row_loc(ctx, r);
		f.message = ch_printf(ctx, "net_cachelines row '%s%s' (tx %s, rx %s) names no member "
				      "of 'struct %s' (size %llu); remove the row or rename it to the "
				      "member's current name [%s]", r->field, r->suffix,
				      r->acc[0] ? ch_access_name(r->acc[0]) : "empty",
				      r->acc[1] ? ch_access_name(r->acc[1]) : "empty", t->name,
				      (unsigned long long)t->size, ch_check_id(CH_CHECK_NET_CACHELINES));
		put(&e, &f);
	}
	rows = row_names(tab, t->name, &n);
	missing_members(&e, rows, n, t, 0, table_file, 0);
	free(rows);
	v = resolve(tab, t, &x, &n);
	{
		const struct ch_groups *gs = ch_type_groups(ctx, (struct ch_type *)t);
		if (gs->n)
			outside_groups(&e, gs, v, n);
	}
	cross_path(&e, v, n);
	free(v);
	free(x.v);
	return e.warnings;
}
