/* SPDX-License-Identifier: GPL-2.0 */
/* common.h -- what the libFuzzer harnesses (fuzz/*.c) share. */
#ifndef CACHEHOT_FUZZ_COMMON_H
#define CACHEHOT_FUZZ_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The input as a NUL-terminated heap string (embedded NULs kept). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* The files fuzz_file() made (and a manifest's lock file beside one),
 * removed when the process exits (each replay of make check left them in
 * /dev/shm). */
static char fuzz_files[8][128];
static void fuzz_files_remove(void)
{
	int i;
	char lock[140];
	for (i = 0; i < 8 && fuzz_files[i][0]; i++) {
		unlink(fuzz_files[i]);
		snprintf(lock, sizeof(lock), "%s.lock", fuzz_files[i]);   /* the manifest merge's */
		unlink(lock);
	}
}

/* The input written to a file of this process (readers that take a path:
 * libdwfl, libbpf, jansson); the path stays valid until the next call. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[128];
	FILE *f;
	int i;
	snprintf(path, sizeof(path), "/dev/shm/cachehot-fuzz-%d%s", (int)getpid(), suffix);
	for (i = 0; i < 8 && fuzz_files[i][0] && strcmp(fuzz_files[i], path); i++)
		;
	if (i < 8 && !fuzz_files[i][0]) {
		if (!i)
			atexit(fuzz_files_remove);
		memcpy(fuzz_files[i], path, sizeof(path));
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	return path;
}

/* An emit callback (ch_emit_fn) that drops every finding: the harnesses
 * run the checks for what they touch, not for their output. */
struct ch_finding;
static inline void fuzz_emit_nothing(const struct ch_finding *f, void *arg)
{
	(void)f;
	(void)arg;
}
#endif
