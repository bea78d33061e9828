// SPDX-License-Identifier: GPL-2.0
/* util.c -- allocation, strings, files and paths for bin/cachehot. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-core.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) { fputs("cachehot: out of memory\n", stderr); exit(EXIT_TROUBLE); }
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) { fputs("cachehot: out of memory\n", stderr); exit(EXIT_TROUBLE); }
	return p;
}

char *xstrdup(const char *s) { return s ? xstrndup(s, strlen(s)) : NULL; }

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) { fputs("cachehot: out of memory\n", stderr); exit(EXIT_TROUBLE); }
	va_end(ap);
	return s;
}

void strv_push(struct strv *sv, const char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 16;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int write_atomic(const char *path, int (*fn)(FILE *f, void *arg), void *arg)
{
	int direct;
	char *target = ch_output_target(path, &direct);
	FILE *f;
	if (!target) {
		fprintf(stderr, "cachehot: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (direct) {   /* /dev/stdout, a FIFO: write in place, never rename over it */
		f = fopen(target, "w");
		free(target);
		if (!f || fn(f, arg) < 0 || fflush(f) != 0 || ferror(f)) {
			fprintf(stderr, "cachehot: cannot write %s: %s\n", path,
				strerror(errno ? errno : EIO));
			if (f)
				fclose(f);
			return -1;
		}
		return fclose(f) ? -1 : 0;
	}
	/* a symlink stays a link: write the file it points to; an unnamed
	 * temporary until complete (nothing left behind if killed) */
	struct ch_atomic at;
	if (ch_atomic_open(&at, target) < 0) {
		fprintf(stderr, "cachehot: cannot create a file beside %s: %s\n", target, strerror(errno));
		free(target);
		return -1;
	}
	int fd2 = dup(at.fd);
	f = fd2 >= 0 ? fdopen(fd2, "w") : NULL;
	if (!f || fn(f, arg) < 0 || fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "cachehot: cannot write %s: %s\n", target, strerror(errno ? errno : EIO));
		if (f) fclose(f); else if (fd2 >= 0) close(fd2);
		ch_atomic_abort(&at);
		free(target);
		return -1;
	}
	if (fclose(f) != 0 || ch_atomic_commit(&at) != 0) {
		fprintf(stderr, "cachehot: cannot write %s: %s\n", target, strerror(errno));
		ch_atomic_abort(&at);
		free(target);
		return -1;
	}
	free(target);
	return 0;
}

char *canon_path(const char *path)
{
	char *r = realpath(path, NULL);
	return r;
}

char *display_path(const char *path)
{
	char cwd[PATH_MAX];
	char *abs = canon_path(path);
	size_t n;
	if (!abs || !getcwd(cwd, sizeof(cwd))) {
		free(abs);
		return xstrdup(path);
	}
	n = strlen(cwd);
	if (strncmp(abs, cwd, n) == 0 && abs[n] == '/') {
		char *r = xstrdup(abs + n + 1);
		free(abs);
		return r;
	}
	/* Outside the cwd: keep what the engine printed ("../x.c", "/abs/x.h"). */
	free(abs);
	return xstrdup(path);
}

char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;
	if (n <= 0)
		return xstrdup(".");
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return xstrdup(buf);
}
