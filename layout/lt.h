/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lt.h -- what the parts of bin/cachehot-layout share (not installed).
 *
 * The tool reads struct layouts from a compiled binary into the core model
 * (core/cachehot-core.h) and lets the core judge them:
 *
 *   dwarf.c    DWARF of objects / vmlinux (libdw + libdwfl, which applies
 *              the relocations of ET_REL objects)
 *   btf.c      BTF: raw files (/sys/kernel/btf/vmlinux) and ELF .BTF (libbpf)
 *   input.c    file-kind detection, the set of structs read from inputs
 *   manifest.c the plugin's JSON manifest (jansson): classes and the layout
 *              the compiler saw
 *   perthread.c [cachehot-array-sharing]: arrays of per-thread elements
 *   show.c     --show      annotated pahole-like listing
 *   reorg.c    --reorganize
 *   diff.c     --diff
 *   main.c     command line
 *
 * Units: bytes everywhere unless a name says bits. Everything a set hands
 * out belongs to its ch_ctx (freed with lt_set_free()).
 */
#ifndef CACHEHOT_LAYOUT_LT_H
#define CACHEHOT_LAYOUT_LT_H

#include <stddef.h>
#include <stdint.h>
#include "../core/cachehot-core.h"

enum lt_kind { LT_KIND_DWARF = 1, LT_KIND_BTF };

/* Per-member text the core model has no room for, indexed like
 * ch_type.members. decl is a C declaration ready to paste ("char pad[56]",
 * "unsigned int a:3", "void (*fn)(int)"), without ';' and without any
 * alignment attribute. */
struct lt_typeinfo {
	const struct ch_type *t;
	const char **decl;         /* nmembers entries (array owned by the set, strings by its ctx) */
	size_t n;
};

/* One named struct/union found in the inputs (first definition wins). */
struct lt_struct {
	const char *name;
	struct ch_type *t;
	const char *input;         /* path of the file it was read from */
	enum lt_kind kind;
	int nonmonotonic;          /* members' offsets go backwards: reordered
				    * after the source (randstruct) */
	int layouts_differ;        /* another definition of the same name in
				    * the inputs has a different size */
	/* the line size in effect where it is defined, from a -g3 macro
	 * table (layout/macros.c); macros 0: the unit has none */
	int macros;
	unsigned macro_line_size;  /* bytes; 0: no usable macro there (64) */
	const char *macro_note;    /* ctx-owned note when the body there
				    * cannot be evaluated, else NULL */
};

/* A typedef of a tagged struct whose name a sidecar uses as a struct name
 * ("typedef struct conn_queue CQ;" and an entry "CQ.lock"): reported, since
 * entries name the tag. Strings owned by the set's ctx. */
struct lt_typedef {
	const char *name, *tag;
	int is_union;
	struct ch_loc loc;
	const char *input;
};

/* A variable of static storage that may be an array of per-thread elements
 * (perthread.c): an array of aggregates, or a pointer to one (a heap array). */
struct lt_var {
	const char *name;
	const struct ch_type *elem;  /* element (pointee) type */
	uint64_t elem_size;        /* bytes */
	uint64_t nelems;           /* elements; 0 unknown (heap, or x[]) */
	int heap;                  /* a pointer: count from the sidecar */
	unsigned align;            /* bytes: the declaration's (user) alignment, 0 none */
	struct ch_loc loc;
	const char *input;
};

/* A member that points to an aggregate ('struct worker *extra'): a heap
 * array when the sidecar or manifest marks STRUCT.FIELD per-thread. */
struct lt_ptr_member {
	const struct ch_type *owner;
	size_t member;             /* index into owner->members */
	const void *pointee_key;   /* the reader's ch_type key of the pointee, or NULL */
	const char *pointee_name;  /* its tag (or typedef) name, or NULL */
};

struct lt_manifest;

struct lt_member_decl {
	const struct ch_member *m;
	const char *decl;
};

