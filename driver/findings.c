// SPDX-License-Identifier: GPL-2.0
/* findings.c -- findings from engine records (and, for the two text
 * inputs, a build log and spatch's report, from lines); merge, order and
 * key findings. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "../core/cachehot-core.h"

void finding_free(struct finding *f)
{
	free(f->file); free(f->abspath); free(f->check); free(f->message);
	free(f->engines); free(f->scope); free(f->field); free(f->other); free(f->lines);
	free(f->ident);
	memset(f, 0, sizeof(*f));
}

void findings_add(struct findings *fs, const struct finding *f)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 32;
		fs->v = xrealloc(fs->v, fs->cap * sizeof(*fs->v));
	}
	fs->v[fs->n++] = *f;
}

void findings_free(struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		finding_free(&fs->v[i]);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

/* Parse decimal digits at *p; advance. -1 if none. */
static long parse_num(const char **p)
{
	long v = 0;
	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v > 100000000)
			return -1;
		(*p)++;
	}
	return v;
}

/* "cc1: note: sidecar entry 'x.y' (FILE:LINE) matched no struct ... [cachehot]":
 * a diagnostic GCC (or a tool: "cachehot-sparse: note: ...") prints without a
 * source location. It is placed at the "(FILE:LINE)" its message names (a
 * sidecar entry); without one it is not a finding (0). */
/* Set f->file (as shown) and f->abspath from the len bytes at name, a path
 * as the compiler printed it: relative to dir when dir is given. */
static void set_finding_path(struct finding *f, const char *name, size_t len, const char *dir)
{
	static ch_ctx *pctx;
	char *raw = xstrndup(name, len);
	/* one file however it is spelt: "./cache/cache.h" is "cache/cache.h"
	 * also when the file is not there to be resolved (a build log of
	 * another machine) */
	if (!pctx)
		pctx = ch_ctx_new();
	{
		char *n = xstrdup(ch_path_normalize(pctx, raw));
		free(raw);
		raw = n;
	}
	if (dir && raw[0] != '/') {
		char *full = xasprintf("%s/%s", dir, raw);
		free(raw);
		raw = full;
	}
	f->file = display_path(raw);
	f->abspath = canon_path(raw);
	if (!f->abspath)
		f->abspath = xstrdup(raw);
	free(raw);
}

/* "warning: ", "error: " or "note: " at *msg: sets *sev and moves *msg past
 * it; 0 when *msg starts with none of them. */
static int severity_prefix(const char **msg, enum sev *sev)
{
	if (!strncmp(*msg, "warning: ", 9)) { *sev = SEV_WARNING; *msg += 9; }
	else if (!strncmp(*msg, "error: ", 7)) { *sev = SEV_ERROR; *msg += 7; }
	else if (!strncmp(*msg, "note: ", 6)) { *sev = SEV_NOTE; *msg += 6; }
	else return 0;
	return 1;
}

