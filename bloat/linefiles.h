/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linefiles.h -- the file table of a compilation unit's line program, read
 * from the .debug_line header alone.
 *
 * Why: the census needs the declaration file of every candidate function
 * (a header or the .c file, and the source line to read).  libdw 0.188's
 * dwarf_decl_file() gets it through dwarf_getsrcfiles(), which decodes and
 * sorts the whole line program of the unit first: 58% of the census's
 * instructions over 6.1 mm/ (bench/bloat-census).  elfutils 0.192 reads only
 * the header; with 0.188 (Debian 12) this does, and falls back to libdw for
 * anything it does not read.
 *
 * Names are composed exactly as libdw 0.188's read_srclines() composes them
 * (so the census's output is the same byte for byte): an absolute file name
 * as is; else its directory entry, '/', the name (DWARF 2-4: directory 0 is
 * the unit's DW_AT_comp_dir; DWARF 5: the directory table as written); a
 * missing directory leaves the name relative.  DWARF 2-4 tables start with a
 * placeholder at index 0, as libdw's do; index 0 means "no file" in every
 * version, as dwarf_decl_file() says.
 */
#ifndef CACHEHOT_BLOAT_LINEFILES_H
#define CACHEHOT_BLOAT_LINEFILES_H

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stddef.h>

/* One unit's file table (owned: bl_linefiles_free).  dir[i] and base[i]
 * point into the Elf's section data (valid while the Elf is open); the
 * joined name is made on first lookup and kept in names[i]. */
struct bl_linefiles {
	const char **dir, **base;
	char **names;
	size_t n;
};

/* Reads the file table of cudie's line program from elf's .debug_line
 * (already relocated, for an ET_REL object: reloc.h), .debug_line_str and
 * .debug_str.  NULL when the unit has no line program or when the header is
 * one this does not read: a version outside 2..5, a compressed string
 * section, a form other than string/strp/line_strp/data/udata/block for an
 * entry, a table that runs past its section or header.  Every read is
 * bounds-checked against the section (the input may be crafted). */
struct bl_linefiles *bl_linefiles_read(Elf *elf, Dwarf_Die *cudie);

/* The name of entry idx, or NULL for idx 0 and out of range.  The Elf
 * the table was read from must still be open. */
const char *bl_linefiles_name(struct bl_linefiles *lf, Dwarf_Word idx);

void bl_linefiles_free(struct bl_linefiles *lf);

#endif
