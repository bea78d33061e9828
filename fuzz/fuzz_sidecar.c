/* SPDX-License-Identifier: GPL-2.0 */
/* Sidecar parser: load, look up every entry, the missing-field report and
 * the unmatched list (core/sidecar.c). */
#include "common.h"
#include "cachehot-core.h"

static void nop(const char *file, unsigned line, const char *entry, void *arg)
{
	(void)file; (void)line; (void)entry; (void)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ch_ctx *ctx = ch_ctx_new();
	char *text = fuzz_string(data, size);
	if (!ch_sidecar_load_string(ctx, "fuzz.ann", text)) {
		/* look up what the text names, pairwise by words */
		char *copy = fuzz_string(data, size), *save = NULL, *w, *prev = NULL;
		for (w = strtok_r(copy, " \t\r\n.:", &save); w; w = strtok_r(NULL, " \t\r\n.:", &save)) {
			const char *g;
			if (prev) {
				ch_sidecar_class(ctx, prev, w, &g);
				ch_sidecar_names_type(ctx, prev);
			}
			ch_sidecar_addressable(ctx, w);
			ch_sidecar_missing_fields(ctx, w, nop, NULL);
			prev = w;
		}
		ch_sidecar_unmatched(ctx, nop, NULL);
		free(copy);
	}
	/* a second load into the same context: duplicates and conflicts */
	ch_sidecar_load_string(ctx, "again.ann", text);
	free(text);
	ch_ctx_free(ctx);
	return 0;
}
