/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objsec-emit.c -- a translation unit's records (access facts, manifest)
 * written into its object file, so that they travel with it through ccache
 * hits and compile farms (docs/plugin.rst, "Records in the object").
 *
 * The section is CH_OBJ_SECTION (".discard.cachehot") with the SHF_EXCLUDE
 * flag ("e") and no SHF_ALLOC: nothing of it is loaded; a final link drops
 * an excluded section whatever its linker script says (a userspace binary
 * is byte for byte the binary built without it), "ld -r" keeps it (the
 * kernel's vmlinux.o, modules' .ko before the final link), and the kernel's
 * linker scripts discard .discard.* by name (COMMON_DISCARDS), so x86's
 * orphan-section check never sees it. Content: each record is one JSON text
 * (no NUL inside) followed by a NUL byte; "ld -r" concatenates the records
 * of its inputs. core/objsec.c reads them back.
 */
#include <stdio.h>
#include <string.h>
#include "cachehot-core.h"

int ch_objsec_emit_asm(FILE *out, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t col = 0;
	if (!out || !text)
		return -1;
	/* pushsection/popsection: whatever section the compiler was in stays */
	fprintf(out, "\t.pushsection %s,\"e\"\n\t.ascii \"", CH_OBJ_SECTION);
	for (; *p; p++) {
		if (col >= 4000) {   /* short directives: every assembler reads them */
			fputs("\"\n\t.ascii \"", out);
			col = 0;
		}
		if (*p == '"' || *p == '\\') {
			fputc('\\', out);
			fputc(*p, out);
			col += 2;
		} else if (*p < 0x20 || *p >= 0x7f) {
			fprintf(out, "\\%03o", *p);
			col += 4;
		} else {
			fputc(*p, out);
			col++;
		}
	}
	fputs("\"\n\t.byte 0\n\t.popsection\n", out);
	return ferror(out) ? -1 : 0;
}
