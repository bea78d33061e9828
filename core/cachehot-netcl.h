/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-netcl.h -- the kernel's net_cachelines tables
 * (Documentation/networking/net_cachelines/NAME.rst, Linux 6.8+): each row
 * gives one field's access on the TX and RX fast paths. Source: the 2023
 * series "Analyze and Reorganize core Networking Structs to optimize
 * cacheline consumption" (Coco Li, Google), merged for 6.8.
 *
 * The core reads the RST tables and cachehot's own path-aware sidecar
 * (docs/net-cachelines.md, the public format written by
 * `cachehot annotate --net-cachelines DIR`), and, on a struct layout read
 * by any front-end (a ch_type), computes the locality table and the drift
 * and cross-path false-sharing findings. Message texts all come from here.
 *
 * Units: bytes; line indexes count cache lines from the start of the struct.
 * Ownership: a ch_netcl and everything it hands out belong to the ch_ctx
 * given to ch_netcl_new() (strings) and to the ch_netcl (rows): free the
 * ch_netcl with ch_netcl_free() before the ctx.
 * Errors: int functions return 0, or -1 with ch_ctx_error() set to
 * "FILE:LINE: message".
 */
#ifndef CACHEHOT_NETCL_H
#define CACHEHOT_NETCL_H

#include "cachehot-core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A cell of the fastpath_tx_access / fastpath_rx_access columns. */
enum ch_access {
	CH_ACC_EMPTY = 0,     /* the cell is empty (not on the path, not reviewed) */
	CH_ACC_NONE,          /* "-": not on this path */
	CH_ACC_READ_MOSTLY,   /* "read_mostly" */
	CH_ACC_READ_WRITE,    /* "read_write" */
	CH_ACC_WRITE_MOSTLY,  /* "write_mostly" */
};
enum ch_nc_path { CH_NC_TX = 0, CH_NC_RX = 1,
		  CH_NC_ANY = 2 /* locality only: on either path (the 2023 totals) */ };

struct ch_netcl_row {
	const char *type_name;   /* struct tag ("tcp_sock"); "enum" for an enum table (snmp.rst) */
	const char *field;       /* member (or enumerator) name, array suffix stripped */
	const char *suffix;      /* the array suffix as written ("[2]"), or "" */
	const char *ctype;       /* the table's Type column ("struct_xps_dev_maps*"), or NULL */
	enum ch_access acc[2];   /* indexed by enum ch_nc_path */
	const char *comment;     /* the Comments column, or NULL */
	const char *file;        /* the RST (or sidecar) file and line of the row */
	unsigned line;
	const char *from;        /* sidecar rows: "FILE:LINE" of the RST row, or NULL */
};

typedef struct ch_netcl ch_netcl;

ch_netcl *ch_netcl_new(ch_ctx *ctx);
void ch_netcl_free(ch_netcl *t);
size_t ch_netcl_count(const ch_netcl *t);
const struct ch_netcl_row *ch_netcl_row(const ch_netcl *t, size_t i);

/* "read_mostly", "-", "" (empty), ... */
const char *ch_access_name(enum ch_access a);
/* The access spelled s ("read_mostly", "read_write", "write_mostly", "-",
 * "none" for an empty cell); -1 for anything else. */
int ch_access_parse(const char *s, enum ch_access *out);
/* 1 when the field is on the path (read_mostly, read_write, write_mostly). */
int ch_access_on_path(enum ch_access a);
/* 1 for read_write and write_mostly. */
int ch_access_written(enum ch_access a);

/* Read one RST table: the header row "Type Name fastpath_tx_access
 * fastpath_rx_access Comments" fixes the columns (display columns: a tab
 * moves to the next multiple of 8, so a tab-aligned header lines up with
 * space-aligned rows); "..struct ..NAME" (or "..enum") starts a table.
 * Each header word starts a column's span, which runs to the next one's
 * start. Cells of a row (docs/net-cachelines.md, "How rows are read"):
 *  - two access words right after the Name are the TX and the RX cell,
 *    wherever they start (rows drift when a name is long);
 *  - a lone access word is the cell of the span its first character is
 *    in, except that one pushed right by a Name running past its column
 *    (at most two spaces after it) is the TX cell; one under Comments is an
 *    error (TX and RX cannot be told apart);
 *  - the rest of the line is the comment; a word that is no access word
 *    where an empty cell's span is is an error naming file and line.
 * A second row for one STRUCT.FIELD (in any file read into t) is an error
 * naming both rows. A Type that overflows its column, a Name with an array
 * suffix, and rows with empty cells are kept. */
