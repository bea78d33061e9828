/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbols.c -- [cachehot-global-sharing] in cachehot-layout: where the
 * annotated global variables ended up, from the ELF symbol table (libelf).
 *
 * Every STT_OBJECT symbol of an allocated, non-TLS section (st_value,
 * st_size, st_shndx; the section's sh_addr and sh_addralign) is a piece of
 * data; the variables annotated hot/exclusive/read-mostly (the manifest's
 * "globals" from the plugin, or the sidecar's "VARIABLE CLASS" lines) get
 * their class, and core/globals.c judges each section holding a hot one.
 * In a linked executable, shared object or vmlinux, st_value is the
 * address: exact. In a relocatable object it is the offset in the section:
 * exact relative to the other symbols of that section, and the line
 * boundaries are exact when the section is aligned to a line (the message
 * says when they are not); sections of one object are placed by the link
 * and are never compared with each other.
 *
 * The definition's location comes from the manifest, else from the DWARF
 * of the file (DW_TAG_variable at unit level or in a function, read through
 * libdwfl, which applies the relocations of an object), else the finding is
 * reported at the input's path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "lt.h"
#include "dwarf-internal.h"

struct sym {
	struct ch_global g;
	size_t shndx;
	int common;               /* SHN_COMMON (-fcommon) in an object */
};

struct symvec {
	struct sym *v;
	size_t n, cap;
};

static void push(struct symvec *sv, const struct sym *s)
{
	CH_GROW(sv->v, sv->n, sv->cap, 256);
	sv->v[sv->n++] = *s;
}

/* Commons first; then, in an object, by section (each placed by the link
 * on its own); then by address. */
static int sort_rel;
static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->common != y->common)
		return x->common ? -1 : 1;
	if (sort_rel && x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->g.addr != y->g.addr)
		return x->g.addr < y->g.addr ? -1 : 1;
	if (x->g.size != y->g.size)
		return x->g.size < y->g.size ? -1 : 1;
	return strcmp(x->g.name, y->g.name);
}

/* The source name of a symbol: a function's static variable "calls" is
 * the local symbol "calls.0" (GCC numbers them). */
static const char *source_name(ch_ctx *ctx, const char *name, int local)
{
	const char *dot = strrchr(name, '.');
	const char *p;
	if (!local || !dot || dot == name || !dot[1])
		return name;
	for (p = dot + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return name;
	return ch_printf(ctx, "%.*s", (int)(dot - name), name);
}

/* The C++ source name of a mangled symbol (the Itanium ABI, as GCC and
 * Clang write it), demangled by libstdc++: '_ZN2ns5nshotE' is 'ns::nshot',
 * '_ZZ4mainE5calls' 'main::calls'; NULL when name is not mangled. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);
static const char *demangled(ch_ctx *ctx, const char *name)
{
	int st = 0;
	char *d;
	const char *r;
	if (strncmp(name, "_Z", 2) || !(d = __cxa_demangle(name, NULL, NULL, &st)) || st) {
		return NULL;
	}
	r = ch_strdup(ctx, d);
	free(d);
	return r;
}

/* Class of a variable: the attribute as compiled (manifest), else the
 * sidecar given to this run (docs/annotations.rst: the attribute wins). */
static enum ch_class class_of(struct lt_set *s, struct lt_manifest *mf, const char *name,
			      const struct ch_loc *decl, const char **group, struct ch_loc *loc)
{
	enum ch_class c = CH_CLASS_NONE;
	const char *sg = NULL;
	enum ch_class sc = ch_sidecar_global_class(s->ctx, name, &sg);  /* marks it matched */
	memset(loc, 0, sizeof(*loc));
	*group = NULL;
	if (mf && lt_manifest_global(mf, s->ctx, name, decl, &c, group, loc) && c != CH_CLASS_NONE)
		return c;
	*group = sg;
	return sc;
}

/* ---- source locations from DWARF ------------------------------------------ */

/* The definition of variable die, if its name is one of want[] without a
 * location yet: fill that location (file relative to the unit's directory,
 * as the compiler prints it). */
static void var_loc(ch_ctx *ctx, Dwarf_Die *die, const char *comp_dir, struct sym **want,
		    size_t nwant)
{
	const char *name = dwarf_diename(die), *file;
	Dwarf_Attribute a;
	size_t i, cl = comp_dir ? strlen(comp_dir) : 0;
	int line = 0, col = 0;
	if (!name || dwarf_attr(die, DW_AT_declaration, &a))
		return;
	for (i = 0; i < nwant; i++) {
		struct sym *w = want[i];
		if (w->g.loc.file || strcmp(w->g.name, name))
			continue;
		file = dwarf_decl_file(die);
		if (!file)
			return;
		if (cl && !strncmp(file, comp_dir, cl) && file[cl] == '/')
			file += cl + 1;
		dwarf_decl_line(die, &line);
		dwarf_decl_column(die, &col);
		w->g.loc.file = ch_strdup(ctx, file);
		w->g.loc.line = line > 0 ? (unsigned)line : 0;
		w->g.loc.col = col > 0 ? (unsigned)col : 0;
	}
}

/* Fill the locations of want[] (variables with no location) from the
 * file's DWARF, when it has some: one pass over the units' top-level DIEs
 * and the variables of their functions. */
static void dwarf_locs(ch_ctx *ctx, const char *path, struct sym **want, size_t nwant)
{
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, sub, die, inner;
	uint8_t ut;
	if (!nwant || lt_elf_has_section(path, ".debug_info") <= 0 ||
	    lt_dwfl_offline(path, &dwfl, &mod, &dw, &bias))
		return;
	while (dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, &sub) == 0) {
		Dwarf_Attribute a;
		const char *comp_dir;
		if (ut != DW_UT_compile && ut != DW_UT_partial)
			continue;
		comp_dir = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
		if (dwarf_child(&cudie, &die) != 0)
			continue;
		do {
			int tag = dwarf_tag(&die);
			if (tag == DW_TAG_variable)
				var_loc(ctx, &die, comp_dir, want, nwant);
			else if (tag == DW_TAG_subprogram && dwarf_child(&die, &inner) == 0)
				do
					if (dwarf_tag(&inner) == DW_TAG_variable)
						var_loc(ctx, &inner, comp_dir, want, nwant);
				while (dwarf_siblingof(&inner, &inner) == 0);
		} while (dwarf_siblingof(&die, &die) == 0);
	}
	dwfl_end(dwfl);
}