struct lt_set {
	ch_ctx *ctx;
	unsigned long serial;     /* unique per set in the process: caches keyed by
				    * set (layout/dwarf.c's file names) use it, never
				    * the ctx pointer, which a later set may reuse */
	struct lt_typedef *tds;    /* only typedef names the sidecar uses */
	size_t ntds;
	struct lt_struct *structs;
	size_t n, cap;
	struct ch_index names;     /* structs by name */
	/* ch_type* -> typeinfo (the core's index) */
	struct lt_typeinfo *ti;
	size_t ticap, tin;
	struct ch_index ti_idx;
	/* ch_member* -> decl (the core's index), rebuilt when ti grew (so that
	 * lt_member_decl is O(1), not a scan of every type per member) */
	struct lt_member_decl *mdecl;
	size_t mn, mcap, m_at_tin, m_at_decls;
	struct ch_index m_idx;
	unsigned nfiles;           /* inputs read so far (keys are per file) */
	/* From the macro table of objects built with -g3, as the plugin takes
	 * them from the preprocessor: SMP_CACHE_BYTES (else L1_CACHE_BYTES)
	 * evaluated by the core, 0 when absent; uniprocessor when __KERNEL__ is
	 * defined and CONFIG_SMP is not. */
	unsigned macro_line_size;
	const char *macro_note;    /* ctx-owned "FILE:LINE: note: ..." when the
				    * body could not be evaluated, else NULL */
	int macro_up;
	int kernel;             /* kernel code: __KERNEL__ in a macro table, -mcmodel=kernel
				 * in DW_AT_producer, or BTF (fix vocabulary, ch_config.kernel);
				 * 2: C++ (DW_AT_language), alignas() as the plugin says */
	int have_macros;
	size_t globals_unmatched; /* manifest "globals" no data symbol had (symbols.c) */
	int want_decls;            /* readers fill lt_typeinfo decls (--show,
				    * --reorganize); off, only what the core needs */
	int quiet;
	/* [cachehot-array-sharing] (perthread.c): marked variables and
	 * pointer members, recorded by the readers; the manifest whose
	 * "per_thread" names count as marks (set before reading, or NULL) */
	struct lt_var *vars;
	size_t nvars, capvars;
	struct lt_ptr_member *ptrs;
	size_t nptrs, capptrs;
	struct lt_manifest *mf;
};

/* ---- input.c, read.c ----------------------------------------------------- */
/* New empty set with its own core context. Never NULL. */
struct lt_set *lt_set_new(void);
void lt_set_free(struct lt_set *s);
/* read.c: read every named struct/union defined in path (ELF with DWARF, ELF with a
 * .BTF section, or a raw BTF file; the kind is detected from the content).
 * Returns 0, or -1 with a message "PATH: why" in err (errsz bytes). */
int lt_set_read(struct lt_set *s, const char *path, char *err, size_t errsz);
/* ---- read.c --------------------------------------------------------------- */
/* A set read from files, the sidecars (paths; exit 2 with a message on a
 * bad one) loaded first and the manifest mf (may be NULL) applied after;
 * want_decls: keep member declarations (--show, --reorganize). Exits 2
 * with a message when a file cannot be read. */
struct lt_set *lt_load_set(char **files, int nfiles, char **sides, size_t nsides,
			   struct lt_manifest *mf, int want_decls);
/* The struct called name, or NULL. */
struct lt_struct *lt_set_find(struct lt_set *s, const char *name);
/* Record a struct read by a reader (dedup by name: later ones only mark
 * layouts_differ). */
void lt_set_add(struct lt_set *s, const char *name, struct ch_type *t,
		const char *input, enum lt_kind kind);
/* Per-member declarations of t (allocated on first call, entries NULL until
 * a reader fills them). */
struct lt_typeinfo *lt_typeinfo(struct lt_set *s, const struct ch_type *t);
/* Declaration of member m ("char pad[56]"), with its name replaced by
 * display when display is not NULL (a flattened path). ctx-owned. */
const char *lt_member_decl(struct lt_set *s, const struct ch_member *m, const char *display);
/* 1 if t's members go backwards in offset (struct, not union). */
int lt_type_nonmonotonic(const struct ch_type *t);

