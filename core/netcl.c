/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netcl.c -- reading and writing the net_cachelines tables: the kernel's
 * RST (Documentation/networking/net_cachelines/NAME.rst) and cachehot's
 * path-aware sidecar (docs/net-cachelines.md). Checks: netcl-check.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "cachehot-netcl.h"

/* One struct of the rows: its name and its rows' indices, in table order. */
struct nc_type {
	const char *name;
	size_t *idx;            /* malloc */
	size_t n, cap;
};

struct ch_netcl {
	ch_ctx *ctx;
	struct ch_netcl_row *rows;
	size_t n, cap;
	/* the core's index: (type_name, field) -> row, type_name -> types */
	struct ch_index row_idx, type_idx;
	struct nc_type *types;
	size_t ntypes, cap_types;
};

ch_netcl *ch_netcl_new(ch_ctx *ctx)
{
	ch_netcl *t = (ch_netcl *)calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->ctx = ctx;
	return t;
}

void ch_netcl_free(ch_netcl *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->ntypes; i++)
		free(t->types[i].idx);
	free(t->types);
	ch_index_free(&t->row_idx);
	ch_index_free(&t->type_idx);
	free(t->rows);
	free(t);
}

/* ---- the index: rows by struct, and the duplicate check ------------------ */
static uint64_t row_hash(const struct ch_netcl_row *r)
{
	return ch_hash_str(r->type_name) * 31u + ch_hash_str(r->field);
}

static int row_is(size_t item, const void *key, const void *arg)
{
	const struct ch_netcl_row *o = &((const ch_netcl *)arg)->rows[item];
	const struct ch_netcl_row *r = (const struct ch_netcl_row *)key;
	return !strcmp(o->type_name, r->type_name) && !strcmp(o->field, r->field);
}

static uint64_t row_rehash(size_t item, const void *arg)
{
	return row_hash(&((const ch_netcl *)arg)->rows[item]);
}

static int type_is(size_t item, const void *key, const void *arg)
{
	return !strcmp(((const ch_netcl *)arg)->types[item].name, (const char *)key);
}

static uint64_t type_rehash(size_t item, const void *arg)
{
	return ch_hash_str(((const ch_netcl *)arg)->types[item].name);
}

/* Index the newest row (t->rows[t->n - 1], complete). A second row for one
 * STRUCT.FIELD is an error naming both rows (the two could disagree on the
 * access, and which one wins would be an accident of order): the row is
 * dropped and -1 returned. */
static int index_row(ch_netcl *t)
{
	const struct ch_netcl_row *r = &t->rows[t->n - 1];
	size_t o, ts;
	struct nc_type *ty;
	o = ch_index_find(&t->row_idx, row_hash(r), row_is, r, t);
	if (o != CH_INDEX_NONE) {
		ch_set_error(t->ctx, "%s:%u: a second row for %s.%s (the first is at %s:%u): "
			     "remove one of them", r->file, r->line, r->type_name, r->field,
			     t->rows[o].file, t->rows[o].line);
		t->n--;
		return -1;
	}
	ch_index_add(&t->row_idx, t->n - 1, row_hash(r), row_rehash, t);
	ts = ch_index_find(&t->type_idx, ch_hash_str(r->type_name), type_is, r->type_name, t);
	if (ts == CH_INDEX_NONE) {
		if (t->ntypes == t->cap_types) {
			t->cap_types = t->cap_types ? 2 * t->cap_types : 16;
			t->types = (struct nc_type *)ch_xrealloc(t->types,
								 t->cap_types * sizeof(*t->types));
		}
		memset(&t->types[t->ntypes], 0, sizeof(*t->types));
		t->types[t->ntypes].name = r->type_name;
		ts = t->ntypes++;
		ch_index_add(&t->type_idx, ts, ch_hash_str(r->type_name), type_rehash, t);
	}
	ty = &t->types[ts];
	CH_GROW(ty->idx, ty->n, ty->cap, 8);
	ty->idx[ty->n++] = t->n - 1;
	return 0;
}

