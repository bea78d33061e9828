/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-text.c -- the one fix per struct in words: "one fix for all of
 * 'struct x': insert CACHELINE_PADDING(_pad1_) before 'a', and move 'b'
 * after 'c'; this costs N bytes per object (...)" (docs/checks.rst), and
 * its cost (ch_fix_cost, cachehot-core.h). A declaration of several fields
 * that a break would cut is split first.
 *
 * Units: bytes. Memory: the texts are ctx-owned (ch_printf, ch_strdup);
 * the scratch buffer is malloc'd and freed here. Cost: linear in the
 * edits named.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fix-internal.h"

const char *ch_fix_cost(ch_ctx *ctx, uint64_t old_size, uint64_t new_size)
{
	if (new_size == old_size)
		return ch_printf(ctx, "costs no bytes: the struct stays %llu bytes",
				 (unsigned long long)old_size);
	if (new_size < old_size)
		return ch_printf(ctx, "saves %llu bytes per object (%llu -> %llu bytes) and as "
				 "many per array element", (unsigned long long)(old_size - new_size),
				 (unsigned long long)old_size, (unsigned long long)new_size);
	return ch_printf(ctx, "costs %llu bytes per object (%llu -> %llu bytes; an array of n "
			 "grows by %llu*n bytes)", (unsigned long long)(new_size - old_size),
			 (unsigned long long)old_size, (unsigned long long)new_size,
			 (unsigned long long)(new_size - old_size));
}

/* ---- the fix in words ---- */

struct sbuf { char *s; size_t n, cap; };

static void sb_printf(struct sbuf *b, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ch_buf_vappend(&b->s, &b->n, &b->cap, fmt, ap);
	va_end(ap);
}

/* The declaration text of members first..last of t ("int cps_lim, cps_max;"),
 * from the source line, or NULL. */
static const char *decl_text(ch_ctx *ctx, const struct ch_member *first,
			     const struct ch_member *last)
{
	size_t len, b = 0, e;
	const char *s = first->loc.file ? ch_source_line(first->loc.file, first->loc.line, &len)
					: NULL;
	const char *at;
	(void)last;
	if (!s)
		return NULL;
	at = (const char *)memchr(s, ';', len);
	e = at ? (size_t)(at - s) + 1 : len;
	while (b < e && (s[b] == ' ' || s[b] == '\t'))
		b++;
	return ch_printf(ctx, "%.*s", (int)(e - b), s + b);
}

/* "one fix for all of 'struct x': insert ... before 'a', and move 'b' after
 * 'c'; this costs ...", naming the first 'upto' of fx's edits (npads
 * breaks, then moves) and counting the rest. Built in one buffer: linear in
 * the edits named. */
const char *ch_fix_text(ch_ctx *ctx, const struct ch_fix *fx, const struct ch_type *t,
			    size_t npads, size_t upto, int predicted)
{
	struct sbuf b = { NULL, 0, 0 };
	size_t k, shown = upto < fx->nedits ? upto : fx->nedits, nsplit = 0;
	const char *r;
	int kernel = fx->kernel;
	sb_printf(&b, "one fix for all of %s%s: ",
		  t->name ? (t->name_is_typedef ? "'" : "'struct ") : "the struct",
		  t->name ? ch_printf(ctx, "%s'", t->name) : "");
	/* a declaration of several fields is split first: an alignment
	 * specifier, or a line inserted inside it, would apply to the others */
	for (k = 0; k < shown && k < npads; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		const char *d;
		if (!ed->decl_first || !(d = decl_text(ctx, ed->decl_first, ed->decl_last)))
			continue;
		sb_printf(&b, "%s'%s'", nsplit++ ? " and " : "split ", d);
	}
	if (nsplit)
		sb_printf(&b, " into one declaration per field, then ");
	for (k = 0; k < shown && k < npads; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		if (fx->insert)
			sb_printf(&b, "%s%s%s before %s", k ? ", " : "insert ", ed->text,
				  kernel == 1 ? "" : ";", ch_member_ref(ctx, ed->member));
		else
			sb_printf(&b, "%s%s", k ? ", " : "declare ", ch_member_ref(ctx, ed->member));
	}
	if (k && kernel == 1)
		sb_printf(&b, " (<linux/cache.h>)");
	else if (k && fx->sep)
		sb_printf(&b, " (%u-byte separators: they isolate wherever the object starts)",
			  fx->sep);
	else if (k && !fx->insert)
		sb_printf(&b, " %s", fx->edits[0].text);
	for (; k < shown; k++) {
		const struct ch_fix_edit *ed = &fx->edits[k];
		sb_printf(&b, "%s", k == npads ? (npads ? ", and " : "") : ", ");
		if (ed->after != ed->member)
			sb_printf(&b, "move %s after %s", ch_member_ref(ctx, ed->member),
				  ch_member_ref(ctx, ed->after));
		else
			sb_printf(&b, "move %s to the start", ch_member_ref(ctx, ed->member));
	}
	if (shown < fx->nedits)
		sb_printf(&b, ", and %zu more edit%s (the first warning on this struct lists them all)",
			  fx->nedits - shown, fx->nedits - shown == 1 ? "" : "s");
	sb_printf(&b, "; this %s%s",
		  predicted ? ch_printf(ctx, "with %u-byte lines ", fx->line_size) : "",
		  ch_fix_cost(ctx, fx->old_size, fx->new_size));
	r = ch_strdup(ctx, b.s);
	free(b.s);
	return r;
}