/* Where each data symbol's variable is declared, from DWARF: the
 * DW_TAG_variable whose DW_AT_location is DW_OP_addr of the symbol's
 * address (libdwfl applies an object's relocations and places its sections,
 * and gives the symbols in the same addresses). Distinguishes variables of
 * one name ('calls.0', 'calls.1': statics of two functions). */
struct var_addr {
	Dwarf_Addr addr;
	struct ch_loc loc;
};

struct var_addrs {
	struct var_addr *v;
	size_t n, cap;
};

static void collect_vars(ch_ctx *ctx, Dwarf_Die *parent, const char *comp_dir, Dwarf_Addr bias,
			 struct var_addrs *va, int depth)
{
	Dwarf_Die die;
	if (depth > 32 || dwarf_child(parent, &die) != 0)
		return;
	do {
		int tag = dwarf_tag(&die);
		Dwarf_Attribute a;
		Dwarf_Op *ops;
		size_t nops;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_namespace) {
			collect_vars(ctx, &die, comp_dir, bias, va, depth + 1);
		} else if (tag == DW_TAG_variable && dwarf_attr(&die, DW_AT_location, &a) &&
			   dwarf_getlocation(&a, &ops, &nops) == 0 && nops >= 1 &&
			   ops[0].atom == DW_OP_addr) {
			const char *file = dwarf_decl_file(&die);
			size_t cl = comp_dir ? strlen(comp_dir) : 0;
			int line = 0, col = 0;
			if (!file)
				continue;
			if (cl && !strncmp(file, comp_dir, cl) && file[cl] == '/')
				file += cl + 1;
			dwarf_decl_line(&die, &line);
			dwarf_decl_column(&die, &col);
			CH_GROW(va->v, va->n, va->cap, 64);
			va->v[va->n].addr = ops[0].number + bias;
			va->v[va->n].loc.file = ch_strdup(ctx, file);
			va->v[va->n].loc.line = line > 0 ? (unsigned)line : 0;
			va->v[va->n++].loc.col = col > 0 ? (unsigned)col : 0;
		}
	} while (dwarf_siblingof(&die, &die) == 0);
}

