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
#ifdef __SSE2__
#include <emmintrin.h>
#endif
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

/* A new .ascii once this many bytes of escaped text are on the line: short
 * directives, which every assembler reads. A byte escapes to at most 4. */
#define LINE_MAX_BYTES 4000

/* c, a byte .ascii cannot take as it is, written at q escaped; returns
 * the end of what was written */
static inline unsigned char *escaped(unsigned char *q, unsigned c)
{
	q[0] = '\\';
	if (plain[c] == 2) {
		q[1] = (unsigned char)c;
		return q + 2;
	}
	q[1] = (unsigned char)('0' + (c >> 6));
	q[2] = (unsigned char)('0' + ((c >> 3) & 7));
	q[3] = (unsigned char)('0' + (c & 7));
	return q + 4;
}

/* c written at q as .ascii takes it; returns the end of what was written */
static inline unsigned char *escape_byte(unsigned char *q, unsigned c)
{
	if (plain[c] == 1) {
		*q = (unsigned char)c;
		return q + 1;
	}
	return escaped(q, c);
}

/* The text goes out through buf, one fwrite per 16 kB, in chunks of as
 * many bytes as cannot reach the line's limit before the last of them
 * begins: a line is split at the first byte that begins at column 4000 or
 * later (lines of 4000-4003 bytes), as when every byte was tested.
 * Cost on mm/mmzone.c's manifest records (33 kB, a quote every six bytes;
 * callgrind of cc1): fputc per byte 1.37 M instructions, a byte at a time
 * into buf 0.48 M, 16 bytes a step (SSE2, every x86-64) 0.22 M. */
int ch_objsec_emit_asm(FILE *out, const char *text)
{
	static const char split[] = "\"\n\t.ascii \"";
	unsigned char buf[16384], *q = buf;
	const unsigned char *p = (const unsigned char *)text, *end;
	size_t col = 0;   /* bytes on the directive's line */
	if (!out || !text)
		return -1;
	end = p + strlen(text);
	fprintf(out, "\t.pushsection %s,\"e\"\n\t.ascii \"", CH_OBJ_SECTION);
	while (p < end) {
		/* a chunk: as many bytes as cannot reach the line's limit
		 * before the last of them begins (each escapes to at most 4)
		 * nor fill buf */
		size_t m, room;
		unsigned char *q0;
		const unsigned char *e;
		/* buf nearly full: flushed before a split can be written, so
		 * that q stays at least 117 bytes from buf's end below (a split
		 * written first, then the room computed unsigned, overran buf
		 * after about 230 kB of escaped text) */
		if (q > buf + sizeof(buf) - 128) {
			fwrite(buf, 1, (size_t)(q - buf), out);
			q = buf;
		}
		if (col >= LINE_MAX_BYTES) {
			memcpy(q, split, sizeof(split) - 1);
			q += sizeof(split) - 1;
			col = 0;
		}
		m = (LINE_MAX_BYTES - col + 3) / 4;
		room = (size_t)(buf + sizeof(buf) - 64 - q) / 4;   /* >= 13 */
		if (m > room)
			m = room;
		if (m > (size_t)(end - p))
			m = (size_t)(end - p);
		q0 = q;
		e = p + m;
#ifdef __SSE2__
		/* 16 bytes a step: the bytes to escape found at once (JSON: a
		 * quote every six bytes), the runs between them copied by
		 * 16-byte loads and stores. The loads read at most 32 bytes
		 * from p, all in the text; a store may write past what is
		 * kept, inside buf's last 64 bytes */
		while (e - p >= 16 && end - p >= 32) {
			__m128i v = _mm_loadu_si128((const __m128i *)p);
			__m128i x = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
						 _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
			/* signed: below ' ' is a control byte or >= 0x80 */
			x = _mm_or_si128(x, _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
			x = _mm_or_si128(x, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
			unsigned mask = (unsigned)_mm_movemask_epi8(x), from = 0;
			while (mask) {
				unsigned n = (unsigned)__builtin_ctz(mask), c = p[n];
				mask &= mask - 1;
				_mm_storeu_si128((__m128i *)q,
						 _mm_loadu_si128((const __m128i *)(p + from)));
				q += n - from;
				q = escaped(q, c);
				from = n + 1;
			}
			_mm_storeu_si128((__m128i *)q, _mm_loadu_si128((const __m128i *)(p + from)));
			q += 16 - from;
			p += 16;
		}
#endif
		while (p < e)
			q = escape_byte(q, *p++);
		col += (size_t)(q - q0);
	}
	fwrite(buf, 1, (size_t)(q - buf), out);
	fputs("\"\n\t.byte 0\n\t.popsection\n", out);
	return ferror(out) ? -1 : 0;
}
