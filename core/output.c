/* SPDX-License-Identifier: GPL-2.0 */
/* output.c -- where an atomic write must go, and writing it whole or not at
 * all (see cachehot-core.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE      /* O_TMPFILE */
#endif
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cachehot-core.h"

char *ch_output_target(const char *path, int *direct)
{
	char *p, buf[PATH_MAX];
	struct stat st;
	int hops;

	*direct = 0;
	if (!path || !*path) {
		errno = ENOENT;
		return NULL;
	}
	if (stat(path, &st) == 0) {   /* exists: follow every link */
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return NULL;
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device, FIFO or pipe (/dev/stdout -> /proc/self/fd/1 ->
			 * pipe:[N]): written in place through the path given */
			*direct = 1;
			return strdup(path);
		}
		return realpath(path, NULL);
	}
	/* does not exist yet: a dangling symlink still names the file to create */
	p = strdup(path);
	for (hops = 0; p && lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t n = readlink(p, buf, sizeof(buf) - 1);
		char *q, *slash;
		if (n < 0 || hops > 40) {
			free(p);
			errno = n < 0 ? errno : ELOOP;
			return NULL;
		}
		buf[n] = 0;
		slash = strrchr(p, '/');
		if (buf[0] == '/' || !slash) {
			q = strdup(buf);
		} else {   /* relative: to the link's own folder */
			size_t d = (size_t)(slash - p) + 1;
			q = (char *)malloc(d + (size_t)n + 1);
			memcpy(q, p, d);
			memcpy(q + d, buf, (size_t)n + 1);
		}
		free(p);
		p = q;
	}
	return p;
}

/* ---- whole or nothing ------------------------------------------------------ */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>

/* the named temporary being written, for ch_atomic_cleanup() */
static char *volatile pending_tmp;

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = (char *)malloc((size_t)(slash - path) + 1);
	if (d) {
		memcpy(d, path, (size_t)(slash - path));
		d[slash - path] = 0;
	}
	return d;
}

int ch_atomic_open(struct ch_atomic *a, const char *target)
{
	mode_t um = umask(0);
	char *dir;
	umask(um);
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->mode = 0666 & ~um;
	a->target = strdup(target);
	dir = a->target ? dir_of(target) : NULL;
	if (!dir) {
		free(a->target);
		a->target = NULL;
		errno = ENOMEM;
		return -1;
	}
#ifdef O_TMPFILE
	a->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, a->mode);
#endif
	free(dir);
	if (a->fd >= 0)
		return 0;
	/* no O_TMPFILE here: a named temporary, removed by ch_atomic_cleanup */
	size_t n = strlen(target) + 16;
	a->tmp = (char *)malloc(n);
	if (!a->tmp) {
		free(a->target);
		errno = ENOMEM;
		return -1;
	}
	snprintf(a->tmp, n, "%s.tmp.XXXXXX", target);
	a->fd = mkstemp(a->tmp);
	if (a->fd < 0) {
		int e = errno;
		free(a->tmp);
		free(a->target);
		a->tmp = a->target = NULL;
		errno = e;
		return -1;
	}
	pending_tmp = a->tmp;
	fchmod(a->fd, a->mode);
	return 0;
}

int ch_atomic_commit(struct ch_atomic *a)
{
	sigset_t block, old;
	int rc = -1, e = 0;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (!a->tmp) {
		/* name the unnamed file, then move the name over the target */
		char proc[64];
		size_t n = strlen(a->target) + 16;
		char *name = (char *)malloc(n);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", a->fd);
		for (unsigned k = 0; name && k < 100; k++) {
			snprintf(name, n, "%s.tmp.%05u%d", a->target, k, (int)getpid() % 100000);
			if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
				rc = 0;
				break;
			}
			if (errno != EEXIST)
				break;
		}
		e = errno;
		if (rc == 0 && rename(name, a->target) != 0) {
			e = errno;
			unlink(name);
			rc = -1;
		}
		free(name);
	} else {
		rc = rename(a->tmp, a->target);
		e = errno;
		if (rc)
			unlink(a->tmp);
	}
	pending_tmp = NULL;
	if (close(a->fd) != 0 && rc == 0) {
		e = errno;
		rc = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(a->tmp);
	free(a->target);
	a->tmp = a->target = NULL;
	a->fd = -1;
	errno = e;
	return rc;
}

void ch_atomic_abort(struct ch_atomic *a)
{
	if (a->tmp)
		unlink(a->tmp);
	pending_tmp = NULL;
	if (a->fd >= 0)
		close(a->fd);
	free(a->tmp);
	free(a->target);
	a->tmp = a->target = NULL;
	a->fd = -1;
}

void ch_atomic_cleanup(void)
{
	char *t = pending_tmp;
	if (t)
		unlink(t);
}

static const char *stdout_prog = "cachehot";

static void check_stdout(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		fprintf(stderr, "%s: cannot write the output: %s\n", stdout_prog,
			strerror(e ? e : EIO));
		_exit(2);
	}
}

void ch_check_stdout_at_exit(const char *prog)
{
	static int done;
	stdout_prog = prog;
	if (!done++)
		atexit(check_stdout);
}