static int cmp_var_addr(const void *a, const void *b)
{
	const struct var_addr *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* An array of *n declarations indexed by .symtab index (loc.file NULL
 * where unknown), or NULL without DWARF. Caller frees. */
static struct ch_loc *sym_decls(ch_ctx *ctx, const char *path, size_t *n)
{
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, sub;
	uint8_t ut;
	struct var_addrs va = { NULL, 0, 0 };
	struct ch_loc *decls = NULL;
	int nsym, i;
	*n = 0;
	if (lt_elf_has_section(path, ".debug_info") <= 0 ||
	    lt_dwfl_offline(path, &dwfl, &mod, &dw, &bias))
		return NULL;
	while (dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, &sub) == 0) {
		Dwarf_Attribute a;
		if (ut == DW_UT_compile || ut == DW_UT_partial)
			collect_vars(ctx, &cudie, dwarf_attr(&cudie, DW_AT_comp_dir, &a)
						 ? dwarf_formstring(&a) : NULL, bias, &va, 0);
	}
	nsym = dwfl_module_getsymtab(mod);
	if (!va.n || nsym <= 0)
		goto out;
	qsort(va.v, va.n, sizeof(*va.v), cmp_var_addr);
	decls = calloc((size_t)nsym, sizeof(*decls));
	if (!decls)
		abort();
	*n = (size_t)nsym;
	for (i = 1; i < nsym; i++) {
		GElf_Sym st;
		GElf_Addr addr;
		struct var_addr key, *hit;
		if (!dwfl_module_getsym_info(mod, i, &st, &addr, NULL, NULL, NULL) ||
		    GELF_ST_TYPE(st.st_info) != STT_OBJECT)
			continue;
		key.addr = addr;
		hit = bsearch(&key, va.v, va.n, sizeof(*va.v), cmp_var_addr);
		if (hit)
			decls[i] = hit->loc;
	}
out:
	free(va.v);
	dwfl_end(dwfl);
	return decls;
}

/* ---- one file ---------------------------------------------------------------- */

struct run {
	struct lt_set *s;
	struct lt_manifest *mf;
	const struct lt_opts *o;
	FILE *out;
	const char *input;
	int warnings;
	size_t judged;
};

static void emit(const struct ch_finding *f, void *arg)
{
	struct run *r = arg;
	lt_print_finding(r->out, f, r->input);
	if (f->severity >= CH_SEV_WARNING)
		r->warnings++;
}

/* Read the data symbols of path into sv; *rel: 1 for ET_REL. Returns 0, 1
 * when the file has no symbol table, -1 when it is no readable ELF file. */
