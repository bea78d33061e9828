// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c -- known findings to suppress, keyed on the whole identity of
 * a finding (never line numbers, so that a baseline survives unrelated
 * edits; never less than the identity, so that a new partner field or a
 * new line size is a new finding).
 *
 * File format, one finding per line, '#' starts a comment:
 *     CHECK STRUCT FIELD OTHER LINES
 * e.g. "cachehot-false-sharing page_counter min usage 64": the check, the
 * struct (or function), the field, the partner field of a conflict and the
 * line size in bytes ("p128": the predicted line pair); '-' stands for none.
 * Lines of the older form "CHECK STRUCT FIELD" are still read: they match
 * that field with any partner, and a note says to rewrite the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_key(const struct strv *keys, const char *k)
{
	return keys->n && bsearch(&k, keys->v, keys->n, sizeof(char *), cmp_key) != NULL;
}

int baseline_apply(const char *path, struct findings *fs)
{
	char *text = read_file(path, NULL);
	struct strv keys = {0}, old = {0};
	unsigned lineno = 0;
	size_t o = 0;
	int removed = 0;
	if (!text) {
		fprintf(stderr, "cachehot: cannot read baseline %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (char *s = text, *e; *s; s = e) {
		char w[5][256], extra[2];
		int n;
		e = strchr(s, '\n');
		if (e) *e++ = 0; else e = s + strlen(s);
		lineno++;
		char *h = strchr(s, '#');
		if (h) *h = 0;
		if (strspn(s, " \t\r") == strlen(s))
			continue;
		n = sscanf(s, "%255s %255s %255s %255s %255s %1s", w[0], w[1], w[2], w[3], w[4], extra);
		if ((n != 5 && n != 3) || strncmp(w[0], "cachehot", 8)) {
			fprintf(stderr, "cachehot: %s:%u: expected 'CHECK STRUCT FIELD OTHER LINES' (e.g. "
				"'cachehot-false-sharing page_counter min usage 64')\n", path, lineno);
			strv_free(&keys);
			strv_free(&old);
			free(text);
			return -1;
		}
		char *k = n == 5 ? xasprintf("%s %s %s %s %s", w[0], w[1], w[2], w[3], w[4])
				 : xasprintf("%s %s %s", w[0], w[1], w[2]);
		strv_push(n == 5 ? &keys : &old, k);
		free(k);
	}
	free(text);
	if (keys.n)
		qsort(keys.v, keys.n, sizeof(char *), cmp_key);
	if (old.n) {
		qsort(old.v, old.n, sizeof(char *), cmp_key);
		fprintf(stderr, "cachehot: %s: %zu entries in the old 'CHECK STRUCT FIELD' form match "
			"that field with any partner; rewrite the file with --update-baseline\n",
			path, old.n);
	}
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		char *k = finding_key(f);
		int hit = has_key(&keys, k);
		if (!hit && old.n) {
			/* the first three words */
			char *sp = strchr(k, ' ');
			sp = sp ? strchr(sp + 1, ' ') : NULL;
			sp = sp ? strchr(sp + 1, ' ') : NULL;
			if (sp)
				*sp = 0;
			hit = has_key(&old, k);
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
	strv_free(&old);
	return removed;
}

static int write_keys(FILE *out, void *arg)
{
	const struct findings *fs = arg;
	struct strv ks = {0};
	fprintf(out, "# cachehot baseline: known findings, one 'CHECK STRUCT FIELD OTHER LINES' a line.\n"
		     "# Written by 'cachehot check --update-baseline'; see cachehot(1).\n");
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
