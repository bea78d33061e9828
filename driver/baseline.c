// SPDX-License-Identifier: GPL-2.0
/*
 * baseline.c -- known findings to suppress, keyed on check, struct and
 * field (never line numbers, so that a baseline survives unrelated edits).
 *
 * File format, one finding per line, '#' starts a comment:
 *     CHECK STRUCT FIELD
 * e.g. "cachehot-false-sharing page_counter usage"; '-' stands for an
 * unknown struct or field.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

static const char *orno(const char *s) { return s && *s ? s : "-"; }

int baseline_apply(const char *path, struct findings *fs)
{
	char *text = read_file(path, NULL);
	struct strv keys = {0};
	unsigned lineno = 0;
	size_t o = 0;
	int removed = 0;
	if (!text) {
		fprintf(stderr, "cachehot: cannot read baseline %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (char *s = text, *e; *s; s = e) {
		char c[256], st[256], fl[256], extra[2];
		e = strchr(s, '\n');
		if (e) *e++ = 0; else e = s + strlen(s);
		lineno++;
		char *h = strchr(s, '#');
		if (h) *h = 0;
		if (strspn(s, " \t\r") == strlen(s))
			continue;
		if (sscanf(s, "%255s %255s %255s %1s", c, st, fl, extra) != 3 ||
		    strncmp(c, "cachehot-", 9)) {
			fprintf(stderr, "cachehot: %s:%u: expected 'CHECK STRUCT FIELD' (e.g. "
				"'cachehot-false-sharing page_counter usage')\n", path, lineno);
			strv_free(&keys);
			free(text);
			return -1;
		}
		char *k = xasprintf("%s %s %s", c, st, fl);
		strv_push(&keys, k);
		free(k);
	}
	free(text);
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		char *k = xasprintf("%s %s %s", f->check, orno(f->scope), orno(f->field));
		int hit = 0;
		for (size_t j = 0; j < keys.n && !hit; j++)
			hit = !strcmp(keys.v[j], k);
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
	return removed;
}

static int write_keys(FILE *out, void *arg)
{
	const struct findings *fs = arg;
	struct strv seen = {0};
	fprintf(out, "# cachehot baseline: known findings, one 'CHECK STRUCT FIELD' a line.\n"
		     "# Written by 'cachehot check --update-baseline'; see cachehot(1).\n");
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		char *k = xasprintf("%s %s %s", f->check, orno(f->scope), orno(f->field));
		int dup = 0;
		for (size_t j = 0; j < seen.n && !dup; j++)
			dup = !strcmp(seen.v[j], k);
		if (!dup) {
			fprintf(out, "%s\n", k);
			strv_push(&seen, k);
		}
		free(k);
	}
	strv_free(&seen);
	return 0;
}

int baseline_write(const char *path, const struct findings *fs)
{
	return write_atomic(path, write_keys, (void *)fs);
}