/* ---- dwarf.c / btf.c ------------------------------------------------------ */
/* Read all named structs of a DWARF ELF file into s. fileno distinguishes
 * the files of one set (DIE offsets are only unique within a file).
 * Returns 0, or -1 with err filled. */
int lt_dwarf_read(struct lt_set *s, const char *path, unsigned fileno,
		  char *err, size_t errsz);
/* ---- srcpos.c ---------------------------------------------------------- */
/* A decl file name raw of a unit whose directory is comp_dir (its first
 * comp_dir_len bytes; NULL when unknown), interned for set s: the s->ctx-
 * owned name to print, relative to comp_dir when under it. */
const char *lt_src_intern(struct lt_set *s, const char *comp_dir, size_t comp_dir_len,
			  const char *raw);
/* GCC's display column for a byte column of an interned DWARF decl file
 * (tabs to multiples of 8, one column per UTF-8 character; for a member
 * declared by a macro, the position of its name inside the arguments).
 * col unchanged when the file is not at hand. */
unsigned lt_display_col(const char *file, unsigned line, unsigned col, const char *name);
/* How many sections named section (with data) the ELF file at path has: 0
 * none, -1 not a readable ELF file. */
int lt_elf_has_section(const char *path, const char *section);
/* Read all named structs of a BTF file (raw, or ELF with .BTF). */
int lt_btf_read(struct lt_set *s, const char *path, unsigned fileno,
		char *err, size_t errsz);

/* ---- manifest.c ------------------------------------------------------------ */
struct lt_manifest;
/* Load the plugin's manifest. NULL with err filled on error. */
struct lt_manifest *lt_manifest_load(const char *path, char *err, size_t errsz);
void lt_manifest_free(struct lt_manifest *m);
/* Put the manifest's annotation classes on the members of every struct of s
 * it describes (the same fields the compiler saw annotated). */
void lt_manifest_apply(struct lt_manifest *m, struct lt_set *s);
/* Binary vs source: print to out each field of the structs of s whose offset
 * or size differs from the manifest, and refuse (message, nonzero count in
 * *refused) randomized structs. Returns the number of differing fields. */
int lt_manifest_compare(struct lt_manifest *m, struct lt_set *s, FILE *out,
			int *refused);
/* The line size (bytes) the compiler judged at, when every struct of the
 * manifest agrees on one; else 0. */
unsigned lt_manifest_line_size(struct lt_manifest *m);
/* The line size (bytes) the compiler judged struct name at, 0 if unknown or
 * its definitions were judged at different ones. */
unsigned lt_manifest_struct_line_size(struct lt_manifest *m, const char *name);
/* 1 if the manifest says the struct called name was randomized. */
int lt_manifest_randomized(struct lt_manifest *m, const char *name);
/* 1 if the manifest lists name (a variable, "STRUCT.FIELD" or a struct tag)
 * as marked __cacheline_per_thread when compiled. */
int lt_manifest_per_thread(struct lt_manifest *m, const char *name);
/* 1 if the manifest has any "per_thread" name. */
int lt_manifest_any_per_thread(struct lt_manifest *m);

/* ---- perthread.c ------------------------------------------------------------ */
/* 1 if name (a variable, "STRUCT.FIELD" or a struct tag) is marked
 * per-thread: a sidecar line "NAME[] per_thread" / "NAME[N] per_thread"
 * (*count gets N, 0 when not given; the entry counts as matched) or the
 * manifest's "per_thread". */
int lt_pt_marked(struct lt_set *s, const char *name, uint64_t *count);
/* 1 if any per-thread mark exists at all (readers record nothing else). */
int lt_pt_any(struct lt_set *s);
/* Readers: record a marked variable / a pointer member (copied). */
void lt_pt_add_var(struct lt_set *s, const struct lt_var *v);
void lt_pt_add_ptr(struct lt_set *s, const struct lt_ptr_member *p);
/* Judge every marked array of s through the core (ch_check_array, the rule
 * of core/array.c): marked variables, marked members of the structs (only
 * those in only[] when nonly; variables then not), and marked struct types
 * ("arrays of 'struct x'", at the definition), as the plugin judges them
 * (plugin/per-thread.c). Findings are printed to out as diagnostics.
 * Returns the number of warnings (severity >= warning). */
