/* SPDX-License-Identifier: GPL-2.0 */
/* dwarf-internal.h -- what layout/dwarf.c (the units), layout/dwarf-type.c
 * (aggregates as core types) and layout/dwarf-decl.c share. */
#ifndef CACHEHOT_LAYOUT_DWARF_INTERNAL_H
#define CACHEHOT_LAYOUT_DWARF_INTERNAL_H
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include "lt.h"

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
struct rd {
	struct lt_set *s;
	unsigned fileno;
	const char *path;
	const char *comp_dir;      /* of the current CU */
	size_t comp_dir_len;
	Dwarf_Off *building;       /* aggregates under construction (nesting) */
	unsigned nbuilding, capbuilding;
	int bad;                   /* an aggregate contains itself by value */
	int too_deep;              /* nesting past LT_MAX_DWARF_NEST */
	int vbase;                 /* a member at a run-time offset (C++ virtual base) */
	int types;                 /* type DIEs seen at unit level */
	int g1;                    /* a unit's producer says -g1 / line tables only */
	Dwarf_Files *files;        /* the current unit's file names */
};

/* Nesting of aggregates read (a C compiler accepts far fewer than this; the
 * bound keeps a hostile file from exhausting the stack). */
#define LT_MAX_DWARF_NEST 4096

/* dwarf-type.c: DIE helpers and aggregates as core types. */
/* Strip typedefs and qualifiers. Returns 0 for void. */
int lt_dwarf_strip(Dwarf_Die *in, Dwarf_Die *out);
/* 1 for a struct, union or class tag. */
int lt_dwarf_is_agg_tag(int tag);
/* Array: element type (stripped of arrays) and element count (product of
 * the dimensions); *flex when a dimension has no bound. */
void lt_dwarf_array_info(Dwarf_Die *arr, Dwarf_Die *elem, uint64_t *nelems, int *flex);
/* die's DW_AT_decl_file/line/column into loc (file interned). */
void lt_dwarf_set_loc(struct rd *rd, Dwarf_Die *die, struct ch_loc *loc);
/* "typedef struct TAG NAME;" where a sidecar uses NAME as a struct name:
 * kept (once per name) for main.c to report the entries. */
void lt_dwarf_note_typedef_of_tag(struct rd *rd, Dwarf_Die *td, Dwarf_Die *agg, const char *path);
/* Build (or find) the ch_type of an aggregate DIE. name overrides the DIE's
 * own name (typedef of an anonymous struct). NULL for a declaration. */
struct ch_type *lt_dwarf_build(struct rd *rd, Dwarf_Die *die, const char *name);
#endif
