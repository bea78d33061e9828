/* SPDX-License-Identifier: GPL-2.0 */
/*
 * macros.h -- the macro table of a -g3 object (layout/macros.c).
 */
#ifndef CACHEHOT_LAYOUT_MACROS_H
#define CACHEHOT_LAYOUT_MACROS_H
#include <stdint.h>
#include <elfutils/libdw.h>
#include "lt.h"

/* The line size in effect after each #define / #undef a CU's value depends
 * on, in order. pos: 2 * line in the main file, + 1 for a directive inside
 * a file included at that line. line_size in bytes, 0 when no usable macro
 * is defined; note (ctx-owned, "FILE:LINE: note: ...") when the body cannot
 * be evaluated. */
struct lt_macro_step {
	uint64_t pos;
	unsigned line_size;
	const char *note;
};

struct lt_cu_macros {
	int any;                   /* the CU has a macro table */
	uint64_t main_file;        /* line-table index of the main file */
	unsigned *inc_line;        /* by file index: 1 + the main file's line
				    * that (first) includes it, 0 unknown */
	size_t nfiles;
	struct lt_macro_step *steps;
	size_t n, cap;
};

/* Read cudie's macro table into cm (owned by the caller: free with
 * lt_cu_macros_free) and set s's unit-wide values (have_macros,
 * macro_line_size and macro_note of the first unit, macro_up, kernel).
 * Returns 1 when the unit has a table. */
int lt_cu_macros_read(struct lt_set *s, Dwarf_Die *cudie, struct lt_cu_macros *cm);
/* The line size in effect at a struct declared at DW_AT_decl_file file,
 * DW_AT_decl_line line of that unit, into st->macros, st->macro_line_size
 * and st->macro_note (nothing when the unit has no table). */
void lt_cu_macros_at(const struct lt_cu_macros *cm, uint64_t file, uint64_t line,
		     struct lt_struct *st);
void lt_cu_macros_free(struct lt_cu_macros *cm);

#endif
