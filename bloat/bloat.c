// SPDX-License-Identifier: GPL-2.0
/*
 * bloat.c -- out-of-line copies of inline functions, from the ELF symbol
 * table (libelf) and DWARF (libdw).  An ET_REL object needs its relocations
 * applied (without them every DW_FORM_strp name of a .o file reads as
 * offset 0): reloc.c applies those of the three debug sections read here;
 * objects it does not handle go through libdwfl, which relocates every
 * debug section (slower).  See bloat.h and docs/bloat.rst.
 */
#define _GNU_SOURCE
#include "bloat.h"
#include "hmap.h"
#include "linefiles.h"
#include "reloc.h"
#include "source.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- scan state --------------------------------------------------------- */
struct inl {               /* one function known to be inline */
	const char *decl_file; /* interned */
	unsigned decl_line;
	enum bl_how how;
};

struct bl_scan {
	struct hmap strings;   /* interned strings (val unused) */
	struct hmap inline_fns;/* name -> struct inl* */
	struct hmap sources;   /* path -> struct srcfile* */
	struct hmap realpaths; /* decl file -> interned realpath */
	struct bl_copy *copies;
	size_t ncopies, capcopies;
	const char **names;    /* bl_scan_inline_names() result */
	struct bl_census_row *census;
	size_t nobjects;
	int source;
	int all_names;         /* bl_scan_set_all_names() */
};

static const char *intern(struct bl_scan *s, const char *str)
{
	return bl_hmap_put(&s->strings, str ? str : "")->key;
}

struct bl_scan *bl_scan_new(void)
{
	struct bl_scan *s = bl_xcalloc(1, sizeof(*s));
	s->source = 1;
	s->all_names = 1;
	elf_version(EV_CURRENT);
	return s;
}

void bl_scan_free(struct bl_scan *s)
{
	if (!s)
		return;
	bl_hmap_free(&s->strings, NULL);
	bl_hmap_free(&s->inline_fns, free);
	bl_hmap_free(&s->sources, bl_source_free);
	bl_hmap_free(&s->realpaths, NULL);
	free(s->copies);
	free(s->names);
	free(s->census);
	free(s);
}

void bl_scan_set_source(struct bl_scan *s, int on)
{
	s->source = on;
}

void bl_scan_set_all_names(struct bl_scan *s, int on)
{
	s->all_names = on;
}

const char *bl_how_name(enum bl_how h)
{
	switch (h) {
	case BL_DECLARED: return "declared inline";
	case BL_HEADER:   return "static in header";
	case BL_SOURCE:   return "inline in source";
	}
	return "?";
}

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- DWARF --------------------------------------------------------------- */

/* realpath() of a decl file, cached (interned; the input when unresolvable). */
static const char *real_path(struct bl_scan *s, const char *file)
{
	struct hent *e;
	if (!file || !*file)
		return "";
	e = bl_hmap_put(&s->realpaths, file);
	if (!e->val) {
		char *real = realpath(file, NULL);
		e->val = (void *)intern(s, real ? real : file);
		free(real);
	}
	return e->val;
}

static struct inl *note_inline(struct bl_scan *s, const char *name, const char *file,
			       unsigned line, enum bl_how how)
{
	struct hent *e = bl_hmap_put(&s->inline_fns, name);
	struct inl *in = e->val;
	if (!in) {
		in = bl_xcalloc(1, sizeof(*in));
		in->decl_file = real_path(s, file);
		in->decl_line = line;
		in->how = how;
		e->val = in;
	} else if (how < in->how) {
		in->how = how;
		in->decl_file = real_path(s, file);
		in->decl_line = line;
	}
	return in;
}

/* 1 if the DIE itself carries DW_AT_inline DW_INL_declared_inlined or
 * DW_INL_declared_not_inlined. (dwarf_func_inline() also answers 1 for
 * DW_INL_inlined: not declared inline, inlined by the optimizer.) */
static int die_inline_declared_here(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	if (!dwarf_attr(die, DW_AT_inline, &a) || dwarf_formudata(&a, &v))
		return 0;
	return v == DW_INL_declared_inlined || v == DW_INL_declared_not_inlined;
}

/* Declared inline: DW_AT_inline on the DIE, its abstract origin, or the
 * declaration it specifies (followed a few steps). */
