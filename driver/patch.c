// SPDX-License-Identifier: GPL-2.0
/*
 * patch.c -- patch-only mode: which structs and functions a change touches.
 *
 * Like "checkpatch.pl --git", only what the change touches is reported: a
 * finding stays when its line, or the struct/union/function around it (in
 * the file as it is now), contains a line the diff adds or changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"

static struct patch_file *patch_file_for(struct patch *p, const char *abspath)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].abspath, abspath))
			return &p->v[i];
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	p->v[p->n].abspath = xstrdup(abspath);
	return &p->v[p->n++];
}

static void add_line(struct patch_file *pf, unsigned l)
{
	if (pf->n == pf->cap) {
		pf->cap = pf->cap ? 2 * pf->cap : 64;
		pf->lines = xrealloc(pf->lines, pf->cap * sizeof(*pf->lines));
	}
	pf->lines[pf->n++] = l;
}

int patch_parse(const char *text, const char *base, struct patch *p)
{
	struct patch_file *cur = NULL;
	unsigned newline = 0, lineno = 0;
	int in_hunk = 0;
	const char *s = text;
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		lineno++;
		if (len >= 4 && !strncmp(s, "+++ ", 4) && (!in_hunk || newline == 0 || 1)) {
			/* "+++ b/path" (maybe followed by a tab and a date) */
			const char *n = s + 4, *ne = n;
			while (ne < s + len && *ne != '\t') ne++;
			while (ne > n && ne[-1] == ' ') ne--;
			in_hunk = 0;
			if (ne - n == 9 && !strncmp(n, "/dev/null", 9)) { cur = NULL; goto next; }
			const char *slash = memchr(n, '/', ne - n);
			if (slash) n = slash + 1;
			char *rel = xstrndup(n, ne - n);
			char *full = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", base, rel);
			char *abs = canon_path(full);
			if (!abs && rel[0] != '/') {
				/* not under base: try the current directory */
				char *alt = canon_path(rel);
				if (alt) { free(full); full = xstrdup(alt); abs = alt; }
			}
			cur = patch_file_for(p, abs ? abs : full);
			free(abs); free(full); free(rel);
			goto next;
		}
		if (len >= 3 && !strncmp(s, "@@ ", 3)) {
			const char *plus = memchr(s, '+', len);
			unsigned start = 0, count = 1;
			if (!plus || sscanf(plus + 1, "%u,%u", &start, &count) < 1) {
				fprintf(stderr, "cachehot: patch line %u: malformed hunk header\n", lineno);
				return -1;
			}
			if (cur && count == 0) {  /* pure deletion after line 'start' */
				add_line(cur, start);
				add_line(cur, start + 1);
			}
			newline = start;
			in_hunk = 1;
			goto next;
		}
		if (in_hunk && cur) {
			if (len > 0 && s[0] == '+') { add_line(cur, newline); newline++; }
			else if (len > 0 && s[0] == '-') {
				/* a removed line: the spot between its neighbours changed */
				add_line(cur, newline);
			}
			else if (len == 0 || s[0] == ' ') newline++;
		}
next:
		s = e ? e + 1 : s + len;
	}
	return 0;
}

int patch_from_file(const char *path, struct patch *p)
{
	char cwd[PATH_MAX];
	char *text = read_file(path, NULL);
	int r;
	if (!text) {
		fprintf(stderr, "cachehot: cannot read patch %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* a unified diff names its files in "+++ " lines; without one every
	 * finding would be dropped as "not touched" */
	if (strncmp(text, "+++ ", 4) && !strstr(text, "\n+++ ")) {
		fprintf(stderr, "cachehot: %s is not a unified diff (no '+++ FILE' line)\n", path);
		free(text);
		return -1;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		free(text);
		fprintf(stderr, "cachehot: getcwd: %s\n", strerror(errno));
		return -1;
	}
	/* Paths in a patch are relative to the top of the tree: inside a git
	 * work tree that is its top, else the current directory. */
	char *top = NULL;
	char *av[] = { "git", "rev-parse", "--show-toplevel", NULL };
	if (run_capture(av, NULL, &top) == 0 && top[0] == '/')
		top[strcspn(top, "\n")] = 0;
	else {
		free(top);
		top = xstrdup(cwd);
	}
	r = patch_parse(text, top, p);
	free(top);
	free(text);
	return r;
}

int patch_from_git(const char *rev, struct patch *p)
{
	char *top = NULL, *diff = NULL;
	char *a1[] = { "git", "rev-parse", "--show-toplevel", NULL };
	char *a2[] = { "git", "diff", "--no-color", "--no-ext-diff", "--no-renames", "-U0",
		       (char *)rev, "--", NULL };
	int st, r = -1;
	if (rev[0] == '-') {
		fprintf(stderr, "cachehot: --diff: bad revision '%s'\n", rev);
		return -1;
	}
	st = run_capture(a1, NULL, &top);
	if (st != 0) {
		fprintf(stderr, "cachehot: --diff needs a git work tree: %s", top ? top : "\n");
		goto out;
	}
	top[strcspn(top, "\n")] = 0;
	st = run_capture(a2, NULL, &diff);
	if (st != 0) {
		fprintf(stderr, "cachehot: git diff %s failed: %s", rev, diff ? diff : "\n");
		goto out;
	}
	r = patch_parse(diff, top, p);
out:
	free(top);
	free(diff);
	return r;
}

void patch_free(struct patch *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].abspath);
		free(p->v[i].lines);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

void patch_filter(const struct patch *p, struct findings *fs)
{
	size_t o = 0;
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		const struct patch_file *pf = NULL;
		int keep = 0;
		for (size_t j = 0; j < p->n; j++)
			if (!strcmp(p->v[j].abspath, f->abspath))
				pf = &p->v[j];
		if (pf) {
			char *text = read_file(f->abspath, NULL);
			struct scopes sc = {0};
			const struct scope *s = NULL;
			if (text) {
				scan_scopes(text, &sc);
				s = scope_at(&sc, f->line);
			}
			for (size_t k = 0; k < pf->n && !keep; k++) {
				unsigned l = pf->lines[k];
				if (l == f->line || (s && l >= s->first && l <= s->last))
					keep = 1;
			}
			scopes_free(&sc);
			free(text);
		}
		if (keep)
			fs->v[o++] = *f;
		else
			finding_free(f);
	}
	fs->n = o;
}
