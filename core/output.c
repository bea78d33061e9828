/* SPDX-License-Identifier: GPL-2.0 */
/* output.c -- where an atomic write must go (see cachehot-core.h). */
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