static int die_declared_inline(Dwarf_Die *die)
{
	Dwarf_Die cur = *die, next;
	for (int depth = 0; depth < 4; depth++) {
		Dwarf_Attribute a;
		if (die_inline_declared_here(&cur))
			return 1;
		if (dwarf_attr(&cur, DW_AT_abstract_origin, &a) ||
		    dwarf_attr(&cur, DW_AT_specification, &a)) {
			if (!dwarf_formref_die(&a, &next))
				return 0;
			cur = next;
		} else
			return 0;
	}
	return 0;
}

/* The attributes pass 1 asks a subprogram about, from one walk of its
 * attribute list (dwarf_getattrs): asked one by one (dwarf_attr,
 * dwarf_hasattr), each question walked the list again, six or seven
 * walks per function named by a symbol. */
struct sub_attrs {
	Dwarf_Attribute inl;   /* DW_AT_inline, when has_inline */
	int has_inline, declaration, low_pc, ranges, external, origin;
};

static int note_sub_attr(Dwarf_Attribute *a, void *arg)
{
	struct sub_attrs *sa = arg;
	switch (dwarf_whatattr(a)) {
	case DW_AT_inline: sa->inl = *a; sa->has_inline = 1; break;
	case DW_AT_declaration: sa->declaration = 1; break;
	case DW_AT_low_pc: sa->low_pc = 1; break;
	case DW_AT_ranges: sa->ranges = 1; break;
	case DW_AT_external: sa->external = 1; break;
	case DW_AT_abstract_origin: case DW_AT_specification: sa->origin = 1; break;
	}
	return DWARF_CB_OK;
}

/* dwarf_hasattr_integrate(die, DW_AT_external) knowing the DIE's own
 * attributes: it looks further only through an origin or specification */
static int sub_external(Dwarf_Die *die, const struct sub_attrs *sa)
{
	return sa->external || (sa->origin && dwarf_hasattr_integrate(die, DW_AT_external));
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

struct sym {
	const char *name;
	uint64_t size, value;
	unsigned shndx;
	int global;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return strcmp(x->name, y->name);
}

static char *no_debuginfo_path;
static int find_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			     Dwarf_Addr base, const char *file_name,
			     const char *debuglink_file, GElf_Word debuglink_crc,
			     char **debuginfo_file_name)
{
	return -1;     /* DWARF must be in the object itself */
}
static const Dwfl_Callbacks dwfl_cb = {
	.find_debuginfo = find_no_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

/* The DWARF of an object whose symbols read_symbols() read into elf.
 * ET_REL: relocates, in elf's private mapping, only the sections read here
 * (reloc.h) and opens libdw on elf; objects reloc.c does not handle go
 * through libdwfl (*dwflp set; it takes fd, *fd_taken set).  Linked files
 * (executables, shared objects, vmlinux) are already relocated: libdw on
 * elf.  Kernel modules (.ko) are ET_REL.  NULL with a message on error. */
static Dwarf *open_dwarf(Elf *elf, int fd, const char *path, Dwfl **dwflp,
			 int *fd_taken, char *err, size_t errlen)
{
	static const char *const read_here[] = {
		".debug_info",         /* names, attributes, CU header offsets */
		".debug_line",         /* file table (DWARF 5: .debug_line_str offsets) */
		".debug_str_offsets",  /* DW_FORM_strx names (clang, DWARF 5) */
	};
	GElf_Ehdr eh;
	Dwarf *dw;
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	*dwflp = NULL;
	*fd_taken = 0;
	if (!gelf_getehdr(elf, &eh)) {
		seterr(err, errlen, "truncated or corrupt ELF header (%s)", elf_errmsg(-1));
		return NULL;
	}
	if (eh.e_type != ET_REL ||
	    !bl_reloc_debug_sections(elf, read_here, sizeof(read_here) / sizeof(read_here[0]))) {
		dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (!dw)
			seterr(err, errlen, "no usable DWARF (%s)", dwarf_errmsg(-1));
		return dw;
	}
	*dwflp = dwfl_begin(&dwfl_cb);
	if (!*dwflp) {
		seterr(err, errlen, "libdwfl: %s", dwfl_errmsg(-1));
		return NULL;
	}
	*fd_taken = 1;
	mod = dwfl_report_offline(*dwflp, path, path, fd);   /* takes fd */
	if (!mod || dwfl_report_end(*dwflp, NULL, NULL)) {
		seterr(err, errlen, "libdwfl: %s", dwfl_errmsg(-1));
		return NULL;
	}
	dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw)
		seterr(err, errlen, "no usable DWARF (%s)", dwfl_errmsg(-1));
	return dw;
}

