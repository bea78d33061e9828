/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linefiles.c -- the file table of a unit's line program from the
 * .debug_line header alone (linefiles.h says why and how names are made).
 * Header layout: DWARF 4 section 6.2.4, DWARF 5 section 6.2.4 (entry
 * formats, DW_LNCT_path / DW_LNCT_directory_index).
 */
#include "linefiles.h"
#include "hmap.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sect {
	const unsigned char *buf;
	size_t size;
};

/* A bounds-checked reader over [p, end). ok drops to 0 on any overrun. */
struct rd {
	const unsigned char *p, *end;
	int ok;
};

static uint64_t get_n(struct rd *r, size_t n)
{
	uint64_t v = 0;
	if (!r->ok || (size_t)(r->end - r->p) < n) {
		r->ok = 0;
		return 0;
	}
	for (size_t i = 0; i < n; i++)   /* little-endian: x86-64, i386, AArch64 */
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t get_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (r->ok && r->p < r->end) {
		unsigned char b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->ok = 0;
	return 0;
}

/* A NUL-terminated string inside the reader's range. */
static const char *get_str(struct rd *r)
{
	const unsigned char *nul;
	if (!r->ok || r->p >= r->end ||
	    !(nul = memchr(r->p, 0, (size_t)(r->end - r->p)))) {
		r->ok = 0;
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p = nul + 1;
	return s;
}

/* A string at offset off of section sec (NUL inside the section). */
static const char *str_at(const struct sect *sec, uint64_t off)
{
	if (!sec->buf || off >= sec->size || !memchr(sec->buf + off, 0, sec->size - off))
		return NULL;
	return (const char *)sec->buf + off;
}

static int find_sections(Elf *elf, struct sect *line, struct sect *line_str, struct sect *str)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		struct sect *to;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".debug_line"))
			to = line;
		else if (!strcmp(name, ".debug_line_str"))
			to = line_str;
		else if (!strcmp(name, ".debug_str"))
			to = str;
		else
			continue;
		if (sh.sh_flags & SHF_COMPRESSED || sh.sh_type == SHT_NOBITS)
			return -1;   /* libdw decompresses: let it */
		if (!(d = elf_getdata(scn, NULL)) || !d->d_buf)
			return -1;
		to->buf = d->d_buf;
		to->size = d->d_size;
	}
	return line->buf ? 0 : -1;
}

/* Reads one value of form; *str set for the string forms, else *num. */
static int read_form(struct rd *r, unsigned form, unsigned offsize, const struct sect *line_str,
		     const struct sect *str, const char **s, uint64_t *num)
{
	*s = NULL;
	*num = 0;
	switch (form) {
	case DW_FORM_string:
		return (*s = get_str(r)) ? 0 : -1;
	case DW_FORM_line_strp:
		*s = str_at(line_str, get_n(r, offsize));
		return *s && r->ok ? 0 : -1;
	case DW_FORM_strp:
		*s = str_at(str, get_n(r, offsize));
		return *s && r->ok ? 0 : -1;
	case DW_FORM_udata:
		*num = get_uleb(r);
		break;
	case DW_FORM_data1: *num = get_n(r, 1); break;
	case DW_FORM_data2: *num = get_n(r, 2); break;
	case DW_FORM_data4: *num = get_n(r, 4); break;
	case DW_FORM_data8: *num = get_n(r, 8); break;
	case DW_FORM_data16: get_n(r, 8); get_n(r, 8); break;
	case DW_FORM_block: {
		uint64_t n = get_uleb(r);
		if (!r->ok || n > (uint64_t)(r->end - r->p))
			return -1;
		r->p += n;
		break;
	}
	default:
		return -1;   /* strx and others: libdw's */
	}
	return r->ok ? 0 : -1;
}

/* One DWARF 5 entry format: (content type, form) pairs. */
struct fmt {
	uint64_t content[16], form[16];
	unsigned n;
};

static int read_format(struct rd *r, struct fmt *f)
{
	f->n = (unsigned)get_n(r, 1);
	if (f->n > 16)
		return -1;
	for (unsigned i = 0; i < f->n; i++) {
		f->content[i] = get_uleb(r);
		f->form[i] = get_uleb(r);
	}
	return r->ok ? 0 : -1;
}

/* One DWARF 5 entry: its path and directory index. */
static int read_entry(struct rd *r, const struct fmt *f, unsigned offsize,
		      const struct sect *line_str, const struct sect *str,
		      const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = 0;
	for (unsigned i = 0; i < f->n; i++) {
		const char *s;
		uint64_t v;
		if (read_form(r, (unsigned)f->form[i], offsize, line_str, str, &s, &v))
			return -1;
		if (f->content[i] == DW_LNCT_path)
			*path = s;
		else if (f->content[i] == DW_LNCT_directory_index)
			*dir = v;
	}
	return *path ? 0 : -1;
}

static char *join(const char *dir, const char *name)
{
	size_t a = 0, b;
	char *out;
	if (name[0] == '/' || !dir)
		dir = NULL;
	else
		a = strlen(dir);
	b = strlen(name);
	out = bl_xmalloc(a + b + 2);
	if (dir) {
		memcpy(out, dir, a);
		out[a++] = '/';
	}
	memcpy(out + a, name, b + 1);
	return out;
}

