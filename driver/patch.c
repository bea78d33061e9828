// SPDX-License-Identifier: GPL-2.0
/*
 * patch.c -- patch-only mode: which structs and functions a change touches.
 *
 * Like "checkpatch.pl --git", only what the change touches is reported: a
 * finding stays when its line, or the struct/union/function around it (in
 * the file as it is now), contains a line the diff adds or changes.
 *
 * Diffs are parsed by libgit2 (git_diff_from_buffer): quoted paths, renames,
 * CRLF line ends and binary hunks are its business. libgit2 1.5 reads only
 * git's format with "a/" and "b/" prefixes, so the text is first brought to
 * that form in one linear pass (prefix_sections): sections of a
 * "--no-prefix" (or diff.noprefix=true) diff get the prefixes, and a plain
 * unified diff ("diff -u", "---"/"+++" without a "diff --git" line) gets the
 * "diff --git" line git would have written. Paths are then relative to the
 * top of the tree, as with "patch -p1".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-core.h"

/* ---- bringing a diff to the form libgit2 reads -------------------------- */

struct buf { char *s; size_t n, cap; };

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

static int starts(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);
	return len >= n && !memcmp(s, p, n);
}

/* A path as written after "--- "/"+++ " (quoted or not), without a
 * trailing tab and timestamp or a CR. */
static size_t path_len(const char *s, size_t len)
{
	size_t i;
	if (len && s[0] == '"') {
		for (i = 1; i < len; i++) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				return i + 1;
		}
		return len;
	}
	for (i = 0; i < len && s[i] != '\t' && s[i] != '\r'; i++)
		;
	while (i > 0 && s[i - 1] == ' ')
		i--;
	return i;
}

/* Write path with prefix pre ("a/") added, inside the quotes if quoted. */
static void add_prefixed(struct buf *b, const char *pre, const char *p, size_t n)
{
	if (n == 9 && !memcmp(p, "/dev/null", 9)) {
		buf_add(b, p, n);
	} else if (n && p[0] == '"') {
		buf_add(b, "\"", 1);
		buf_add(b, pre, 2);
		buf_add(b, p + 1, n - 1);
	} else {
		buf_add(b, pre, 2);
		buf_add(b, p, n);
	}
}

static int has_prefix(const char *p, size_t n, char c)
{
	if (n && p[0] == '"') { p++; n--; }
	return n >= 2 && p[0] == c && p[1] == '/';
}

/* The two paths of "diff --git X Y" when both are quoted, or unquoted and
 * equal halves (no rename): X at *x (length *xn), Y likewise. 0 if they
 * cannot be told apart (an unquoted rename with spaces: git writes
 * "rename from/to" lines, and libgit2 takes the names from there). */
static int git_line_paths(const char *s, size_t len, const char **x, size_t *xn,
			  const char **y, size_t *yn)
{
	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (len && s[0] == '"') {
		*x = s;
		*xn = path_len(s, len);
		if (*xn + 1 >= len || s[*xn] != ' ')
			return 0;
		*y = s + *xn + 1;
		*yn = len - *xn - 1;
		return 1;
	}
	/* unquoted: split at the space that makes the halves' names equal
	 * after their first component, else at the only space */
	const char *sp = NULL;
	int spaces = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ' ') {
			spaces++;
			if (!sp)
				sp = s + i;
			size_t a = i, bl = len - i - 1;
			if (a == bl && !memcmp(s, s + i + 1, a)) {
				*x = s; *xn = a; *y = s + i + 1; *yn = bl;
				return 1;
			}
			const char *as = memchr(s, '/', a), *bs = memchr(s + i + 1, '/', bl);
			if (as && bs && (size_t)(s + a - as) == (size_t)(s + len - bs) &&
			    !memcmp(as, bs, (size_t)(s + a - as))) {
				*x = s; *xn = a; *y = s + i + 1; *yn = bl;
				return 1;
			}
		}
	if (spaces == 1) {
		*x = s; *xn = (size_t)(sp - s); *y = sp + 1; *yn = len - *xn - 1;
		return 1;
	}
	return 0;
}