/* Checks the file with libelf before libdw sees it: clear messages for
 * the common kinds of bad input. Fills syms (caller frees *syms). */
static int read_symbols(struct bl_scan *s, int fd, const char *path, Elf **elfp,
			struct sym **syms, size_t *nsyms, char *err, size_t errlen)
{
	/* private: reloc.c writes relocated debug data into the mapping */
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	int have_symtab = 0, have_debug = 0, have_lto = 0, rc = -1;
	size_t cap = 0;
	struct stat st;

	*syms = NULL;
	*nsyms = 0;
	if (!elf) {
		seterr(err, errlen, "not an ELF file (%s)", elf_errmsg(-1));
		return -1;
	}
	if (elf_kind(elf) == ELF_K_AR) {
		seterr(err, errlen, "an ar archive, not an ELF object: give its members (ar x)");
		goto out;
	}
	if (elf_kind(elf) != ELF_K_ELF) {
		seterr(err, errlen, "not an ELF file");
		goto out;
	}
	if (!gelf_getehdr(elf, &eh)) {
		seterr(err, errlen, "truncated or corrupt ELF header (%s)", elf_errmsg(-1));
		goto out;
	}
	if (fstat(fd, &st)) {
		seterr(err, errlen, "cannot stat: %s", strerror(errno));
		goto out;
	}
	{
		if (eh.e_shnum &&
		    eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize > (uint64_t)st.st_size) {
			seterr(err, errlen, "truncated: section headers end at byte %llu, file has %llu",
			       (unsigned long long)(eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize),
			       (unsigned long long)st.st_size);
			goto out;
		}
	}
	if (elf_getshdrstrndx(elf, &shstrndx) < 0) {
		seterr(err, errlen, "truncated or corrupt ELF section headers (%s)",
		       elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh)) {
			seterr(err, errlen, "corrupt section header (%s)", elf_errmsg(-1));
			goto out;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name) {
			seterr(err, errlen, "corrupt section name table (%s)", elf_errmsg(-1));
			goto out;
		}
		if (!strcmp(name, ".debug_info"))
			have_debug = 1;
		if (!strncmp(name, ".gnu.lto_", 9))
			have_lto = 1;
		if (sh.sh_type != SHT_NOBITS) {
			if (sh.sh_offset + sh.sh_size > (uint64_t)st.st_size) {
				seterr(err, errlen, "truncated: section %s ends at byte %llu, file has %llu",
				       name, (unsigned long long)(sh.sh_offset + sh.sh_size),
				       (unsigned long long)st.st_size);
				goto out;
			}
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize) {
			seterr(err, errlen, "unreadable symbol table (%s)", elf_errmsg(-1));
			goto out;
		}
		have_symtab = 1;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;
			const char *sn;
			if (!gelf_getsym(d, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			sn = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!sn || !*sn)
				continue;
			if (*nsyms == cap) {
				cap = cap ? cap * 2 : 64;
				*syms = bl_xrealloc(*syms, cap * sizeof(**syms));
			}
			(*syms)[(*nsyms)++] = (struct sym){
				sn, sym.st_size, sym.st_value, sym.st_shndx,
				GELF_ST_BIND(sym.st_info) != STB_LOCAL };
		}
	}
	if (!have_symtab) {
		seterr(err, errlen, "no symbol table (stripped?)");
		goto out;
	}
	if (!have_debug && have_lto) {
		seterr(err, errlen, "GCC LTO bytecode object without machine code: "
		       "build with -ffat-lto-objects, or read the linked file");
		goto out;
	}
	if (!have_debug) {
		seterr(err, errlen, "no DWARF debug info (.debug_info); compile with -g");
		rc = -2;
		goto out;
	}
	*elfp = elf;   /* symbol names point into it: caller calls elf_end() */
	return 0;
