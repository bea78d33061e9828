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

/* What each check means: SARIF rule help and the JSON "help" field. */
static const struct rule_doc {
	const char *id, *name, *shortd, *help;
} rule_docs[] = {
	{ "cachehot-false-sharing", "FalseSharing",
	  "Fields written on different hot paths share a cache line",
	  "A field annotated __cacheline_hot (or in a hot group) shares a cache line with a "
	  "field of another hot group, a read-mostly field or an exclusive field, at the "
	  "configured line size (and at the predicted larger one with predict=N). Writers on "
	  "different CPUs then bounce the line. Move the fields apart or separate them with "
	  "CACHELINE_PADDING(). See cachehot-annotations(7)." },
	{ "cachehot-padding-macro", "PaddingMacro",
	  "Padding does not use CACHELINE_PADDING or does not isolate what it should",
	  "Hot groups are separated by a private padding type (PC_PADDING, MEMCG_PADDING, "
	  "ZONE_PADDING), a hand-sized byte array or an alignment attribute where the "
	  "kernel's unified CACHELINE_PADDING() (struct cacheline_padding) expresses the "
	  "intent, or the padding no longer isolates the fields it was written for. "
	  "See cachehot-annotations(7)." },
	{ "cachehot-group-span", "GroupSpan",
	  "A group of fields spans more cache lines than its bytes need",
	  "A kernel cacheline group (__cacheline_group_begin/end) or a __cacheline_hot_group "
	  "group touches one cache line more than its size requires, so every fast-path pass "
	  "over it loads an extra line. Shift the group (move the named bytes of fields "
	  "before it to after it) or start it on a line boundary with "
	  "__cacheline_group_begin_aligned(). See cachehot-annotations(7)." },
	{ "cachehot-group-markers", "GroupMarkers",
	  "Kernel cacheline group markers are unbalanced or overlap",
	  "A __cacheline_group_begin(G) has no __cacheline_group_end(G) (or the reverse), a "
	  "group begins twice, or one group begins inside another. Such groups are not "
	  "checked, and CACHELINE_ASSERT_GROUP_* asserts on them do not mean what they say. "
	  "See cachehot-annotations(7)." },
	{ "cachehot-net-cachelines", "NetCachelines",
	  "The kernel's net_cachelines table and the struct disagree",
	  "A row of Documentation/networking/net_cachelines names no member of the struct "
	  "(renamed, moved or configured out), or a member has no row. See "
	  "docs/net-cachelines.md." },
	{ "cachehot-group-assert", "GroupAssert",
	  "A CACHELINE_ASSERT_GROUP_SIZE/_MEMBER assert is stale or missing",
	  "A hand-kept cacheline group assert no longer holds on the real layout, has slack, "
	  "names a member or group that is gone, or a group member has none. "
	  "`cachehot asserts STRUCT OBJ` prints the current block. See docs/kernel-groups.md." },
	{ "cachehot-array-sharing", "ArraySharing",
	  "Neighbouring elements of a per-thread array share a cache line",
	  "An array whose elements are each written by their own thread or CPU "
	  "(__cacheline_per_thread, sidecar 'NAME[] per_thread') has an element size that "
	  "is not a multiple of the cache line, or does not start on a line: a hot field of "
	  "element i shares a line with element i+1, so two threads write one line. Align "
	  "the element type to the line (_Alignas on its first member; "
	  "____cacheline_aligned_in_smp in the kernel). See cachehot-annotations(7)." },
	{ "cachehot-counter-batch", "CounterBatch",
	  "A statistics counter is updated once per element of a loop",
	  "A shared statistics counter (__mod_lruvec_state, mod_node_page_state, the "
	  "*_state/*_event(s) family or a counter-updaters entry) is updated inside a loop, "
	  "one atomic or per-CPU update per element, where the target and the item do not "
	  "change over the loop (or take a few values). Accumulate in a local (or a keyed "
	  "set of locals) and apply once after the loop, before any early exit and before "
	  "a lock is dropped. See docs/checks.rst." },
	{ "cachehot-global-sharing", "GlobalSharing",
	  "A hot global variable shares a cache line with other data",
	  "A global variable annotated __cacheline_hot or __cacheline_exclusive (or named "
	  "'VARIABLE hot' in the annotations file) shares a cache line with other variables "
	  "in the linked binary, as its ELF symbol table places them (cachehot-layout). Every "
	  "write to it takes the line from the CPUs using its neighbours. Give it a line of "
	  "its own: __cacheline_aligned_in_smp in the kernel (or __read_mostly on its "
	  "readers), _Alignas(L) on it and on the variable after it elsewhere. "
	  "See cachehot-annotations(7)." },
	{ "cachehot", "Annotations",
	  "An annotation cannot be applied: a sidecar entry or attribute names nothing",
	  "A sidecar entry names no member of its struct (the member was renamed or removed, "
	  "or the entry is misspelt), matches no struct of the units checked, or an "
	  "annotation attribute is misused. The layout it was meant to protect is not "
	  "checked until the annotation is corrected. See cachehot-annotations(7)." },
	{ "cachehot-inline-addr", "InlineAddress",
	  "The address of an inline function is taken, emitting an out-of-line copy",
	  "Taking the address of a static inline function (a function pointer, an ops "
	  "table, a conditional callback) makes the compiler emit an out-of-line copy in "
	  "every object that does so. Mark intended uses 'FUNCTION() addressable' in the "
	  "annotations file, or call the function directly. See cachehot(1)." },
};

static const struct rule_doc *rule_doc(const char *id)
{
	for (size_t i = 0; i < sizeof(rule_docs) / sizeof(rule_docs[0]); i++)
		if (!strcmp(rule_docs[i].id, id))
			return &rule_docs[i];
	return NULL;
}

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

/* partialFingerprints["cachehotKey/v2"]: the file and the finding's whole
 * identity (check, struct, field, partner, line size), which survive line
 * moves; findings whose identity repeats in one run (a struct defined twice
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

	/* Rules: the three built-in checks first, then any other id seen. */
	for (size_t i = 0; i < sizeof(rule_docs) / sizeof(rule_docs[0]); i++)
		if (strcmp(rule_docs[i].id, "cachehot") &&   /* these listed when used */
		    strcmp(rule_docs[i].id, "cachehot-net-cachelines") &&
		    strcmp(rule_docs[i].id, "cachehot-group-assert"))
			strv_push(&ids, rule_docs[i].id);
	for (size_t i = 0; i < fs->n; i++) {
		int seen = 0;
		for (size_t j = 0; j < ids.n && !seen; j++)
			seen = !strcmp(ids.v[j], fs->v[i].check);
		if (!seen)
			strv_push(&ids, fs->v[i].check);
	}
	for (size_t j = 0; j < ids.n; j++) {
		const struct rule_doc *d = rule_doc(ids.v[j]);
		json_t *r = json_object(), *cfg = json_object();
		json_object_set_new(r, "id", json_string(ids.v[j]));
		if (d) {
			json_object_set_new(r, "name", json_string(d->name));
			json_object_set_new(r, "shortDescription", text_obj(d->shortd));
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
		json_object_set_new(fp, "cachehotKey/v2", json_string(key));
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
