// SPDX-License-Identifier: GPL-2.0
/*
 * report.c -- print findings as GCC-style lines, checkpatch.pl's shape,
 * JSON or SARIF 2.1.0 (the last two with jansson).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-core.h"

static const char *sev_name(enum sev s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

char *checkpatch_type(const char *check)
{
	char *t = xstrdup(check);
	for (char *p = t; *p; p++)
		*p = *p == '-' ? '_' : toupper((unsigned char)*p);
	return t;
}

/* Source line 'line' of file (no newline), heap; "" when unreadable. */
static char *source_line(const char *path, unsigned line)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = 0;
	unsigned l = 0;
	if (!f)
		return xstrdup("");
	while ((n = getline(&buf, &cap, f)) >= 0)
		if (++l == line)
			break;
	fclose(f);
	if (l != line || n < 0) {
		free(buf);
		return xstrdup("");
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static void write_gcc(FILE *out, const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		if (f->col)
			fprintf(out, "%s:%u:%u: %s: %s [%s]\n", f->file, f->line, f->col,
				sev_name(f->sev), f->message, f->check);
		else
			fprintf(out, "%s:%u: %s: %s [%s]\n", f->file, f->line,
				sev_name(f->sev), f->message, f->check);
	}
}

static void write_checkpatch(FILE *out, const struct findings *fs, const struct report_opts *o)
{
	int e, w, n;
	findings_count(fs, &e, &w, &n);
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		const char *level = f->sev == SEV_ERROR ? "ERROR" : f->sev == SEV_WARNING ? "WARNING" : "CHECK";
		char *type = checkpatch_type(f->check);
		if (o->terse) {
			fprintf(out, "%s:%u: %s:%s: %s\n", f->file, f->line, level, type, f->message);
		} else {
			char *src = source_line(f->abspath, f->line);
			fprintf(out, "%s:%s: %s\n#%u: FILE: %s:%u:\n+%s\n\n", level, type, f->message,
				f->line, f->file, f->line, src);
			free(src);
		}
		free(type);
	}
	if (n)
		fprintf(out, "total: %d errors, %d warnings, %d checks, %lu lines checked\n",
			e, w, n, o->lines_checked);
	else
		fprintf(out, "total: %d errors, %d warnings, %lu lines checked\n",
			e, w, o->lines_checked);
}

static json_t *engines_array(const char *list)
{
	json_t *a = json_array();
	char *copy = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		json_array_append_new(a, json_string(t));
	free(copy);
	return a;
}

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *build_json(const struct findings *fs)
{
	json_t *root = json_object(), *arr = json_array(), *sum = json_object();
	int e, w, n;
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(f->file));
		json_object_set_new(o, "line", json_integer(f->line));
		json_object_set_new(o, "column", json_integer(f->col));
		json_object_set_new(o, "severity", json_string(sev_name(f->sev)));
		json_object_set_new(o, "check", json_string(f->check));
		json_object_set_new(o, "message", json_string(f->message));
		json_object_set_new(o, "struct", str_or_null(f->scope));
		json_object_set_new(o, "field", str_or_null(f->field));
		json_object_set_new(o, "engines", engines_array(f->engines));
		json_array_append_new(arr, o);
	}
	findings_count(fs, &e, &w, &n);
	json_object_set_new(root, "tool", json_string("cachehot"));
	json_object_set_new(root, "version", json_string(CH_VERSION));
	json_object_set_new(root, "findings", arr);
	json_object_set_new(sum, "errors", json_integer(e));
	json_object_set_new(sum, "warnings", json_integer(w));
	json_object_set_new(sum, "notes", json_integer(n));
	json_object_set_new(root, "summary", sum);
	return root;
}

/* Percent-encode a path into a URI reference (RFC 3986 unreserved and '/'
 * kept); absolute paths become file:// URIs. */
