/* SPDX-License-Identifier: GPL-2.0 */
/* dwarf-internal.h -- what layout/dwarf.c and layout/dwarf-decl.c share. */
#ifndef CACHEHOT_LAYOUT_DWARF_INTERNAL_H
#define CACHEHOT_LAYOUT_DWARF_INTERNAL_H
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

/* The DIE that DW_AT_type of die refers to (through DW_AT_abstract_origin
 * and DW_AT_specification): 1 and *out set, 0 when there is none. */
int lt_die_type(Dwarf_Die *die, Dwarf_Die *out);
/* An unsigned constant attribute: 1 and *v set, 0 when absent or not one. */
int lt_die_udata(Dwarf_Die *die, unsigned attr, Dwarf_Word *v);
/* C declaration of an object of type t called name ("" for a type name;
 * t NULL or t->addr NULL for void). Returns malloc'd text; the caller
 * frees it. */
char *lt_dwarf_decl(Dwarf_Die *t, const char *name);
/* path opened as an offline libdwfl module (relocated, no search for
 * separate debug info): 0 with *dwfl, *mod, *dw and *bias set (the caller
 * ends *dwfl); -1 when dwfl_begin failed, -2 when there is no module or no
 * DWARF (*dwfl already ended). dwfl_errmsg(-1) says why. */
int lt_dwfl_offline(const char *path, Dwfl **dwfl, Dwfl_Module **mod, Dwarf **dw,
		    Dwarf_Addr *bias);
#endif
