// SPDX-License-Identifier: GPL-2.0
/* run.c -- run an engine and capture what it prints. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "driver.h"

extern char **environ;

/* The engine running now (this process's one child compile), in a process
 * group of its own: gcc's cc1, as1 go with it when it is stopped. */
static volatile pid_t run_child;

void run_stop_child(void)
{
	pid_t pid = run_child;
	if (pid > 0) {
		kill(-pid, SIGTERM);
		kill(pid, SIGTERM);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		run_child = 0;
	}
}

int run_capture(char *const argv[], const char *dir, char **out)
{
	int pfd[2], status;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int err;

	*out = NULL;
	/* a missing directory (a compile database from another machine or a
	 * removed build tree) fails the spawn too: name it, not the program */
	if (dir) {
		struct stat st;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "cachehot: cannot run %s in %s: %s\n", argv[0], dir,
				stat(dir, &st) != 0 ? strerror(errno) : "not a directory");
			return -1;
		}
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		fprintf(stderr, "cachehot: pipe: %s\n", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	if (dir)
		posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawnattr_t sa;
	sigset_t block, old;
	posix_spawnattr_init(&sa);
	posix_spawnattr_setpgroup(&sa, 0);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP);
	/* a signal between the spawn and run_child's store would leave it */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	err = posix_spawnp(&pid, argv[0], &fa, &sa, argv, environ);
	if (!err)
		run_child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (err) {
		fprintf(stderr, "cachehot: cannot run %s: %s\n", argv[0], strerror(err));
		close(pfd[0]);
		return -1;
	}
	for (;;) {
		ssize_t r;
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 16384;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(pfd[0], buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(pfd[0]);
	if (!buf)
		buf = xmalloc(1);
	buf[n] = 0;
	*out = buf;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			run_child = 0;
			fprintf(stderr, "cachehot: waitpid: %s\n", strerror(errno));
			return -1;
		}
	}
	run_child = 0;
	/* posix_spawnp reports a failed exec as exit status 127. */
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
