/* SPDX-License-Identifier: GPL-2.0 */
/* The plugin's JSON manifest as cachehot-layout reads it
 * (layout/manifest.c), applied to and compared with a set read from a
 * small DWARF object (FUZZ_MANIFEST_OBJ, built by fuzz/rules.mk), and the
 * core's merge of an existing manifest (ch_manifest_write reads it). */
#include "common.h"
#include "lt.h"

static struct lt_set *set;
static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	struct lt_manifest *m;
	const char *path;
	int refused = 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!set) {
		const char *obj = getenv("FUZZ_MANIFEST_OBJ");
		set = lt_set_new();
		if (obj && lt_set_read(set, obj, err, sizeof(err)))
			fprintf(stderr, "fuzz-manifest: %s\n", err);
	}
	path = fuzz_file(data, size, ".json");
	m = lt_manifest_load(path, err, sizeof(err));
	if (m) {
		lt_manifest_line_size(m);
		lt_manifest_randomized(m, "page_counter");
		lt_manifest_apply(m, set);
		lt_manifest_compare(m, set, devnull, &refused);
		lt_manifest_free(m);
	}
	{
		/* merge into the fuzzed file (the writer reads it first) */
		ch_ctx *ctx = ch_ctx_new();
		ch_manifest_write(ctx, path);
		ch_ctx_free(ctx);
	}
	return 0;
}