static char *path_uri(const char *path)
{
	size_t n = strlen(path);
	char *u = xmalloc(3 * n + 8), *q = u;
	if (path[0] == '/') { memcpy(q, "file://", 7); q += 7; }
	for (const char *p = path; *p; p++) {
		unsigned char c = *p;
		if (isalnum(c) || strchr("-._~/", c))
			*q++ = c;
		else
			q += sprintf(q, "%%%02X", c);
	}
	*q = 0;
	return u;
}

static json_t *text_obj(const char *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "text", json_string(s));
	return o;
}

/* partialFingerprints["cachehotKey/v3"]: the file and the finding's whole
 * identity from its record (check, struct, field, partner, line size,
 * ident), which survive line moves and rewording (v2 took the words from
 * the message text); findings whose identity repeats in one run (a struct defined twice
 * in one file) get their ordinal among them ("#2"), so every result has its
 * own. fs is sorted (findings_sort_dedupe), so the ordinal is stable.
 * Returns n heap strings. */
static const char *const *sarif_keys_base;
static int cmp_idx(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sarif_keys_base[x], sarif_keys_base[y]);
	return c ? c : (x < y ? -1 : x > y);
}

static char **sarif_keys(const struct findings *fs)
{
	char **k = xmalloc((fs->n + 1) * sizeof(char *));
	size_t *idx = xmalloc((fs->n + 1) * sizeof(size_t));
	for (size_t i = 0; i < fs->n; i++) {
		char *id = finding_key(&fs->v[i]);
		for (char *p = id; *p; p++)
			if (*p == ' ')
				*p = ':';
		k[i] = xasprintf("%s:%s", fs->v[i].file, id);
		free(id);
		idx[i] = i;
	}
	sarif_keys_base = (const char *const *)k;
	qsort(idx, fs->n, sizeof(size_t), cmp_idx);
	for (size_t a = 0, b; a < fs->n; a = b) {
		for (b = a + 1; b < fs->n && !strcmp(k[idx[a]], k[idx[b]]); b++)
			;
		if (b - a > 1)
			for (size_t j = a; j < b; j++) {
				char *n = xasprintf("%s#%zu", k[idx[j]], j - a + 1);
				free(k[idx[j]]);
				k[idx[j]] = n;
			}
	}
	free(idx);
	return k;
}

