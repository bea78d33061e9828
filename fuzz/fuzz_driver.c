/* SPDX-License-Identifier: GPL-2.0 */
/* The driver's text inputs (driver/): the first byte picks one, the rest
 * is the text: 0 a unified diff (patch_parse + patch_filter), 1 a baseline
 * file (baseline_apply), 2 a build log or engine output with record lines
 * (findings_from_text: core/findings.c ch_records_read_stream), 3 C source
 * for the scope scanner of --patch (scan_scopes). */
#include "common.h"
#include "driver.h"
#include "cachehot-core.h"

static void some_findings(struct findings *fs)
{
	static const char *const checks[] = { "cachehot-false-sharing", "cachehot-padding-macro",
					      "cachehot-inline-addr" };
	int i;
	for (i = 0; i < 3; i++) {
		struct finding f;
		memset(&f, 0, sizeof(f));
		f.file = xstrdup("a.c");
		f.abspath = xstrdup("/tmp/a.c");
		f.line = 3 + i;
		f.col = 1;
		f.check = xstrdup(checks[i]);
		f.message = xstrdup("m");
		f.engines = xstrdup("plugin");
		f.scope = xstrdup("page_counter");
		f.field = i ? xstrdup("usage") : NULL;
		findings_add(fs, &f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	struct findings fs = { NULL, 0, 0 };
	if (!size)
		return 0;
	text = fuzz_string(data + 1, size - 1);
	switch (data[0] & 3) {
	case 0: {
		struct patch p = { NULL, 0, 0 };
		if (!patch_parse(text, "/tmp", &p)) {
			some_findings(&fs);
			patch_filter(&p, &fs);
		}
		patch_free(&p);
		break;
	}
	case 1:
		some_findings(&fs);
		baseline_apply(fuzz_file(data + 1, size - 1, ".baseline"), &fs);
		break;
	case 2: {
		struct ch_records_scan scan;
		FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
		if (f) {
			findings_from_text(&fs, f, "log", "/tmp", &scan);
			fclose(f);
		}
		findings_sort_dedupe(&fs);
		break;
	}
	default: {
		struct scopes sc = { NULL, 0, 0 };
		scan_scopes(text, &sc);
		scope_at(&sc, 3);
		scopes_free(&sc);
		break;
	}
	}
	findings_free(&fs);
	free(text);
	return 0;
}
