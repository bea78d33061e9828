/* SPDX-License-Identifier: GPL-2.0 */
/*
 * driver.h -- what the parts of bin/cachehot share.
 *
 * The driver never links an engine: it runs each one as a program and reads
 * the records it writes (core/findings.c, docs/findings.md: one JSON object per
 * finding, given with -fplugin-arg-cachehot-findings=FILE, -fcachehot-findings=
 * FILE, --findings=FILE; the Coccinelle rules print them with -D
 * cachehot_records), never its text. A build log (--log) is read for the
 * record lines the engines wrote into it (findings=-). Findings from several
 * engines are merged, de-duplicated, filtered (patch-only mode, baseline)
 * and printed in one of five formats.
 *
 * Ownership: every string in these structs is heap-allocated and owned by the
 * struct holding it; free with the matching *_free function.
 * Errors: functions returning int return 0 on success and -1 after printing
 * "cachehot: ..." on stderr, unless their comment says otherwise.
 */
#ifndef CACHEHOT_DRIVER_H
#define CACHEHOT_DRIVER_H

#include <stddef.h>
#include <stdio.h>

/* Exit statuses of "cachehot check" (documented in docs/cachehot.rst). */
#define EXIT_CLEAN    0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE  2

enum sev { SEV_NOTE = 0, SEV_WARNING, SEV_ERROR };

struct finding {
	char *file;        /* path as displayed (relative to cwd when inside it) */
	char *abspath;     /* canonical path, or a copy of file if it does not exist */
	unsigned line;     /* 1-based; 0 unknown */
	unsigned col;      /* 1-based; 0 unknown */
	enum sev sev;
	char *check;       /* "cachehot-false-sharing", or a Coccinelle rule's "cachehot-<rule>" */
	char *message;     /* without the trailing " [cachehot-...]" */
	char *engines;     /* "plugin" or "plugin,sparse" after merging */
	char *scope;       /* enclosing struct/union/function name, or NULL */
	char *field;       /* field (or function) the finding names, or NULL */
	char *other;       /* the conflict's partner field, or NULL */
	char *lines;       /* line size judged at: "64", "p128" (predicted), or NULL */
	char *ident;       /* the record's further identity (group-assert's assert,
			    * a sidecar report's kind), or NULL */
	/* scope, field, other, lines and ident come from the finding's record */
};

struct findings {
	struct finding *v;
	size_t n, cap;
};

/* ---- util.c ---- */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Growable NULL-terminated argv. */
struct strv { char **v; size_t n, cap; };
void strv_push(struct strv *sv, const char *s);   /* copies s */
void strv_free(struct strv *sv);
/* driver/program.c: the real paths of the source files of BINARY's DWARF
 * compile units, appended to out; 0, or -1 with err (no file, no -g). */
int program_units(const char *path, struct strv *out, char *err, size_t errlen);
/* Whole file into a NUL-terminated heap buffer; *len gets the length.
 * NULL (errno set) if it cannot be read. */
char *read_file(const char *path, size_t *len);
/* Write via a temporary file in the same directory + rename, so that the
 * destination is either the old file or the complete new one. The callback
 * writes the content; it returns 0 or -1. Returns 0, or -1 after a message. */
int write_atomic(const char *path, int (*fn)(FILE *f, void *arg), void *arg);
/* Canonical path (realpath) or NULL if the file does not exist. */
char *canon_path(const char *path);
/* Path as shown to the user: relative to the cwd when it lies inside it. */
char *display_path(const char *path);
/* Directory of the running executable (/proc/self/exe), heap string. */
char *exe_dir(void);

/* ---- run.c ---- */
/* Run argv (argv[0] looked up in PATH) in directory dir (NULL: cwd) with
 * stdin from /dev/null, stdout and stderr both captured into *out (heap,
 * NUL-terminated). Returns the exit status (0-255), 128+signal if killed,
 * or -1 if it could not be started (message printed). */
/* From a signal handler (async-signal-safe): stop the engine run_capture()
 * is running now, its process group with it, and reap it. */
void run_stop_child(void);
int run_capture(char *const argv[], const char *dir, char **out);

/* ---- ccdb.c ---- */
/* Read a compile_commands.json; call add(src, dir, flags) for each C unit
 * (src absolute, dir absolute, flags without compiler, -c, -o, dependency
 * flags and input files), only for the files in only when it is not empty.
 * Returns 0 or -1 after a message. */
int ccdb_load(const char *path, const struct strv *only,
	      void (*add)(const char *src, const char *dir, const struct strv *flags));

/* ---- findings.c ---- */
void findings_add(struct findings *fs, const struct finding *f); /* takes ownership */
void findings_free(struct findings *fs);
void finding_free(struct finding *f);
/* The findings of a records file an engine wrote (dir: the engine's
 * working directory, for relative paths; NULL: the cwd). Returns how many,
 * or -1 after a message. */
long findings_from_records(struct findings *fs, const char *path, const char *dir);
/* The findings of the record lines among other text (a build log, an
 * engine's output; core/findings.c ch_records_read_stream, named name in
 * messages); scan gets what else the text held (may be NULL). Returns how
 * many, or -1 after a message (a malformed record line). */
struct ch_records_scan;
long findings_from_text(struct findings *fs, FILE *f, const char *name, const char *dir,
			struct ch_records_scan *scan);
/* "CHECK STRUCT FIELD OTHER LINES IDENT" ('-' for none): the whole identity
 * of a finding, as baselines and SARIF fingerprints key it (heap). */
char *finding_key(const struct finding *f);
/* Sort in the stable order (canonical file, line, check, message, engine,
 * column) and merge
 * duplicates (same file, line, check, message) reported by several engines. */
