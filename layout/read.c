/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read.c -- the inputs of cachehot-layout read into a set: each file's kind
 * detected from its content (ELF with DWARF: dwarf.c; ELF with .BTF or raw
 * BTF: btf.c), the sidecars loaded first and the manifest's annotations
 * applied after.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lt.h"

int lt_set_read(struct lt_set *s, const char *path, char *err, size_t errsz)
{
	unsigned char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t got;
	unsigned fileno = ++s->nfiles;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	got = fread(magic, 1, 4, f);
	fclose(f);
	if (got == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F') {
		int d = lt_elf_has_section(path, ".debug_info");
		if (d < 0) {
			snprintf(err, errsz, "%s: not a readable ELF file", path);
			return -1;
		}
		/* -fdebug-types-section in an object file: each type unit sits in
		 * a COMDAT section of its own, also named .debug_info (DWARF 5)
		 * or .debug_types (DWARF 4); libdw reads one section of a name,
		 * so the types would be silently missing */
		if (d > 1 || lt_elf_has_section(path, ".debug_types") > 1) {
			snprintf(err, errsz, "%s: type units in COMDAT sections (-fdebug-types-section) "
				 "cannot be read from an object file; read the linked binary, or "
				 "build without -fdebug-types-section", path);
			return -1;
		}
		if (d)
			return lt_dwarf_read(s, path, fileno, err, errsz);
		if (lt_elf_has_section(path, ".BTF") > 0)
			return s->kernel = 1, lt_btf_read(s, path, fileno, err, errsz);
		snprintf(err, errsz, "%s: no debug information (.debug_info or .BTF); "
			 "build with -g", path);
		return -1;
	}
	/* raw BTF: magic 0xeB9F in either byte order */
	if (got >= 2 && ((magic[0] == 0x9f && magic[1] == 0xeb) ||
			 (magic[0] == 0xeb && magic[1] == 0x9f)))
		return s->kernel = 1, lt_btf_read(s, path, fileno, err, errsz);
	{
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(err, errsz, "%s: is a directory (name the objects, vmlinux or BTF files)", path);
		else if (got == 0)
			snprintf(err, errsz, "%s: empty file", path);
		else
			snprintf(err, errsz, "%s: neither an ELF file nor raw BTF", path);
	}
	return -1;
}

struct lt_set *lt_load_set(char **files, int nfiles, char **sides, size_t nsides,
			   struct lt_manifest *mf, int want_decls)
{
	/* annotated global variables are only judged from the symbol table:
	 * an object without debug information is read for them alone */
	int globals_only;
	struct lt_set *s = lt_set_new();
	s->want_decls = want_decls;
	s->mf = mf;   /* its per-thread marks, while reading */
	char err[1024];
	size_t i;
	for (i = 0; i < nsides; i++)
		if (ch_sidecar_load(s->ctx, sides[i])) {
			fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(s->ctx));
			exit(2);
		}
	globals_only = ch_sidecar_globals(s->ctx, NULL, NULL) || lt_manifest_nglobals(mf);
	for (i = 0; i < (size_t)nfiles; i++)
		if (!(globals_only && lt_elf_has_section(files[i], ".debug_info") == 0 &&
		      lt_elf_has_section(files[i], ".BTF") == 0) &&   /* symbols only */
		    lt_set_read(s, files[i], err, sizeof(err))) {
			fprintf(stderr, "cachehot-layout: %s\n", err);
			exit(2);
		}
	for (i = 0; i < s->n; i++)
		if (s->structs[i].nonmonotonic)
			s->structs[i].t->randomized = 1;
	if (mf)
		lt_manifest_apply(mf, s);
	return s;
}