size_t ch_netcl_type_rows(const ch_netcl *t, const char *type_name, const size_t **idx)
{
	size_t ts;
	*idx = NULL;
	if (!type_name)
		return 0;
	ts = ch_index_find(&t->type_idx, ch_hash_str(type_name), type_is, type_name, t);
	if (ts == CH_INDEX_NONE)
		return 0;
	*idx = t->types[ts].idx;
	return t->types[ts].n;
}

size_t ch_netcl_count(const ch_netcl *t) { return t->n; }
const struct ch_netcl_row *ch_netcl_row(const ch_netcl *t, size_t i) { return &t->rows[i]; }

static const char *const acc_names[] = { "", "-", "read_mostly", "read_write", "write_mostly" };

const char *ch_access_name(enum ch_access a) { return acc_names[a]; }

int ch_access_parse(const char *s, enum ch_access *out)
{
	int i;
	if (!strcmp(s, "none")) {
		*out = CH_ACC_EMPTY;
		return 0;
	}
	for (i = CH_ACC_NONE; i <= CH_ACC_WRITE_MOSTLY; i++)
		if (!strcmp(s, acc_names[i])) {
			*out = (enum ch_access)i;
			return 0;
		}
	return -1;
}

int ch_access_on_path(enum ch_access a) { return a >= CH_ACC_READ_MOSTLY; }
int ch_access_written(enum ch_access a)
{
	return a == CH_ACC_READ_WRITE || a == CH_ACC_WRITE_MOSTLY;
}

static struct ch_netcl_row *add_row(ch_netcl *t)
{
	CH_GROW(t->rows, t->n, t->cap, 64);
	memset(&t->rows[t->n], 0, sizeof(*t->rows));
	return &t->rows[t->n++];
}

/* Split "xps_maps[2]" or "icsk_ack.pending" into its name (a member path,
 * IDENT(.IDENT)*) and its array suffix; -1 if it is not that shape. */
static int split_name(ch_ctx *ctx, const char *s, const char **name, const char **suffix)
{
	size_t k = strcspn(s, "["), i, start = 0;
	const char *p = s + k;
	for (i = 0; i <= k; i++)
		if (i == k || s[i] == '.') {
			if (!ch_is_ident(s + start, i - start))
				return -1;
			start = i + 1;
		}
	while (*p == '[') {
		const char *q = strchr(p, ']'), *c;
		if (!q)
			return -1;
		/* a bound as C writes it ("[2]", "[NR_CPUS + 1]"): nothing the
		 * sidecar would cut ('#') or split (white space, control bytes) */
		for (c = p + 1; c < q; c++)
			if (!isalnum((unsigned char)*c) && !strchr("_+-*/()<>", *c))
				return -1;
		p = q + 1;
	}
	if (*p)
		return -1;
	*name = ch_printf(ctx, "%.*s", (int)k, s);
	*suffix = ch_strdup(ctx, s + k);
	return 0;
}

/* The tables name a field of a named nested struct by its own name and put
 * the container in the Type: "struct_icsk_ack_u8 pending" is
 * icsk_ack.pending, "struct_icsk_mtup_u32:31 probe_size" is
 * icsk_mtup.probe_size. The container is what precedes one of the scalar
 * type spellings the tables use; NULL when the Type is no such thing
 * ("struct_inet_sock" is a type). */
static const char *container_of_type(ch_ctx *ctx, const char *ctype)
{
	static const char *const scalars[] = {
		"unsigned_long_long", "unsigned_long", "unsigned_int", "unsigned_short",
		"unsigned_char", "long", "int", "short", "char", "bool",
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"__u8", "__u16", "__u32", "__u64", "__be16", "__be32", "be16", "be32", NULL
	};
	size_t k, l, i;
	if (strncmp(ctype, "struct_", 7))
		return NULL;
	k = strcspn(ctype, ":");   /* bit-field width */
	for (i = 0; scalars[i]; i++) {
		l = strlen(scalars[i]);
		if (k > 7 + l + 1 && !strncmp(ctype + k - l, scalars[i], l) &&
		    ctype[k - l - 1] == '_' && ch_is_ident(ctype + 7, k - l - 1 - 7))
			return ch_printf(ctx, "%.*s", (int)(k - l - 1 - 7), ctype + 7);
	}
	return NULL;
}