/* The end of msg without trailing blanks and line ends. */
static const char *trimmed_end(const char *msg)
{
	const char *end = msg + strlen(msg);
	while (end > msg && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	return end;
}

static int parse_unlocated(const char *line, const char *engine, const char *dir,
			   struct finding *f)
{
	static const char *const progs[] = { "cc1: ", "cc1plus: ", "lto1: ", "cachehot-sparse: ",
					     "cachehot-layout: ", NULL };
	const char *msg = NULL, *end, *tag, *open, *colon;
	enum sev sev;
	for (int i = 0; progs[i] && !msg; i++)
		if (!strncmp(line, progs[i], strlen(progs[i])))
			msg = line + strlen(progs[i]);
	if (!msg)
		return 0;
	if (!severity_prefix(&msg, &sev))
		return 0;
	end = trimmed_end(msg);
	if (end - msg > 10 && !strncmp(end - 10, " [-Werror]", 10)) {
		end -= 10;
		if (sev == SEV_ERROR)
			sev = SEV_WARNING;
	}
	if (end - msg < 10 || strncmp(end - 10, "[cachehot]", 10))
		return 0;
	tag = end - 10;
	/* the first " (FILE:LINE)" of the message */
	for (open = strstr(msg, " ("); open && open < tag; open = strstr(open + 1, " (")) {
		const char *close = memchr(open, ')', (size_t)(tag - open));
		const char *q;
		long ln;
		if (!close)
			break;
		colon = NULL;
		for (q = open + 2; q < close; q++)
			if (*q == ':')
				colon = q;
		if (!colon || colon == open + 2)
			continue;
		q = colon + 1;
		ln = parse_num(&q);
		if (ln <= 0 || q != close)
			continue;
		set_finding_path(f, open + 2, (size_t)(colon - open - 2), dir);
		while (tag > msg && tag[-1] == ' ')
			tag--;
		f->message = xstrndup(msg, (size_t)(tag - msg));
		f->check = xstrdup("cachehot");
		f->line = (unsigned)ln;
		f->col = 0;
		f->sev = sev;
		f->engines = xstrdup(engine);
		return 1;
	}
	return 0;
}

/* "OBJ: warning: hot global 'x' ... [cachehot-global-sharing]": cachehot-layout
 * on a binary without debug information (nor a manifest) has only the
 * binary's path for a finding: kept at line 0 of that file (SARIF: no
 * region), never dropped. */
static int parse_binary_only(const char *line, const char *engine, const char *dir,
			     struct finding *f)
{
	const char *sep = strstr(line, ": "), *msg, *end, *tag;
	enum sev sev;
	if (strcmp(engine, "layout") || !sep || sep == line || memchr(line, ' ', (size_t)(sep - line)))
		return 0;
	msg = sep + 2;
	if (!severity_prefix(&msg, &sev))
		return 0;
	end = trimmed_end(msg);
	if (end == msg || end[-1] != ']')
		return 0;
	for (tag = end - 1; tag > msg && *tag != '['; tag--)
		;
	if (*tag != '[' || strncmp(tag + 1, "cachehot-", 9))
		return 0;
	f->check = xstrndup(tag + 1, (size_t)(end - 1 - (tag + 1)));
	while (tag > msg && tag[-1] == ' ')
		tag--;
	f->message = xstrndup(msg, (size_t)(tag - msg));
	set_finding_path(f, line, (size_t)(sep - line), dir);
	f->line = 0;
	f->col = 0;
	f->sev = sev;
	f->engines = xstrdup(engine);
	return 1;
}

int parse_diag_line(const char *line, const char *engine, const char *default_check,
		    const char *dir, struct finding *f)
{
	const char *p, *msg, *end, *tag;
	long ln = -1, col = -1;
	enum sev sev = SEV_WARNING;
	int spatch = 0;
	size_t flen = 0;

	memset(f, 0, sizeof(*f));
	/* The file name ends at the first ":LINE:COL" followed by ": " or "-COL: ". */
	for (p = line; (p = strchr(p, ':')) != NULL; p++) {
		const char *q = p + 1;
		ln = parse_num(&q);
		if (ln < 0 || *q != ':')
			continue;
		q++;
		col = parse_num(&q);
		if (col < 0)
			continue;
		if (q[0] == ':' && q[1] == ' ') {
			flen = p - line;
			msg = q + 2;
			break;
		}
		if (q[0] == '-') {
			q++;
			if (parse_num(&q) >= 0 && q[0] == ':' && q[1] == ' ') {
				flen = p - line;
				msg = q + 2;
				spatch = 1;
				break;
			}
		}
	}
	if (!p || flen == 0)
		return parse_unlocated(line, engine, dir, f) ||
		       parse_binary_only(line, engine, dir, f);
	if (!spatch) {
		if (!severity_prefix(&msg, &sev))
			return 0;
	} else {
		col++;  /* spatch columns are 0-based */
	}
	end = trimmed_end(msg);
	/* GCC may append its own option tag ("[-Werror]") after ours: the
	 * finding's severity is cachehot's, not what -Werror made of it */
	if (end - msg > 10 && !strncmp(end - 10, " [-Werror]", 10)) {
		end -= 10;
		if (sev == SEV_ERROR)
			sev = SEV_WARNING;
	}
	tag = NULL;
	if (end > msg && end[-1] == ']') {
		const char *b = end - 1;
		while (b > msg && *b != '[')
			b--;
		if (*b == '[' && (!strncmp(b + 1, "cachehot-", 9) || !strncmp(b + 1, "cachehot]", 9)))
			tag = b;
	}
	if (tag) {
		f->check = xstrndup(tag + 1, end - 1 - (tag + 1));
		while (tag > msg && tag[-1] == ' ')
			tag--;
		f->message = xstrndup(msg, tag - msg);
	} else if (spatch && default_check) {
		f->check = xasprintf("cachehot-%s", default_check);
		f->message = xstrndup(msg, end - msg);
	} else {
		return 0;
	}
	set_finding_path(f, line, flen, dir);
	f->line = (unsigned)ln;
	f->col = (unsigned)col;
	f->sev = sev;
	f->engines = xstrdup(engine);
	return 1;
}

/* A name quoted in a message ('x' or ‘x’): with want_struct the NAME of the first
 * 'struct NAME'/'union NAME', else the first field-like name that is not a
 * group name ("(group 'g')"). Heap string or NULL. */
static char *quoted_name(const char *msg, int want_struct)
{
	for (const char *p = msg; *p; p++) {
		const char *s = NULL, *e;
		if (*p == '\'')
			s = p + 1;
		else if (!strncmp(p, "\xe2\x80\x98", 3))
			s = p + 3;
		if (!s)
			continue;
		e = strpbrk(s, "'\xe2");
		while (e && *e == '\xe2' && strncmp(e, "\xe2\x80\x99", 3))
			e = strpbrk(e + 1, "'\xe2");
		if (!e)
			return NULL;
		int is_struct = !strncmp(s, "struct ", 7) || !strncmp(s, "union ", 6);
		int is_group = p - msg >= 7 && !strncmp(p - 7, "(group ", 7);
		if (want_struct && is_struct) {
			const char *n = strchr(s, ' ') + 1;
			return xstrndup(n, e - n);
		}
		if (!want_struct && !is_struct && !is_group && e > s) {
			const char *q = s;
			while (q < e && (isalnum((unsigned char)*q) || strchr("_.[]", *q)))
				q++;
			if (q == e || (q + 2 == e && !strncmp(q, "()", 2)))
				return xstrndup(s, q - s);
		}
		p = *e == '\'' ? e : e + 2;
	}
	return NULL;
}

/* The second field a message names before its fix ("... with hot field
 * 'usage' (...); insert ..."): the partner of a conflict. Heap or NULL. */
static char *partner_name(const char *msg, const char *first)
{
	const char *semi = strstr(msg, "; ");
	char *head = semi ? xstrndup(msg, (size_t)(semi - msg)) : xstrdup(msg);
	char *r = NULL;
	/* skip to after the first field's quote, then the next field name */
	char *q = xasprintf("'%s'", first), *at = strstr(head, q);
	/* a group may carry the field's name: "hot field (group 'tail') 'tail'" */
	while (at && at - head >= 7 && !strncmp(at - 7, "(group ", 7))
		at = strstr(at + 1, q);
	/* the partner follows " with ": a struct named by a typedef is quoted
	 * without "struct " ("of 'itemstats_t' with hot field 'moves_to_cold'") */
	if (at) {
		const char *w = strstr(at + strlen(q), " with ");
		r = quoted_name(w ? w : at + strlen(q), 0);
	}
	free(q);
	free(head);
	return r;
}

/* "64" for "(64-byte lines)", "p128" for "(predicted at 128-byte lines)":
 * the line size a finding was judged at; NULL when it names none. */
static char *line_size_of(const char *msg)
{
	const char *p = strstr(msg, "-byte lines)"), *b;
	if (!p)
		return NULL;
	for (b = p; b > msg && isdigit((unsigned char)b[-1]); b--)
		;
	if (b == p)
		return NULL;
	int predicted = b - msg >= 13 && !strncmp(b - 13, "predicted at ", 13);
	return xasprintf("%s%.*s", predicted ? "p" : "", (int)(p - b), b);
}

/* A key word: '-' for none; blanks (never in C names, possible in a
 * sidecar entry "NAME CLASS") written as '_'... no: as "%20". */
static char *key_word(const char *s)
{
	if (!s || !*s)
		return xstrdup("-");
	size_t n = 0;
	for (const char *p = s; *p; p++)
		n += *p == ' ' || *p == '%' ? 3 : 1;
	char *w = xmalloc(n + 1), *q = w;
	for (const char *p = s; *p; p++)
		if (*p == ' ' || *p == '%')
			q += sprintf(q, "%%%02X", (unsigned char)*p);
		else
			*q++ = *p;
	*q = 0;
	return w;
}

char *finding_key(const struct finding *f)
{
	char *w[5] = { key_word(f->scope), key_word(f->field), key_word(f->other),
		       key_word(f->lines), key_word(f->ident) };
	char *k = xasprintf("%s %s %s %s %s %s", f->check, w[0], w[1], w[2], w[3], w[4]);
	for (int i = 0; i < 5; i++)
		free(w[i]);
	return k;
}

struct rec_arg { struct findings *fs; const char *dir; long n; };

static int add_record(const struct ch_record *r, const char *engine, void *arg)
{
	struct rec_arg *a = arg;
	struct finding f;
	memset(&f, 0, sizeof(f));
	if (!r->file)   /* nowhere to show it (no source, no sidecar line) */
		return 0;
	set_finding_path(&f, r->file, strlen(r->file), a->dir);
	f.line = r->line;
	f.col = r->col;
	f.sev = r->severity == CH_SEV_ERROR ? SEV_ERROR
		: r->severity == CH_SEV_WARNING ? SEV_WARNING : SEV_NOTE;
	f.check = xstrdup(ch_check_id(r->check));
	f.message = xstrdup(r->message);
	f.engines = xstrdup(engine);
	f.scope = r->scope ? xstrdup(r->scope) : r->function ? xstrdup(r->function) : NULL;
	f.field = r->field ? xstrdup(r->field) : NULL;
	f.other = r->other ? xstrdup(r->other) : NULL;
	f.lines = r->line_size ? xasprintf("%s%u", r->predicted ? "p" : "", r->line_size) : NULL;
	f.ident = r->ident ? xstrdup(r->ident) : NULL;
	f.keyed = 1;
	findings_add(a->fs, &f);
	a->n++;
	return 0;
}

long findings_from_records(struct findings *fs, const char *path, const char *engine,
			   const char *dir)
{
	struct rec_arg a = { fs, dir, 0 };
	char *err = NULL;
	(void)engine;   /* each record names its engine */
	if (ch_records_read(path, add_record, &a, &err) < 0) {
		fprintf(stderr, "cachehot: %s\n", err);
		free(err);
		return -1;
	}
	return a.n;
}

/* The identifier at (line, col) of text, or NULL. */
static char *ident_at(const char *text, unsigned line, unsigned col)
{
	const char *p = text;
	for (unsigned l = 1; l < line && p; l++) {
		p = strchr(p, '\n');
		if (p) p++;
	}
	if (!p || col == 0)
		return NULL;
	for (unsigned c = 1; c < col; c++)
		if (!*p || *p == '\n')
			return NULL;
		else
			p++;
	const char *e = p;
	while (isalnum((unsigned char)*e) || *e == '_')
		e++;
	if (e == p || isdigit((unsigned char)*p))
		return NULL;
	return xstrndup(p, e - p);
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

void findings_resolve_scopes(struct findings *fs)
{
	/* Findings are usually grouped by file: cache the last file scanned. */
	char *cur = NULL, *text = NULL;
	struct scopes sc = {0};
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		if (f->keyed)   /* a record says it all */
			continue;
		if (!cur || strcmp(cur, f->abspath)) {
			free(cur); free(text); scopes_free(&sc);
			cur = xstrdup(f->abspath);
			text = ch_read_input(cur, NULL);   /* a path a finding names */
			if (text)
				scan_scopes(text, &sc);
		}
		/* The struct the message names (the outermost one for a nested
		 * field), else the struct or function around the line. */
		const struct scope *s = scope_at(&sc, f->line);
		free(f->scope);
		f->scope = quoted_name(f->message, 1);
		if (!f->scope)
			f->scope = s ? xstrdup(s->name) : NULL;
		free(f->field);
		f->field = quoted_name(f->message, 0);
		if (!f->field && text)
			f->field = ident_at(text, f->line, f->col);
		/* a finding on the struct itself names no field */
		if (f->field && f->scope && !strcmp(f->field, f->scope)) {
			free(f->field);
			f->field = NULL;
		}
		free(f->other);
		f->other = f->field ? partner_name(f->message, f->field) : NULL;
		free(f->lines);
		f->lines = line_size_of(f->message);
	}
	free(cur); free(text); scopes_free(&sc);
}

/* Which engine's copy of a duplicate is kept (its column is shown). */
static int engine_rank(const char *e)
{
	static const char *const order[] = { "plugin", "sparse", "layout", "cocci" };
	for (int i = 0; i < 4; i++)
		if (!strncmp(e, order[i], strlen(order[i])))
			return i;
	return 4;
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	/* the canonical path: one file printed two ways still sorts together */
	int c = strcmp(x->abspath, y->abspath);
	if (c) return c;
	if (x->line != y->line) return x->line < y->line ? -1 : 1;
	if ((c = strcmp(x->check, y->check))) return c;
	if ((c = strcmp(x->message, y->message))) return c;
	if ((c = engine_rank(x->engines) - engine_rank(y->engines))) return c;
	if (x->col != y->col) return x->col < y->col ? -1 : 1;
	if (x->sev != y->sev) return x->sev > y->sev ? -1 : 1;
	return cmp_str(x->engines, y->engines);
}

/* Append engine name e to the comma list *list unless present. */
static void add_engine(char **list, const char *e)
{
	size_t n = strlen(e);
	for (const char *p = *list; p && *p; ) {
		const char *q = strchr(p, ',');
		size_t l = q ? (size_t)(q - p) : strlen(p);
		if (l == n && !strncmp(p, e, n))
			return;
		p = q ? q + 1 : p + l;
	}
	char *s = xasprintf("%s,%s", *list, e);
	free(*list);
	*list = s;
}

void findings_sort_dedupe(struct findings *fs)
{
	size_t out = 0;
	if (fs->n == 0)
		return;
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_finding);
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		if (out > 0) {
			struct finding *k = &fs->v[out - 1];
			if (!strcmp(k->abspath, f->abspath) && k->line == f->line &&
			    !strcmp(k->check, f->check) && !strcmp(k->message, f->message)) {
				/* Same finding from another engine (column may differ). */
				add_engine(&k->engines, f->engines);
				if (f->sev > k->sev)
					k->sev = f->sev;
				finding_free(f);
				continue;
			}
		}
		fs->v[out++] = *f;
	}
	fs->n = out;
}