/* Append a C-quoted string to b ("a/" prefix pre, then n bytes of p). */
static void add_quoted(struct buf *b, const char *pre, const char *p, size_t n)
{
	buf_add(b, "\"", 1);
	buf_add(b, pre, strlen(pre));
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\\')
			buf_add(b, "\\", 1);
		buf_add(b, p + i, 1);
	}
	buf_add(b, "\"", 1);
}

/* The "diff --git" line of a section whose names have unquoted spaces,
 * from its "rename from X"/"rename to Y" lines (no prefixes there) or its
 * "--- a/X"/"+++ b/Y" lines, written quoted to b. s: the line after
 * "diff --git". 0 if the section names neither (left as it is). */
static int header_names(const char *s, const char *end, struct buf *b)
{
	const char *from = NULL, *to = NULL;
	size_t fn = 0, tn = 0;
	int strip = 0;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t len = e ? (size_t)(e - s) : (size_t)(end - s);
		while (len && s[len - 1] == '\r')
			len--;
		if (starts(s, len, "@@ ") || starts(s, len, "diff --git "))
			break;
		if (starts(s, len, "rename from ")) { from = s + 12; fn = len - 12; strip = 0; }
		else if (starts(s, len, "rename to ")) { to = s + 10; tn = len - 10; }
		else if (!from && starts(s, len, "--- ") && s[4] != '"') {
			from = s + 4; fn = path_len(s + 4, len - 4); strip = 1;
		} else if (!to && starts(s, len, "+++ ") && s[4] != '"') {
			to = s + 4; tn = path_len(s + 4, len - 4);
		}
		s = e ? e + 1 : end;
	}
	if (!from || !to || from[0] == '"' || to[0] == '"')
		return 0;
	if (strip) {   /* "--- a/X": the prefix is already there */
		const char *fs = memchr(from, '/', fn), *ts = memchr(to, '/', tn);
		if (!fs || !ts)
			return 0;
		fn -= (size_t)(fs + 1 - from); from = fs + 1;
		tn -= (size_t)(ts + 1 - to); to = ts + 1;
	}
	buf_add(b, "diff --git ", 11);
	add_quoted(b, "a/", from, fn);
	buf_add(b, " ", 1);
	add_quoted(b, "b/", to, tn);
	buf_add(b, "\n", 1);
	return 1;
}