/* ---- RST ----------------------------------------------------------------- */
/* A word of a table line: its bytes, its byte offset, and its display
 * column (tabs to the next multiple of 8, as an editor shows them: a
 * header aligned with tabs and rows aligned with spaces line up). */
struct tok { const char *s; size_t len, off, col; };

static size_t tokenize(const char *line, size_t len, struct tok *v, size_t max)
{
	size_t i = 0, n = 0, col = 0;
	while (i < len && n < max) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) {
			col = line[i] == '\t' ? (col / 8 + 1) * 8 : col + (line[i] == ' ');
			i++;
		}
		if (i >= len)
			break;
		v[n].s = line + i;
		v[n].off = i;
		v[n].col = col;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++, col++;
		v[n].len = (size_t)(line + i - v[n].s);
		n++;
	}
	return n;
}

static int tok_is(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && !strncasecmp(t->s, s, t->len);
}

#define MAXTOK 256

static const char *const col_names[2] = { "fastpath_tx_access", "fastpath_rx_access" };

/* Is v an access word? (*a set when it is.) "none" is the sidecar's word
 * for an empty cell, no table word. */
static int access_word(const struct tok *v, enum ch_access *a)
{
	char w[16];
	if (v->len >= sizeof(w))
		return 0;
	memcpy(w, v->s, v->len);
	w[v->len] = 0;
	return strcmp(w, "none") && !ch_access_parse(w, a);
}

/* The cells of a row whose Name is v[k] (of n words), by the rules in
 * cachehot-netcl.h; cols: the display columns where the fastpath_tx_access,
 * fastpath_rx_access and Comments headers start ((size_t)-1: no Comments).
 * p, len: the line, for the comment's text. */
static int row_cells(ch_ctx *ctx, const char *file, unsigned lineno, const char *p, size_t len,
		     const struct tok *v, size_t k, size_t n, const size_t cols[3],
		     struct ch_netcl_row *r)
{
	size_t i = k + 1, name_end = v[k].col + v[k].len, filled;
	enum ch_access a[2];
	int na = 0;
	/* pushed: the word right after a Name that runs past the TX column's start */
#define PUSHED(w) (name_end >= cols[0] && (w)->col <= name_end + 2)
	while (i < n && na < 2 && access_word(&v[i], &a[na]))
		i++, na++;
	if (na == 2) {
		r->acc[CH_NC_TX] = a[0];
		r->acc[CH_NC_RX] = a[1];
		filled = 2;
	} else if (na == 1) {
		const struct tok *w = &v[k + 1];
		int c;
		if (w->col == cols[0] || PUSHED(w) || w->col < cols[1])
			c = CH_NC_TX;
		else if (w->col == cols[1] || w->col < cols[2])
			c = CH_NC_RX;
		else {
			ch_set_error(ctx, "%s:%u: '%.*s' starts at column %zu, under Comments: it "
				     "could be the %s or the %s cell; align it under its header",
				     file, lineno, (int)w->len, w->s, w->col + 1, col_names[0],
				     col_names[1]);
			return -1;
		}
		r->acc[c] = a[0];
		filled = (size_t)c + 1;
	} else
		filled = 0;
	if (i >= n)
		return 0;
	/* the next word: a cell's place when it starts in an empty cell's span */
	if (filled < 2 && ((filled == 0 && PUSHED(&v[i])) || v[i].col < cols[2])) {
		int c = filled == 0 && (PUSHED(&v[i]) || v[i].col < cols[1]) ? CH_NC_TX : CH_NC_RX;
		ch_set_error(ctx, "%s:%u: '%.*s' in the %s column is not an access "
			     "(read_mostly, read_write, write_mostly or -)", file, lineno,
			     (int)v[i].len, v[i].s, col_names[c]);
		return -1;
	}
#undef PUSHED
	{
		size_t e = len;
		while (e > v[i].off && strchr(" \t\r", p[e - 1]))
			e--;
		r->comment = ch_printf(ctx, "%.*s", (int)(e - v[i].off), v[i].s);
	}
	return 0;
}