static int read_symbols(struct lt_set *s, struct lt_manifest *mf, Elf *elf, size_t shstrndx,
			const struct ch_loc *decls, size_t ndecls, struct symvec *sv, int *rel,
			int *any_hot)
{
	Elf_Scn *scn = NULL, *symscn = NULL, *xscn = NULL;
	GElf_Shdr sh, symsh;
	GElf_Ehdr eh;
	Elf_Data *data, *xdata = NULL;
	size_t i, nsyms, shnum;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum))
		return -1;
	*rel = eh.e_type == ET_REL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symscn = scn;
		else if (sh.sh_type == SHT_SYMTAB_SHNDX)
			xscn = scn;
	}
	if (!symscn) {   /* a stripped binary: the dynamic symbols at least */
		decls = NULL;   /* indexed by .symtab */
		for (scn = NULL; (scn = elf_nextscn(elf, scn));)
			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
				symscn = scn;
		xscn = NULL;
	}
	if (!symscn || !gelf_getshdr(symscn, &symsh) || !symsh.sh_entsize)
		return 1;
	data = elf_getdata(symscn, NULL);
	if (!data)
		return -1;
	if (xscn)
		xdata = elf_getdata(xscn, NULL);
	nsyms = symsh.sh_size / symsh.sh_entsize;
	if (nsyms > data->d_size / symsh.sh_entsize)   /* a lying header */
		nsyms = data->d_size / symsh.sh_entsize;
	if (ndecls < nsyms)
		decls = NULL;
	for (i = 1; i < nsyms; i++) {
		GElf_Sym st;
		Elf32_Word xndx = 0;
		struct sym y;
		const char *name;
		Elf_Scn *ds;
		GElf_Shdr dsh;
		int type;
		if (!gelf_getsymshndx(data, xdata, (int)i, &st, &xndx))
			continue;
		type = GELF_ST_TYPE(st.st_info);
		if (type != STT_OBJECT && type != STT_TLS &&
		    !(type == STT_NOTYPE && st.st_shndx == SHN_COMMON))
			continue;
		name = elf_strptr(elf, symsh.sh_link, st.st_name);
		if (!name || !*name)
			continue;
		memset(&y, 0, sizeof(y));
		y.g.name = demangled(s->ctx, name);
		if (y.g.name)   /* C++: matched and printed by its source name */
			name = ch_declared_name(s->ctx, y.g.name);
		else
			y.g.name = ch_strdup(s->ctx, name);
		y.g.size = st.st_size;
		if (st.st_shndx == SHN_COMMON) {
			y.common = 1;
		} else {
			y.shndx = st.st_shndx == SHN_XINDEX ? xndx : st.st_shndx;
			if (y.shndx == SHN_UNDEF || (st.st_shndx >= SHN_LORESERVE &&
						    st.st_shndx != SHN_XINDEX) || y.shndx >= shnum)
				continue;
			ds = elf_getscn(elf, y.shndx);
			if (!ds || !gelf_getshdr(ds, &dsh))
				continue;
			/* defined here: its sidecar entry is matched, judged or not */
			y.g.cls = class_of(s, mf, source_name(s->ctx, name,
							      GELF_ST_BIND(st.st_info) == STB_LOCAL),
					   decls ? &decls[i] : NULL, &y.g.group, &y.g.loc);
			if (!(dsh.sh_flags & SHF_ALLOC) ||
			    (dsh.sh_flags & SHF_TLS))   /* thread-local: one copy per thread */
				continue;
			/* an offset in the section; the address once linked */
			y.g.addr = st.st_value;
			y.g.section_addr = *rel ? 0 : dsh.sh_addr;
			y.g.section_align = dsh.sh_addralign;
			y.g.section_size = dsh.sh_size;
			y.g.read_only = !(dsh.sh_flags & SHF_WRITE);
			y.g.section = elf_strptr(elf, shstrndx, dsh.sh_name);
			/* the kernel's link drops .discard.* (__ADDRESSABLE()); a
			 * per-CPU variable (.data..percpu*, zero-based in vmlinux)
			 * has a copy per CPU, as a thread-local one per thread */
			if (y.g.section && (!strncmp(y.g.section, ".discard", 8) ||
					    !strncmp(y.g.section, ".data..percpu", 13)))
				continue;
			y.g.section = ch_strdup(s->ctx, y.g.section ? y.g.section : "?");
			if (y.g.addr < y.g.section_addr)
				continue;
		}
		if (y.common)
			y.g.cls = class_of(s, mf, source_name(s->ctx, name,
							      GELF_ST_BIND(st.st_info) == STB_LOCAL),
					   decls ? &decls[i] : NULL, &y.g.group, &y.g.loc);
		/* the kernel's __read_mostly section says what the annotation would */
		if (y.g.cls == CH_CLASS_NONE && y.g.section && !strcmp(y.g.section, ".data..read_mostly"))
			y.g.cls = CH_CLASS_READ_MOSTLY;
		if (y.g.cls == CH_CLASS_HOT || y.g.cls == CH_CLASS_EXCLUSIVE)
			*any_hot = 1;
		push(sv, &y);
	}
	return 0;
}

