// SPDX-License-Identifier: GPL-2.0
/*
 * report.c -- how cachehot-sparse says what it found, and the state every
 * one of its files shares: the options and the core context; sparse
 * positions as core locations (one interned file name per stream);
 * findings printed through sparse's diagnostics at GCC's columns, and
 * recorded (findings=PATH).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "scope.h"
#include "expression.h"
#include "options.h"

#include "cachehot-sparse.h"

struct ch_sparse_opts ch_opts = {
	.line_size = 0, .predict = 0, .smp = -1, .severity = CH_SEV_WARNING,
	.manifest = NULL, .inline_addr = 0, .inline_notes = 1, .unmatched = 1, .layout = 1,
};
ch_ctx *ch_sparse_ctx;

static int is_idch(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}


/* ---- file names: one ctx-owned string per sparse stream ----------------- */
static const char **stream_files;
static size_t nstream_files;

static const char *file_of(int stream)
{
	if (stream < 0)
		return NULL;
	if ((size_t)stream >= nstream_files) {
		size_t n = (size_t)stream + 256, i;
		stream_files = realloc(stream_files, n * sizeof(*stream_files));
		if (!stream_files)
			die("cachehot-sparse: out of memory");
		for (i = nstream_files; i < n; i++)
			stream_files[i] = NULL;
		nstream_files = n;
	}
	if (!stream_files[stream])
		stream_files[stream] = ch_strdup(ch_sparse_ctx, stream_name(stream));
	return stream_files[stream];
}

static int stream_of(const char *file)
{
	size_t i;
	for (i = 0; i < nstream_files; i++)
		if (stream_files[i] == file)
			return (int)i;
	return -1;
}

struct ch_loc ch_sparse_loc(struct position pos)
{
	struct ch_loc l = { file_of(pos.stream), pos.line, pos.pos, 0 };
	return l;
}


/* ---- printing ------------------------------------------------------------ */
unsigned ch_name_column(const char *path, unsigned line, unsigned col, const char *field)
{
	const char *text, *name;
	size_t len, i, nl;
	unsigned c = 1, found = 0;

	if (!field || !line || !col)
		return col;
	name = strrchr(field, '.');
	name = name ? name + 1 : field;
	nl = strcspn(name, "[");
	if (!nl)
		return col;
	text = ch_source_line(path, line, &len);
	if (!text)
		return col;
	for (i = 0; i < len; i++) {
		if (c >= col && !found && i + nl <= len && !memcmp(text + i, name, nl) &&
		    (i == 0 || !is_idch((unsigned char)text[i - 1])) &&
		    (i + nl == len || !is_idch((unsigned char)text[i + nl]))) {
			found = c;
			break;
		}
		if (text[i] == '\t')
			c += tabstop - (c - 1) % tabstop;
		else
			c++;
	}
	return found ? found : col;
}

void ch_print_finding(const struct ch_finding *f, void *arg)
{
	struct position pos;
	int stream = stream_of(f->loc.file);
	unsigned col = f->loc.col;

	memset(&pos, 0, sizeof(pos));
	if (stream >= 0 && f->loc.line) {
		const struct symbol *named = (const struct symbol *)(uintptr_t)f->loc.fe_loc;
		if (named && named->ident) {
			/* a group marker's name is pasted: G is what the source spells */
			const char *nm = show_ident(named->ident), *g;
			if (ch_marker_kind(nm, &g) != CH_MARKER_NONE)
				nm = g;
			col = ch_name_column(f->loc.file, f->loc.line, col, nm);
		}
		pos.stream = stream;
		pos.line = f->loc.line;
		pos.pos = col;
	}
	if (ch_records_on(ch_sparse_ctx)) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		r.file = stream >= 0 ? stream_name(stream) : f->loc.file;
		r.line = pos.line;
		r.col = pos.pos;
		if (f->check == CH_CHECK_INLINE_ADDR) {
			r.confidence = "possible";
			r.evidence = "the address is taken in the source (no call graph)";
		}
		ch_record_add(ch_sparse_ctx, &r);
	}
	if (f->severity == CH_SEV_ERROR) {
		if (strlen(f->message) < 400) {
			sparse_error(pos, "%s", f->message);
			return;
		}
		has_error |= 1;
	} else if (f->severity == CH_SEV_WARNING && strlen(f->message) < 400 && !has_error) {
		/* sparse's own path, for -Wsparse-error; but not under its
		 * warning limit (-fmax-warnings, 100 by default): cachehot's
		 * findings are not sparse's warnings to cap (with
		 * 5000 annotated fields, 98 of 4781 findings were printed) */
		int saved = fmax_warnings;
		fmax_warnings = 2;   /* > 1: no "too many warnings" in its place */
		warning(pos, "%s", f->message);
		fmax_warnings = saved;
		return;
	}
	/* notes, messages too long for sparse's 512-byte buffer, and warnings
	 * after an error (sparse would drop them; GCC, and so the plugin,
	 * prints them: the engines must agree) */
	if (f->severity == CH_SEV_WARNING && Wsparse_error)
		has_error |= 1;
	fflush(stdout);
	fprintf(stderr, "%s:%d:%d: %s%s%s\n", stream >= 0 ? stream_name(stream) : "<unknown>",
		pos.line, pos.pos, diag_prefix,
		f->severity == CH_SEV_ERROR ? "error: " :
		f->severity == CH_SEV_WARNING ? "warning: " : "note: ", f->message);
}

void ch_sparse_report(struct position pos, struct ch_record *r)
{
	if (!r->file && pos.line) {
		r->file = stream_name(pos.stream);
		r->line = pos.line;
		r->col = pos.pos;
	}
	ch_record_add(ch_sparse_ctx, r);
	if (r->severity == CH_SEV_ERROR) {
		sparse_error(pos, "%s", r->message);
		return;
	}
	fflush(stdout);
	if (pos.line)
		fprintf(stderr, "%s:%d:%d: %s%s%s\n", stream_name(pos.stream), pos.line, pos.pos,
			diag_prefix, r->severity == CH_SEV_WARNING ? "warning: " : "note: ",
			r->message);
	else
		fprintf(stderr, "cachehot-sparse: %s%s\n",
			r->severity == CH_SEV_WARNING ? "warning: " : "note: ", r->message);
}

void ch_sparse_error(struct position pos, enum ch_check check, const char *msg)
{
	struct ch_record r;
	ch_record_init(&r, check, CH_SEV_ERROR, msg);
	ch_sparse_report(pos, &r);
}
