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
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cachehot-core.h"

/* The bytes written as they are between the quotes of .ascii: printable
 * ASCII but the quote and the backslash (1); those two escaped with a
 * backslash (2); any other byte as an octal escape (0). */
static const unsigned char plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

int ch_objsec_emit_asm(FILE *out, const char *text)
{
	static const char split[] = "\"\n\t.ascii \"";
	const unsigned char *p = (const unsigned char *)text;
	/* the escaped text goes through buf, one fwrite per 16 kB: fputc per
	 * byte cost mm/mmzone.c's manifest records (33 kB) 1.37 M
	 * instructions. o: bytes in buf; line: where in buf the current
	 * directive's text began (col = o - line; negative after a flush) */
	unsigned char buf[16384];
	ptrdiff_t o = 0, line = 0, lim;
	if (!out || !text)
		return -1;
	/* pushsection/popsection: whatever section the compiler was in stays */
	fprintf(out, "\t.pushsection %s,\"e\"\n\t.ascii \"", CH_OBJ_SECTION);
	/* short directives (every assembler reads them): a new .ascii once
	 * 4000 bytes are written on the line, as before, byte for byte */
	lim = 4000;
	for (; *p; p++) {
		unsigned c = *p;
		if (o >= lim) {
			if (o - line >= 4000) {   /* the line is full */
				memcpy(buf + o, split, sizeof(split) - 1);
				o += sizeof(split) - 1;
				line = o;
			}
			if (o > (ptrdiff_t)sizeof(buf) - 64) {   /* buf is full */
				fwrite(buf, 1, (size_t)o, out);
				line -= o;
				o = 0;
			}
			lim = line + 4000;
			if (lim > (ptrdiff_t)sizeof(buf) - 64)
				lim = (ptrdiff_t)sizeof(buf) - 64;
		}
		if (plain[c] == 1)
			buf[o++] = (unsigned char)c;
		else if (plain[c] == 2) {
			buf[o++] = '\\';
			buf[o++] = (unsigned char)c;
		} else {
			buf[o++] = '\\';
			buf[o++] = (unsigned char)('0' + (c >> 6));
			buf[o++] = (unsigned char)('0' + ((c >> 3) & 7));
			buf[o++] = (unsigned char)('0' + (c & 7));
		}
	}
	fwrite(buf, 1, (size_t)o, out);
	fputs("\"\n\t.byte 0\n\t.popsection\n", out);
	return ferror(out) ? -1 : 0;
}
