/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.c -- printf for the core's own messages, without glibc's cost
 * where it need not be paid.
 *
 * Every message of the core is made by ch_printf from a handful of
 * conversions: "%s", "%.*s", "%d", "%u", "%lld", "%llu", "%zu" and their
 * kin, no flags, no width. glibc's vsnprintf copies each piece of text
 * through a generic stream a few bytes at a time: judging a kernel's
 * every struct (cachehot-layout, 11 000 findings of 300-700 bytes, each
 * made of five or six formatted phrases) spent a sixth of its
 * instructions there. ch_vformat does those conversions itself, with
 * output byte-identical to vsnprintf's, and hands any other format
 * (flags, width, floating point, a NULL string) to vsnprintf whole.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* fmt formatted into out[cap] from *ap; returns the length written (out
 * NUL-terminated), or -1 when a conversion is not one this does or the
 * text does not fit (out's contents are then undefined). */
static int fast_vformat(char *out, size_t cap, const char *fmt, va_list *ap)
{
	size_t n = 0;
	const char *p = fmt;
	if (!cap)
		return -1;
	for (;;) {
		const char *pct = strchr(p, '%');
		size_t lit = pct ? (size_t)(pct - p) : strlen(p);
		const char *s;
		size_t len;
		char d[21];   /* 20 digits of 2^64 - 1 and a sign */
		if (lit) {
			if (lit >= cap - n)
				return -1;
			memcpy(out + n, p, lit);
			n += lit;
		}
		if (!pct)
			break;
		p = pct + 1;
		switch (*p) {
		case '%':
			s = "%";
			len = 1;
			p++;
			break;
		case 's':
			s = va_arg(*ap, const char *);
			if (!s)
				return -1;   /* "(null)": vsnprintf's own business */
			len = strlen(s);
			p++;
			break;
		case '.':
			if (p[1] != '*' || p[2] != 's')
				return -1;
			{
				int prec = va_arg(*ap, int);
				s = va_arg(*ap, const char *);
				if (!s)
					return -1;
				/* a negative precision is taken as none */
				len = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
			}
			p += 3;
			break;
		case 'd':
		case 'u':
		case 'l':
		case 'z': {
			unsigned long long v;
			int neg = 0;
			size_t k;
			if (p[0] == 'l' && p[1] == 'l') {
				p += 2;
				if (*p == 'd') {
					long long x = va_arg(*ap, long long);
					neg = x < 0;
					v = neg ? 0ull - (unsigned long long)x : (unsigned long long)x;
				} else if (*p == 'u')
					v = va_arg(*ap, unsigned long long);
				else
					return -1;
			} else if (p[0] == 'l' || p[0] == 'z') {
				int z = p[0] == 'z';
				p++;
				if (*p == 'd' && !z) {
					long x = va_arg(*ap, long);
					neg = x < 0;
					v = neg ? 0ull - (unsigned long long)x : (unsigned long long)x;
				} else if (*p == 'u')
					v = z ? (unsigned long long)va_arg(*ap, size_t)
					      : (unsigned long long)va_arg(*ap, unsigned long);
				else
					return -1;
			} else if (*p == 'd') {
				int x = va_arg(*ap, int);
				neg = x < 0;
				v = neg ? 0ull - (unsigned long long)x : (unsigned long long)x;
			} else {
				v = va_arg(*ap, unsigned);
			}
			p++;
			k = sizeof(d);
			do {
				d[--k] = (char)('0' + v % 10);
				v /= 10;
			} while (v);
			if (neg)
				d[--k] = '-';
			s = d + k;
			len = sizeof(d) - k;
			break;
		}
		default:
			return -1;
		}
		if (len >= cap - n)
			return -1;
		memcpy(out + n, s, len);
		n += len;
	}
	out[n] = 0;
	return (int)n;
}

int ch_vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	va_copy(aq, ap);
	n = fast_vformat(out, cap, fmt, &aq);
	va_end(aq);
	return n >= 0 ? n : vsnprintf(out, cap, fmt, ap);
}

int ch_snprintf(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = ch_vformat(out, cap, fmt, ap);
	va_end(ap);
	return n;
}