static int run_file(struct run *r, const char *path, char *err, size_t errsz)
{
	struct symvec sv = { NULL, 0, 0 };
	struct sym **want = NULL;
	struct ch_loc *decls = NULL;
	size_t i, j, nwant = 0, shstrndx, ndecls = 0;
	int fd, rel = 0, any_hot = 0, rc;
	Elf *elf;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {   /* raw BTF, an archive: no symbols here */
		if (elf)
			elf_end(elf);
		close(fd);
		return 0;
	}
	if (elf_getshdrstrndx(elf, &shstrndx)) {
		snprintf(err, errsz, "%s: not a readable ELF file", path);
		elf_end(elf);
		close(fd);
		return -1;
	}
	/* several manifest variables of one name: each symbol's declaration */
	if (lt_manifest_globals_dup(r->mf))
		decls = sym_decls(r->s->ctx, path, &ndecls);
	rc = read_symbols(r->s, r->mf, elf, shstrndx, decls, ndecls, &sv, &rel, &any_hot);
	if (rc < 0) {
		snprintf(err, errsz, "%s: cannot read its symbol table: %s", path, elf_errmsg(-1));
		goto out;
	}
	rc = 0;
	if (!any_hot)
		goto out;
	sort_rel = rel;
	qsort(sv.v, sv.n, sizeof(*sv.v), cmp_sym);
	want = calloc(sv.n, sizeof(*want));
	if (!want)
		abort();
	for (i = 0; i < sv.n; i++)
		if ((sv.v[i].g.cls == CH_CLASS_HOT || sv.v[i].g.cls == CH_CLASS_EXCLUSIVE) &&
		    !sv.v[i].g.loc.file)
			want[nwant++] = &sv.v[i];
	dwarf_locs(r->s->ctx, path, want, nwant);
	r->input = path;
	for (i = 0; i < sv.n && sv.v[i].common; i++) {   /* placed by the link */
		struct sym *c = &sv.v[i];
		struct ch_finding f;
		if (c->g.cls != CH_CLASS_HOT && c->g.cls != CH_CLASS_EXCLUSIVE)
			continue;
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_GLOBAL_SHARING;
		f.severity = CH_SEV_NOTE;
		f.field_a = c->g.name;
		f.size_a = c->g.size;
		f.line_size = ch_config_line_size(&r->o->cfg);
		f.loc = c->g.loc;
		f.message = ch_msg_global_common(r->s->ctx, c->g.name, path);
		r->judged++;
		emit(&f, r);
	}
	/* an object: one section at a time; a linked file: all of them */
	for (; i < sv.n; i = j) {
		struct ch_global *g;
		int hot = 0;
		size_t k;
		for (j = i; j < sv.n && (!rel || sv.v[j].shndx == sv.v[i].shndx); j++)
			hot |= sv.v[j].g.cls == CH_CLASS_HOT || sv.v[j].g.cls == CH_CLASS_EXCLUSIVE;
		if (!hot)
			continue;
		g = calloc(j - i, sizeof(*g));
		if (!g)
			abort();
		for (k = i; k < j; k++) {
			g[k - i] = sv.v[k].g;
			r->judged += g[k - i].cls == CH_CLASS_HOT || g[k - i].cls == CH_CLASS_EXCLUSIVE;
		}
		ch_check_globals(r->s->ctx, g, j - i, rel, &r->o->cfg, emit, r);
		free(g);
	}
out:
	free(decls);
	free(want);
	free(sv.v);
	elf_end(elf);
	close(fd);
	return rc;
}

/* An entry no data symbol matched: a note, a warning when it reads as
 * STRUCT.FIELD without its dot (the same verdict the driver gives). */
static void no_symbol(const char *name, enum ch_class cls, const char *group, const char *file,
		      unsigned line, int matched, void *arg)
{
	struct run *r = arg;
	const char *hint;
	if (matched)
		return;
	hint = ch_sidecar_global_hint(r->s->ctx, name);
	{
		const char *entry = ch_sidecar_global_entry(r->s->ctx, name, cls, group);
		lt_side_report(r->out, hint ? CH_SEV_WARNING : CH_SEV_NOTE,
			       ch_msg_sidecar_no_symbol(r->s->ctx, entry, file, line, hint), entry,
			       "no-symbol", file, line, hint);
	}
	if (hint)
		r->warnings++;
}

/* A manifest "globals" entry no data symbol matched: never silently. */
static void no_manifest_symbol(const char *name, const char *file, unsigned line, void *arg)
{
	struct run *r = arg;
	r->s->globals_unmatched++;
	lt_side_report(r->out, CH_SEV_NOTE,
		       ch_msg_manifest_global_no_symbol(r->s->ctx, name, file, line), name,
		       "manifest-no-symbol", file ? file : "?", line, NULL);
}

int lt_globals_run(struct lt_set *s, char **files, int nfiles, struct lt_manifest *mf,
		   const struct lt_opts *o, FILE *out, int unmatched, size_t *judged,
		   char *err, size_t errsz)
{
	struct run r = { s, mf, o, out, NULL, 0, 0 };
	int i;
	*judged = 0;
	if (!ch_sidecar_globals(s->ctx, NULL, NULL) && !lt_manifest_nglobals(mf))
		return 0;
	elf_version(EV_CURRENT);
	for (i = 0; i < nfiles; i++)
		if (run_file(&r, files[i], err, errsz))
			return -1;
	if (unmatched) {
		size_t k;
		for (k = 0; k < s->n; k++)   /* hints from the structs read */
			ch_sidecar_hint_type(s->ctx, s->structs[k].t);
		ch_sidecar_globals(s->ctx, no_symbol, &r);
		lt_manifest_globals_unmatched(mf, no_manifest_symbol, &r);
	}
	*judged = r.judged;
	return r.warnings;
}