int ch_netcl_parse_rst(ch_netcl *t, const char *path);
int ch_netcl_parse_rst_string(ch_netcl *t, const char *name, const char *text);
/* Read the path-aware sidecar (docs/net-cachelines.md). */
int ch_netcl_load(ch_netcl *t, const char *path);
int ch_netcl_load_string(ch_netcl *t, const char *name, const char *text);
/* PATH: a directory (every *.rst in it but index.rst, in name order), one
 * .rst file, or else a sidecar. */
int ch_netcl_read_path(ch_netcl *t, const char *path);
/* Write every row as sidecar lines; in the type= and from= values (a Type
 * with spaces, a file name with a space or '#') every white-space or
 * control byte and '#' is written '_', so that what is written always
 * reads back row for row. Returns 0, -1 on a write error (errno). */
int ch_netcl_write(const ch_netcl *t, FILE *out);
/* The rows of struct type_name (or "enum"), in table order: *idx is set to
 * their indices for ch_netcl_row() (owned by t, valid until the next row is
 * read); returns how many (0 and *idx NULL for none). One hash lookup. */
size_t ch_netcl_type_rows(const ch_netcl *t, const char *type_name, const size_t **idx);
/* 1 if some row belongs to struct type_name. */
int ch_netcl_has_type(const ch_netcl *t, const char *type_name);
/* The distinct struct names of the rows, in order of appearance ("enum"
 * excluded); *n set to the count. The array is ctx-owned. */
const char **ch_netcl_types(const ch_netcl *t, size_t *n);

/* ---- checks on a layout -------------------------------------------------- */
/* Find member name in t, looking through anonymous struct/union members as
 * C does. *offset: bytes from the start of t. NULL if there is none. */
const struct ch_member *ch_member_find(const struct ch_type *t, const char *name,
				       uint64_t *offset);

/* The 2023 analysis's columns for one struct and one path, from the real
 * layout: the fields the table lists on the path (access not "-"/empty),
 * their bytes (the union of their byte ranges), the cache lines those bytes
 * touch now, and the fewest lines the bytes could fit in. */
struct ch_locality {
	const char *type_name;
	enum ch_nc_path path;
	unsigned line_size;      /* bytes */
	uint64_t type_size;      /* bytes of the struct */
	size_t fields;           /* rows on the path naming a member */
	size_t unresolved;       /* rows on the path naming no member */
	size_t written;          /* ... of them read_write/write_mostly on the path */
	uint64_t bytes;          /* union of the fields' byte ranges */
	uint64_t bytes_written;  /* ... of the written ones */
	uint64_t lines;          /* cache lines touched now */
	uint64_t min_lines;      /* ceil(bytes / line_size) */
	uint64_t first_line, last_line; /* indexes of the first and last line touched */
};
/* Fill loc for struct t (its tag must be in the table) on path. */
void ch_netcl_locality(const ch_netcl *tab, const struct ch_type *t, enum ch_nc_path path,
		       const struct ch_config *cfg, struct ch_locality *loc);
/* Print n rows as a text table (header once) or as a JSON array. */
int ch_netcl_locality_print(const struct ch_locality *v, size_t n, int json, FILE *out);

/* Drift and cross-path false sharing for struct t, per docs/net-cachelines.md:
 *  - a row naming no member of t (warning, at the row);
 *  - a member of t with no row (note, at the member);
 *  - a field on a fast path outside every cacheline group of that path
 *    (warning; only for structs with groups);
 *  - a field written on one path sharing a cache line with a field
 *    read-mostly on the other (warning [cachehot-false-sharing]).
 * Calls emit for each finding; returns the number of warnings and errors. */
int ch_netcl_check(ch_ctx *ctx, const ch_netcl *tab, const struct ch_type *t,
		   const struct ch_config *cfg, ch_emit_fn emit, void *arg);

#ifdef __cplusplus
}
#endif
#endif
