/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-output.h -- part of cachehot-core.h: output files, records carried in the object file, the manifest, and the findings records for the driver.
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_OUTPUT_H
#define CACHEHOT_API_OUTPUT_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-output.h"
#endif

/* ---- output files ------------------------------------------------------- */
/* Where an atomic write to path (temporary file + rename) must go: the file
 * a symlink chain ends at, so that the link stays a link. *direct is set to
 * 1 when that is not a regular file (a device such as /dev/stdout, a FIFO):
 * write it in place, never rename over it. Returns a malloc'd path (caller
 * frees), or NULL with errno (EISDIR for a directory, ELOOP). */
char *ch_output_target(const char *path, int *direct);
/* Writing a file whole or not at all: ch_atomic_open() opens an unnamed
 * file (O_TMPFILE) in the folder of target (a regular file's path, as
 * ch_output_target gives it), so that a process killed while writing (even
 * by SIGKILL) leaves nothing behind; ch_atomic_commit() gives it a name and
 * renames it over target (catchable signals blocked meanwhile, so an
 * interrupted commit leaves either the old or the new file). Where the file
 * system has no O_TMPFILE, a named "TARGET.tmp.XXXXXX" is used, and
 * ch_atomic_cleanup() (async-signal-safe, for signal handlers) removes it.
 * Both return 0, or -1 with errno set; commit and abort close the file. */
struct ch_atomic {
	char *target;            /* owned */
	char *tmp;               /* named temporary, or NULL (owned) */
	int fd;
	unsigned mode;           /* permissions of the new file (after umask) */
};
/* Standard output that could not be written whole (a full disk, /dev/full,
 * a closed pipe) is an error, not exit 0 with a truncated file: registered
 * once at the start of main(), an atexit() handler flushes and closes stdout
 * and, on failure, prints "PROG: cannot write the output: REASON" and ends
 * the process with exit status 2. */
void ch_check_stdout_at_exit(const char *prog);
int ch_atomic_open(struct ch_atomic *a, const char *target);
int ch_atomic_commit(struct ch_atomic *a);
void ch_atomic_abort(struct ch_atomic *a);
void ch_atomic_cleanup(void);

/* ---- records carried in the object file ----------------------------------- */
/* A compile's per-unit records (access facts, the manifest's records) are
 * also written into its object, in this non-loaded, excluded section
 * (core/objsec-emit.c says why the links drop it): they come back with the
 * object from a ccache hit or a compile farm. One record = one JSON text
 * and a NUL byte. */
#define CH_OBJ_SECTION ".discard.cachehot"
/* Append text (a JSON text: no NUL) as one record, as assembler directives
 * on out (GCC's asm_out_file). 0, or -1 on a write error. */
int ch_objsec_emit_asm(FILE *out, const char *text);
/* What path is (its first 8 bytes; a regular file only). */
enum { CH_OBJ_NONE = 0, CH_OBJ_ELF, CH_OBJ_ARCHIVE, CH_OBJ_THIN };
int ch_objsec_kind(const char *path);
/* fn(text, len, origin, arg) for each record of the object or archive at
 * path ("lib.a(member.o)" as origin); fn returns nonzero to stop (then -1).
 * A thin archive gives none (its members are files of the tree). Returns
 * the number of records, or -1 with err. Tools only (libelf): not in the
 * plugin. */
typedef int (*ch_objsec_fn)(const char *text, size_t len, const char *origin, void *arg);
int ch_objsec_read(const char *path, ch_objsec_fn fn, void *arg, char *err, size_t errsz);
/* The regular files under dir (not following links) whose names end in
 * one of suffixes (NULL-terminated), sorted by strcmp; *out and its strings
 * are malloc'd (caller frees). Returns the count. */
size_t ch_find_files(const char *dir, const char *const *suffixes, char ***out);

/* ---- manifest (JSON, jansson) ------------------------------------------- */
/* Add t with its leaves and findings to the manifest kept in ctx. */
void ch_manifest_add(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
		     const char *tool);
/* ch_check_type(ctx, t, cfg, emit, arg) followed by ch_manifest_add(ctx, t,
 * cfg, tool), with the rules run once: each finding goes to emit and into
 * the record (ch_manifest_add alone runs them again for the record: a
 * second fix search per annotated struct). Returns what ch_check_type does. */
