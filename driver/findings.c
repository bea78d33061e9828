// SPDX-License-Identifier: GPL-2.0
/* findings.c -- findings from engine records (a records file, or the
 * record lines among a build log's or an engine's other output: one
 * reader, core/findings.c); merge, order and key findings. Nothing here
 * reads a message: what a finding is about comes from its record. */
#define _GNU_SOURCE
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
	f.check = xstrdup(r->check_id ? r->check_id : ch_check_id(r->check));
	f.message = xstrdup(r->message);
	f.engines = xstrdup(engine);
	f.scope = r->scope ? xstrdup(r->scope) : r->function ? xstrdup(r->function) : NULL;
	f.field = r->field ? xstrdup(r->field) : NULL;
	f.other = r->other ? xstrdup(r->other) : NULL;
	f.lines = r->line_size ? xasprintf("%s%u", r->predicted ? "p" : "", r->line_size) : NULL;
	f.ident = r->ident ? xstrdup(r->ident) : NULL;
	findings_add(a->fs, &f);
	a->n++;
	return 0;
}

long findings_from_records(struct findings *fs, const char *path, const char *dir)
{
	struct rec_arg a = { fs, dir, 0 };
	char *err = NULL;
	if (ch_records_read(path, add_record, &a, &err) < 0) {
		fprintf(stderr, "cachehot: %s\n", err);
		free(err);
		return -1;
	}
	return a.n;
}

long findings_from_text(struct findings *fs, FILE *f, const char *name, const char *dir,
			struct ch_records_scan *scan)
{
	struct rec_arg a = { fs, dir, 0 };
	char *err = NULL;
	if (ch_records_read_stream(f, name, CH_RECORDS_IN_TEXT, add_record, &a, &err, scan) < 0) {
		fprintf(stderr, "cachehot: %s\n", err);
		free(err);
		return -1;
	}
	return a.n;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
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

/* A compiler's per-unit note on a sidecar entry, by its record: "matched
 * no struct" (ident "unmatched": 1) or "matched no variable" (ident
 * "unmatched-variable": 2), with the entry, file, line and (variables)
 * hint "T.M" or NULL as heap strings; 0 for any other finding. */
static int unmatched_entry(const struct finding *f, char **entry, char **file, unsigned *line,
			   char **hint)
{
	int kind;
	if (strcmp(f->check, "cachehot") || !f->ident || !f->field)
		return 0;
	kind = !strcmp(f->ident, "unmatched") ? 1 : !strcmp(f->ident, "unmatched-variable") ? 2 : 0;
	if (!kind)
		return 0;
	*entry = xstrdup(f->field);
	*file = xstrdup(f->abspath);   /* as the engine was given it */
	*line = f->line;
	*hint = kind == 2 && f->other ? xstrdup(f->other) : NULL;
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
