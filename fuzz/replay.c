/* SPDX-License-Identifier: GPL-2.0 */
/* replay.c -- main() for the harnesses without libFuzzer: run each file
 * named on the command line through LLVMFuzzerTestOneInput twice, as
 * libFuzzer does when it looks for leaks, so that state a run leaves behind
 * (a cache keyed by a freed pointer) fails the second run (built with
 * gcc -fsanitize=address,undefined; tests/fuzz/run.sh replays every crash
 * that fuzzing found). Exit 0 when all ran. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, got;
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (cap - n < 65536) {
				cap = cap ? 2 * cap : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			got = fread(buf + n, 1, cap - n, f);
			n += got;
		} while (got);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