int ch_check_type_manifest(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			   ch_emit_fn emit, void *arg, const char *tool);
/* Record global variable name (the symbol name) annotated cls/group (an
 * attribute or a sidecar line) defined or declared at loc, under the
 * manifest's "globals": compilers cannot judge where it is placed,
 * cachehot-layout --manifest does ([cachehot-global-sharing]). */
void ch_manifest_add_global(ch_ctx *ctx, const char *name, enum ch_class cls,
			    const char *group, struct ch_loc loc, const char *tool);
/* Record that the compiler saw name marked __cacheline_per_thread (a
 * variable, "STRUCT.FIELD" or a struct tag, as in the sidecar's "NAME[]
 * per_thread"): the manifest's "per_thread" object, which cachehot-layout
 * reads because DWARF and BTF carry no attributes. name is copied. */
void ch_manifest_per_thread(ch_ctx *ctx, const char *name);
/* The manifest file this unit's records will merge into (path borrowed,
 * must outlive ctx). Then a record whose "digest" (a 64-bit hash of
 * everything the record is made of) the file already holds is not built
 * again: every unit of a kernel build judges the same header structs, and
 * building and printing their records cost each unit up to 0.6% of cc1
 * (bench/plugin-overhead, mm/mmzone.c). Without it, every record is built. */
void ch_manifest_use(ch_ctx *ctx, const char *path);
/* Merge the ctx's manifest into path under an flock, written atomically
 * (temporary file + rename). Structs already present are replaced.
 * Returns 0, or -1 with ch_ctx_error(). */
int ch_manifest_write(ch_ctx *ctx, const char *path);

/* ---- records: findings for the driver (core/findings.c) ---------------------
 * Beside its text diagnostics, every engine writes each diagnostic it
 * prints as one JSON object per line (JSON lines), schema version
 * CH_RECORD_VERSION, documented in docs/findings.md. The driver reads these
 * only, never the text: rewording a message changes no baseline and no
 * SARIF fingerprint, which are keyed on the record's fields. A unit's
 * records are one per-unit output written whole or not at all (like the
 * manifest and the access facts), so a build cache can carry them with
 * the object. */
#define CH_RECORD_VERSION 1
struct ch_record {
	enum ch_check check;
	enum ch_severity severity;
	const char *file;         /* where it is reported, the path as the engine names
				   * it (ch_record_add normalizes it: ch_path_normalize) */
	unsigned line, col;       /* 1-based, 0 unknown; col is the column the engine
				   * prints (GCC's: tabs to 8) */
	const char *message;      /* the text printed; a trailing " [id]" is dropped */
	const char *scope;        /* the struct/union (tag or typedef name) it is about */
	const char *function;     /* code checks: the function it is in; NULL */
	const char *field;        /* the field (function, variable, sidecar entry) it is on */
	const char *other;        /* the partner of a conflict (or a sidecar hint); NULL */
	int has_offsets;          /* 1: offset/size (and other_*) are known, bytes */
	uint64_t offset, size, other_offset, other_size;
	uint64_t line_index;      /* cache line index from the struct's start */
	unsigned line_size;       /* bytes: the line size judged at; 0 none */
	int predicted;            /* 1: line_size is the predicted size (predict=N) */
	const struct ch_fix *fix; /* the struct's one fix, or NULL (writing only) */
	const char *fix_text;     /* reading: the fix's text; NULL none */
	uint64_t fix_old_size, fix_new_size;   /* bytes per object, 0 unknown */
	const char *ident;        /* more identity (ch_finding.ident, a sidecar report's
				   * kind: "unmatched-struct", "unmatched-variable" ...) */
	const char *confidence;   /* "exact" (the compiler's layout), "inferred" (from
				   * code, after inlining), "possible" (a source-level
				   * guess); NULL unknown */
	const char *evidence;     /* what the confidence rests on, or NULL */
	const char *check_id;     /* reading: the record's "check" as written: the
				   * registry's id of check, or a Coccinelle rule's
				   * own ("cachehot-counter_batch": engine "cocci",
				   * whose rule set is open; check is then
				   * CH_CHECK__ROWS) */
};
/* Zero r and set what every record has: check, severity, message. */
void ch_record_init(struct ch_record *r, enum ch_check check, enum ch_severity severity,
		    const char *message);