static void push(struct bl_linefiles *lf, size_t *cap, const char *dir, const char *base)
{
	if (lf->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		lf->dir = bl_xrealloc(lf->dir, *cap * sizeof(*lf->dir));
		lf->base = bl_xrealloc(lf->base, *cap * sizeof(*lf->base));
		lf->names = bl_xrealloc(lf->names, *cap * sizeof(*lf->names));
	}
	lf->dir[lf->n] = dir;
	lf->base[lf->n] = base;
	lf->names[lf->n++] = NULL;
}

struct bl_linefiles *bl_linefiles_read(Elf *elf, Dwarf_Die *cudie)
{
	struct sect line = { 0 }, line_str = { 0 }, str = { 0 };
	Dwarf_Attribute a;
	Dwarf_Word off;
	const char *comp_dir;
	struct rd r;
	uint64_t len;
	unsigned offsize = 4, version;
	const char **dirs = NULL;
	size_t ndirs = 0, capdirs = 0, capfiles = 0;
	struct bl_linefiles *lf = bl_xcalloc(1, sizeof(*lf));

	if (!dwarf_attr(cudie, DW_AT_stmt_list, &a) || dwarf_formudata(&a, &off) ||
	    find_sections(elf, &line, &line_str, &str) || off >= line.size)
		goto fail;
	comp_dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a));
	r = (struct rd){ line.buf + off, line.buf + line.size, 1 };
	len = get_n(&r, 4);
	if (len == 0xffffffff) {
		offsize = 8;
		len = get_n(&r, 8);
	}
	if (!r.ok || len > (uint64_t)(r.end - r.p))
		goto fail;
	r.end = r.p + len;
	version = (unsigned)get_n(&r, 2);
	if (version < 2 || version > 5)
		goto fail;
	if (version >= 5)
		get_n(&r, 2);                 /* address_size, segment_selector_size */
	uint64_t hlen = get_n(&r, offsize);
	if (!r.ok || hlen > (uint64_t)(r.end - r.p))
		goto fail;
	r.end = r.p + hlen;                  /* the tables end with the header */
	get_n(&r, version >= 4 ? 5 : 4);     /* min_inst_length [max_ops] default_is_stmt line_base line_range */
	unsigned opcode_base = (unsigned)get_n(&r, 1);
	if (!r.ok || opcode_base == 0 || opcode_base - 1 > (size_t)(r.end - r.p))
		goto fail;
	r.p += opcode_base - 1;              /* standard_opcode_lengths */

	if (version < 5) {
		const char *s;
		capdirs = 16;
		dirs = bl_xmalloc(capdirs * sizeof(*dirs));
		dirs[ndirs++] = comp_dir;    /* may be NULL: names stay relative */
		while ((s = get_str(&r)) && *s) {
			if (ndirs == capdirs)
				dirs = bl_xrealloc(dirs, (capdirs *= 2) * sizeof(*dirs));
			dirs[ndirs++] = s;
		}
		if (!r.ok)
			goto fail;
		push(lf, &capfiles, NULL, "???");   /* libdw's entry 0 */
		while ((s = get_str(&r)) && *s) {
			uint64_t d = get_uleb(&r);
			get_uleb(&r);                  /* mtime */
			get_uleb(&r);                  /* length */
			if (!r.ok || d >= ndirs)
				goto fail;
			push(lf, &capfiles, dirs[d], s);
		}
		if (!r.ok)
			goto fail;
	} else {
		struct fmt f;
		uint64_t n;
		if (read_format(&r, &f))
			goto fail;
		n = get_uleb(&r);
		if (!r.ok || n > (uint64_t)(r.end - r.p))   /* each entry takes a byte at least */
			goto fail;
		dirs = bl_xmalloc((n ? n : 1) * sizeof(*dirs));
		for (ndirs = 0; ndirs < n; ndirs++) {
			uint64_t unused;
			if (read_entry(&r, &f, offsize, &line_str, &str, &dirs[ndirs], &unused))
				goto fail;
		}
		if (read_format(&r, &f))
			goto fail;
		n = get_uleb(&r);
		if (!r.ok || n > (uint64_t)(r.end - r.p))
			goto fail;
		for (uint64_t i = 0; i < n; i++) {
			const char *path;
			uint64_t d;
			if (read_entry(&r, &f, offsize, &line_str, &str, &path, &d) || d >= ndirs)
				goto fail;
			push(lf, &capfiles, dirs[d], path);
		}
	}
	free(dirs);
	return lf;
fail:
	free(dirs);
	bl_linefiles_free(lf);
	return NULL;
}

const char *bl_linefiles_name(struct bl_linefiles *lf, Dwarf_Word idx)
{
	if (!lf || idx == 0 || idx >= lf->n)
		return NULL;
	if (!lf->names[idx])
		lf->names[idx] = join(lf->dir[idx], lf->base[idx]);
	return lf->names[idx];
}

void bl_linefiles_free(struct bl_linefiles *lf)
{
	if (!lf)
		return;
	for (size_t i = 0; i < lf->n; i++)
		free(lf->names[i]);
	free(lf->names);
	free(lf->dir);
	free(lf->base);
	free(lf);
}