void findings_count(const struct findings *fs, int *errors, int *warnings, int *notes)
{
	*errors = *warnings = *notes = 0;
	for (size_t i = 0; i < fs->n; i++)
		switch (fs->v[i].sev) {
		case SEV_ERROR: (*errors)++; break;
		case SEV_WARNING: (*warnings)++; break;
		default: (*notes)++; break;
		}
}

/* A compiler's per-unit note on a sidecar entry: "sidecar entry 'E' (F:L)
 * matched no struct in this translation unit" (1) or "... matched no
 * variable in this translation unit[; did you mean 'T.M'? ...]" (2), with
 * the entry, file, line and (variables) hint "T.M" or NULL as heap strings;
 * 0 for any other finding. */
static int unmatched_entry(const struct finding *f, char **entry, char **file, unsigned *line,
			   char **hint)
{
	const char *m = f->message, *e, *p, *c, *h;
	size_t pl = strlen(CH_MSG_SIDECAR_ENTRY);
	int kind;
	if (f->keyed) {   /* the record: the entry, at its file and line */
		if (strcmp(f->check, "cachehot") || !f->ident || !f->field)
			return 0;
		kind = !strcmp(f->ident, "unmatched") ? 1
		       : !strcmp(f->ident, "unmatched-variable") ? 2 : 0;
		if (!kind)
			return 0;
		*entry = xstrdup(f->field);
		*file = xstrdup(f->abspath);   /* as the engine was given it */
		*line = f->line;
		*hint = kind == 2 && f->other ? xstrdup(f->other) : NULL;
		return kind;
	}
	if (strcmp(f->check, "cachehot") || strncmp(m, CH_MSG_SIDECAR_ENTRY, pl))
		return 0;
	if ((p = strstr(m, ") " CH_MSG_UNMATCHED_TAIL)) ||
	    (p = strstr(m, ") " CH_MSG_UNMATCHED_ARRAY_TAIL)) ||
	    (p = strstr(m, ") " CH_MSG_UNMATCHED_FUNC_TAIL)))
		kind = 1;
	else if ((p = strstr(m, ") " CH_MSG_UNMATCHED_VAR_TAIL)))
		kind = 2;
	else
		return 0;
	m += pl;
	if (!(e = strstr(m, "' (")) || e > p)
		return 0;
	for (c = p; c > e && *c != ':'; c--)
		;
	if (c <= e + 3)
		return 0;
	*entry = xstrndup(m, (size_t)(e - m));
	*file = xstrndup(e + 3, (size_t)(c - e - 3));
	*line = (unsigned)strtoul(c + 1, NULL, 10);
	*hint = NULL;
	if (kind == 2 && (h = strstr(p, CH_MSG_VARIABLE_HINT))) {
		const char *q;
		h += strlen(CH_MSG_VARIABLE_HINT);
		if ((q = strchr(h, '\'')))
			*hint = xstrndup(h, (size_t)(q - h));
	}
	return kind;
}

