/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objsec.c -- reading the records a compile wrote into its object
 * (core/objsec-emit.c) from objects, archives and build trees, with libelf.
 * Only the tools link this (not the plugin: core/rules.mk).
 *
 * An ELF file's CH_OBJ_SECTION sections are split at NUL bytes; an ar
 * archive is read member by member (libelf's elf_next); a thin archive
 * ("!<thin>") holds no member text: its members are the objects of the
 * build tree, read there. A directory is walked for *.o and *.a files (and
 * whatever else the caller's filter takes), in sorted order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>
#include "cachehot-core.h"

static void seterr(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	if (!err || !n)
		return;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
}

int ch_objsec_kind(const char *path)
{
	char m[8];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), kind = CH_OBJ_NONE;
	struct stat st;
	if (fd < 0)
		return CH_OBJ_NONE;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, m, 8) == 8) {
		if (!memcmp(m, "\177ELF", 4))
			kind = CH_OBJ_ELF;
		else if (!memcmp(m, "!<arch>\n", 8))
			kind = CH_OBJ_ARCHIVE;
		else if (!memcmp(m, "!<thin>\n", 8))
			kind = CH_OBJ_THIN;
	}
	close(fd);
	return kind;
}

/* The records of one ELF (an object or an archive member). */
static int elf_records(Elf *e, const char *origin, ch_objsec_fn fn, void *arg,
		       char *err, size_t errsz)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int n = 0;
	if (elf_kind(e) != ELF_K_ELF)
		return 0;
	if (elf_getshdrstrndx(e, &shstrndx) != 0) {
		seterr(err, errsz, "%s: not a readable ELF file: %s", origin, elf_errmsg(-1));
		return -1;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		const char *p, *end;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, CH_OBJ_SECTION))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size != sh.sh_size) {
			seterr(err, errsz, "%s: section %s cannot be read: %s", origin, CH_OBJ_SECTION,
			       elf_errmsg(-1));
			return -1;
		}
		p = (const char *)d->d_buf;
		end = p + d->d_size;
		while (p < end) {
			const char *z = (const char *)memchr(p, 0, (size_t)(end - p));
			size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
			if (len) {
				char *text = (char *)malloc(len + 1);
				int rc;
				if (!text)
					abort();
				memcpy(text, p, len);
				text[len] = 0;
				rc = fn(text, len, origin, arg);
				free(text);
				if (rc)
					return -1;
				n++;
			}
			p += len + 1;
		}
	}
	return n;
}

int ch_objsec_read(const char *path, ch_objsec_fn fn, void *arg, char *err, size_t errsz)
{
	int fd, n = 0, kind = ch_objsec_kind(path);
	Elf *ar, *e;
	if (kind == CH_OBJ_NONE) {
		seterr(err, errsz, "%s: not an object file or archive", path);
		return -1;
	}
	if (kind == CH_OBJ_THIN)   /* members are files of their own: read those */
		return 0;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		seterr(err, errsz, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		seterr(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	ar = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!ar) {
		seterr(err, errsz, "%s: %s", path, elf_errmsg(-1));
		close(fd);
		return -1;
	}
	if (elf_kind(ar) == ELF_K_AR) {
		Elf_Cmd cmd = ELF_C_READ_MMAP;
		while ((e = elf_begin(fd, cmd, ar)) != NULL) {
			Elf_Arhdr *h = elf_getarhdr(e);
			char *origin;
			int r;
			if (asprintf(&origin, "%s(%s)", path, h && h->ar_name ? h->ar_name : "?") < 0)
				abort();
			r = elf_records(e, origin, fn, arg, err, errsz);
			free(origin);
			cmd = elf_next(e);
			elf_end(e);
			if (r < 0) {
				n = -1;
				break;
			}
			n += r;
		}
	} else {
		n = elf_records(ar, path, fn, arg, err, errsz);
	}
	elf_end(ar);
	close(fd);
	return n;
}

/* ---- build trees ------------------------------------------------------------ */

static struct {
	char **v;
	size_t n, cap;
	const char *const *suffixes;
} walk;

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n > k && !strcmp(s + n - k, suf);
}

static int walk_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t i;
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	for (i = 0; walk.suffixes[i]; i++)
		if (has_suffix(path, walk.suffixes[i]))
			break;
	if (!walk.suffixes[i])
		return 0;
	CH_GROW(walk.v, walk.n, walk.cap, 64);
	walk.v[walk.n] = strdup(path);
	if (!walk.v[walk.n])
		abort();
	walk.n++;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t ch_find_files(const char *dir, const char *const *suffixes, char ***out)
{
	walk.v = NULL;
	walk.n = walk.cap = 0;
	walk.suffixes = suffixes;
	nftw(dir, walk_cb, 16, FTW_PHYS);
	if (walk.n)
		qsort(walk.v, walk.n, sizeof(*walk.v), cmp_path);
	*out = walk.v;
	return walk.n;
}