int ch_netcl_parse_rst_string(ch_netcl *t, const char *file, const char *text)
{
	ch_ctx *ctx = t->ctx;
	const char *p = text, *cur = NULL;
	size_t col_name = 0, cols[3] = { 0, 0, (size_t)-1 };  /* TX, RX, Comments */
	int have_header = 0;
	unsigned lineno = 0;
	struct tok *v = (struct tok *)ch_alloc(ctx, MAXTOK * sizeof(*v));
	size_t rows_before = t->n;

	file = ch_strdup(ctx, file);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		size_t n, k;
		lineno++;
		if (memchr(p, 0, len)) {
			ch_set_error(ctx, "%s:%u: NUL byte in the table", file, lineno);
			return -1;
		}
		n = tokenize(p, len, v, MAXTOK);
		if (n == MAXTOK) {
			ch_set_error(ctx, "%s:%u: more than %d words in one row", file, lineno, MAXTOK - 1);
			return -1;
		}
		if (n >= 4 && tok_is(&v[0], "Type") && tok_is(&v[1], "Name") &&
		    tok_is(&v[2], "fastpath_tx_access") && tok_is(&v[3], "fastpath_rx_access")) {
			col_name = v[1].col;
			cols[0] = v[2].col;
			cols[1] = v[3].col;
			cols[2] = n >= 5 ? v[4].col : (size_t)-1;
			have_header = 1;
			cur = NULL;
		} else if (n && have_header && v[0].len > 2 && !strncmp(v[0].s, "..", 2)) {
			/* "..struct ..NAME" or "..enum" starts a table */
			if (v[0].len == 8 && !strncmp(v[0].s, "..struct", 8)) {
				if (n < 2 || v[1].len < 3 || strncmp(v[1].s, "..", 2) ||
				    !ch_is_ident(v[1].s + 2, v[1].len - 2)) {
					ch_set_error(ctx, "%s:%u: expected '..struct ..NAME'", file, lineno);
					return -1;
				}
				cur = ch_printf(ctx, "%.*s", (int)v[1].len - 2, v[1].s + 2);
			} else if (v[0].len == 6 && !strncmp(v[0].s, "..enum", 6))
				cur = "enum";
			/* any other ".." line is an RST comment */
		} else if (n && have_header && v[0].col == 0 && v[0].s[0] != '=' && v[0].s[0] != '.') {
			struct ch_netcl_row *r;
			const char *type, *name;
			if (!cur) {
				ch_set_error(ctx, "%s:%u: row before any '..struct ..NAME' line", file, lineno);
				return -1;
			}
			/* Type: every token that starts before the Name column (a
			 * type with a space, "struct hlist_head"); Name: the next. */
			for (k = 1; k < n && v[k].col < col_name; k++)
				;
			if (k >= n) {
				ch_set_error(ctx, "%s:%u: row has a Type but no Name", file, lineno);
				return -1;
			}
			type = ch_printf(ctx, "%.*s", (int)(v[k - 1].s + v[k - 1].len - v[0].s), v[0].s);
			name = ch_printf(ctx, "%.*s", (int)v[k].len, v[k].s);
			r = add_row(t);
			r->type_name = cur;
			r->ctype = type;
			r->file = file;
			r->line = lineno;
			if (split_name(ctx, name, &r->field, &r->suffix)) {
				t->n--;
				ch_set_error(ctx, "%s:%u: '%s' is not a field name (IDENT or IDENT[N])",
					     file, lineno, name);
				return -1;
			}
			{
				const char *c = container_of_type(ctx, type);
				if (c && !strchr(r->field, '.'))
					r->field = ch_printf(ctx, "%s.%s", c, r->field);
			}
			if (row_cells(ctx, file, lineno, p, len, v, k, n, cols, r) ||
			    index_row(t)) {
				if (&t->rows[t->n - 1] == r)
					t->n--;
				return -1;
			}
		}
		p = eol ? eol + 1 : p + len;
	}
	if (!have_header) {
		ch_set_error(ctx, "%s: no header row 'Type Name fastpath_tx_access "
			     "fastpath_rx_access' (not a net_cachelines table)", file);
		return -1;
	}
	if (t->n == rows_before) {
		ch_set_error(ctx, "%s: the table has no rows", file);
		return -1;
	}
	return 0;
}

