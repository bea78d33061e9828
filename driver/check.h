// SPDX-License-Identifier: GPL-2.0
/*
 * check.h -- what "cachehot check" shares between its files: main.c (the
 * options, the inputs, the report) on top of engines.c (the options' and
 * findings' storage, where the engines are, running them on each unit, in
 * parallel with -j, and collecting what they found).
 */
#ifndef CACHEHOT_DRIVER_CHECK_H
#define CACHEHOT_DRIVER_CHECK_H
#include <sys/types.h>
#include "driver.h"

enum engine { ENG_PLUGIN = 1, ENG_SPARSE = 2, ENG_COCCI = 4, ENG_LAYOUT = 8 };

/* One translation unit to check. */
struct unit {
	char *src;          /* source path as given (relative to dir) */
	char *dir;          /* directory to run in, or NULL for the cwd */
	struct strv flags;  /* compiler flags (no compiler, -c, -o, dependency flags, source) */
};

struct check_opts {
	unsigned engines;
	struct unit *units; size_t nunits, capunits;
	struct strv objects;
	struct strv cflags;          /* -I/-D/-U/-include/... given on our command line */
	struct strv plugin_args;     /* KEY=VAL for every engine */
	struct strv annotations;     /* sidecar files (absolute paths) */
	struct strv profiles;        /* --profile: recording-build profiles (driver/profile.c) */
	const char *log;             /* --log FILE: findings from a build log */
	struct strv records;         /* --findings FILE|DIR: a build's records */
	const char *ccdb, *objlist, *diff_rev, *patch_file, *baseline, *output;
	int update_baseline, terse, verbose, progress;
	int jobs;                    /* -j N: units checked at once */
	enum format format;
	char *exedir;
	int trouble;                 /* a tool failed: exit status 2 */
	unsigned line_size_arg, predict_arg;   /* bytes, 0 when not given */
};
extern struct check_opts opt;   /* the options of this run */
extern struct findings all;     /* every finding read so far */

/* ---- engines.c ---- */
/* "cachehot: MESSAGE" (fmt with arg) and the --help hint; exits 2. */
int die_usage(const char *fmt, const char *arg);
int is_file(const char *p);
int is_dir(const char *p);
/* Where an engine is: $ENV, else next to the executable (or installed);
 * NULL when missing (heap strings). */
char *tool_plugin(void);
char *tool_bin(const char *env, const char *name);
char *tool_cocci_dir(void);
const char *tool_cc(void);
const char *tool_spatch(void);
extern unsigned jobs_done, jobs_total;   /* progress: units done, in all */
extern char *tmpdir;                      /* scratch directory of the run */
extern pid_t main_pid;
/* "[N/TOTAL] ENGINE WHAT" on a terminal; what NULL clears the line. */
void progress(const char *engine, const char *what);
/* Remove the scratch directory (the main process only). */
void remove_tmpdir(void);
/* Interrupted: clean up, stop the workers, leave with 128 + sig. */
void on_signal(int sig);
/* --engine=LIST as ENG_* bits. */
int parse_engines(const char *list);
/* KEY=VAL for every engine (the plugin's argument names). */
void add_plugin_arg(const char *key, const char *val);
/* Source lines of u (progress weights). */
unsigned long count_lines(const struct unit *u);
struct engines_found {
	const char *plugin, *sparse, *layout;
	const struct strv *rules;
};
/* Run the engines of opt.engines on u; on obj (the layout engine). */
void run_unit(const struct unit *u, const struct engines_found *ef, int show_progress);
void run_units_parallel(const struct engines_found *ef);
void run_layout_obj(const char *obj, const char *dir, const char *layout,
		    const char *manifest);
#endif