/* One pass over the diff: returns the text libgit2 is given (heap). */
static char *prefix_sections(const char *text, size_t tlen, size_t *olen)
{
	struct buf b = {0};
	const char *s = text, *end = text + tlen;
	int in_git = 0, noprefix = 0;   /* inside a "diff --git" section's header */
	buf_add(&b, "", 0);
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t len = e ? (size_t)(e - s) : (size_t)(end - s);
		size_t full = e ? len + 1 : len;
		if (starts(s, len, "diff --git ")) {
			const char *x, *y;
			size_t xn, yn;
			in_git = 1;
			noprefix = 0;
			if (!git_line_paths(s + 11, len - 11, &x, &xn, &y, &yn)) {
				/* an unquoted rename with spaces, which libgit2 cannot
				 * split: the names from "rename from/to" (or
				 * "---"/"+++"), quoted */
				if (header_names(e ? e + 1 : end, end, &b)) {
					s += full;
					continue;
				}
			} else if (!(has_prefix(x, xn, 'a') && has_prefix(y, yn, 'b'))) {
				noprefix = 1;
				buf_add(&b, "diff --git ", 11);
				add_prefixed(&b, "a/", x, xn);
				buf_add(&b, " ", 1);
				add_prefixed(&b, "b/", y, yn);
				buf_add(&b, "\n", 1);
				s += full;
				continue;
			}
		} else if (starts(s, len, "@@ ")) {
			in_git = 0;
		} else if (in_git && (starts(s, len, "rename from ") || starts(s, len, "rename to ") ||
				      starts(s, len, "copy from ") || starts(s, len, "copy to "))) {
			/* libgit2 1.5 reads these names up to a space: quote them */
			size_t k = starts(s, len, "rename from ") ? 12 : starts(s, len, "rename to ") ? 10 :
				   starts(s, len, "copy from ") ? 10 : 8;
			size_t pl = len - k;
			while (pl && s[k + pl - 1] == '\r')
				pl--;
			if (s[k] != '"' && memchr(s + k, ' ', pl)) {
				buf_add(&b, s, k);
				add_quoted(&b, "", s + k, pl);
				buf_add(&b, "\n", 1);
				s += full;
				continue;
			}
		} else if (in_git && noprefix && (starts(s, len, "--- ") || starts(s, len, "+++ "))) {
			size_t pl = path_len(s + 4, len - 4);
			buf_add(&b, s, 4);
			add_prefixed(&b, s[0] == '-' ? "a/" : "b/", s + 4, pl);
			buf_add(&b, "\n", 1);
			s += full;
			continue;
		} else if (!in_git && starts(s, len, "--- ") && e && e + 1 < end &&
			   starts(e + 1, (size_t)(end - e - 1), "+++ ")) {
			/* a plain unified diff: the header git would have written */
			const char *n2 = e + 1, *e2 = memchr(n2, '\n', (size_t)(end - n2));
			size_t l2 = e2 ? (size_t)(e2 - n2) : (size_t)(end - n2);
			size_t p1 = path_len(s + 4, len - 4), p2 = path_len(n2 + 4, l2 - 4);
			const char *op = s + 4, *np = n2 + 4;
			/* "diff --git" names both sides by real paths */
			const char *gop = p1 == 9 && !memcmp(op, "/dev/null", 9) ? np : op;
			size_t gp1 = gop == np ? p2 : p1;
			const char *gnp = p2 == 9 && !memcmp(np, "/dev/null", 9) ? op : np;
			size_t gp2 = gnp == op ? p1 : p2;
			buf_add(&b, "diff --git ", 11);
			buf_add(&b, gop, gp1);
			buf_add(&b, " ", 1);
			buf_add(&b, gnp, gp2);
			buf_add(&b, "\n", 1);
			if (gop != op || gnp != np) {
				/* git says "new file"/"deleted file" for /dev/null sides */
				buf_add(&b, gop != op ? "new file mode 100644\n" : "deleted file mode 100644\n", gop != op ? 21 : 25);
			}
			buf_add(&b, "--- ", 4);
			buf_add(&b, op, p1);
			buf_add(&b, "\n+++ ", 5);
			buf_add(&b, np, p2);
			buf_add(&b, "\n", 1);
			s = e2 ? e2 + 1 : end;
			continue;
		}
		buf_add(&b, s, full);
		s += full;
	}
	*olen = b.n;
	return b.s;
}

/* ---- collecting the changed lines ------------------------------------------ */

struct collect {
	struct patch *p;
	const char *base;
	struct patch_file *cur;    /* NULL: a deleted file */
	int pos;                   /* new-side line where the hunk is now */
};

static void add_line(struct patch_file *pf, unsigned l)
{
	if (pf->n == pf->cap) {
		pf->cap = pf->cap ? 2 * pf->cap : 64;
		pf->lines = xrealloc(pf->lines, pf->cap * sizeof(*pf->lines));
	}
	pf->lines[pf->n++] = l;
}

static int file_cb(const git_diff_delta *d, float progress, void *arg)
{
	struct collect *c = arg;
	struct patch *p = c->p;
	(void)progress;
	c->cur = NULL;
	if (d->status == GIT_DELTA_DELETED || !d->new_file.path)
		return 0;
	const char *rel = d->new_file.path;
	char *full = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", c->base, rel);
	char *abs = canon_path(full);
	if (!abs && rel[0] != '/')
		abs = canon_path(rel);   /* not under base: the current directory */
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	p->v[p->n].abspath = abs ? abs : xstrdup(full);
	c->cur = &p->v[p->n++];
	free(full);
	return 0;
}

