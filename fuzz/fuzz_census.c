/* SPDX-License-Identifier: GPL-2.0 */
/* The ELF census of cachehot-bloat (bloat/bloat.c): one object per input,
 * then the copies, inline names and census rows. */
#include "common.h"
#include "bloat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bl_scan *s = bl_scan_new();
	char err[1024];
	size_t n;
	bl_scan_set_source(s, 0);
	if (bl_scan_object(s, fuzz_file(data, size, ".o"), err, sizeof(err)) == 0) {
		bl_scan_copies(s, &n);
		bl_scan_inline_names(s, &n);
		bl_scan_census(s, &n);
	}
	bl_scan_free(s);
	return 0;
}
