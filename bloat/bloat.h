/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bloat.h -- find the out-of-line copies of inline functions in ELF objects.
 *
 * Sizes come from the ELF symbol table (st_size, read with libelf), never
 * from compiler estimates: GCC's size estimate counts inline asm per line and
 * is off by 10x on kernel code.
 * Whether a function was declared inline comes from DWARF (libdw; the
 * relocations of .o files applied by reloc.c, or by libdwfl where reloc.c
 * does not apply), see bl_how below and docs/bloat.rst.
 *
 * Units: sizes are BYTES. Lines are 1-based.
 * Ownership: everything reachable from a struct bl_scan belongs to it and is
 * freed by bl_scan_free(); strings passed in are copied.
 * Errors: functions returning int return 0 on success, -1 on error with a
 * one-line message (no trailing newline) in the caller's buffer.
 */
#ifndef CACHEHOT_BLOAT_H
#define CACHEHOT_BLOAT_H

#include <stddef.h>
#include <stdint.h>

/* Why a function counts as inline. */
enum bl_how {
	BL_DECLARED = 0, /* DW_AT_inline is DW_INL_declared_inlined or
			  * DW_INL_declared_not_inlined on the function or its
			  * abstract origin / specification (DWARF 5, 3.3.8.1) */
	BL_HEADER,       /* static function defined in a header (decl file *.h)
			  * whose source text could not be read (or --no-source):
			  * an assumption, kernel headers define static inline
			  * functions only */
	BL_SOURCE,       /* static function whose declaration text (DWARF decl
			  * file/line) says inline, __inline__ or __always_inline.
			  * Needed because GCC writes DW_AT_inline only on an
			  * abstract instance, i.e. when the function was inlined
			  * at least once in the object: a static inline used only
			  * through a pointer has no DW_AT_inline at all. */
};

/* One out-of-line copy: one FUNC symbol with st_size > 0. */
struct bl_copy {
	const char *object;    /* path as given */
	const char *symbol;    /* ELF symbol, e.g. "foo.constprop.0" */
	const char *function;  /* source name: symbol up to the first '.' */
	uint64_t bytes;        /* st_size of the symbol */
	const char *decl_file; /* DWARF decl file, or "" when unknown */
	unsigned decl_line;    /* 0 when unknown */
	enum bl_how how;
	int global;            /* STB_GLOBAL/STB_WEAK symbol */
};

struct bl_scan;

/* New empty scan; never NULL (allocation failure aborts). */
struct bl_scan *bl_scan_new(void);
void bl_scan_free(struct bl_scan *s);

/* Option: also read source text for BL_SOURCE (default on; 0 turns it off
 * and BL_HEADER applies instead). */
void bl_scan_set_source(struct bl_scan *s, int on);

/* Option: read the DWARF of every top-level function, so that
 * bl_scan_inline_names() lists every inline function of the objects
 * (default on).  0: only functions whose name an ELF symbol of the object
 * carries (symbol up to the first '.') are read; the copies and the census
 * are the same, the inline names are those of the copies only.  For
 * callers that need no inline list (cachehot-bloat --census and the plain
 * list: the census at nm -S speed). */
void bl_scan_set_all_names(struct bl_scan *s, int on);

/* Add the copies and inline names of one relocatable or linked ELF object.
 * Errors (nothing is added then): cannot open/read, not an ELF file,
 * truncated or corrupt ELF, no symbol table, split DWARF, LTO bytecode:
 * -1; no DWARF debug info at all: -2 (callers may skip such objects in a
 * tree, e.g. objects assembled from .S files). */
int bl_scan_object(struct bl_scan *s, const char *path, char *err, size_t errlen);

/* The copies found so far, in object order then symbol address order
 * (section index, st_value). Owned by s; valid until the next
 * bl_scan_object() or bl_scan_free(). *n gets the count. */
const struct bl_copy *bl_scan_copies(const struct bl_scan *s, size_t *n);

/* Names of every function known to be inline (any bl_how), sorted,
 * unique; NULL-terminated array owned by s, valid until the next call. */
const char *const *bl_scan_inline_names(struct bl_scan *s, size_t *n);

/* Census: copies grouped by function name. */
struct bl_census_row {
	const char *function;
	uint64_t bytes;        /* sum of st_size over all copies */
	size_t copies;         /* number of symbols */
	size_t objects;        /* number of distinct objects */
};
/* Rows sorted by bytes (descending), then name; owned by s. */
const struct bl_census_row *bl_scan_census(struct bl_scan *s, size_t *n);

/* Number of objects successfully scanned (errors not counted). */
size_t bl_scan_objects(const struct bl_scan *s);

/* Human name of h for the text output: "declared inline", "inline in
 * source", "static in header" (static storage; never NULL). */
const char *bl_how_name(enum bl_how h);

#endif
