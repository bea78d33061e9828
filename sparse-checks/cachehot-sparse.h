/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-sparse.h -- what the parts of bin/cachehot-sparse share.
 *
 * The checker is sparse's own unmodified main() (sparse.c of the Debian
 * source package) linked with the link-time wraps in main.c: every sparse
 * argument and every sparse warning stays exactly as in stock sparse; the
 * wraps add the cachehot attributes, the -fcachehot-* options, and, after
 * each file is parsed, hand each struct to core/ (model.c, check.c) and look for
 * inline functions used as values (inline.c).
 *
 * Units: bytes unless a name says bits. Strings handed to core are copied by
 * core; everything core returns belongs to ch_sparse_ctx (one per run).
 * Errors in our options or sidecar files end the run with exit status 1 and a
 * message "cachehot-sparse: error: ..." (never a crash); errors in the input
 * are sparse's own. No rule or layout message lives here: they are core's.
 */
#ifndef CACHEHOT_SPARSE_H
#define CACHEHOT_SPARSE_H

#include "../core/cachehot-core.h"

struct symbol;
#include "lib.h"   /* struct position (sparse) */

/* ---- attrs.c, attrs-marks.c (the files that rely on private sparse details) */
/* Register the attribute keywords cacheline_hot[("group")],
 * cacheline_exclusive, cacheline_read_mostly (and __x__ spellings), and wrap
 * sparse's "aligned" op to note user alignment (attrs.c); and
 * cacheline_per_thread, cachehot_addressable, vector_size, randomize_layout
 * (attrs-marks.c). Call both once, after init_symbols() and before any
 * input is parsed. */
void ch_attr_register(void);
void ch_attr_register_marks(void);
/* Tag of a struct member: class, group (owned by attrs.c, valid for the
 * whole run) and whether an aligned attribute applies to it. 'after' is
 * the position of the last member of the previous declaration (or of the
 * struct's tag): attributes in declaration-specifier position are attached
 * when they lie between 'after' and the member. Returns 1 if anything was
 * found. */
int ch_attr_lookup(const struct symbol *member, struct position after,
		   enum ch_class *cls, const char **group, int *user_align);
/* 1 if attributes in declaration-specifier position were seen in 'stream'
 * (only then do members need grouping by declaration). */
int ch_attr_has_pending(int stream);
/* 1 once any cachehot class attribute has been parsed (in this process):
 * until then no member can carry one and lookups are skipped. */
int ch_attr_any_class(void);
/* 1 if struct/union s carries randomize_layout (laid out by randstruct in
 * the real build; core does not judge it). */
int ch_attr_randomized(const struct symbol *s);
/* 1 if a vector_size attribute was written between positions from and to
 * (one stream); ch_attr_vector_typedef: 1 if the typedef named by the len
 * bytes at name was declared with vector_size. */
int ch_attr_vector_in(struct position from, struct position to);
int ch_attr_vector_typedef(const char *name, size_t len);
/* 1 if a declaration of function fn (any in the file, compared by name)
 * carries cachehot_addressable. */
int ch_attr_addressable(const struct symbol *fn);
/* cacheline_per_thread ([cachehot-array-sharing]): 1 once the attribute was
 * parsed; 1 if it was written after member's declarator, after var's
 * declarator (matched by name and stream), or on struct/union s (after its
 * closing brace, or between 'struct' and the tag). */
int ch_attr_any_per_thread(void);
int ch_attr_per_thread_member(const struct symbol *member);
int ch_attr_per_thread_var(const struct symbol *var);
int ch_attr_per_thread_type(const struct symbol *s);
/* Forget the declaration-specifier tags of the file just checked (member
 * tags stay: structs of "-include" files are shared by all input files). */
void ch_attr_reset(void);
/* 1 if a class attribute was written on the variable named id in this file
 * (idents are unique per name in sparse). */
int ch_attr_var_annotated(const struct ident *id);
/* Report the class attributes written on labels of the function just
 * parsed (an error at the label, the plugin's text); call before sparse
 * unbinds the function's labels (end_function_scope). */
void ch_attr_end_function(void);

/* ---- enums.c (private sparse details too) ------------------------------ */
/* Lay enum types out as GCC does: 'packed', -fshort-enums and mode(M) give
 * the smallest fitting / the mode's integer type (sparse: always >= int).
 * ch_enum_register() after sparse's keywords exist (init_builtins);
 * ch_enum_options() reads -fshort-enums from sparse's arguments. */
void ch_enum_register(void);
void ch_enum_options(int argc, char **argv);

/* ---- report.c: options and shared state (parsed in main.c) -------------- */
struct ch_sparse_opts {
	unsigned line_size;        /* bytes; 0 = from SMP_CACHE_BYTES, else 64 */
	unsigned predict;          /* bytes; 0 = off */
	int smp;                   /* -1 = from CONFIG_SMP/__KERNEL__, else 0/1 */
	enum ch_severity severity; /* severity of warnings */
	const char *manifest;      /* JSON manifest path or NULL */
	int inline_addr;           /* 1 = run the inline-addr check */
	int inline_notes;          /* 1 = inline-addr findings are notes */
	int unmatched;             /* 1 = note unmatched sidecar entries per file */
	int layout;                /* 1 = run the layout checks */
	const char *findings;      /* findings=PATH (docs/findings.md), or NULL */
};
extern struct ch_sparse_opts ch_opts;
extern ch_ctx *ch_sparse_ctx;

