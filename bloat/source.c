// SPDX-License-Identifier: GPL-2.0
/*
 * source.c -- does the declaration text of a function say inline
 * (BL_SOURCE, see bloat.h and docs/bloat.rst).  Source files are read once
 * and cached with their line starts.
 */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>

struct srcfile {           /* cached source text for BL_SOURCE */
	char *text;            /* NULL: unreadable */
	size_t len;
	size_t *line_start;    /* line_start[i]: offset of line i+1 */
	size_t nlines;
};

static struct srcfile *load_source(struct hmap *cache, const char *path)
{
	struct hent *e = bl_hmap_put(cache, path);
	struct srcfile *f;
	FILE *fp;

	if (e->val)
		return e->val;
	f = bl_xcalloc(1, sizeof(*f));
	e->val = f;
	fp = fopen(path, "rb");
	if (!fp)
		return f;
	/* the file's size (and one byte, to see its end) when it says one:
	 * doubling from 64 KiB copied big files several times */
	size_t cap = 1 << 16;
	struct stat st;
	if (!fstat(fileno(fp), &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < ((uint64_t)1 << 40))
		cap = (size_t)st.st_size + 1;
	f->text = bl_xmalloc(cap);
	for (;;) {
		size_t r = fread(f->text + f->len, 1, cap - f->len, fp);
		f->len += r;
		if (f->len < cap)
			break;
		cap *= 2;
		f->text = bl_xrealloc(f->text, cap);
	}
	fclose(fp);
	size_t lcap = 1024;
	f->line_start = bl_xmalloc(lcap * sizeof(size_t));
	f->line_start[f->nlines++] = 0;
	/* memchr: a byte loop here was 5% of a census over 6.1 mm/ */
	for (const char *p = f->text, *end = f->text + f->len;
	     (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (f->nlines == lcap) {
			lcap *= 2;
			f->line_start = bl_xrealloc(f->line_start, lcap * sizeof(size_t));
		}
		f->line_start[f->nlines++] = (size_t)(p - f->text) + 1;
	}
	return f;
}

static int is_word(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* 1 if the declaration text before the function name at path:line:col says
 * inline, 0 if it does not, -1 if the source cannot be read. The window is the three lines up to the name, cut after the last
 * ';', '{', '}', comment end, // comment or preprocessor line (kernel style puts
 * "static inline T" on the line before the name). */
int bl_source_says_inline(struct hmap *cache, const char *path,
			  unsigned line, unsigned col)
{
	static const char *const kw[] = { "inline", "__inline", "__inline__",
					  "__always_inline" };
	struct srcfile *f = load_source(cache, path);
	size_t from, to, i;
	unsigned first;

	if (!f->text || line == 0 || line > f->nlines)
		return -1;
	first = line > 3 ? line - 3 : 1;
	from = f->line_start[first - 1];
	to = f->line_start[line - 1];
	if (col > 0)
		to += col - 1;
	else
		to = line < f->nlines ? f->line_start[line] : f->len;
	if (to > f->len)
		to = f->len;
	for (i = from; i < to; i++) {
		char c = f->text[i];
		if (c == ';' || c == '{' || c == '}')
			from = i + 1;
		else if (c == '*' && i + 1 < to && f->text[i + 1] == '/')
			from = i + 2;
		else if (c == '/' && i + 1 < to && f->text[i + 1] == '/') {
			while (i < to && f->text[i] != '\n')
				i++;
			from = i;
		}
		else if (c == '#' && (i == 0 || f->text[i - 1] == '\n')) {
			while (i < to && f->text[i] != '\n')
				i++;
			from = i;
		}
	}
	for (i = from; i < to; i++) {
		if (!is_word(f->text[i]) || (i > from && is_word(f->text[i - 1])))
			continue;
		for (size_t k = 0; k < sizeof(kw) / sizeof(kw[0]); k++) {
			size_t n = strlen(kw[k]);
			if (i + n <= to && !memcmp(f->text + i, kw[k], n) &&
			    (i + n == to || !is_word(f->text[i + n])))
				return 1;
		}
	}
	return 0;
}

void bl_source_free(void *p)
{
	struct srcfile *f = p;
	if (f) {
		free(f->text);
		free(f->line_start);
		free(f);
	}
}