/* A report about a sidecar (or manifest) entry: r placed at the entry's
 * file:line, field the entry, ident its kind, other a hint or NULL. */
void ch_record_entry(struct ch_record *r, const char *file, unsigned line, const char *entry,
		     const char *ident, const char *hint);
/* Fill r (zeroed first) from finding f: check, severity, message, struct,
 * fields, offsets, line, fix, ident; the location is the front-end's to set. */
void ch_record_from_finding(struct ch_record *r, const struct ch_finding *f);
/* Start collecting this unit's records in ctx; engine: "plugin", "sparse",
 * "layout" (copied). Until then ch_record_add does nothing. */
void ch_records_begin(ch_ctx *ctx, const char *engine);
int ch_records_on(const ch_ctx *ctx);
/* Append one record (its strings are copied into the JSON). */
void ch_record_add(ch_ctx *ctx, const struct ch_record *r);
/* Write the records collected (possibly none: an empty file says the
 * engine ran) to path: a file, or a directory, which gets one file a unit,
 * "UNIT-REAL-PATH.findings.jsonl" with '/' written ',' (unit: the main
 * source or input; NULL: "stdin"). Through ch_output_target and
 * ch_atomic_open: a device or FIFO is written in place. path "-": each
 * record to stderr (fd 2, after fflush(stderr)) as one line with one
 * write(2), so that in a build log the lines of parallel compiles do not
 * mix (a pipe keeps a write of up to PIPE_BUF bytes, 4096 on Linux, whole;
 * a longer record can be split by another process's output, and the
 * reader then reports a malformed record line). 0, or -1 with
 * ch_ctx_error(). The collection is emptied. */
int ch_records_write(ch_ctx *ctx, const char *path, const char *unit);
/* How ch_records_read_stream takes the lines that are not records. */
enum ch_records_input {
	CH_RECORDS_ONLY,   /* a records file: every non-blank line is a record */
	CH_RECORDS_IN_TEXT /* a build log or an engine's output: record lines
			    * (starting '{"cachehot_finding"') among other text */
};
/* What a CH_RECORDS_IN_TEXT read saw besides the records. */
struct ch_records_scan {
	unsigned long records;     /* record lines */
	unsigned long diagnostics; /* lines that look like cachehot's diagnostics
				    * for people: a " [cachehot-ID]" or " [cachehot]"
				    * tag, or spatch's report shape "F:L:C-C: " */
	unsigned long first_diagnostic;   /* its line number, 0 none */
	unsigned long tagged;      /* of these, the lines with a check tag (every
				    * engine writes a record for each such line it
				    * prints; spatch's shape alone is any rule's) */
};
/* Read the records of the stream f (named name in messages): fn(r, engine,
 * arg) for each, its strings valid during the call only; fn returns 0 to
 * go on. A line that is no record of this schema (CH_RECORDS_ONLY), or a
 * record line that does not parse (either mode: a half or garbled line, a
 * record with other text before it on its line), is an error: -1 and *err
 * (malloc'd, "NAME:LINE: why"; a record of another version says which).
 * Else the number of records. scan may be NULL. Linear in the input. */
long ch_records_read_stream(FILE *f, const char *name, enum ch_records_input input,
			    int (*fn)(const struct ch_record *r, const char *engine, void *arg),
			    void *arg, char **err, struct ch_records_scan *scan);
/* ch_records_read_stream of the file path (CH_RECORDS_ONLY). */
long ch_records_read(const char *path,
		     int (*fn)(const struct ch_record *r, const char *engine, void *arg),
		     void *arg, char **err);
/* A path written the same way whatever spelling reached it: "./a//b/./c.h"
 * -> "a/b/c.h" (lexical: "." parts and repeated '/' dropped, ".." kept).
 * ctx-owned; NULL stays NULL. */
const char *ch_path_normalize(ch_ctx *ctx, const char *path);

#endif /* CACHEHOT_API_OUTPUT_H */