out:
	elf_end(elf);
	if (rc >= 0)
		rc = -1;
	{
		free(*syms);
		*syms = NULL;
		*nsyms = 0;
	}
	return rc;
}

static void add_copy(struct bl_scan *s, const struct bl_copy *c)
{
	if (s->ncopies == s->capcopies) {
		s->capcopies = s->capcopies ? s->capcopies * 2 : 64;
		s->copies = bl_xrealloc(s->copies, s->capcopies * sizeof(*c));
	}
	s->copies[s->ncopies++] = *c;
}

/* A subprogram of this object that may own copies: an inline function
 * (declared), or a concrete static function judged from its source text
 * only if one of its symbols exists. DWARF offsets: decl info is read only
 * for functions that really have a copy. */
struct cand {
	Dwarf_Off off;
	int declared;
};

/* The declaration file names of one object's units, read from the line
 * program headers (linefiles.h) when the object's DWARF was opened on our
 * own Elf (elf set); NULL elf, or a header linefiles.c does not read: libdw's
 * dwarf_decl_file(), which gives the same names at the cost of decoding the
 * whole line program. */
struct decl_files {
	Elf *elf;
	struct hmap units;   /* CU DIE offset (decimal) -> struct bl_linefiles*, or &no_table */
};
static char no_table;

static void free_table(void *v)
{
	if (v != &no_table)
		bl_linefiles_free(v);
}

static const char *decl_file(struct decl_files *df, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx;
	Dwarf_Die cudie;
	char key[24];
	struct hent *e;

	if (!df->elf)
		return dwarf_decl_file(die);
	/* as dwarf_decl_file(): the attribute, integrated, and its own unit */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    idx == 0)
		return NULL;
	if (!attr.cu || !dwarf_cu_die(attr.cu, &cudie, NULL, NULL, NULL, NULL, NULL, NULL))
		return dwarf_decl_file(die);
	snprintf(key, sizeof(key), "%llu", (unsigned long long)dwarf_dieoffset(&cudie));
	e = bl_hmap_put(&df->units, key);
	if (!e->val) {
		struct bl_linefiles *lf = bl_linefiles_read(df->elf, &cudie);
		e->val = lf ? (void *)lf : (void *)&no_table;
	}
	if (e->val == &no_table)
		return dwarf_decl_file(die);
	return bl_linefiles_name(e->val, idx);
}

/* decl file (resolved against the CU's comp_dir), line and column of die */
static void die_decl(struct decl_files *df, Dwarf_Die *die, const char **file, unsigned *line,
		     unsigned *col, char *buf, size_t len)
{
	Dwarf_Die cudie;
	Dwarf_Attribute a;
	const char *comp_dir = NULL, *f;
	int l = 0, c = 0;

	if (dwarf_diecu(die, &cudie, NULL, NULL))
		comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &a));
	f = decl_file(df, die);
	if (!f)
		f = "";
	else if (f[0] != '/' && comp_dir) {
		snprintf(buf, len, "%s/%s", comp_dir, f);
		f = buf;
	}
	*file = f;
	dwarf_decl_line(die, &l);
	dwarf_decl_column(die, &c);
	*line = l > 0 ? (unsigned)l : 0;
	*col = c > 0 ? (unsigned)c : 0;
}

static int cmp_copy_sym(const void *a, const void *b)
{
	return cmp_sym(*(const struct sym *const *)a, *(const struct sym *const *)b);
}

