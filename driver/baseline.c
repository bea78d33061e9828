// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c -- known findings to suppress, keyed on the whole identity of
 * a finding as its record gives it (never the message, never line numbers:
 * a baseline survives rewording and unrelated edits; never less than the
 * identity, so that a new partner field or a new line size is a new
 * finding).
 *
 * File format (version 2), one finding per line, '#' starts a comment:
 *     CHECK STRUCT FIELD OTHER LINES IDENT
 * e.g. "cachehot-false-sharing page_counter min usage 64 -": the check, the
 * struct (or function), the field, the partner field of a conflict, the
 * line size in bytes ("p128": the predicted size) and the record's further
 * identity (a group-assert's assert: "member:G:M"); '-' stands for none, a
 * blank or '%' inside a word is written %20 / %25. The first line says
 * "# cachehot baseline v2".
 * Older files are still read (docs/cachehot.rst, "Baselines"): the
 * version-1 form "CHECK STRUCT FIELD OTHER LINES", whose words were taken
 * from the message text, matches a finding with the same check, struct and
 * field and, where it has no '-', the same partner and line size; the
 * oldest "CHECK STRUCT FIELD" matches that field with any partner. A note
 * then says to rewrite the file with --update-baseline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

#define BASELINE_V2 "# cachehot baseline v2"

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_key(const struct strv *keys, const char *k)
{
	return keys->n && bsearch(&k, keys->v, keys->n, sizeof(char *), cmp_key) != NULL;
}

/* w[0..n) of an old entry (n 3 or 5) against the words of finding key k:
 * equal, or the entry says '-' for OTHER or LINES. */
static int old_match(char *const *w, int n, char *const *kw)
{
	for (int i = 0; i < n; i++)
		if (strcmp(w[i], kw[i]) && !(i >= 3 && !strcmp(w[i], "-")))
			return 0;
	return 1;
}

struct old_entry { char *w[5]; int n; };

/* order of old entries: by check, struct, field */
static int cmp3(char *const *a, char *const *b)
{
	int c = 0;
	for (int i = 0; i < 3 && !c; i++)
		c = strcmp(a[i], b[i]);
	return c;
}
static int cmp_old(const void *a, const void *b)
{
	return cmp3(((const struct old_entry *)a)->w, ((const struct old_entry *)b)->w);
}

int baseline_apply(const char *path, struct findings *fs)
{
	char *text = read_file(path, NULL);
	struct strv keys = {0};
	struct old_entry *old = NULL;
	size_t nold = 0, capold = 0;
	unsigned lineno = 0;
	size_t o = 0;
	int removed = 0, v2 = 0;
	if (!text) {
		fprintf(stderr, "cachehot: cannot read baseline %s: %s\n", path, strerror(errno));
		return -1;
	}
	v2 = !strncmp(text, BASELINE_V2, strlen(BASELINE_V2));
	for (char *s = text, *e; *s; s = e) {
		char w[6][256], extra[2];
		int n;
		e = strchr(s, '\n');
		if (e) *e++ = 0; else e = s + strlen(s);
		lineno++;
		char *h = strchr(s, '#');
		if (h) *h = 0;
		if (strspn(s, " \t\r") == strlen(s))
			continue;
		n = sscanf(s, "%255s %255s %255s %255s %255s %255s %1s", w[0], w[1], w[2], w[3],
			   w[4], w[5], extra);
		if ((v2 ? n != 6 : n != 5 && n != 3) || strncmp(w[0], "cachehot", 8)) {
			if (v2)
				fprintf(stderr, "cachehot: %s:%u: expected 'CHECK STRUCT FIELD OTHER LINES "
					"IDENT' (e.g. 'cachehot-false-sharing page_counter min usage "
					"64 -')\n", path, lineno);
			else
				fprintf(stderr, "cachehot: %s:%u: expected 'CHECK STRUCT FIELD OTHER "
					"LINES' (a baseline without the '" BASELINE_V2 "' line is "
					"of the older form; write it again with --update-baseline)\n",
					path, lineno);
			strv_free(&keys);
			for (size_t i = 0; i < nold; i++)
				for (int j = 0; j < old[i].n; j++)
					free(old[i].w[j]);
			free(old);
			free(text);
			return -1;
		}
		if (v2) {
			char *k = xasprintf("%s %s %s %s %s %s", w[0], w[1], w[2], w[3], w[4], w[5]);
			strv_push(&keys, k);
			free(k);
			continue;
		}
		if (nold == capold) {
			capold = capold ? 2 * capold : 16;
			old = xrealloc(old, capold * sizeof(*old));
		}
		old[nold].n = n;
		for (int j = 0; j < n; j++)
			old[nold].w[j] = xstrdup(w[j]);
		nold++;
	}
	free(text);
	if (keys.n)
		qsort(keys.v, keys.n, sizeof(char *), cmp_key);
	if (nold)
		qsort(old, nold, sizeof(*old), cmp_old);
	if (nold)
		fprintf(stderr, "cachehot: %s: %zu entries in an older baseline form (words from the "
			"message text) match by check, struct and field; rewrite the file with "
			"--update-baseline\n", path, nold);
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		char *k = finding_key(f);
		int hit = has_key(&keys, k);
		if (!hit && nold) {
			char *kw[6], *save = NULL, *copy = xstrdup(k);
			int nk = 0;
			for (char *t = strtok_r(copy, " ", &save); t && nk < 6; t = strtok_r(NULL, " ", &save))
				kw[nk++] = t;
			/* the run of entries of this check, struct and field */
			size_t lo = 0, hi = nold;
			while (nk == 6 && lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (cmp3(old[mid].w, kw) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (size_t j = lo; nk == 6 && j < nold && !hit && !cmp3(old[j].w, kw); j++)
				hit = old_match(old[j].w, old[j].n, kw);
			free(copy);
		}
		free(k);
		if (hit) {
			finding_free(f);
			removed++;
		} else {
			fs->v[o++] = *f;
		}
	}
	fs->n = o;
	strv_free(&keys);
	for (size_t i = 0; i < nold; i++)
		for (int j = 0; j < old[i].n; j++)
			free(old[i].w[j]);
	free(old);
	return removed;
}

static int write_keys(FILE *out, void *arg)
{
	const struct findings *fs = arg;
	struct strv ks = {0};
	fprintf(out, BASELINE_V2 ": known findings, one 'CHECK STRUCT FIELD OTHER LINES IDENT' "
		"a line.\n# Written by 'cachehot check --update-baseline'; see cachehot(1).\n");
	for (size_t i = 0; i < fs->n; i++) {
		char *k = finding_key(&fs->v[i]);
		strv_push(&ks, k);
		free(k);
	}
	if (ks.n)
		qsort(ks.v, ks.n, sizeof(char *), cmp_key);
	for (size_t i = 0; i < ks.n; i++)
		if (!i || strcmp(ks.v[i], ks.v[i - 1]))
			fprintf(out, "%s\n", ks.v[i]);
	strv_free(&ks);
	return 0;
}

int baseline_write(const char *path, const struct findings *fs)
{
	return write_atomic(path, write_keys, (void *)fs);
}