int ch_netcl_parse_rst(ch_netcl *t, const char *path)
{
	char *text = ch_read_text_file(t->ctx, path);
	int rc;
	if (!text)
		return -1;
	rc = ch_netcl_parse_rst_string(t, path, text);
	free(text);
	return rc;
}

/* ---- the path-aware sidecar ------------------------------------------------
 *   STRUCT.FIELD[SUFFIX] tx=ACCESS rx=ACCESS [type=CTYPE] [from=FILE:LINE]  # comment
 * ACCESS: read_mostly | read_write | write_mostly | - | none (empty cell).
 * STRUCT "enum" for rows of an enum table (snmp.rst).
 */
static int load_line(ch_netcl *t, const char *file, unsigned lineno, char *s)
{
	ch_ctx *ctx = t->ctx;
	struct tok v[8];
	size_t n = tokenize(s, strlen(s), v, 8), i;
	struct ch_netcl_row r;
	char *dot, *name;
	int seen[2] = { 0, 0 };

	if (!n)
		return 0;
	if (n > 6) {
		ch_set_error(ctx, "%s:%u: too many words", file, lineno);
		return -1;
	}
	for (i = 0; i < n; i++)
		((char *)v[i].s)[v[i].len] = 0;
	memset(&r, 0, sizeof(r));
	dot = strchr((char *)v[0].s, '.');
	if (!dot || !ch_is_ident(v[0].s, (size_t)(dot - v[0].s))) {
		ch_set_error(ctx, "%s:%u: expected 'STRUCT.FIELD tx=ACCESS rx=ACCESS', not '%s'",
			     file, lineno, v[0].s);
		return -1;
	}
	r.type_name = ch_printf(ctx, "%.*s", (int)(dot - v[0].s), v[0].s);
	name = dot + 1;
	if (split_name(ctx, name, &r.field, &r.suffix)) {
		ch_set_error(ctx, "%s:%u: '%s' is not a field name (IDENT or IDENT[N])", file,
			     lineno, name);
		return -1;
	}
	for (i = 1; i < n; i++) {
		const char *w = v[i].s;
		if (!strncmp(w, "tx=", 3) || !strncmp(w, "rx=", 3)) {
			int c = w[0] == 't' ? CH_NC_TX : CH_NC_RX;
			if (ch_access_parse(w + 3, &r.acc[c])) {
				ch_set_error(ctx, "%s:%u: '%s': the access is read_mostly, read_write, "
					     "write_mostly, - or none", file, lineno, w);
				return -1;
			}
			if (seen[c]++) {
				ch_set_error(ctx, "%s:%u: %.2s= given twice", file, lineno, w);
				return -1;
			}
		} else if (!strncmp(w, "type=", 5) && w[5])
			r.ctype = ch_strdup(ctx, w + 5);
		else if (!strncmp(w, "from=", 5) && w[5])
			r.from = ch_strdup(ctx, w + 5);
		else {
			ch_set_error(ctx, "%s:%u: unknown word '%s' (expected tx=, rx=, type= or from=)",
				     file, lineno, w);
			return -1;
		}
	}
	if (!seen[0] || !seen[1]) {
		ch_set_error(ctx, "%s:%u: a row needs both tx= and rx=", file, lineno);
		return -1;
	}
	r.file = file;
	r.line = lineno;
	*add_row(t) = r;
	return index_row(t);
}

int ch_netcl_load_string(ch_netcl *t, const char *name, const char *text)
{
	char *copy = strdup(text), *p, *eol;
	unsigned lineno = 0;
	int rc = 0;
	if (!copy)
		abort();
	name = ch_strdup(t->ctx, name);
	for (p = copy; p && *p && !rc; p = eol) {
		char *hash;
		eol = strchr(p, '\n');
		if (eol)
			*eol++ = 0;
		lineno++;
		hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		rc = load_line(t, name, lineno, p);
	}
	free(copy);
	return rc;
}

int ch_netcl_load(ch_netcl *t, const char *path)
{
	char *text = ch_read_text_file(t->ctx, path);
	int rc;
	if (!text)
		return -1;
	rc = ch_netcl_load_string(t, path, text);
	free(text);
	return rc;
}