static int hunk_cb(const git_diff_delta *d, const git_diff_hunk *h, void *arg)
{
	struct collect *c = arg;
	(void)d;
	c->pos = h->new_start;
	if (c->cur && h->new_lines == 0) {   /* pure deletion after line new_start */
		add_line(c->cur, (unsigned)h->new_start);
		add_line(c->cur, (unsigned)h->new_start + 1);
	}
	return 0;
}

static int line_cb(const git_diff_delta *d, const git_diff_hunk *h, const git_diff_line *l,
		   void *arg)
{
	struct collect *c = arg;
	(void)d; (void)h;
	if (!c->cur)
		return 0;
	switch (l->origin) {
	case GIT_DIFF_LINE_ADDITION:
		add_line(c->cur, (unsigned)l->new_lineno);
		c->pos = l->new_lineno + 1;
		break;
	case GIT_DIFF_LINE_DELETION:
		/* a removed line: the spot between its neighbours changed */
		add_line(c->cur, (unsigned)c->pos);
		break;
	case GIT_DIFF_LINE_CONTEXT:
		c->pos = l->new_lineno + 1;
		break;
	default:
		break;
	}
	return 0;
}

static int cmp_pf(const void *a, const void *b)
{
	return strcmp(((const struct patch_file *)a)->abspath, ((const struct patch_file *)b)->abspath);
}

static int cmp_uns(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

/* Sort files (a file named twice, e.g. by two patches of a series, is
 * merged) and each file's lines, for the binary searches of patch_filter. */
static void patch_index(struct patch *p)
{
	size_t o = 0;
	if (!p->n)
		return;   /* qsort's base must not be NULL, even for 0 elements */
	qsort(p->v, p->n, sizeof(*p->v), cmp_pf);
	for (size_t i = 0; i < p->n; i++) {
		if (o && !strcmp(p->v[o - 1].abspath, p->v[i].abspath)) {
			for (size_t k = 0; k < p->v[i].n; k++)
				add_line(&p->v[o - 1], p->v[i].lines[k]);
			free(p->v[i].abspath);
			free(p->v[i].lines);
			continue;
		}
		p->v[o++] = p->v[i];
	}
	p->n = o;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].n)
			qsort(p->v[i].lines, p->v[i].n, sizeof(unsigned), cmp_uns);
}

int patch_parse(const char *text, const char *base, struct patch *p)
{
	size_t tlen = strlen(text), glen;
	char *g = prefix_sections(text, tlen, &glen);
	git_diff *diff = NULL;
	struct collect c = { p, base, NULL, 0 };
	int rc = -1;
	git_libgit2_init();
	if (git_diff_from_buffer(&diff, g, glen) < 0) {
		const git_error *e = git_error_last();
		fprintf(stderr, "cachehot: cannot parse the diff: %s\n", e ? e->message : "unknown error");
		goto out;
	}
	if (git_diff_foreach(diff, file_cb, NULL, hunk_cb, line_cb, &c) < 0) {
		const git_error *e = git_error_last();
		fprintf(stderr, "cachehot: cannot read the diff: %s\n", e ? e->message : "unknown error");
		goto out;
	}
	patch_index(p);
	rc = 0;
out:
	git_diff_free(diff);
	free(g);
	git_libgit2_shutdown();
	return rc;
}

/* The top of the git work tree around the cwd, else the cwd (heap). */
static char *tree_top(int need_git)
{
	char cwd[PATH_MAX], *top = NULL;
	char *av[] = { "git", "rev-parse", "--show-toplevel", NULL };
	int st = run_capture(av, NULL, &top);
	if (st == 0 && top && top[0] == '/') {
		top[strcspn(top, "\n")] = 0;
		return top;
	}
	if (need_git) {
		fprintf(stderr, "cachehot: --diff needs a git work tree: %s", top && *top ? top : "\n");
		free(top);
		return NULL;
	}
	free(top);
	if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "cachehot: getcwd: %s\n", strerror(errno));
		return NULL;
	}
	return xstrdup(cwd);
}

