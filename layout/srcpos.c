/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcpos.c -- source positions as the compiler prints them: the decl file
 * names of the debug information, interned per set (relative to the
 * unit's directory when under it, as GCC prints them), and byte columns
 * turned into GCC's display columns by reading the source line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

/* ---- display columns --------------------------------------------------------
 * DWARF's DW_AT_decl_column counts bytes; GCC's diagnostics count display
 * columns (-fdiagnostics-column-unit=display, tabs to the next multiple of
 * -ftabstop=8, one column per UTF-8 character). To print the column the
 * compiler prints, the source line is read when the file is at hand; when it
 * is not, the byte column is printed. */
struct srcfile {
	char *path;
	char *buf;               /* NULL: unreadable */
	size_t *line;            /* byte offset of each line start */
	size_t nlines;
	struct srcfile *next;
};
static struct srcfile *srcfiles;

static struct srcfile *src_get(const char *path)
{
	struct srcfile *f;
	FILE *fp;
	long len;
	size_t i, cap = 256;
	for (f = srcfiles; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	f->path = strdup(path);
	f->next = srcfiles;
	srcfiles = f;
	fp = fopen(path, "rb");
	if (!fp)
		return f;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && len < (64L << 20) &&
	    fseek(fp, 0, SEEK_SET) == 0) {
		f->buf = malloc((size_t)len + 1);
		if (f->buf && fread(f->buf, 1, (size_t)len, fp) == (size_t)len) {
			f->buf[len] = 0;
			f->line = malloc(cap * sizeof(size_t));
			f->line[f->nlines++] = 0;
			for (i = 0; i < (size_t)len; i++)
				if (f->buf[i] == '\n') {
					if (f->nlines == cap) {
						cap *= 2;
						f->line = realloc(f->line, cap * sizeof(size_t));
						if (!f->line)
							abort();
					}
					f->line[f->nlines++] = i + 1;
				}
		} else {
			free(f->buf);
			f->buf = NULL;
		}
	}
	fclose(fp);
	return f;
}

/* Interned decl files: the ctx-owned name printed (relative to the CU's
 * comp_dir when under it, as GCC prints it) and the path to open; found by
 * (set, libdw's name) and by the interned name (the core's index). */
struct fileent {
	unsigned long set;        /* lt_set serial: rel belongs to that set's ctx */
	const char *raw;          /* malloc'd copy of libdw's name */
	const char *rel;          /* ctx-owned */
	char *full;
};
static struct fileent *files;
static size_t nfiles, capfiles;
static struct ch_index by_raw, by_rel;

struct raw_key { unsigned long set; const char *raw; };

static uint64_t raw_hash(unsigned long set, const char *raw)
{
	return ch_hash_str(raw) ^ ch_hash_ptr((const void *)(uintptr_t)set);
}

static int raw_is(size_t item, const void *key, const void *arg)
{
	const struct raw_key *k = (const struct raw_key *)key;
	return files[item].set == k->set && !strcmp(files[item].raw, k->raw);
}

static uint64_t raw_rehash(size_t item, const void *arg)
{
	return raw_hash(files[item].set, files[item].raw);
}

static int rel_is(size_t item, const void *key, const void *arg)
{
	return files[item].rel == (const char *)key;
}

static uint64_t rel_rehash(size_t item, const void *arg)
{
	return ch_hash_ptr(files[item].rel);   /* NULL: a dead entry, never found */
}

const char *lt_src_intern(struct lt_set *s, const char *comp_dir, size_t comp_dir_len,
			  const char *raw)
{
	struct raw_key k = { s->serial, raw };
	uint64_t h = raw_hash(s->serial, raw);
	size_t i = ch_index_find(&by_raw, h, raw_is, &k, NULL);
	struct fileent *e;
	const char *f = raw;
	char full[4096];
	if (i != CH_INDEX_NONE)
		return files[i].rel;
	if (comp_dir_len && !strncmp(f, comp_dir, comp_dir_len) &&
	    f[comp_dir_len] == '/')
		f += comp_dir_len + 1;
	if (f[0] != '/' && comp_dir)
		snprintf(full, sizeof(full), "%s/%s", comp_dir, f);
	else
		snprintf(full, sizeof(full), "%s", f);
	CH_GROW(files, nfiles, capfiles, 64);
	e = &files[nfiles];
	e->set = s->serial;
	e->raw = strdup(raw);
	e->rel = ch_strdup(s->ctx, f);
	e->full = strdup(full);
	if (!e->raw || !e->full)
		abort();
	/* a set freed before this one may have held the same address: its
	 * entry no longer answers for it */
	i = ch_index_find(&by_rel, ch_hash_ptr(e->rel), rel_is, e->rel, NULL);
	if (i != CH_INDEX_NONE)
		files[i].rel = NULL;
	ch_index_add(&by_raw, nfiles, h, raw_rehash, NULL);
	ch_index_add(&by_rel, nfiles, ch_hash_ptr(e->rel), rel_rehash, NULL);
	nfiles++;
	return e->rel;
}

static const char *full_path_of(const char *rel)
{
	size_t i;
	if (!rel)
		return NULL;
	/* rel is an interned pointer */
	i = ch_index_find(&by_rel, ch_hash_ptr(rel), rel_is, rel, NULL);
	return i == CH_INDEX_NONE ? NULL : files[i].full;
}

unsigned lt_display_col(const char *file, unsigned line, unsigned col, const char *name)
{
	struct srcfile *f;
	const char *p, *full;
	unsigned i, dcol = 0;
	if (!file || !line || col <= 1 || !(full = full_path_of(file)))
		return col;
	f = src_get(full);
	if (!f->buf || line > f->nlines)
		return col;
	p = f->buf + f->line[line - 1];
	/* a column past the end of its line: the source changed since the
	 * build (or the DWARF lies); never read past the line */
	if (col - 1 > strcspn(p, "\n"))
		return col;
	/* A member declared by a macro (PC_PADDING(_pad1_)): DWARF gives the
	 * macro's position, GCC the name's spelling inside the arguments. */
	if (name && *name) {
		const char *at = p + col - 1, *q = at, *e = strchr(at, '\n');
		size_t nl = strlen(name), il = 0;
		while (q[il] == '_' || (q[il] >= 'a' && q[il] <= 'z') ||
		       (q[il] >= 'A' && q[il] <= 'Z') || (q[il] >= '0' && q[il] <= '9'))
			il++;
		if (il && (il != nl || strncmp(q, name, nl)) && q[il] == '(') {
			const char *h = q + il;
			while ((h = strstr(h, name)) && (!e || h < e)) {
				char b = h[-1], a = h[nl];
				if (!(b == '_' || isalnum((unsigned char)b)) &&
				    !(a == '_' || isalnum((unsigned char)a))) {
					col = (unsigned)(h - p) + 1;
					break;
				}
				h += nl;
			}
		}
	}
	for (i = 0; i + 1 < col; i++) {
		unsigned char c = (unsigned char)p[i];
		if (!c || c == '\n')
			return col;
		if (c == '\t')
			dcol = (dcol / 8 + 1) * 8;
		else if ((c & 0xc0) != 0x80)
			dcol++;
	}
	return dcol + 1;
}