int lt_pt_run(struct lt_set *s, FILE *out, const struct ch_config *cfg, char **only,
	      size_t nonly);

/* The class of the global variable called name from the manifest's
 * "globals" (an attribute on the variable, or the sidecar the compile had),
 * with its group and source location (strings ctx-owned). 1 if recorded.
 * decl (may be NULL): where the symbol's variable is declared (DWARF);
 * when the manifest has several variables of that name (function statics
 * of one name, "other_definitions"), the one declared there, 0 if none is;
 * without decl, the first by file and line (manifests before those too). */
int lt_manifest_global(struct lt_manifest *m, ch_ctx *ctx, const char *name,
		       const struct ch_loc *decl, enum ch_class *cls, const char **group,
		       struct ch_loc *loc);
/* 1 if some name of the manifest's "globals" has several variables. */
int lt_manifest_globals_dup(struct lt_manifest *m);
/* fn(name, file, line, arg) for each of the manifest's "globals" that
 * lt_manifest_global() was never asked for (no data symbol of the inputs
 * has its name, demangled): a variable the compiler removed, or one this
 * run did not read. file may be NULL. */
void lt_manifest_globals_unmatched(struct lt_manifest *m,
				   void (*fn)(const char *name, const char *file, unsigned line,
					      void *arg),
				   void *arg);
/* How many global variables the manifest (may be NULL) records. */
size_t lt_manifest_nglobals(struct lt_manifest *m);

/* ---- checking / printing ------------------------------------------------- */
struct lt_opts {
	struct ch_config cfg;
	int show_all;              /* --show of unannotated structs too */
	int macros;                /* --reorganize: emit cachehot.h macros */
	int regroup;               /* --reorganize --regroup: CH_REORG_REGROUP */
};
/* Format a finding the way the compilers do: "file:line:col: warning: msg".
 * The file falls back to the input path when the model has no location. */
void lt_print_finding(FILE *out, const struct ch_finding *f, const char *input);
/* --findings=PATH (docs/findings.md): the context collecting the records of
 * this run, or NULL. lt_print_finding and lt_print_loc's callers record
 * through lt_record: r at l (the column lt_print_loc prints, of field),
 * or, without a line, at input. */
extern ch_ctx *lt_records;
void lt_record(struct ch_record *r, const struct ch_loc *l, const char *field, const char *input);
/* A [cachehot] report of sev about a sidecar (or manifest) entry at its
 * file:line: printed "cachehot-layout: SEV: msg" and recorded (ident: its
 * kind, hint: a "did you mean" name or NULL). */
void lt_side_report(FILE *out, enum ch_severity sev, const char *msg, const char *entry,
		    const char *ident, const char *file, unsigned line, const char *hint);
/* The same at loc (a struct's definition), in struct scope, from input. */
void lt_side_report_at(FILE *out, enum ch_severity sev, const char *msg, const struct ch_loc *loc,
		       const char *input, const char *scope, const char *entry, const char *ident);
/* The line-size note macros.c composed ("FILE:LINE: note: MESSAGE"), as a
 * record when --findings is on (the note itself is printed by the caller). */
void lt_record_macro_note(const char *note);
/* "file:line:col: " for a location (display column; field: the member the
 * location belongs to, for macro-declared members), else "input: ". */
void lt_print_loc(FILE *out, const struct ch_loc *l, const char *field, const char *input);
/* --show: write st's flattened layout to out (offsets/sizes in bytes,
 * bit-fields as byte:bit and bits), cache-line boundaries at the configured
 * line size, each field's class and the core's findings marked on their
 * fields, then the findings as diagnostics. Returns 0. */
int lt_show(struct lt_set *s, struct lt_struct *st, const struct lt_opts *o,
	    FILE *out);
/* --reorganize: write the core's plan for st (core/reorg-plan.c,
 * ch_reorganize_mode: the fix's layout, or the regrouping by class where it
 * is better or o->regroup asks for it; the proposal is judged by
 * ch_check_type before it is printed, and both plans are measured on the
 * "plan:" line). Returns 0, or -1 with err filled (union, randomized struct,
 * flexible array not last) and nothing written. */