int patch_from_file(const char *path, struct patch *p)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	int r;
	if (!text) {
		fprintf(stderr, "cachehot: cannot read patch %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* a unified diff names its files in "+++ " lines (or, for renames
	 * and mode changes, "diff --git" lines); without one every finding
	 * would be dropped as "not touched" */
	if (strlen(text) != len) {
		fprintf(stderr, "cachehot: %s is not a unified diff (it contains NUL bytes)\n", path);
		free(text);
		return -1;
	}
	if (strncmp(text, "+++ ", 4) && !strstr(text, "\n+++ ") && strncmp(text, "diff --git ", 11) &&
	    !strstr(text, "\ndiff --git ")) {
		fprintf(stderr, "cachehot: %s is not a unified diff (no '+++ FILE' line)\n", path);
		free(text);
		return -1;
	}
	/* Paths in a patch are relative to the top of the tree: inside a git
	 * work tree that is its top, else the current directory. */
	char *top = tree_top(0);
	if (!top) {
		free(text);
		return -1;
	}
	r = patch_parse(text, top, p);
	free(top);
	free(text);
	return r;
}

int patch_from_git(const char *rev, struct patch *p)
{
	char *top = NULL, *diff = NULL;
	/* explicit prefixes and no external tools: the user's diff.noprefix,
	 * diff.mnemonicPrefix, color.ui or diff.external never change the text */
	char *a2[] = { "git", "-c", "core.quotePath=true", "diff", "--no-color", "--no-ext-diff",
		       "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "-M", "-U0",
		       (char *)rev, "--", NULL };
	int st, r = -1;
	if (rev[0] == '-') {
		fprintf(stderr, "cachehot: --diff: bad revision '%s'\n", rev);
		return -1;
	}
	if (!(top = tree_top(1)))
		return -1;
	/* git diff prints paths relative to the top whatever the cwd */
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

static const struct patch_file *patch_lookup(const struct patch *p, const char *abspath)
{
	struct patch_file key = { (char *)abspath, NULL, 0, 0 };
	return p->n ? bsearch(&key, p->v, p->n, sizeof(*p->v), cmp_pf) : NULL;
}

/* 1 if a changed line of pf lies in [first, last]. */
static int touches(const struct patch_file *pf, unsigned first, unsigned last)
{
	size_t lo = 0, hi = pf->n;
	while (lo < hi) {   /* first changed line >= first */
		size_t mid = (lo + hi) / 2;
		if (pf->lines[mid] < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pf->n && pf->lines[lo] <= last;
}

void patch_filter(const struct patch *p, struct findings *fs)
{
	size_t o = 0;
	/* findings come sorted by file: scan each file's scopes once */
	char *cur = NULL, *text = NULL;
	struct scopes sc = {0};
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		const struct patch_file *pf = patch_lookup(p, f->abspath);
		int keep = 0;
		if (pf) {
			if (!cur || strcmp(cur, f->abspath)) {
				free(cur); free(text); scopes_free(&sc);
				cur = xstrdup(f->abspath);
				text = ch_read_input(cur, NULL);   /* a path a finding names */
				if (text)
					scan_scopes(text, &sc);
			}
			const struct scope *s = text ? scope_at(&sc, f->line) : NULL;
			keep = touches(pf, f->line, f->line) || (s && touches(pf, s->first, s->last));
		}
		if (keep)
			fs->v[o++] = *f;
		else
			finding_free(f);
	}
	free(cur); free(text); scopes_free(&sc);
	fs->n = o;
}

int patch_touches_file(const struct patch *p, const char *abspath)
{
	return patch_lookup(p, abspath) != NULL;
}
