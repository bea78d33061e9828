/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.c -- how cachehot-layout says what it found: diagnostics printed as
 * the compilers print them ("file:line:col: warning: msg", display columns
 * from srcpos.c) and, with --findings, the same findings as records
 * (docs/findings.md); [cachehot] reports about sidecar entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

static const char *sev_str(enum ch_severity s)
{
	return s == CH_SEV_ERROR ? "error" : s == CH_SEV_WARNING ? "warning" : "note";
}

/* The member name a flattened path ends in: "memory.usage" -> "usage",
 * "slots[1].hits" -> "hits", "zones[1]" -> "zones". */
static const char *leaf_name(const char *path, char *buf, size_t n)
{
	const char *p = path ? strrchr(path, '.') : NULL;
	size_t k;
	if (!path)
		return NULL;
	p = p ? p + 1 : path;
	k = strcspn(p, "[");
	if (k >= n)
		k = n - 1;
	memcpy(buf, p, k);
	buf[k] = 0;
	return buf;
}

ch_ctx *lt_records;

void lt_print_loc(FILE *out, const struct ch_loc *l, const char *field, const char *input)
{
	char nb[256];
	if (l->file && l->line)
		fprintf(out, "%s:%u:%u: ", l->file, l->line,
			lt_display_col(l->file, l->line, l->col, leaf_name(field, nb, sizeof(nb))));
	else
		fprintf(out, "%s: ", l->file ? l->file : input);
}

void lt_record(struct ch_record *r, const struct ch_loc *l, const char *field, const char *input)
{
	char nb[256];
	if (!lt_records)
		return;
	if (!r->file && l && l->file && l->line) {
		r->file = l->file;
		r->line = l->line;
		r->col = lt_display_col(l->file, l->line, l->col, leaf_name(field, nb, sizeof(nb)));
	} else if (!r->file) {
		r->file = l && l->file ? l->file : input;   /* a binary without DWARF: line 0 */
	}
	ch_record_add(lt_records, r);
}

void lt_print_finding(FILE *out, const struct ch_finding *f, const char *input)
{
	const char *field = f->field_a && f->check != CH_CHECK__COUNT ? f->field_a : NULL;
	if (lt_records) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		lt_record(&r, &f->loc, field, input);
	}
	if (f->loc.file && f->loc.line)
		lt_print_loc(out, &f->loc, field, input);
	else {
		const char *where = f->loc.file ? f->loc.file : input;
		fputs(where ? where : "(null)", out);
		fputs(": ", out);
	}
	/* pieces, not fprintf: one line per finding, 20 000 lines for a
	 * kernel's every struct */
	fputs(sev_str(f->severity), out);
	fputs(": ", out);
	fputs(f->message, out);
	putc('\n', out);
}

/* A [cachehot] diagnostic (sidecar) of severity sev at loc (or, loc NULL,
 * at the entry file:line), recorded and printed: entry, in struct scope,
 * ident the kind (docs/findings.md). */
static void side_report(FILE *out, enum ch_severity sev, const char *msg, const struct ch_loc *loc,
			const char *input, const char *scope, const char *entry, const char *ident,
			const char *file, unsigned line, const char *hint)
{
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_ANNOTATION, sev, msg);
	ch_record_entry(&r, loc ? NULL : file, loc ? 0 : line, entry, ident, hint);
	r.scope = scope;
	lt_record(&r, loc, NULL, input);
	if (loc)
		lt_print_loc(out, loc, NULL, input);
	else
		fputs("cachehot-layout: ", out);
	fprintf(out, "%s: %s\n", sev_str(sev), msg);
}

void lt_side_report(FILE *out, enum ch_severity sev, const char *msg, const char *entry,
		    const char *ident, const char *file, unsigned line, const char *hint)
{
	side_report(out, sev, msg, NULL, NULL, NULL, entry, ident, file, line, hint);
}

void lt_side_report_at(FILE *out, enum ch_severity sev, const char *msg, const struct ch_loc *loc,
		       const char *input, const char *scope, const char *entry, const char *ident)
{
	side_report(out, sev, msg, loc, input, scope, entry, ident, NULL, 0, NULL);
}

/* The line-size note macros.c composed, "FILE:LINE: note: MESSAGE": its
 * record (the one place layout takes its own text apart). */
void lt_record_macro_note(const char *note)
{
	const char *sep = strstr(note, ": note: "), *colon;
	struct ch_record r;
	char *file;
	if (!lt_records || !sep)
		return;
	for (colon = sep - 1; colon > note && *colon != ':'; colon--)
		;
	if (colon <= note)
		return;
	file = strndup(note, (size_t)(colon - note));
	ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, NULL);
	r.file = file;
	r.line = (unsigned)strtoul(colon + 1, NULL, 10);
	r.message = sep + 8;
	r.ident = "line-size-macro";
	ch_record_add(lt_records, &r);
	free(file);
}
