/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf.c -- struct layouts from DWARF (objects built with -g, vmlinux),
 * through elfutils: libdwfl opens the file and applies the relocations of
 * relocatable objects (kernel .o files), libdw walks the DIEs.
 *
 * Why libdw and not pahole's text: the check needs what pahole does not
 * print or prints in a form not meant for parsing -- each member's
 * DW_AT_decl_file/decl_line/decl_column (diagnostics must point at the
 * source line, as the compiler's do), explicit alignment (DW_AT_alignment,
 * which pahole prints inline as __attribute__((__aligned__(N))) and only
 * sometimes), the exact bit position of bit-fields and the element counts of
 * arrays. libdw gives all of them as data.
 *
 * This file opens the file and walks its units (structs, typedefs,
 * variables of static storage, a struct's line size from -g3 macros);
 * dwarf-type.c builds an aggregate DIE into a core type; dwarf-decl.c
 * writes C declarations from DIEs.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lt.h"
#include "dwarf-internal.h"
#include "macros.h"

/* [cachehot-array-sharing] (perthread.c): a variable of static storage
 * defined in this unit (at file scope, or a function's static) that is an
 * array of aggregates or scalars, or a pointer to one,
 * recorded when marked per-thread (as the plugin: only such variables look
 * their name up). Extern declarations are judged where they are defined. */
static void read_var(struct rd *rd, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die vt, st, elem, est;
	Dwarf_Word al = 0;
	struct lt_var v;
	const char *name;
	uint64_t cnt = 0;
	int flex = 0, etag, scalar, depth;
	size_t i;
	Dwarf_Die td;
	const char *tdname = NULL;

	if (dwarf_attr(die, DW_AT_declaration, &a) || !dwarf_attr_integrate(die, DW_AT_name, &a) ||
	    !(name = dwarf_formstring(&a)) || !lt_die_type(die, &vt) || !lt_dwarf_strip(&vt, &st))
		return;
	memset(&v, 0, sizeof(v));
	if (dwarf_tag(&st) == DW_TAG_array_type && !dwarf_hasattr(&st, DW_AT_GNU_vector)) {
		lt_dwarf_array_info(&vt, &elem, &v.nelems, &flex);
		if (!elem.addr)
			return;
	} else if (dwarf_tag(&st) == DW_TAG_pointer_type) {
		if (!lt_die_type(&st, &elem))
			return;
		v.heap = 1;
	} else
		return;
	if (!lt_dwarf_strip(&elem, &est) || dwarf_attr(&est, DW_AT_declaration, &a))
		return;
	etag = dwarf_tag(&est);
	scalar = etag == DW_TAG_base_type || etag == DW_TAG_pointer_type ||
		 etag == DW_TAG_enumeration_type;
	if ((!lt_dwarf_is_agg_tag(etag) && !scalar) || !lt_pt_marked(rd->s, name, &cnt))
		return;
	/* the typedef the element is named by, if any (through qualifiers) */
	for (td = elem, depth = 0; depth < 64; depth++) {
		int tg = dwarf_tag(&td);
		if (tg == DW_TAG_typedef) {
			tdname = dwarf_diename(&td);
			break;
		}
		if ((tg != DW_TAG_const_type && tg != DW_TAG_volatile_type) || !lt_die_type(&td, &td))
			break;
	}
	v.name = name;
	if (scalar) {
		Dwarf_Word sz = 0;
		struct ch_type *t;
		if (!lt_die_udata(&est, DW_AT_byte_size, &sz) || !sz)
			return;
		t = ch_type_new(rd->s->ctx, NULL, NULL, 0, sz, (unsigned)sz);
		t->wrap = CH_WRAP_SCALAR;
		v.elem = t;
	} else {
		struct ch_loc dl;
		/* a typedef of an anonymous struct: built under its name, so that
		 * the sidecar's classes apply (another unit may have been the one
		 * that recorded the typedef) */
		v.elem = lt_dwarf_build(rd, &est, dwarf_diename(&est) ? NULL : tdname);
		if (!v.elem)
			return;
		if (!v.elem->name && tdname) {
			/* built earlier in this unit as a member's type, unnamed:
			 * the messages name it as the other engines do */
			struct ch_type *t = (struct ch_type *)v.elem;
			t->name = ch_strdup(rd->s->ctx, tdname);
			t->name_is_typedef = 1;
		}
		lt_dwarf_set_loc(rd, tdname ? &td : &est, &dl);
		if (ch_is_system_header(dl.file))
			((struct ch_type *)v.elem)->wrap = CH_WRAP_SYSTEM;
	}
	v.elem_size = v.elem->size;
	if (v.heap)
		v.nelems = cnt;
	else if (flex)
		v.nelems = 0;
	if (lt_die_udata(die, DW_AT_alignment, &al))
		v.align = (unsigned)al;
	lt_dwarf_set_loc(rd, die, &v.loc);
	v.input = rd->path;
	/* a header's static array is defined in every unit that includes it */
	for (i = 0; i < rd->s->nvars; i++) {
		const struct lt_var *o = &rd->s->vars[i];
		if (!strcmp(o->name, v.name) && o->loc.line == v.loc.line &&
		    (o->loc.file == v.loc.file || (o->loc.file && v.loc.file &&
						    !strcmp(o->loc.file, v.loc.file))))
			return;
	}
	lt_pt_add_var(rd->s, &v);
}

/* 1 if a function's variable lives in static storage: its location is an
 * address (DW_OP_addr; automatic variables are frame- or register-based,
 * or a location list). */
static int static_location(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	if (!dwarf_attr(d, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &n) != 0 || n < 1)
		return 0;
	return ops[0].atom == DW_OP_addr || ops[0].atom == DW_OP_addrx ||
	       ops[0].atom == DW_OP_GNU_addr_index;
}

/* The static variables of a function and of its blocks (the plugin judges
 * function-scope statics too); one the optimizer removed has no location
 * and is not seen. */
static void read_local_statics(struct rd *rd, Dwarf_Die *parent, int depth)
{
	Dwarf_Die c;
	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		if (tag == DW_TAG_variable && static_location(&c))
			read_var(rd, &c);
		else if (tag == DW_TAG_lexical_block)
			read_local_statics(rd, &c, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* The line size in effect where the struct just added is declared. */
static void struct_line_size(struct lt_set *s, const struct lt_cu_macros *cm, Dwarf_Die *agg,
			     const struct ch_type *t)
{
	Dwarf_Word file = 0, line = 0;
	if (!cm->any || !s->n || s->structs[s->n - 1].t != t)
		return;
	lt_die_udata(agg, DW_AT_decl_file, &file);
	lt_die_udata(agg, DW_AT_decl_line, &line);
	lt_cu_macros_at(cm, file, line, &s->structs[s->n - 1]);
}

/* A DW_AT_language value of C++ (DWARF 5 table 3.1; GCC 12 writes
 * DW_LANG_C_plus_plus_14 for C++14 and later, DW_LANG_C_plus_plus with
 * -gstrict-dwarf before DWARF 5; 0x2a/0x2b are C++17/C++20 of DWARF 6 drafts,
 * not in every dwarf.h). -1 (no attribute) is not C++. */
static int is_cxx_lang(int lang)
{
	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14 ||
	       lang == 0x2a || lang == 0x2b;
}

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name,
			const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks offline_cb = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int lt_dwfl_offline(const char *path, Dwfl **dwfl, Dwfl_Module **mod, Dwarf **dw,
		    Dwarf_Addr *bias)
{
	if (!(*dwfl = dwfl_begin(&offline_cb)))
		return -1;
	*mod = dwfl_report_offline(*dwfl, path, path, -1);
	dwfl_report_end(*dwfl, NULL, NULL);
	if (!*mod || !(*dw = dwfl_module_getdwarf(*mod, bias))) {
		dwfl_end(*dwfl);
		*dwfl = NULL;
		return -2;
	}
	return 0;
}

int lt_dwarf_read(struct lt_set *s, const char *path, unsigned fileno,
		  char *err, size_t errsz)
{
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, sub;
	uint8_t ut;
	struct rd rd = { .s = s, .fileno = fileno, .path = path };
	struct lt_cu_macros cm;
	int rc = 0;

	memset(&cm, 0, sizeof(cm));

	switch (lt_dwfl_offline(path, &dwfl, &mod, &dw, &bias)) {
	case -1:
		snprintf(err, errsz, "%s: %s", path, dwfl_errmsg(-1));
		return -1;
	case -2:
		snprintf(err, errsz, "%s: cannot read DWARF: %s", path, dwfl_errmsg(-1));
		return -1;
	}
	while (dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, &sub) == 0) {
		Dwarf_Die die;
		Dwarf_Attribute a;
		const char *prod;
		if (ut == DW_UT_skeleton) {
			/* -gsplit-dwarf: the types are in the .dwo file libdw
			 * looks for (DW_AT_dwo_name under DW_AT_comp_dir) */
			if (!sub.addr || dwarf_tag(&sub) != DW_TAG_compile_unit) {
				const char *dwo = dwarf_attr(&cudie, DW_AT_dwo_name, &a) ?
						  dwarf_formstring(&a) : NULL;
				snprintf(err, errsz, "%s: split DWARF (-gsplit-dwarf): the types are in "
					 "%s, which was not found; give the object with its .dwo "
					 "file in place, or build without -gsplit-dwarf", path,
					 dwo ? dwo : "a .dwo file");
				rc = -1;
				break;
			}
			rd.comp_dir = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
			cudie = sub;
		} else if (ut != DW_UT_compile && ut != DW_UT_partial && ut != DW_UT_type &&
			   ut != DW_UT_split_compile && ut != DW_UT_split_type)
			continue;
		else
			rd.comp_dir = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
		prod = dwarf_attr(&cudie, DW_AT_producer, &a) ? dwarf_formstring(&a) : NULL;
		if (prod && (strstr(prod, " -g1") || strstr(prod, " -gline-tables-only")) &&
		    !strstr(prod, " -g1 -g") && !strstr(prod, " -g1 -gdwarf"))
			rd.g1 = 1;
		rd.comp_dir_len = rd.comp_dir ? strlen(rd.comp_dir) : 0;
		{
			size_t nf;
			Dwarf_Die skel = cudie;
			rd.files = NULL;
			if (dwarf_getsrcfiles(&cudie, &rd.files, &nf) != 0 &&
			    ut == DW_UT_skeleton && dwarf_cu_die(cu, &skel, NULL, NULL, NULL, NULL,
								 NULL, NULL) &&
			    dwarf_getsrcfiles(&skel, &rd.files, &nf) != 0)
				rd.files = NULL;
		}
		lt_cu_macros_free(&cm);
		if (ut != DW_UT_type && ut != DW_UT_split_type)
			lt_cu_macros_read(s, &cudie, &cm);
		/* kernel code without a macro table: x86 kernel objects record
		 * -mcmodel=kernel in DW_AT_producer (-grecord-gcc-switches) */
		if (prod && strstr(prod, "-mcmodel=kernel"))
			rd.s->kernel = 1;
		/* C++ (DW_AT_language): the fixes say alignas(), as the plugin
		 * says them in cc1plus (kernel code still wins) */
		if (!rd.s->kernel && is_cxx_lang(dwarf_srclang(&cudie)))
			rd.s->kernel = 2;
		if (dwarf_child(&cudie, &die) != 0)
			continue;
		do {
			int tag = dwarf_tag(&die);
			const char *name = NULL;
			if (tag == DW_TAG_base_type || tag == DW_TAG_pointer_type ||
			    tag == DW_TAG_typedef || lt_dwarf_is_agg_tag(tag))
				rd.types++;
			Dwarf_Die agg;
			struct ch_type *t;
			struct lt_struct *old;
			if (tag == DW_TAG_variable || tag == DW_TAG_subprogram) {
				if (lt_pt_any(s) && tag == DW_TAG_variable)
					read_var(&rd, &die);
				else if (lt_pt_any(s))
					read_local_statics(&rd, &die, 0);
				continue;
			}
			if (lt_dwarf_is_agg_tag(tag)) {
				name = dwarf_diename(&die);
				if (!name || dwarf_attr(&die, DW_AT_declaration, &a))
					continue;
				agg = die;
			} else if (tag == DW_TAG_typedef) {
				Dwarf_Die tt;
				Dwarf_Word al;
				if (!lt_die_type(&die, &tt) || !lt_dwarf_is_agg_tag(dwarf_tag(&tt)))
					continue;
				if (dwarf_diename(&tt)) {
					lt_dwarf_note_typedef_of_tag(&rd, &die, &tt, path);
					continue;
				}
				name = dwarf_diename(&die);
				agg = tt;
				if (!name)
					continue;
				old = lt_set_find(s, name);
				if (old)
					continue;
				t = lt_dwarf_build(&rd, &agg, name);
				if (!t)
					continue;
				t->name_is_typedef = 1;
				/* alignment given on the typedef of an anonymous struct */
				if (lt_die_udata(&die, DW_AT_alignment, &al) && al > t->align)
					t->align = (unsigned)al;
				lt_set_add(s, name, t, path, LT_KIND_DWARF);
				struct_line_size(s, &cm, &agg, t);
				continue;
			} else
				continue;
			old = lt_set_find(s, name);
			if (old) {
				Dwarf_Word sz;
				if (lt_die_udata(&agg, DW_AT_byte_size, &sz) && sz != old->t->size)
					old->layouts_differ = 1;
				continue;
			}
			t = lt_dwarf_build(&rd, &agg, NULL);
			if (t) {
				lt_set_add(s, name, t, path, LT_KIND_DWARF);
				struct_line_size(s, &cm, &agg, t);
			}
		} while (dwarf_siblingof(&die, &die) == 0);
	}
	lt_cu_macros_free(&cm);
	dwfl_end(dwfl);
	free(rd.building);
	if (rc)
		return rc;
	if (rd.too_deep) {
		snprintf(err, errsz, "%s: aggregates nested more than %d levels deep: not read",
			 path, LT_MAX_DWARF_NEST);
		return -1;
	}
	if (rd.bad) {
		snprintf(err, errsz, "%s: malformed DWARF: an aggregate contains itself", path);
		return -1;
	}
	if (rd.g1 && !rd.types) {
		snprintf(err, errsz, "%s: its DWARF has no type information (compiled with -g1 "
			 "or line tables only): rebuild with -g", path);
		return -1;
	}
	return rc;
}