void findings_sort_dedupe(struct findings *fs);
/* Sidecar entries engines reported as matching no struct (or no variable),
 * one report per unit: an entry some unit matched is dropped; one no unit
 * of the units checked matched is kept as a note, or, with whole (the run
 * covered a whole compile database), replaced by one warning that the tree
 * has no such struct. A variable entry no unit matched becomes one
 * ch_msg_sidecar_no_symbol finding (cachehot-layout's text): a warning with
 * whole or when a unit gave the "did you mean 'STRUCT.FIELD'" hint, else a
 * note. units 0 (a build log): every report kept, except variable entries
 * with a hint (one warning). */
void findings_fold_unmatched(struct findings *fs, unsigned long units, int whole);
/* Count by severity. */
void findings_count(const struct findings *fs, int *errors, int *warnings, int *notes);

/* ---- shard.c ---- */
struct shard_info {
	unsigned k, n;          /* shard k of n (1-based) */
	size_t units;           /* units checked */
	unsigned long lines;    /* source lines checked (reports) */
	int whole;              /* the run covers a whole compile database */
	int trouble;            /* an engine failed */
};
/* "K/N" -> k, n (1 <= K <= N). 0, or -1 (no message). */
int shard_parse(const char *spec, unsigned *k, unsigned *n);
/* A shard's raw findings (before fold, sort and dedupe) to path, atomically. */
int shard_write(const char *path, const struct shard_info *si, const struct findings *fs);
/* Every shard file of files into fs; *total sums units and lines. Fails
 * (after a message) unless shards 1..N are each there once, of one N. */
int shard_merge(const struct strv *files, struct findings *fs, struct shard_info *total);

/* ---- scope.c: C source text, for --patch only (patch_filter: the lines
 * of the struct or function around a finding, which records do not carry) */
struct scope { char *name; int is_func; unsigned first, last; };
struct scopes { struct scope *v; size_t n, cap; };
/* Named structs/unions (and typedef'd anonymous ones) and function bodies
 * of a C source text, with their first and last line (1-based). */
void scan_scopes(const char *text, struct scopes *out);
void scopes_free(struct scopes *s);
/* Innermost named scope containing line, or NULL. */
const struct scope *scope_at(const struct scopes *s, unsigned line);

/* ---- annotate.c ---- */
/* "cachehot annotate ARGS" (argv[0] is "annotate"); returns the exit status. */
int cmd_annotate(int argc, char **argv);

/* ---- patch.c ---- */
struct patch_file { char *abspath; unsigned *lines; size_t n, cap; };
struct patch { struct patch_file *v; size_t n, cap; };
/* Parse a unified diff; paths after "+++ " lose their first component
 * ("b/") and are taken relative to base, else to the cwd. Lines: new-side lines added or
 * replaced (and the lines around a pure deletion). Returns 0 or -1. */
int patch_parse(const char *text, const char *base, struct patch *p);
/* "git diff -U0 REV" of the repository around the cwd. */
int patch_from_git(const char *rev, struct patch *p);
/* A unified diff file; paths relative to the git work tree's top, or to the
 * cwd outside a work tree. */
int patch_from_file(const char *path, struct patch *p);
void patch_free(struct patch *p);
/* Keep only findings on a struct/function (or line) the patch touches. */
void patch_filter(const struct patch *p, struct findings *fs);
/* 1 if the patch changes the file at abspath (canonical). */
int patch_touches_file(const struct patch *p, const char *abspath);

/* ---- baseline.c ---- */
/* Baseline file: "# cachehot baseline v2", then lines "CHECK STRUCT FIELD
 * OTHER LINES IDENT" (finding_key; older forms read too: baseline.c).
 * Remove findings listed in path; returns how many were removed, -1 on a
 * malformed or unreadable file (message printed). */
int baseline_apply(const char *path, struct findings *fs);
/* Write all findings' keys to path atomically. Returns 0 or -1. */
int baseline_write(const char *path, const struct findings *fs);

/* ---- report.c ---- */
enum format { FMT_GCC, FMT_CHECKPATCH, FMT_JSON, FMT_SARIF, FMT_HTML };
struct report_opts {
	enum format format;
	int terse;                 /* checkpatch --terse */
	unsigned long lines_checked;
};
/* Write the report for fs to out. Returns 0 or -1. */
int report_write(FILE *out, const struct findings *fs, const struct report_opts *o);
/* "CACHEHOT_FALSE_SHARING" for "cachehot-false-sharing" (heap string). */
char *checkpatch_type(const char *check);

/* ---- profile.c: recording-build profiles (docs/record.md) ---- */
/* Load the profiles (none: nothing). Returns 0 or -1 after a message. */
int profile_load(const struct strv *files);
/* With a profile and no annotations: the sidecar it gives (a temporary
 * file) joins annotations; want_manifest: plugin_args gets manifest=TMP
 * (the layouts of the html report). Temporaries go at exit. */
int profile_prepare(struct strv *annotations, struct strv *plugin_args, int want_manifest);
/* Append each false-sharing and array-sharing finding's verdict, order by measured cost. */
void profile_mark(struct findings *fs);
/* "cachehot annotate --profile ..." (argv[0] "annotate"). */
int cmd_annotate_profile(int argc, char **argv);
/* report-html.c: the html report (layouts from profile_prepare's manifest). */
int report_html_write(FILE *out, const struct findings *fs);

/* netcl.c: "cachehot annotate --net-cachelines ..." (argv[0] "annotate"). */
int cmd_annotate_net_cachelines(int argc, char **argv);

#endif
