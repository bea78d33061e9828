/* SPDX-License-Identifier: GPL-2.0 */
/* The access-facts reader and the inference on what it merged: the input
 * is one unit's facts text (core/access.c's schema), merged twice (the
 * second time as a repeat of the first) and once more as a second unit, then
 * judged by `cachehot annotate` (ch_infer_sidecar) and explained for its
 * first struct's first member (ch_infer_explain). */
#include "common.h"
#include "cachehot-core.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	ch_access_facts *a = ch_access_new(NULL);
	struct ch_infer_opts o;
	size_t conflicts;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!ch_access_merge_text(a, text, "fuzz")) {
		ch_access_merge_text(a, text, "fuzz-again");
		ch_access_repeats(a, &conflicts);
		ch_infer_defaults(&o);
		o.min_fields = 1;
		o.hot_write_fns = 1;
		o.rm_read_fns = 1;
		ch_infer_sidecar(a, &o, devnull);
		ch_infer_explain(a, &o, "s.a", devnull);
	}
	ch_access_free(a);
	free(text);
	return 0;
}