int lt_reorganize(struct lt_set *s, struct lt_struct *st,
		  const struct lt_opts *o, FILE *out, char *err, size_t errsz);
/* --groups: list every struct of s (or of only[0..nonly)) with kernel
 * cacheline group markers and its groups (bytes; lines at the configured
 * line size), as text or, json set, as a JSON array. Returns 0. */
int lt_groups(struct lt_set *s, char **only, size_t nonly, const struct lt_opts *o,
	      int json, FILE *out);
/* --diff: for each struct in both sets, moved/added/removed fields (bytes),
 * size and line-count changes and the conflicts NEW has that OLD has not
 * (pairs of fields at one line size, judged by the core on each side).
 * Returns 1 when a new conflict appears, else 0. */
int lt_diff(struct lt_set *old, struct lt_set *new_, const struct lt_opts *o,
	    FILE *out);

/* ---- judge.c: the default mode ------------------------------------------- */
struct ch_netcl;
struct ch_asserts;
struct lt_judge_args {
	char **files;              /* the inputs (their symbols: global variables) */
	int nfiles;
	char **only;               /* --struct NAME...: only these */
	size_t nonly;
	struct lt_manifest *mf;    /* --manifest, or NULL */
	size_t nsides;             /* sidecars loaded */
	int line_given;            /* --line-size given: no per-struct line size */
	int unmatched;             /* --unmatched note (1) or ignore (0) */
	int quiet;                 /* -q: no summary line */
	const struct ch_netcl *tab;       /* --net-cachelines tables, or NULL */
	const struct ch_asserts *asserts; /* --group-asserts, or NULL */
};
/* Judge every struct of s (and the rest the default mode reports), print
 * the findings to stdout and the summary to stderr. Returns the exit
 * status: 0 nothing to report, 1 warnings or binary/manifest differences,
 * 2 a tool error. */
int lt_judge(struct lt_set *s, const struct lt_opts *o, const struct lt_judge_args *a);

/* ---- netcl.c ---------------------------------------------------------------- */
struct ch_netcl;
/* --net-cachelines: drift and cross-path findings (printed as diagnostics)
 * for every struct of the tables found in s (only those in only[] when nonly),
 * or, with locality "text"/"json", the locality table of each on tx and rx.
 * Returns the number of warnings, -1 on a write error. */
int lt_netcl_run(struct lt_set *s, const struct ch_netcl *tab, const struct lt_opts *o,
		 char **only, size_t nonly, const char *locality, FILE *out);
struct ch_asserts;
/* --group-asserts: [cachehot-group-assert] on every struct of s the asserts
 * name (only those in only[] when nonly). Returns the number of warnings. */
int lt_asserts_run(struct lt_set *s, const struct ch_asserts *a, const struct lt_opts *o,
		   char **only, size_t nonly);
/* --asserts STRUCT: the paste-ready CACHELINE_ASSERT_GROUP_* block of st.
 * Returns 0, or 2 (message on stderr) when st has no groups. */
int lt_asserts_print(struct lt_set *s, struct lt_struct *st, FILE *out);

/* ---- symbols.c: adjacent global variables ------------------------------------ */
/* [cachehot-global-sharing] on the ELF symbol table of each file: data
 * symbols of one section, with the classes the sidecar (ctx of s) and the
 * manifest (may be NULL) give them, judged by ch_check_globals(); findings
 * printed to out at the variable's definition (manifest, else DWARF, else
 * the input's path); a sidecar variable entry naming no data symbol of any
 * input is a note (unless unmatched is 0). *judged gets the number of annotated hot globals
 * found. Returns the number of warnings, -1 with err filled when a file
 * cannot be read as ELF (raw BTF files are skipped). */
int lt_globals_run(struct lt_set *s, char **files, int nfiles, struct lt_manifest *mf,
		   const struct lt_opts *o, FILE *out, int unmatched, size_t *judged,
		   char *err, size_t errsz);

#endif
