/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcline.c -- source lines by number, for placing columns and fix-its on
 * the text the user wrote (the sparse checker's member-name columns, the
 * plugin's fix-it positions). Each file is read once and indexed by line
 * starts: a lookup is O(1), so thousands of findings in one file stay
 * linear (GCC 12's location_get_source_line() scanned the file per call:
 * 20 000 findings in one unit took 11 s in the plugin, docs/reliability.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

FILE *ch_open_input(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CH_INPUT_MAX_BYTES) {
		close(fd);
		errno = S_ISREG(st.st_mode) ? EFBIG : ENODEV;
		return NULL;
	}
	/* a regular file: blocking reads again */
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (!(f = fdopen(fd, "rb"))) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

const char *ch_input_strerror(int err)
{
	if (err == ENODEV)
		return "not a regular file";
	if (err == EFBIG)
		return "larger than 1 GiB";
	return strerror(err);
}

char *ch_read_input(const char *path, size_t *len)
{
	FILE *f = ch_open_input(path);
	char *buf;
	size_t n = 0;
	if (!f)
		return NULL;
	buf = ch_read_stream(f, &n);
	if (buf && n > (size_t)CH_INPUT_MAX_BYTES) {   /* grew while read */
		free(buf);
		buf = NULL;
		errno = EFBIG;
	}
	if (!buf) {
		int e = errno;
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

static char *ch_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = (char *)malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* A few whole files with an index of line starts (members of one struct
 * often come from several headers), least recently used replaced. */
struct src_file {
	char *path, *text;
	size_t len;
	size_t *starts;          /* offset of each line start; nlines entries */
	size_t nlines;
	unsigned long used;      /* LRU stamp */
};
#define SRC_CACHE 16
static struct src_file src_cache[SRC_CACHE];
static unsigned long src_clock;

/* The whole regular file at path (ch_open_input()'s checks), into one
 * buffer of its size: no stdio stream (glibc's FILE and its buffer on
 * the heap), no copy through a stack buffer, no growth while the file
 * does not grow. NULL when it cannot be opened or read. */
static char *read_regular(const char *path, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	ssize_t r;
	char *text;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > CH_INPUT_MAX_BYTES) {
		close(fd);
		return NULL;
	}
	cap = (size_t)st.st_size + 1;
	if (!(text = (char *)malloc(cap)))
		abort();
	for (;;) {
		if (n + 1 == cap) {   /* grew since fstat */
			if (cap > (size_t)CH_INPUT_MAX_BYTES)
				break;
			cap *= 2;
			if (!(text = (char *)realloc(text, cap)))
				abort();
		}
		r = read(fd, text + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return text;
}

static struct src_file *load_source(const char *path)
{
	struct src_file *f = NULL, *victim = &src_cache[0];
	size_t i, cap = 0;

	for (i = 0; i < SRC_CACHE; i++) {
		if (src_cache[i].path && !strcmp(src_cache[i].path, path)) {
			src_cache[i].used = ++src_clock;
			return &src_cache[i];
		}
		if (src_cache[i].used < victim->used)
			victim = &src_cache[i];
	}
	f = victim;
	free(f->path);
	free(f->text);
	free(f->starts);
	memset(f, 0, sizeof(*f));
	f->path = ch_xstrdup(path);
	f->used = ++src_clock;
	if (!f->path || !(f->text = read_regular(path, &f->len)))
		return f;
	if (!f->len) {   /* an empty file has no line, as before */
		free(f->text);
		f->text = NULL;
		return f;
	}
	for (i = 0; i < f->len || (i == 0 && f->len == 0);) {
		const char *nl;
		if (f->nlines == cap) {
			cap = cap ? cap * 2 : 1024;
			f->starts = (size_t *)realloc(f->starts, cap * sizeof(*f->starts));
			if (!f->starts)
				abort();
		}
		f->starts[f->nlines++] = i;
		nl = f->len ? (const char *)memchr(f->text + i, '\n', f->len - i) : NULL;
		if (!nl)
			break;
		i = (size_t)(nl - f->text) + 1;
	}
	return f;
}

const char *ch_source_line(const char *path, unsigned line, size_t *len)
{
	struct src_file *f;
	const char *p, *nl;

	if (!path || !line)
		return NULL;
	f = load_source(path);
	if (!f->text || line > f->nlines)
		return NULL;
	p = f->text + f->starts[line - 1];
	nl = (const char *)memchr(p, '\n', (size_t)(f->text + f->len - p));
	*len = (size_t)((nl ? nl : f->text + f->len) - p);
	return p;
}

