/* SPDX-License-Identifier: GPL-2.0 */
/* DWARF and BTF readers (layout/dwarf.c, layout/btf.c, through
 * lt_set_read, which detects the kind), then what cachehot-layout does with
 * the structs: judge them with sidecar classes on their first and last
 * members, --show and --reorganize (the first 8 structs), then a second
 * read with them marked per-thread ([cachehot-array-sharing]); and the
 * symbol table's data symbols as annotated globals (fuzz_globals). One source, two
 * harnesses (fuzz-dwarf, fuzz-btf) with their own corpora. */
#include <fcntl.h>
#include <gelf.h>
#include "common.h"
#include "lt.h"

static FILE *devnull;

/* [cachehot-global-sharing] (layout/symbols.c): the first data symbols of
 * the input's symbol table annotated hot, read-mostly and exclusive by
 * sidecar lines, then judged, with and without debug information. */
static void fuzz_globals(const char *path, const struct lt_opts *o)
{
	static const char *const cls[] = { "hot", "read_mostly", "exclusive", "hot:g", "hot:g" };
	struct lt_set *s = lt_set_new();
	Elf *elf;
	Elf_Scn *scn = NULL;
	int fd = open(path, O_RDONLY), k = 0;
	char err[1024];
	size_t judged;
	elf_version(EV_CURRENT);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	while (elf && elf_kind(elf) == ELF_K_ELF && (scn = elf_nextscn(elf, scn)) && k < 5) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 1; i < d->d_size / sh.sh_entsize && k < 5; i++) {
			GElf_Sym st;
			const char *n;
			char line[512];
			if (!gelf_getsym(d, (int)i, &st) || GELF_ST_TYPE(st.st_info) != STT_OBJECT ||
			    !(n = elf_strptr(elf, sh.sh_link, st.st_name)) || !*n)
				continue;
			snprintf(line, sizeof(line), "%s %s\n", n, cls[k]);
			if (!ch_sidecar_load_string(s->ctx, "fuzz.ann", line))
				k++;
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	ch_sidecar_load_string(s->ctx, "fuzz.ann", "no_such_variable hot\n");
	lt_globals_run(s, (char **)&path, 1, NULL, o, devnull, 1, &judged, err, sizeof(err));
	lt_set_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_set *s = lt_set_new();
	char err[1024];
	size_t i;
	struct lt_opts o;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	s->want_decls = 1;
	s->quiet = 1;
	memset(&o, 0, sizeof(o));
	o.cfg.line_size = 64;
	o.cfg.predict = 128;
	o.cfg.smp = 1;
	o.cfg.severity = CH_SEV_WARNING;
	fuzz_globals(fuzz_file(data, size, ".o"), &o);
	if (lt_set_read(s, fuzz_file(data, size, ".o"), err, sizeof(err))) {
		lt_set_free(s);
		return 0;
	}
	for (i = 0; i < s->n && i < 8; i++) {
		struct ch_type *t = s->structs[i].t;
		if (t->nmembers && t->members[0].name) {
			char line[512];
			snprintf(line, sizeof(line), "%s.%s hot\n", s->structs[i].name,
				 t->members[0].name);
			ch_sidecar_load_string(s->ctx, "fuzz.ann", line);
			if (t->nmembers > 1 && t->members[t->nmembers - 1].name) {
				snprintf(line, sizeof(line), "%s.%s read_mostly\n", s->structs[i].name,
					 t->members[t->nmembers - 1].name);
				ch_sidecar_load_string(s->ctx, "fuzz.ann", line);
			}
		}
	}
	for (i = 0; i < s->n && i < 8; i++) {
		struct lt_struct *st = &s->structs[i];
		if (st->nonmonotonic)
			st->t->randomized = 1;
		ch_check_type(s->ctx, st->t, &o.cfg, NULL, NULL);
		lt_show(s, st, &o, devnull);
		lt_reorganize(s, st, &o, devnull, err, sizeof(err));
	}
	/* [cachehot-array-sharing]: the first 8 structs and their members
	 * marked per-thread before a second read (the readers record marked
	 * pointer members and variables while reading), then judged */
	{
		struct lt_set *s2 = lt_set_new();
		size_t k;
		s2->quiet = 1;
		for (i = 0; i < s->n && i < 8; i++) {
			const struct ch_type *t = s->structs[i].t;
			char line[600];
			snprintf(line, sizeof(line), "%.250s[4] per_thread\n", s->structs[i].name);
			ch_sidecar_load_string(s2->ctx, "fuzz.ann", line);
			for (k = 0; k < t->nmembers && k < 16; k++)
				if (t->members[k].name) {
					snprintf(line, sizeof(line), "%.250s.%.250s[] per_thread\n",
						 s->structs[i].name, t->members[k].name);
					ch_sidecar_load_string(s2->ctx, "fuzz.ann", line);
				}
		}
		if (!lt_set_read(s2, fuzz_file(data, size, ".o"), err, sizeof(err)))
			lt_pt_run(s2, devnull, &o.cfg, NULL, 0);
		lt_set_free(s2);
	}
	lt_set_free(s);
	return 0;
}
