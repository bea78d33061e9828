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

struct ch_netcl {
	ch_ctx *ctx;
	struct ch_netcl_row *rows;
	size_t n, cap;
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
	if (!t)
		return;
	free(t->rows);
	free(t);
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
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->rows = (struct ch_netcl_row *)ch_xrealloc(t->rows, t->cap * sizeof(*t->rows));
	}
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
		const char *q = strchr(p, ']');
		if (!q)
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
struct tok { const char *s; size_t len, col; };

static size_t tokenize(const char *line, size_t len, struct tok *v, size_t max)
{
	size_t i = 0, n = 0;
	while (i < len && n < max) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i >= len)
			break;
		v[n].s = line + i;
		v[n].col = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
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

static size_t dist(size_t a, size_t b) { return a > b ? a - b : b - a; }

int ch_netcl_parse_rst_string(ch_netcl *t, const char *file, const char *text)
{
	ch_ctx *ctx = t->ctx;
	const char *p = text, *cur = NULL;
	size_t col_name = 0, col_tx = 0, col_rx = 0, col_comment = (size_t)-1;
	int have_header = 0;
	unsigned lineno = 0;
	struct tok *v = (struct tok *)ch_alloc(ctx, MAXTOK * sizeof(*v));
	size_t rows_before = t->n;

	file = ch_strdup(ctx, file);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		size_t n, i, k;
		int next;
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
			col_tx = v[2].col;
			col_rx = v[3].col;
			col_comment = n >= 5 ? v[4].col : (size_t)-1;
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
			/* Cells: each token goes to the header column nearest to
			 * where it starts (rows drift by a character or two when a
			 * name is long); a column already filled passes it on. */
			for (i = k + 1, next = 0; i < n; i++) {
				size_t cols[3] = { col_tx, col_rx, col_comment };
				int c = 0, j;
				char *w;
				enum ch_access a;
				for (j = 1; j < 3; j++)
					if (cols[j] != (size_t)-1 &&
					    dist(v[i].col, cols[j]) < dist(v[i].col, cols[c]))
						c = j;
				if (c < next)
					c = next;
				if (c >= 2) {
					size_t e = len;
					while (e > v[i].col && strchr(" \t\r", p[e - 1]))
						e--;
					r->comment = ch_printf(ctx, "%.*s", (int)(e - v[i].col), v[i].s);
					break;
				}
				next = c + 1;
				w = (char *)ch_printf(ctx, "%.*s", (int)v[i].len, v[i].s);
				if (ch_access_parse(w, &a) || !strcmp(w, "none")) {
					ch_set_error(ctx, "%s:%u: '%s' in the %s column is not an access "
						     "(read_mostly, read_write, write_mostly or -)", file,
						     lineno, w, c == CH_NC_TX ? "fastpath_tx_access"
						     : "fastpath_rx_access");
					return -1;
				}
				r->acc[c] = a;
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
	return 0;
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
		char *ty = r->ctype ? strdup(r->ctype) : NULL, *q;
		const char *src = r->file;
		int srclen = src ? (int)strlen(src) : 0;
		if (r->from && strrchr(r->from, ':')) {   /* the RST the row came from */
			src = r->from;
			srclen = (int)(strrchr(r->from, ':') - r->from);
		}
		if (src && (!last || (int)strlen(last) != srclen || strncmp(last, src, srclen)))
			fprintf(out, "# from %.*s\n", srclen, src);
		last = src ? ch_printf(t->ctx, "%.*s", srclen, src) : NULL;
		for (q = ty; q && *q; q++)
			if (*q == ' ' || *q == '\t' || *q == '#')
				*q = '_';
		fprintf(out, "%s.%s%s tx=%s rx=%s", r->type_name, r->field, r->suffix,
			acc_word(r->acc[0]), acc_word(r->acc[1]));
		if (ty)
			fprintf(out, " type=%s", ty);
		if (r->from)
			fprintf(out, " from=%s", r->from);
		else if (r->file)
			fprintf(out, " from=%s:%u", r->file, r->line);
		fputc('\n', out);
		free(ty);
	}
	return ferror(out) ? -1 : 0;
}

int ch_netcl_has_type(const ch_netcl *t, const char *type_name)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].type_name, type_name))
			return 1;
	return 0;
}

const char **ch_netcl_types(const ch_netcl *t, size_t *n)
{
	const char **v = (const char **)ch_alloc(t->ctx, (t->n + 1) * sizeof(char *));
	size_t i, j, k = 0;
	for (i = 0; i < t->n; i++) {
		const char *s = t->rows[i].type_name;
		if (!strcmp(s, "enum"))
			continue;
		for (j = 0; j < k && strcmp(v[j], s); j++)
			;
		if (j == k)
			v[k++] = s;
	}
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