/* A value as one sidecar word: every byte the reader splits at or stops
 * at (white space, control characters, '#') becomes '_'. malloc'd. */
static char *one_word(const char *v)
{
	char *w = strdup(v), *q;
	if (!w)
		abort();
	for (q = w; *q; q++)
		if ((unsigned char)*q <= ' ' || *q == '#' || *q == 0x7f)
			*q = '_';
	return w;
}

static const char *acc_word(enum ch_access a)
{
	return a == CH_ACC_EMPTY ? "none" : acc_names[a];
}

int ch_netcl_write(const ch_netcl *t, FILE *out)
{
	size_t i;
	const char *last = NULL;
	fprintf(out, "# cachehot net_cachelines sidecar (docs/net-cachelines.md):\n"
		"# STRUCT.FIELD tx=ACCESS rx=ACCESS [type=CTYPE] [from=FILE:LINE]\n");
	for (i = 0; i < t->n; i++) {
		const struct ch_netcl_row *r = &t->rows[i];
		char *ty = r->ctype ? one_word(r->ctype) : NULL, *from;
		const char *src = r->file;
		int srclen = src ? (int)strlen(src) : 0;
		if (r->from && strrchr(r->from, ':')) {   /* the RST the row came from */
			src = r->from;
			srclen = (int)(strrchr(r->from, ':') - r->from);
		}
		if (src && (!last || (int)strlen(last) != srclen || strncmp(last, src, srclen))) {
			char *w = one_word(ch_printf(t->ctx, "%.*s", srclen, src));
			fprintf(out, "# from %s\n", w);
			free(w);
		}
		last = src ? ch_printf(t->ctx, "%.*s", srclen, src) : NULL;
		fprintf(out, "%s.%s%s tx=%s rx=%s", r->type_name, r->field, r->suffix,
			acc_word(r->acc[0]), acc_word(r->acc[1]));
		if (ty)
			fprintf(out, " type=%s", ty);
		from = r->from ? one_word(r->from)
			: r->file ? one_word(ch_printf(t->ctx, "%s:%u", r->file, r->line)) : NULL;
		if (from)
			fprintf(out, " from=%s", from);
		fputc('\n', out);
		free(ty);
		free(from);
	}
	return ferror(out) ? -1 : 0;
}

int ch_netcl_has_type(const ch_netcl *t, const char *type_name)
{
	const size_t *idx;
	return ch_netcl_type_rows(t, type_name, &idx) > 0;
}

const char **ch_netcl_types(const ch_netcl *t, size_t *n)
{
	const char **v = (const char **)ch_alloc(t->ctx, (t->ntypes + 1) * sizeof(char *));
	size_t i, k = 0;
	for (i = 0; i < t->ntypes; i++)
		if (strcmp(t->types[i].name, "enum"))
			v[k++] = t->types[i].name;
	*n = k;
	return v;
}

static int rst_name(const struct dirent *d)
{
	size_t l = strlen(d->d_name);
	return l > 4 && !strcmp(d->d_name + l - 4, ".rst") && strcmp(d->d_name, "index.rst");
}

int ch_netcl_read_path(ch_netcl *t, const char *path)
{
	struct stat st;
	size_t l = strlen(path);
	if (stat(path, &st)) {
		ch_set_error(t->ctx, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **v;
		int n = scandir(path, &v, rst_name, alphasort), i, rc = 0;
		if (n < 0) {
			ch_set_error(t->ctx, "%s: %s", path, strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (!rc) {
				const char *f = ch_printf(t->ctx, "%s%s%s", path,
							  l && path[l - 1] == '/' ? "" : "/", v[i]->d_name);
				rc = ch_netcl_parse_rst(t, f);
			}
			free(v[i]);
		}
		free(v);
		if (!rc && !n) {
			ch_set_error(t->ctx, "%s: no net_cachelines tables (*.rst other than index.rst)",
				     path);
			return -1;
		}
		return rc;
	}
	if (l > 4 && !strcmp(path + l - 4, ".rst"))
		return ch_netcl_parse_rst(t, path);
	return ch_netcl_load(t, path);
}