static json_t *build_sarif(const struct findings *fs)
{
	json_t *root = json_object(), *runs = json_array(), *run = json_object();
	json_t *tool = json_object(), *drv = json_object(), *rules = json_array();
	json_t *results = json_array();
	struct strv ids = {0};
	char **keys = sarif_keys(fs);

	/* Rules: the registry's listed checks first (core/registry.c), then
	 * any other id seen. */
	for (int c = 0; c < CH_CHECK__ROWS; c++)
		if (ch_check_info((enum ch_check)c)->sarif_listed)
			strv_push(&ids, ch_check_info((enum ch_check)c)->id);
	for (size_t i = 0; i < fs->n; i++) {
		int seen = 0;
		for (size_t j = 0; j < ids.n && !seen; j++)
			seen = !strcmp(ids.v[j], fs->v[i].check);
		if (!seen)
			strv_push(&ids, fs->v[i].check);
	}
	for (size_t j = 0; j < ids.n; j++) {
		const struct ch_check_info *d = ch_check_info_by_id(ids.v[j]);
		json_t *r = json_object(), *cfg = json_object();
		json_object_set_new(r, "id", json_string(ids.v[j]));
		if (d) {
			json_object_set_new(r, "name", json_string(d->sarif_name));
			json_object_set_new(r, "shortDescription", text_obj(d->summary));
			json_object_set_new(r, "fullDescription", text_obj(d->help));
			json_object_set_new(r, "help", text_obj(d->help));
		} else {
			char *h = xasprintf("Finding of the Coccinelle rule %s (cocci/%s.cocci).",
					    ids.v[j], ids.v[j] + 9);
			json_object_set_new(r, "shortDescription", text_obj(h));
			json_object_set_new(r, "help", text_obj(h));
			free(h);
		}
		json_object_set_new(cfg, "level", json_string("warning"));
		json_object_set_new(r, "defaultConfiguration", cfg);
		json_array_append_new(rules, r);
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		json_t *res = json_object(), *locs = json_array(), *loc = json_object();
		json_t *phys = json_object(), *art = json_object(), *reg = json_object();
		json_t *fp = json_object(), *props = json_object();
		size_t idx = 0;
		for (size_t j = 0; j < ids.n; j++)
			if (!strcmp(ids.v[j], f->check))
				idx = j;
		char *uri = path_uri(f->file);
		char *key = xstrdup(keys[i]);
		json_object_set_new(res, "ruleId", json_string(f->check));
		json_object_set_new(res, "ruleIndex", json_integer(idx));
		json_object_set_new(res, "level", json_string(sev_name(f->sev)));
		json_object_set_new(res, "message", text_obj(f->message));
		json_object_set_new(art, "uri", json_string(uri));
		if (f->file[0] != '/')
			json_object_set_new(art, "uriBaseId", json_string("%SRCROOT%"));
		json_object_set_new(phys, "artifactLocation", art);
		if (f->line) {
			json_object_set_new(reg, "startLine", json_integer(f->line));
			if (f->col)
				json_object_set_new(reg, "startColumn", json_integer(f->col));
			json_object_set_new(phys, "region", reg);
		} else {
			json_decref(reg);
		}
		json_object_set_new(loc, "physicalLocation", phys);
		json_array_append_new(locs, loc);
		json_object_set_new(res, "locations", locs);
		json_object_set_new(fp, "cachehotKey/v3", json_string(key));
		json_object_set_new(res, "partialFingerprints", fp);
		json_object_set_new(props, "engines", engines_array(f->engines));
		json_object_set_new(res, "properties", props);
		json_array_append_new(results, res);
		free(uri);
		free(key);
	}
	strv_free(&ids);
	for (size_t i = 0; i < fs->n; i++)
		free(keys[i]);
	free(keys);
	json_object_set_new(drv, "name", json_string("cachehot"));
	json_object_set_new(drv, "version", json_string(CH_VERSION));
	json_object_set_new(drv, "semanticVersion", json_string(CH_VERSION));
	json_object_set_new(drv, "rules", rules);
	json_object_set_new(tool, "driver", drv);
	json_object_set_new(run, "tool", tool);
	json_object_set_new(run, "results", results);
	json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
	/* relative locations are relative to the directory cachehot ran in */
	char cwd[4096];
	if (getcwd(cwd, sizeof(cwd) - 1)) {
		json_t *bases = json_object(), *root_loc = json_object();
		char *dir = xasprintf("%s/", strcmp(cwd, "/") ? cwd : "");
		char *uri = path_uri(dir);
		json_object_set_new(root_loc, "uri", json_string(uri));
		json_object_set_new(bases, "%SRCROOT%", root_loc);
		json_object_set_new(run, "originalUriBaseIds", bases);
		free(uri);
		free(dir);
	}
	json_array_append_new(runs, run);
	json_object_set_new(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_set_new(root, "version", json_string("2.1.0"));
	json_object_set_new(root, "runs", runs);
	return root;
}

int report_write(FILE *out, const struct findings *fs, const struct report_opts *o)
{
	json_t *j = NULL;
	switch (o->format) {
	case FMT_GCC: write_gcc(out, fs); return 0;
	case FMT_CHECKPATCH: write_checkpatch(out, fs, o); return 0;
	case FMT_JSON: j = build_json(fs); break;
	case FMT_SARIF: j = build_sarif(fs); break;
	case FMT_HTML: return report_html_write(out, fs);
	}
	int r = json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(j);
	return r < 0 ? -1 : 0;
}
