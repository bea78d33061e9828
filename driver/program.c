// SPDX-License-Identifier: GPL-2.0
/*
 * program.c -- the translation units a linked program was built from, for
 * `cachehot annotate --program=BINARY` (one program of a tree at a time:
 * docs/annotate.md). They are the source files of the binary's DWARF
 * compile units (DW_AT_name, under DW_AT_comp_dir when relative), each by
 * its real path: the name an access-facts file gives its unit. Read with
 * libdw (elfutils); a binary built without -g has none and is an error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "driver.h"

int program_units(const char *path, struct strv *out, char *err, size_t errlen)
{
	Dwarf_Off off = 0, next;
	size_t hsize, before = out->n;
	Dwarf *dw;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open: %m", path);
		return -1;
	}
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		snprintf(err, errlen, "%s: no DWARF (%s): --program needs a binary built with -g", path,
			 dwarf_errmsg(-1));
		close(fd);
		return -1;
	}
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Attribute at;
		const char *name, *dir;
		char joined[PATH_MAX], real[PATH_MAX];
		if (dwarf_offdie(dw, off + hsize, &cu) && (name = dwarf_diename(&cu)) != NULL) {
			dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &at));
			if (name[0] == '/' || !dir)
				snprintf(joined, sizeof(joined), "%s", name);
			else
				snprintf(joined, sizeof(joined), "%s/%s", dir, name);
			strv_push(out, realpath(joined, real) ? real : joined);
		}
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	if (out->n == before) {
		snprintf(err, errlen, "%s: no compile unit in its DWARF: --program needs a binary built "
			 "with -g", path);
		return -1;
	}
	return 0;
}