int bl_scan_object(struct bl_scan *s, const char *path, char *err, size_t errlen)
{
	struct sym *syms = NULL, **hits = NULL;
	Elf *elf = NULL;
	size_t nsyms = 0, nhits = 0;
	struct hmap cands = { .borrow = 1 };  /* name (DWARF string) -> struct cand* */
	struct hmap symbase = { 0 };          /* symbol base names (!all_names) */
	struct cand *pool = NULL;
	size_t npool = 0, cappool = 0;
	struct decl_files df = { 0 };
	Dwfl *dwfl = NULL;
	Dwarf *dw = NULL;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t unit_type;
	char buf[4096];
	int fd, fd_taken, rc = -1;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		seterr(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	if ((rc = read_symbols(s, fd, path, &elf, &syms, &nsyms, err, errlen))) {
		close(fd);
		return rc;
	}
	rc = -1;
	if (!s->all_names)
		for (size_t i = 0; i < nsyms; i++) {
			/* base names: "foo" of "foo.constprop.0" (the map copies) */
			char base[512];
			size_t n = strcspn(syms[i].name, ".");
			if (n == 0 || n >= sizeof(base))
				continue;   /* pass 2 skips these too */
			memcpy(base, syms[i].name, n);
			base[n] = 0;
			bl_hmap_put(&symbase, base);
		}
	dw = open_dwarf(elf, fd, path, &dwfl, &fd_taken, err, errlen);
	if (!fd_taken)
		close(fd);
	if (!dw)
		goto out;
	df.elf = dwfl ? NULL : elf;   /* libdwfl relocated its own copy: libdw's names */
	/* pass 1: top-level subprograms (children skipped via DW_AT_sibling) */
	while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL) == 0) {
		Dwarf_Die die;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;   /* type units hold no code */
		if (dwarf_tag(&cudie) == DW_TAG_skeleton_unit ||
		    dwarf_hasattr(&cudie, DW_AT_dwo_name) ||
		    dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name)) {
			seterr(err, errlen, "split DWARF (-gsplit-dwarf): the functions are in "
			       "a .dwo file; build without -gsplit-dwarf");
			goto out;
		}
		if (dwarf_child(&cudie, &die))
			continue;
		do {
			int declared;
			if (dwarf_tag(&die) != DW_TAG_subprogram)
				continue;
			const char *name = dwarf_diename(&die);
			if (!name || (!s->all_names && !bl_hmap_get(&symbase, name)))
				continue;
			struct sub_attrs sa = { .has_inline = 0 };
			if (dwarf_getattrs(&die, note_sub_attr, &sa, 0) < 0) {
				/* (an unreadable attribute list: asked one by one) */
				if (dwarf_hasattr(&die, DW_AT_inline)) {
					if (!die_inline_declared_here(&die))
						continue;
					declared = 1;
				} else if (dwarf_hasattr(&die, DW_AT_declaration)) {
					continue;
				} else if (!dwarf_hasattr(&die, DW_AT_low_pc) &&
					   !dwarf_hasattr(&die, DW_AT_ranges) &&
					   dwarf_hasattr_integrate(&die, DW_AT_external)) {
					continue;
				} else if (die_declared_inline(&die)) {
					declared = 1;
				} else if (dwarf_hasattr_integrate(&die, DW_AT_external)) {
					continue;
				} else
					declared = 0;
			} else if (sa.has_inline) {
				/* abstract instance: inlined somewhere here */
				Dwarf_Word v;
				if (dwarf_formudata(&sa.inl, &v) ||
				    (v != DW_INL_declared_inlined && v != DW_INL_declared_not_inlined))
					continue;
				declared = 1;
			} else if (sa.declaration) {
				continue;   /* a declaration */
			} else if (!sa.low_pc && !sa.ranges && sub_external(&die, &sa)) {
				continue;   /* a prototype of a global */
			} else if (sa.origin && die_declared_inline(&die)) {
				/* (without an origin or a specification, and without
				 * DW_AT_inline here, die_declared_inline says 0) */
				declared = 1;
			} else if (sub_external(&die, &sa)) {
				continue;
			} else
				declared = 0;
			if (declared)
				bl_hmap_put(&s->inline_fns, name);
			struct hent *e = bl_hmap_put(&cands, name);
			if (e->val) {
				struct cand *c = &pool[(uintptr_t)e->val - 1];
				if (c->declared || !declared)
					continue;
				*c = (struct cand){ dwarf_dieoffset(&die), declared };
				continue;
			}
			if (npool == cappool) {
				/* pointers into pool are taken after pass 1 only */
				cappool = cappool ? cappool * 2 : 256;
				pool = bl_xrealloc(pool, cappool * sizeof(*pool));
			}
			pool[npool] = (struct cand){ dwarf_dieoffset(&die), declared };
			e->val = (void *)(uintptr_t)(npool + 1);  /* index + 1 */
			npool++;
		} while (dwarf_siblingof(&die, &die) == 0);
	}

	/* pass 2: symbols whose base name is a candidate */
	hits = bl_xmalloc((nsyms + 1) * sizeof(*hits));
	for (size_t i = 0; i < nsyms; i++) {
		char base[512];
		size_t n = strcspn(syms[i].name, ".");
		if (n >= sizeof(base) || n == 0)
			continue;
		memcpy(base, syms[i].name, n);
		base[n] = 0;
		if (bl_hmap_get(&cands, base))
			hits[nhits++] = &syms[i];
	}
	qsort(hits, nhits, sizeof(*hits), cmp_copy_sym);
	const char *obj = intern(s, path);
	for (size_t i = 0; i < nhits; i++) {
		struct sym *sy = hits[i];
		char base[512];
		size_t n = strcspn(sy->name, ".");
		struct cand *c;
		Dwarf_Die die;
		const char *file;
		unsigned line, col;
		enum bl_how how;

		memcpy(base, sy->name, n);
		base[n] = 0;
		c = &pool[(uintptr_t)bl_hmap_get(&cands, base)->val - 1];
		if (!c->declared && sy->global)
			continue;
		if (!dwarf_offdie(dw, c->off, &die))
			continue;
		die_decl(&df, &die, &file, &line, &col, buf, sizeof(buf));
		if (c->declared)
			how = BL_DECLARED;
		else {
			int says = s->source ? bl_source_says_inline(&s->sources, file, line, col) : -1;
			if (says > 0)
				how = BL_SOURCE;
			else if (says < 0 && ends_with(file, ".h"))
				how = BL_HEADER;
			else
				continue;
		}
		note_inline(s, base, file, line, how);
		struct bl_copy cp = {
			.object = obj, .symbol = intern(s, sy->name), .function = intern(s, base),
			.bytes = sy->size, .decl_file = real_path(s, file),
			.decl_line = line, .how = how, .global = sy->global,
		};
		add_copy(s, &cp);
	}
	s->nobjects++;
	rc = 0;
