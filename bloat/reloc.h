/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reloc.h -- apply the relocations of a few debug sections of a relocatable
 * (ET_REL) object in place, with libelf, before libdw reads it.
 *
 * Why: libdw does not relocate; libdwfl does, but always every debug
 * section (.debug_loclists, .debug_rnglists, .debug_aranges, .debug_frame,
 * ...: 45% of the census's time on kernel objects).  The census
 * reads only DIE names and attributes (.debug_info, and
 * .debug_str_offsets for DW_FORM_strx) and the file table of the line
 * table (.debug_line, whose DWARF 5 file names are DW_FORM_line_strp
 * offsets relocated against .debug_line_str).
 *
 * Addresses are NOT those libdwfl would give: a symbol's value is taken as
 * is (sections at address 0, as in the object), so only offsets into
 * non-allocated sections (debug string and table offsets) come out right.
 * Callers must not read addresses (DW_AT_low_pc values) from such data.
 */
#ifndef CACHEHOT_BLOAT_RELOC_H
#define CACHEHOT_BLOAT_RELOC_H

#include <libelf.h>
#include <stddef.h>

/* Apply, in place, every SHT_RELA/SHT_REL relocation whose target section
 * is named in names[0..n-1].  elf must be an ET_REL ELF file opened with
 * ELF_C_READ_MMAP_PRIVATE or ELF_C_READ (its data is written).
 * Returns 0 when all of them were applied (also when there were none);
 * 1 when the object needs something this does not do, before or after
 * part of the work: a machine other than x86-64, i386 or AArch64, a
 * relocation type other than the plain absolute ones, a byte order other
 * than the host's, a compressed relocation section, an offset or symbol
 * index out of range.  The caller then reads the object through libdwfl
 * instead, from a fresh Elf (the partly written data of elf must not be
 * used).  A compressed target section (-gz) is decompressed in place
 * first (elf_compress). */
int bl_reloc_debug_sections(Elf *elf, const char *const *names, size_t n);

#endif