/* ---- model.c ------------------------------------------------------------- */
/* (ch_sparse_type and ch_sparse_base: below, with the per-thread checks.) */
struct symbol;
int ch_sparse_is_aggregate(const struct symbol *s);
/* A struct with a tag of its own (bound in sparse's tag namespace). */
int ch_sparse_is_tagged(const struct symbol *s);
/* The first typedef of an anonymous struct names it and gives its
 * alignment ("} foo_t __aligned(64);"): noted, then asked for. */
void ch_sparse_note_typedef(struct symbol *td);
unsigned long ch_sparse_typedef_align(const struct symbol *s);
/* Why sparse's layout of ct is not GCC's (a shape docs/sparse.rst lists),
 * *vla set for a variable-length member; NULL when it is. */
const char *ch_sparse_no_layout_why(const struct ch_type *ct, int *vla);

/* ---- check.c --------------------------------------------------------------- */
/* Check every struct/union defined in the current file scope (or, with
 * builtin=1, in sparse's builtin scope: "-include" files), each once, in
 * source order; print findings through sparse's diagnostics. */
void ch_check_scope(int builtin, const struct ch_config *cfg);
/* Save the struct definitions of a block scope that sparse is about to end
 * (structs defined inside function bodies): ch_check_scope(0) checks them
 * with the file's. */
struct scope;
void ch_note_block_scope(struct scope *sc);
/* ---- report.c -------------------------------------------------------------- */
/* Record r (findings=PATH) at sparse position pos unless r->file is set,
 * then print it as sparse_error() does (severity error) or as a note. */
struct position;
void ch_sparse_report(struct position pos, struct ch_record *r);
/* A cachehot error of check at pos (a misused attribute): recorded and
 * printed with sparse_error(). */
void ch_sparse_error(struct position pos, enum ch_check check, const char *msg);
/* Print one finding verbatim at its position, "file:line:col: KIND: message":
 * warnings through sparse's warning() (so -Wsparse-error and -fmax-warnings
 * apply), errors through sparse_error(), notes directly (sparse has no note
 * kind), as are messages too long for sparse's 512-byte buffer. When
 * f->loc.fe_loc is a sparse symbol (a member or function), the column is
 * moved onto its name, GCC's convention (sparse points at the declarator).
 * The message text and the rules behind it are core's (docs/checks.rst). */
void ch_print_finding(const struct ch_finding *f, void *arg);
/* GCC's column for a member or function: the first whole-word occurrence of
 * the last component of 'field' ("a.b[2]" -> "b") at or after display column
 * 'col' on that line (tabs to multiples of 8); 'col' if not found. */
unsigned ch_name_column(const char *path, unsigned line, unsigned col, const char *field);
/* A sparse position as a core location (file interned per stream, so that
 * ch_print_finding can map it back). */
struct ch_loc ch_sparse_loc(struct position pos);
/* check.c: note the struct names the loaded sidecar files mention (call once, after
 * loading them and before any file is checked): only members of those
 * structs are looked up in the sidecar. */
void ch_sidecar_names_init(void);
/* linesize.c: resolve the effective config for the current file. Must run while the
 * file's tokens exist: macro bodies are freed with them (clear_token_alloc). */
void ch_file_config(struct ch_config *cfg);
/* The body of object-like macro name as text (ctx-owned), "" for an empty
 * one; NULL when it is not defined or is function-like. */
const char *ch_sparse_macro_body(const char *name);
/* linesize.c: the line size (bytes) of SMP_CACHE_BYTES, else L1_CACHE_BYTES,
 * in effect at position p of the preprocessed input; 0 when neither is
 * defined there or the value is unusable (then the note naming the macro
 * and why is printed once, at its definition). */
unsigned ch_line_size_at(struct position p);
/* The NS_PREPROCESSOR symbol to use for directive ident (from the wrapped
 * lookup_symbol(), attrs.c): sym itself, or for #define/#undef a copy whose
 * handler also records the line size after the directive. */
struct symbol *ch_linesize_directive(struct ident *ident, struct symbol *sym);

/* The core type of struct/union s (built once; NULL for an incomplete or
 * broken one). */
struct ch_type *ch_sparse_type(struct symbol *s);
/* Strip nodes (typedefs, qualifiers) to the underlying type. */
struct symbol *ch_sparse_base(struct symbol *s);
/* ---- perthread.c ---------------------------------------------------------- */
/* [cachehot-array-sharing] as the plugin judges it (plugin/per-thread.c),
 * through the core's rule (core/array.c): marked members of the structs of
 * scope (the file scope, or the builtin scope of "-include" files) and
 * marked struct types among them, and marked array/pointer variables among
 * decls (the file's top-level declarations, as sparse() returns them: the
 * non-static ones are bound in the global scope) and among the function
 * statics ch_note_block_statics() saved. Marks: the attribute
 * (attrs-marks.c) or the sidecar. Nothing without either. */
struct symbol_list;
void ch_check_per_thread(struct symbol_list *scope, struct symbol_list *decls,
			 const struct ch_config *cfg);
/* Save the static variables of a block scope sparse is about to end: the
 * next ch_check_per_thread() judges them with the file's. */
void ch_note_block_statics(struct scope *sc);
/* ---- inline.c ------------------------------------------------------------ */
/* Report static inline functions of the current file that are used as a
 * value (MOD_INLINE|MOD_ADDRESSABLE). */
void ch_check_inline_addr(const struct ch_config *cfg);

#endif