static int same_entry(const struct finding *a, const struct finding *b)
{
	return a->line == b->line && !strcmp(a->abspath, b->abspath);
}

void findings_fold_unmatched(struct findings *fs, unsigned long units, int whole)
{
	static ch_ctx *ctx;
	char *done = xmalloc(fs->n + 1);
	struct findings out = {0};
	memset(done, 0, fs->n + 1);
	for (size_t i = 0; i < fs->n; i++) {
		char *entry = NULL, *file = NULL, *hint = NULL;
		unsigned line = 0;
		unsigned long per[3] = { 0, 0, 0 };   /* plugin, sparse, other */
		int kind;
		if (done[i])
			continue;
		if (!(kind = unmatched_entry(&fs->v[i], &entry, &file, &line, &hint))) {
			findings_add(&out, &fs->v[i]);
			continue;
		}
		/* every report of this entry, by engine (one per unit each) */
		for (size_t j = i; j < fs->n; j++) {
			char *e2, *f2, *h2;
			unsigned l2;
			if (done[j] || !same_entry(&fs->v[i], &fs->v[j]) ||
			    unmatched_entry(&fs->v[j], &e2, &f2, &l2, &h2) != kind)
				continue;
			if (!hint && h2)   /* the unit that saw the struct */
				hint = h2;
			else
				free(h2);
			free(e2); free(f2);
			per[!strcmp(fs->v[j].engines, "plugin") ? 0 :
			    !strcmp(fs->v[j].engines, "sparse") ? 1 : 2]++;
			if (j != i)
				done[j] = 2;   /* folded into i */
		}
		int everywhere = units && (per[0] >= units || per[1] >= units);
		if (!ctx)
			ctx = ch_ctx_new();
		if (kind == 2 && (everywhere || (!units && hint))) {
			/* no unit has the variable: the verdict cachehot-layout
			 * gives on its input, a warning over a whole database or
			 * when the entry reads as STRUCT.FIELD without the dot
			 * (a build log, which has no unit count, too: a variable
			 * named exactly TAG+MEMBER is not worth a CI leak) */
			struct finding *f = &fs->v[i];
			free(f->message);
			f->message = xstrdup(ch_msg_sidecar_no_symbol(ctx, entry, file, line, hint));
			char *tag = strrchr(f->message, '[');   /* printed from f->check */
			while (tag && tag > f->message && tag[-1] == ' ')
				*--tag = 0;
			f->sev = whole || hint ? SEV_WARNING : SEV_NOTE;
			findings_add(&out, f);
		} else if (everywhere && whole) {
			struct finding *f = &fs->v[i];
			free(f->message);
			f->message = xstrdup(ch_msg_sidecar_stale(ctx, entry, file, line, units));
			char *tag = strrchr(f->message, '[');   /* printed from f->check */
			while (tag && tag > f->message && tag[-1] == ' ')
				*--tag = 0;
			f->sev = SEV_WARNING;
			findings_add(&out, f);
		} else if (everywhere || !units) {
			findings_add(&out, &fs->v[i]);
			for (size_t j = i + 1; j < fs->n; j++)
				if (done[j] == 2) {   /* kept: merged or deduplicated later */
					findings_add(&out, &fs->v[j]);
					done[j] = 1;
				}
		} else {
			/* matched a struct or variable in another unit: nothing stale */
			finding_free(&fs->v[i]);
		}
		for (size_t j = i + 1; j < fs->n; j++)
			if (done[j] == 2) {
				finding_free(&fs->v[j]);
				done[j] = 1;
			}
		free(entry);
		free(file);
		free(hint);
	}
	free(done);
	free(fs->v);
	*fs = out;
}
