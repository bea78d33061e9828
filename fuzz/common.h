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

/* The input written to a file of this process (readers that take a path:
 * libdwfl, libbpf, jansson); the path stays valid until the next call. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[128];
	FILE *f;
	snprintf(path, sizeof(path), "/dev/shm/cachehot-fuzz-%d%s", (int)getpid(), suffix);
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