out:
	if (dwfl)
		dwfl_end(dwfl);         /* also dw, when it came from libdwfl */
	else if (dw)
		dwarf_end(dw);
	bl_hmap_free(&cands, NULL);
	bl_hmap_free(&symbase, NULL);
	bl_hmap_free(&df.units, free_table);
	free(pool);
	free(hits);
	free(syms);
	if (elf)
		elf_end(elf);
	return rc;
}

const struct bl_copy *bl_scan_copies(const struct bl_scan *s, size_t *n)
{
	*n = s->ncopies;
	return s->copies;
}

size_t bl_scan_objects(const struct bl_scan *s)
{
	return s->nobjects;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *const *bl_scan_inline_names(struct bl_scan *s, size_t *n)
{
	size_t k = 0;
	free(s->names);
	s->names = bl_xmalloc((s->inline_fns.n + 1) * sizeof(char *));
	for (size_t i = 0; i < s->inline_fns.n; i++)
		s->names[k++] = s->inline_fns.v[i].key;
	qsort(s->names, k, sizeof(char *), cmp_str);
	s->names[k] = NULL;
	*n = k;
	return s->names;
}

static int cmp_row(const void *a, const void *b)
{
	const struct bl_census_row *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->function, y->function);
}

const struct bl_census_row *bl_scan_census(struct bl_scan *s, size_t *n)
{
	struct hmap rows = { 0 };
	size_t k = 0;

	free(s->census);
	s->census = bl_xcalloc(s->ncopies + 1, sizeof(*s->census));
	for (size_t i = 0; i < s->ncopies; i++) {
		const struct bl_copy *c = &s->copies[i];
		struct hent *e = bl_hmap_put(&rows, c->function);
		struct bl_census_row *r;
		if (!e->val) {
			r = &s->census[k++];
			r->function = c->function;
			e->val = r;
		}
		r = e->val;
		r->bytes += c->bytes;
		r->copies++;
		/* copies are grouped by object: count an object once per function */
		int seen = 0;
		for (size_t j = i; j-- > 0 && s->copies[j].object == c->object;)
			if (s->copies[j].function == c->function) {
				seen = 1;
				break;
			}
		if (!seen)
			r->objects++;
	}
	bl_hmap_free(&rows, NULL);
	qsort(s->census, k, sizeof(*s->census), cmp_row);
	*n = k;
	return s->census;
}
