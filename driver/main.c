// SPDX-License-Identifier: GPL-2.0
/*
 * main.c -- bin/cachehot, the one entry point: "check", "bloat", "layout",
 * "annotate", "asserts", "checks", "version". See docs/cachehot.rst and cachehot(1).
 *
 * Exit status of every subcommand: 0 clean, 1 findings (of severity warning
 * or error, after patch-only and baseline filtering), 2 usage or tool error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>
#include "driver.h"
#include "../core/cachehot-core.h"

enum engine { ENG_PLUGIN = 1, ENG_SPARSE = 2, ENG_COCCI = 4, ENG_LAYOUT = 8 };

/* One translation unit to check. */
struct unit {
	char *src;          /* source path as given (relative to dir) */
	char *dir;          /* directory to run in, or NULL for the cwd */
	struct strv flags;  /* compiler flags (no compiler, -c, -o, dependency flags, source) */
};

static struct {
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
} opt;

static void usage_check(FILE *f)
{
	fputs("usage: cachehot check [OPTIONS] [FILE.c... | FILE.o... | OBJDIR...] [-I DIR] [-D NAME[=VAL]] [-include FILE] [-O LEVEL]\n"
	      "  --engine=LIST           plugin,sparse,cocci,layout or all (default: plugin)\n"
	      "  -p, --compile-commands=FILE  check the units of a compile_commands.json\n"
	      "  --objects=FILE          object files (one a line) for the layout engine\n"
	      "  --annotations=FILE      sidecar annotations (cachehot-annotations(7))\n"
	      "  --line-size=N --predict=N --severity=note|warning|error\n"
	      "  -A KEY=VAL              any other engine argument (plugin: -fplugin-arg-cachehot-KEY=VAL)\n"
	      "  --format=gcc|checkpatch|json|sarif|html   output format (default: gcc; html:\n"
	      "                          each struct's cache lines, docs/record.md)\n"
	      "  --profile=FILE          recording-build profile: each false-sharing finding\n"
	      "                          confirmed or not observed, by cost; without\n"
	      "                          --annotations, the sidecar the profile gives\n"
	      "  --terse                 checkpatch format: one line per finding\n"
	      "  -o, --output=FILE       write the report to FILE (atomically)\n"
	      "  --diff=REV              only findings on what changed since git revision REV\n"
	      "  --patch=FILE            only findings on what the unified diff FILE changes\n"
	      "  --baseline=FILE         suppress the findings listed in FILE\n"
	      "  --update-baseline       write all current findings to the --baseline FILE\n"
	      "  -j N                    check N units at once (default 1)\n"
	      "  --log=FILE              also read findings from a build log ('-': stdin), e.g.\n"
	      "                          make KCFLAGS=-fplugin=... / make C=1 CHECK=cachehot-sparse\n"
	      "  --findings=FILE|DIR     also read the records a build wrote (findings=DIR engine\n"
	      "                          argument: docs/findings.md)\n"
	      "  --no-progress           no progress line even on a terminal\n"
	      "  -v, --verbose           print engine commands and their full output\n"
	      "  --shard=K/N             check part K of N of the units (CI jobs) and write its\n"
	      "                          raw findings to -o FILE\n"
	      "  --merge SHARD...        the report of the N shard files, as one unsharded run\n"
	      "exit status: 0 clean, 1 findings, 2 usage or tool error\n", f);
}

static void usage(FILE *f)
{
	fputs("usage: cachehot COMMAND [ARGS]\n"
	      "  check     run the engines over sources/objects and report findings\n"
	      "  layout    show/check layouts from DWARF/BTF (runs cachehot-layout)\n"
	      "  bloat     census of out-of-line copies of inline functions (runs cachehot-bloat)\n"
	      "  annotate  suggest annotations from the code (access facts -> sidecar);\n"
	      "            --net-cachelines DIR: the kernel's tables as a sidecar\n"
	      "  asserts   CACHELINE_ASSERT_GROUP_* block of a struct's cacheline groups\n"
	      "  report    --html -o FILE [check options]: the cache-line picture (HTML)\n"
	      "  checks    list the checks: id, default severity, doc, summary\n"
	      "  version   print the version\n"
	      "'cachehot COMMAND --help' describes a command; see cachehot(1).\n", f);
}

static int die_usage(const char *fmt, const char *arg)
{
	fputs("cachehot: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(try 'cachehot check --help')\n", stderr);
	exit(EXIT_TROUBLE);
}

/* ---- locating the engines ---------------------------------------------- */

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}
static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Tool path: $ENV, else the first of the candidates (relative to the
 * executable's directory) that exists; NULL if none (heap string). */
static char *find_tool(const char *env, const char *const cands[], int want_dir)
{
	const char *e = getenv(env);
	if (e && *e) {
		if (want_dir ? is_dir(e) : is_file(e))
			return xstrdup(e);
		fprintf(stderr, "cachehot: %s=%s: no such %s\n", env, e, want_dir ? "directory" : "file");
		return NULL;
	}
	for (int i = 0; cands[i]; i++) {
		char *p = xasprintf("%s/%s", opt.exedir, cands[i]);
		if (want_dir ? is_dir(p) : is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

static char *tool_plugin(void)
{
	static const char *const c[] = { "../plugin/cachehot.so", "../lib/cachehot/cachehot.so", NULL };
	return find_tool("CACHEHOT_PLUGIN", c, 0);
}
static char *tool_bin(const char *env, const char *name)
{
	const char *c[] = { name, NULL };
	return find_tool(env, c, 0);
}
static char *tool_cocci_dir(void)
{
	static const char *const c[] = { "../cocci", "../share/cachehot/cocci", NULL };
	return find_tool("CACHEHOT_COCCI_DIR", c, 1);
}
static const char *tool_cc(void)
{
	const char *e = getenv("CACHEHOT_CC");
	return e && *e ? e : "gcc";
}
static const char *tool_spatch(void)
{
	const char *e = getenv("CACHEHOT_SPATCH");
	return e && *e ? e : "spatch";
}

/* ---- inputs --------------------------------------------------------------- */

static void add_unit(const char *src, const char *dir, const struct strv *flags)
{
	if (opt.nunits == opt.capunits) {
		opt.capunits = opt.capunits ? 2 * opt.capunits : 16;
		opt.units = xrealloc(opt.units, opt.capunits * sizeof(*opt.units));
	}
	struct unit *u = &opt.units[opt.nunits++];
	memset(u, 0, sizeof(*u));
	u->src = xstrdup(src);
	u->dir = dir ? xstrdup(dir) : NULL;
	for (size_t i = 0; flags && i < flags->n; i++)
		strv_push(&u->flags, flags->v[i]);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static struct findings all;

/* Findings already printed by a build (the plugin in KCFLAGS or in-tree,
 * make C=1 CHECK=cachehot-sparse, coccicheck): parse them like engine
 * output, relative paths taken from the cwd. */
static int load_log(const char *path)
{
	char *text;
	if (!strcmp(path, "-")) {
		size_t n = 0, cap = 65536;
		text = xmalloc(cap + 1);
		for (size_t r; (r = fread(text + n, 1, cap - n, stdin)) > 0; ) {
			n += r;
			if (n == cap)
				text = xrealloc(text, (cap *= 2) + 1);
		}
		text[n] = 0;
	} else if (!(text = read_file(path, NULL))) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct finding f;
		if (parse_diag_line(l, "log", NULL, NULL, &f))
			findings_add(&all, &f);
	}
	free(text);
	return 0;
}

/* --findings: a file of records, or a directory of them (the engines'
 * findings=DIR: one *.findings.jsonl a unit); relative paths in them are
 * taken from the cwd, as a build log's. */
static int load_records(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return findings_from_records(&all, path, "records", NULL) < 0 ? -1 : 0;
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), rc = 0;
	if (n < 0) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rc && ends_with(names[i]->d_name, ".findings.jsonl")) {
			char *p = xasprintf("%s/%s", path, names[i]->d_name);
			rc = findings_from_records(&all, p, "records", NULL) < 0 ? -1 : 0;
			free(p);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* 1 if path starts with the ELF magic: a binary for the layout engine
 * (an executable or vmlinux has no .o suffix), never a source. */
static int is_elf(const char *path)
{
	unsigned char m[4] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(m, 1, 4, f) : 0;
	if (f)
		fclose(f);
	return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

static int load_objlist(const char *path)
{
	char *text = read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (char *s = strtok(text, "\n"); s; s = strtok(NULL, "\n")) {
		s += strspn(s, " \t");
		s[strcspn(s, "\r")] = 0;
		if (*s && *s != '#')
			strv_push(&opt.objects, s);
	}
	free(text);
	return 0;
}

/* ---- running the engines ------------------------------------------------ */

static unsigned jobs_done, jobs_total;

static void progress(const char *engine, const char *what)
{
	if (!opt.progress)
		return;
	if (!what) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r\033[K[%u/%u] %s %s", jobs_done + 1, jobs_total, engine, what);
	fflush(stderr);
}

/* An engine's findings: its records (records: the file it was told to
 * write; NULL for spatch, whose report lines are read); returns 1 if it ran
 * fine (status 0, or nonzero with cachehot findings and no error line
 * beyond them: -Werror, severity=error), else 0. */
static int collect(const char *engine, const char *default_check, int status,
		   const char *out, char *const argv[], const char *dir, const char *records)
{
	int nfind = 0, other_errors = 0, error_lines = 0;
	if (opt.verbose) {
		progress(NULL, NULL);
		fprintf(stderr, "cachehot: [%s]", engine);
		for (int i = 0; argv[i]; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, " -> %d\n%s", status, out);
	}
	if (records && status >= 0 && status < 128) {
		size_t before = all.n;
		long n = access(records, F_OK) == 0 ? findings_from_records(&all, records, engine, dir)
						    : -2;
		if (n == -2 && status == 0) {
			progress(NULL, NULL);
			fprintf(stderr, "cachehot: engine %s wrote no records (%s): is it from "
				"another cachehot?\n", engine, records);
			opt.trouble = 1;
		}
		for (size_t i = before; i < all.n; i++)
			nfind += all.v[i].sev >= SEV_WARNING;
		if (n < 0 && status == 0)
			opt.trouble = 1;
	}
	for (const char *s = out; *s; ) {
		const char *e = strchr(s, '\n');
		char *l = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		struct finding f;
		if (!records && parse_diag_line(l, engine, default_check, dir, &f)) {
			findings_add(&all, &f);
			nfind++;
		} else if (strstr(l, "error: ") || strstr(l, "Error")) {
			error_lines++;
		} else if (!strncmp(l, "cachehot-layout: warning: ", 26)) {
			progress(NULL, NULL);   /* e.g. nothing judged: shown, not a finding */
			fprintf(stderr, "%s\n", l);
		}
		free(l);
		s = e ? e + 1 : s + strlen(s);
	}
	/* an error line no finding accounts for: the engine failed */
	other_errors = records ? error_lines > nfind : error_lines;
	if (status == 0 || (status > 0 && status < 128 && nfind > 0 && other_errors == 0))
		return 1;
	progress(NULL, NULL);
	fprintf(stderr, "cachehot: engine %s failed (exit status %d):", engine, status);
	for (int i = 0; argv[i]; i++)
		fprintf(stderr, " %s", argv[i]);
	fprintf(stderr, "\n%s", out);
	opt.trouble = 1;
	return 0;
}

/* Engine arguments in each engine's own spelling: the plugin takes
 * -fplugin-arg-cachehot-KEY=VAL (several sidecars as one A:B), the sparse
 * checker -fcachehot-KEY=VAL, cachehot-layout --KEY=VAL. */
static void push_engine_args(struct strv *av, const char *style)
{
	char *a;
	if (opt.annotations.n) {
		if (!strncmp(style, "plugin", 6)) {
			size_t len = 0;
			for (size_t i = 0; i < opt.annotations.n; i++)
				len += strlen(opt.annotations.v[i]) + 1;
			char *joined = xmalloc(len + 1);
			joined[0] = 0;
			for (size_t i = 0; i < opt.annotations.n; i++) {
				if (i) strcat(joined, ":");
				strcat(joined, opt.annotations.v[i]);
			}
			a = xasprintf("-fplugin-arg-cachehot-annotations=%s", joined);
			strv_push(av, a);
			free(a);
			free(joined);
		} else {
			for (size_t i = 0; i < opt.annotations.n; i++) {
				a = !strcmp(style, "sparse")
				    ? xasprintf("-fcachehot-annotations=%s", opt.annotations.v[i])
				    : xasprintf("--annotations=%s", opt.annotations.v[i]);
				strv_push(av, a);
				free(a);
			}
		}
	}
	for (size_t i = 0; i < opt.plugin_args.n; i++) {
		/* compiling for the layout engine must not fail on a finding */
		if (!strcmp(style, "plugin-manifest") && !strncmp(opt.plugin_args.v[i], "severity=", 9))
			continue;
		if (!strncmp(style, "plugin", 6))
			a = xasprintf("-fplugin-arg-cachehot-%s", opt.plugin_args.v[i]);
		else if (!strcmp(style, "sparse"))
			a = xasprintf("-fcachehot-%s", opt.plugin_args.v[i]);
		else
			a = xasprintf("--%s", opt.plugin_args.v[i]);
		strv_push(av, a);
		free(a);
	}
}

static void push_flags(struct strv *av, const struct unit *u)
{
	for (size_t i = 0; i < u->flags.n; i++)
		strv_push(av, u->flags.v[i]);
	for (size_t i = 0; i < opt.cflags.n; i++)
		strv_push(av, opt.cflags.v[i]);
}

static int run_one(const char *engine, const char *default_check, struct strv *av, const char *dir,
		   const char *records)
{
	char *out = NULL;
	int st;
	int ok = 0;
	if (records)
		unlink(records);
	st = run_capture(av->v, dir, &out);
	if (st < 0)
		opt.trouble = 1;
	else
		ok = collect(engine, default_check, st, out, av->v, dir, records);
	if (records)
		unlink(records);
	free(out);
	return ok;
}

static char *tmpdir;
static pid_t main_pid;

/* Remove the scratch directory: objects, manifests (and the core's
 * manifest lock files), worker results. */
static void remove_tmpdir(void)
{
	if (tmpdir && getpid() == main_pid) {
		DIR *d = opendir(tmpdir);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
			unlink(path);
		}
		if (d)
			closedir(d);
		rmdir(tmpdir);
	}
}

/* Interrupted: clean up and leave with 128+signal, as a shell reports it. */
/* -j workers running now (0 once reaped), for on_signal. */
static pid_t *worker_pids;
static size_t nworker_pids;

static void on_signal(int sig)
{
	ch_atomic_cleanup();   /* a report or baseline being written */
	run_stop_child();      /* this process's compile */
	if (getpid() == main_pid) {   /* every worker, and its compile */
		for (size_t i = 0; i < nworker_pids; i++)
			if (worker_pids[i] > 0)
				kill(worker_pids[i], SIGTERM);
		for (size_t i = 0; i < nworker_pids; i++)
			if (worker_pids[i] > 0)
				while (waitpid(worker_pids[i], NULL, 0) < 0 && errno == EINTR)
					;
	}
	remove_tmpdir();
	if (opt.progress && getpid() == main_pid)
		fputs("\r\033[K", stderr);
	_exit(128 + sig);
}

static char *tmp_object(void)
{
	static unsigned seq;
	/* the pid: -j workers are forks, each with its own copy of seq */
	return xasprintf("%s/u%d-%u.o", tmpdir, (int)getpid(), seq++);
}

/* Where an engine run writes its records (removed after reading). */
static char *tmp_records(void)
{
	static unsigned seq;
	return xasprintf("%s/r%d-%u.jsonl", tmpdir, (int)getpid(), seq++);
}

/* The plugin cannot know how big an out-of-line copy is (cc1 has not
 * assembled anything); the object it just built can: give every
 * inline-addr finding of this unit its copy's size from the symbol table
 * (nm -S), in the core's words. */
static void size_inline_copies(size_t first, const char *obj, const char *src)
{
	static ch_ctx *ctx;
	char *out = NULL;
	char *av[] = { "nm", "-S", "--defined-only", (char *)obj, NULL };
	size_t i;
	int any = 0;
	for (i = first; i < all.n; i++)
		any |= !strcmp(all.v[i].check, "cachehot-inline-addr");
	if (!any || run_capture(av, NULL, &out) != 0 || !out) {
		free(out);
		return;
	}
	if (!ctx)
		ctx = ch_ctx_new();
	for (i = first; i < all.n; i++) {
		struct finding *f = &all.v[i];
		const char *p = f->field, *line;   /* the inline function (its record) */
		size_t nlen;
		if (strcmp(f->check, "cachehot-inline-addr") || !p)
			continue;
		nlen = strlen(p);
		/* "0000000000000000 0000000000000029 t lruvec_page_state" (a clone
		 * may be "name.constprop.0": the exact name wins) */
		for (line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			unsigned long long addr, size;
			char type, name[512];
			if (sscanf(line, "%llx %llx %c %511s", &addr, &size, &type, name) == 4 &&
			    (type == 't' || type == 'T') && strlen(name) == nlen &&
			    !strncmp(name, p, nlen)) {
				const char *base = strrchr(src, '/');
				char *oname = xasprintf("%.*s.o", (int)(strrchr(base ? base + 1 : src, '.') ?
					strrchr(base ? base + 1 : src, '.') - (base ? base + 1 : src) :
					(long)strlen(base ? base + 1 : src)), base ? base + 1 : src);
				const char *m = ch_inline_addr_sized(ctx, f->message, size, oname);
				free(oname);
				if (m != f->message) {
					free(f->message);
					f->message = xstrdup(m);
				}
				break;
			}
		}
	}
	free(out);
}

static void run_plugin(const struct unit *u, const char *plugin)
{
	struct strv av = {0};
	char *obj = tmp_object(), *fp = xasprintf("-fplugin=%s", plugin), *rec = tmp_records();
	char *ra = xasprintf("-fplugin-arg-cachehot-findings=%s", rec);
	strv_push(&av, tool_cc());
	push_flags(&av, u);
	strv_push(&av, fp);
	push_engine_args(&av, "plugin");
	strv_push(&av, ra);
	{
		/* a header's finding once per run (the report merges them
		 * anyway): less output to read from every unit */
		int given = 0;
		for (size_t i = 0; i < opt.plugin_args.n; i++)
			given |= !strncmp(opt.plugin_args.v[i], "once=", 5);
		if (!given && tmpdir) {
			char *o = xasprintf("-fplugin-arg-cachehot-once=%s", tmpdir);   /* markers: 16 hex digits */
			strv_push(&av, o);
			free(o);
		}
	}
	strv_push(&av, "-fdiagnostics-plain-output");
	strv_push(&av, "-c");
	strv_push(&av, u->src);
	strv_push(&av, "-o");
	strv_push(&av, obj);
	{
		size_t first = all.n;
		run_one("plugin", NULL, &av, u->dir, rec);
		size_inline_copies(first, obj, u->src);
	}
	unlink(obj);
	free(obj); free(fp); free(rec); free(ra);
	strv_free(&av);
}

static void run_sparse(const struct unit *u, const char *sparse)
{
	struct strv av = {0};
	char *rec = tmp_records(), *ra = xasprintf("-fcachehot-findings=%s", rec);
	strv_push(&av, sparse);
	push_flags(&av, u);
	push_engine_args(&av, "sparse");
	strv_push(&av, ra);
	strv_push(&av, u->src);
	run_one("sparse", NULL, &av, u->dir, rec);
	strv_free(&av);
	free(rec);
	free(ra);
}

/* The rule's "// Options:" line, as coccicheck passes it. */
static void push_rule_options(struct strv *av, const char *rule)
{
	char *text = read_file(rule, NULL);
	if (!text)
		return;
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		if (strncmp(l, "// Options:", 11))
			continue;
		char *save = NULL;
		for (char *w = strtok_r(l + 11, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save))
			strv_push(av, w);
		break;
	}
	free(text);
}

static void run_cocci(const struct unit *u, const struct strv *rules)
{
	for (size_t r = 0; r < rules->n; r++) {
		struct strv av = {0};
		const char *base = strrchr(rules->v[r], '/');
		char *check = xstrdup(base ? base + 1 : rules->v[r]);
		check[strlen(check) - 6] = 0;  /* drop ".cocci" */
		strv_push(&av, tool_spatch());
		strv_push(&av, "-D"); strv_push(&av, "report");
		strv_push(&av, "--very-quiet"); strv_push(&av, "--no-show-diff");
		strv_push(&av, "--cocci-file"); strv_push(&av, rules->v[r]);
		push_rule_options(&av, rules->v[r]);
		for (size_t i = 0; i < u->flags.n + opt.cflags.n; i++) {
			const char *f = i < u->flags.n ? u->flags.v[i] : opt.cflags.v[i - u->flags.n];
			if (!strncmp(f, "-I", 2) && f[2]) {
				strv_push(&av, "-I");
				strv_push(&av, f + 2);
			}
		}
		strv_push(&av, u->src);
		run_one("cocci", check, &av, u->dir, NULL);
		free(check);
		strv_free(&av);
	}
}

static void run_layout_obj(const char *obj, const char *dir, const char *layout,
			   const char *manifest)
{
	struct strv av = {0};
	char *rec = tmp_records();
	strv_push(&av, layout);
	strv_push(&av, "-q");
	push_engine_args(&av, "layout");
	if (manifest) {
		strv_push(&av, "--manifest");
		strv_push(&av, manifest);
	}
	strv_push(&av, "--findings");
	strv_push(&av, rec);
	strv_push(&av, obj);
	run_one("layout", NULL, &av, dir, rec);
	strv_free(&av);
	free(rec);
}

/* The layout engine on a source: compile it with -g (and, when the plugin
 * is there, with its manifest, which carries the annotations into the
 * DWARF reader), then read the object. The compile step's own output is
 * only shown when it fails. */
static void run_layout_src(const struct unit *u, const char *layout, const char *plugin)
{
	struct strv av = {0};
	char *obj = tmp_object(), *manifest = NULL, *out = NULL;
	int st;
	strv_push(&av, tool_cc());
	push_flags(&av, u);
	if (plugin) {
		char *a = xasprintf("-fplugin=%s", plugin);
		manifest = xasprintf("%s.json", obj);
		strv_push(&av, a);
		free(a);
		push_engine_args(&av, "plugin-manifest");
		a = xasprintf("-fplugin-arg-cachehot-manifest=%s", manifest);
		strv_push(&av, a);
		free(a);
	}
	strv_push(&av, "-g");
	strv_push(&av, "-c");
	strv_push(&av, u->src);
	strv_push(&av, "-o");
	strv_push(&av, obj);
	st = run_capture(av.v, u->dir, &out);
	if (opt.verbose && st >= 0) {
		progress(NULL, NULL);
		fputs("cachehot: [layout-compile]", stderr);
		for (size_t i = 0; i < av.n; i++)
			fprintf(stderr, " %s", av.v[i]);
		fprintf(stderr, " -> %d\n", st);
	}
	if (st == 0) {
		run_layout_obj(obj, u->dir, layout, manifest && is_file(manifest) ? manifest : NULL);
	} else if (st > 0) {
		progress(NULL, NULL);
		fprintf(stderr, "cachehot: compiling %s for the layout engine failed (exit status %d):\n%s",
			u->src, st, out);
		opt.trouble = 1;
	} else {
		opt.trouble = 1;
	}
	unlink(obj);
	if (manifest)
		unlink(manifest);
	free(obj);
	free(manifest);
	free(out);
	strv_free(&av);
}

static unsigned long count_lines(const struct unit *u)
{
	char *p = u->dir && u->src[0] != '/' ? xasprintf("%s/%s", u->dir, u->src) : xstrdup(u->src);
	size_t len = 0;
	char *text = read_file(p, &len);
	unsigned long n = 0;
	free(p);
	if (!text)
		return 0;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		n++;
	free(text);
	return n;
}

static int parse_engines(const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	unsigned m = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "plugin")) m |= ENG_PLUGIN;
		else if (!strcmp(t, "sparse")) m |= ENG_SPARSE;
		else if (!strcmp(t, "cocci")) m |= ENG_COCCI;
		else if (!strcmp(t, "layout")) m |= ENG_LAYOUT;
		else if (!strcmp(t, "all")) m |= ENG_PLUGIN | ENG_SPARSE | ENG_COCCI | ENG_LAYOUT;
		else die_usage("unknown engine '%s' (plugin, sparse, cocci, layout, all)", t);
	}
	free(copy);
	if (!m)
		die_usage("--engine needs a list%s", "");
	return m;
}

static void add_plugin_arg(const char *key, const char *val)
{
	char *a = val ? xasprintf("%s=%s", key, val) : xstrdup(key);
	strv_push(&opt.plugin_args, a);
	free(a);
}

struct engines_found {
	const char *plugin, *sparse, *layout;
	const struct strv *rules;
};

/* Every chosen engine on one unit; show_progress: per engine. */
static void run_unit(const struct unit *u, const struct engines_found *ef, int show_progress)
{
	if (ef->plugin) {
		if (show_progress) progress("plugin", u->src);
		run_plugin(u, ef->plugin);
		jobs_done++;
	}
	if (ef->sparse) {
		if (show_progress) progress("sparse", u->src);
		run_sparse(u, ef->sparse);
		jobs_done++;
	}
	if (ef->rules->n) {
		if (show_progress) progress("cocci", u->src);
		run_cocci(u, ef->rules);
		jobs_done++;
	}
	if (ef->layout) {
		if (show_progress) progress("layout", u->src);
		run_layout_src(u, ef->layout, ef->plugin ? ef->plugin : tool_plugin());
		jobs_done++;
	}
}

/* -j N: units in N child processes. A child runs its unit's engines and
 * writes its findings, one per line, fields separated by \x1f, to
 * tmpdir/rN; exit status 0, or 3 when an engine failed (it has printed why).
 * The parent reads the files back; the order is fixed by the sort after. */
static int write_findings_cb(FILE *f, void *arg)
{
	const struct findings *fs = arg;
#define OR0(s) ((s) ? (s) : "")
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		fprintf(f, "%s\x1f%s\x1f%u\x1f%u\x1f%d\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s"
			"\x1f%s\x1f%s\n", x->file, x->abspath, x->line, x->col, (int)x->sev, x->check,
			x->message, x->engines, x->keyed, OR0(x->scope), OR0(x->field),
			OR0(x->other), OR0(x->lines), OR0(x->ident));
	}
#undef OR0
	return 0;
}

static void read_findings(const char *path)
{
	char *text = read_file(path, NULL);
	if (!text) {
		fprintf(stderr, "cachehot: lost the results of a worker (%s)\n", path);
		opt.trouble = 1;
		return;
	}
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *fld[14];
		int n = 0;
		for (char *p = l; n < 14; n++) {
			fld[n] = p;
			p = strchr(p, '\x1f');
			if (!p) { n++; break; }
			*p++ = 0;
		}
		if (n != 14)
			continue;
		struct finding f = {0};
		f.file = xstrdup(fld[0]);
		f.abspath = xstrdup(fld[1]);
		f.line = strtoul(fld[2], NULL, 10);
		f.col = strtoul(fld[3], NULL, 10);
		f.sev = (enum sev)atoi(fld[4]);
		f.check = xstrdup(fld[5]);
		f.message = xstrdup(fld[6]);
		f.engines = xstrdup(fld[7]);
		f.keyed = atoi(fld[8]);
#define ORNULL(s) (*(s) ? xstrdup(s) : NULL)
		f.scope = ORNULL(fld[9]);
		f.field = ORNULL(fld[10]);
		f.other = ORNULL(fld[11]);
		f.lines = ORNULL(fld[12]);
		f.ident = ORNULL(fld[13]);
#undef ORNULL
		findings_add(&all, &f);
	}
	free(text);
}

static void run_units_parallel(const struct engines_found *ef)
{
	size_t next = 0, running = 0, finished = 0;
	unsigned per_unit = jobs_total / (opt.nunits ? opt.nunits : 1);
	pid_t *pids = xmalloc(opt.nunits * sizeof(*pids));
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	memset(pids, 0, opt.nunits * sizeof(*pids));
	worker_pids = pids;
	nworker_pids = opt.nunits;
	fflush(stdout);
	fflush(stderr);
	while (finished < opt.nunits) {
		while (running < (size_t)opt.jobs && next < opt.nunits) {
			const struct unit *u = &opt.units[next];
			if (opt.progress) {
				/* units started of all units, and the newest one */
				fprintf(stderr, "\r\033[K[%zu/%zu] %s", next + 1, opt.nunits, u->src);
				fflush(stderr);
			}
			sigprocmask(SIG_BLOCK, &block, &old);   /* pids[] complete first */
			pid_t pid = fork();
			if (pid < 0) {
				fprintf(stderr, "cachehot: fork: %s\n", strerror(errno));
				exit(EXIT_TROUBLE);
			}
			if (pid == 0) {
				nworker_pids = 0;
				sigprocmask(SIG_SETMASK, &old, NULL);
				char *res = xasprintf("%s/r%zu", tmpdir, next);
				opt.progress = 0;
				all.n = 0;
				run_unit(u, ef, 0);
				if (write_atomic(res, write_findings_cb, &all) < 0)
					_exit(3);
				fflush(stderr);
				_exit(opt.trouble ? 3 : 0);
			}
			pids[next++] = pid;
			sigprocmask(SIG_SETMASK, &old, NULL);
			running++;
		}
		int st;
		pid_t pid = wait(&st);
		if (pid < 0) {
			if (errno == EINTR) continue;
			break;
		}
		for (size_t i = 0; i < next; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;   /* reaped: never signalled again */
			running--;
			finished++;
			jobs_done += per_unit;
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
				opt.trouble = 1;
			char *res = xasprintf("%s/r%zu", tmpdir, i);
			if (WIFEXITED(st) && WEXITSTATUS(st) <= 3)
				read_findings(res);
			unlink(res);
			free(res);
		}
	}
	nworker_pids = 0;
	worker_pids = NULL;
	free(pids);
}

static struct strv *collect_dir;

static int add_object_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	(void)st; (void)ftw;
	if (type == FTW_F && n > 2 && !strcmp(path + n - 2, ".o"))
		strv_push(collect_dir, path);
	return 0;
}

static int write_report_cb(FILE *f, void *arg)
{
	return report_write(f, ((void **)arg)[0], ((void **)arg)[1]);
}

static int cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "engine", required_argument, 0, 'e' },
		{ "compile-commands", required_argument, 0, 'p' },
		{ "objects", required_argument, 0, 1001 },
		{ "annotations", required_argument, 0, 'a' },
		{ "line-size", required_argument, 0, 'L' },
		{ "predict", required_argument, 0, 'P' },
		{ "severity", required_argument, 0, 'S' },
		{ "format", required_argument, 0, 'f' },
		{ "terse", no_argument, 0, 't' },
		{ "output", required_argument, 0, 'o' },
		{ "diff", required_argument, 0, 'd' },
		{ "patch", required_argument, 0, 'x' },
		{ "baseline", required_argument, 0, 'b' },
		{ "update-baseline", no_argument, 0, 'u' },
		{ "no-progress", no_argument, 0, 'n' },
		{ "log", required_argument, 0, 'l' },
		{ "findings", required_argument, 0, 1104 },
		{ "verbose", no_argument, 0, 'v' },
		{ "help", no_argument, 0, 'h' },
		{ "include", required_argument, 0, 'i' },   /* -include FILE */
		{ "isystem", required_argument, 0, 's' },   /* -isystem DIR */
		{ "shard", required_argument, 0, 1002 },
		{ "merge", no_argument, 0, 1003 },
		{ "profile", required_argument, 0, 1004 },
		{ 0, 0, 0, 0 }
	};
	struct strv files = {0};
	struct shard_info shard = {0};
	int merge = 0;
	struct patch patch = {0};
	int c, have_patch = 0;
	const char *engine_list = "plugin";

	opt.progress = isatty(2) && !getenv("CI");
	/* getopt_long_only so that GCC's single-dash -include/-isystem work. */
	while ((c = getopt_long_only(argc, argv, "p:o:A:I:D:U:O::j:vh", lo, NULL)) != -1) {
		char *a;
		switch (c) {
		case 'e': engine_list = optarg; break;
		case 1004: strv_push(&opt.profiles, optarg); break;
		case 'p': opt.ccdb = optarg; break;
		case 1001: opt.objlist = optarg; break;
		case 1002:
			if (shard_parse(optarg, &shard.k, &shard.n))
				die_usage("--shard takes K/N, 1 <= K <= N (this job's part of N), not '%s'",
					  optarg);
			break;
		case 1003: merge = 1; break;
		case 'a': {
			char *abs = canon_path(optarg);
			if (!abs || !is_file(abs))
				die_usage("no such annotations file: '%s'", optarg);
			strv_push(&opt.annotations, abs);  /* engines may run elsewhere */
			free(abs);
			break;
		}
		case 'L': case 'P': {
			unsigned v;
			if (ch_line_size_parse(optarg, &v))   /* the range every engine takes */
				die_usage("line sizes are powers of two from 8 to 4096 bytes, not '%s'",
					  optarg);
			if (c == 'L')
				opt.line_size_arg = v;
			else
				opt.predict_arg = v;
			if (opt.predict_arg && opt.predict_arg <= (opt.line_size_arg ? opt.line_size_arg : 64))
				die_usage("--predict must be larger than the line size (64 bytes unless "
					  "--line-size says otherwise), not '%s'", optarg);
			add_plugin_arg(c == 'L' ? "line-size" : "predict", optarg);
			break;
		}
		case 'S':
			{
				enum ch_severity sv;
				if (ch_severity_parse(optarg, &sv))
					die_usage("--severity must be note, warning or error, not '%s'", optarg);
			}
			add_plugin_arg("severity", optarg);
			break;
		case 'A':
			if (!strchr(optarg, '=') && !*optarg)
				die_usage("-A needs KEY=VAL%s", "");
			strv_push(&opt.plugin_args, optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "gcc")) opt.format = FMT_GCC;
			else if (!strcmp(optarg, "checkpatch")) opt.format = FMT_CHECKPATCH;
			else if (!strcmp(optarg, "json")) opt.format = FMT_JSON;
			else if (!strcmp(optarg, "sarif")) opt.format = FMT_SARIF;
			else if (!strcmp(optarg, "html")) opt.format = FMT_HTML;
			else die_usage("unknown format '%s' (gcc, checkpatch, json, sarif, html)", optarg);
			break;
		case 't': opt.terse = 1; break;
		case 'j': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 256)
				die_usage("-j needs a number of jobs from 1 to 256, not '%s'", optarg);
			opt.jobs = (int)v;
			break;
		}
		case 'o': opt.output = optarg; break;
		case 'd': opt.diff_rev = optarg; break;
		case 'x': opt.patch_file = optarg; break;
		case 'b': opt.baseline = optarg; break;
		case 'u': opt.update_baseline = 1; break;
		case 'n': opt.progress = 0; break;
		case 'l': opt.log = optarg; break;
		case 1104: strv_push(&opt.records, optarg); break;
		case 'v': opt.verbose = 1; break;
		case 'h': usage_check(stdout); exit(0);
		case 'I': case 'D': case 'U':
			a = xasprintf("-%c%s", c, optarg);
			strv_push(&opt.cflags, a);
			free(a);
			break;
		case 'O':   /* optimisation decides which inline copies exist */
			a = xasprintf("-O%s", optarg ? optarg : "");
			strv_push(&opt.cflags, a);
			free(a);
			break;
		case 'i': strv_push(&opt.cflags, "-include"); strv_push(&opt.cflags, optarg); break;
		case 's': strv_push(&opt.cflags, "-isystem"); strv_push(&opt.cflags, optarg); break;
		default: usage_check(stderr); exit(EXIT_TROUBLE);
		}
	}
	opt.engines = parse_engines(engine_list);
	if (opt.terse && opt.format != FMT_CHECKPATCH)
		die_usage("--terse goes with --format=checkpatch%s", "");
	if (opt.update_baseline && !opt.baseline)
		die_usage("--update-baseline needs --baseline=FILE%s", "");
	if (opt.diff_rev && opt.patch_file)
		die_usage("--diff and --patch exclude each other%s", "");
	if (shard.n && (merge || !opt.output || opt.update_baseline || opt.baseline ||
			opt.diff_rev || opt.patch_file))
		die_usage("--shard K/N writes its part to -o FILE; baselines, --diff/--patch and "
			  "formats go with --merge%s", "");
	struct shard_info merged = {0};
	if (merge) {   /* the arguments are shard files: no engine runs */
		struct strv sf = {0};
		if (opt.ccdb || opt.objlist || opt.log || optind >= argc)
			die_usage("--merge takes the shard files of 'cachehot check --shard K/N -o FILE' "
				  "(and no other input)%s", "");
		for (int i = optind; i < argc; i++)
			strv_push(&sf, argv[i]);
		if (shard_merge(&sf, &all, &merged) < 0)
			exit(EXIT_TROUBLE);
		strv_free(&sf);
		opt.trouble |= merged.trouble;
		opt.engines = 0;
		optind = argc;
	}
	for (int i = optind; i < argc; i++) {
		if (argv[i][0] == '-')
			die_usage("unknown option '%s'", argv[i]);
		if (is_dir(argv[i])) {
			/* a build tree: its objects, for the layout engine */
			size_t before = opt.objects.n;
			collect_dir = &opt.objects;
			if (nftw(argv[i], add_object_cb, 32, FTW_PHYS) != 0)
				die_usage("cannot read directory '%s'", argv[i]);
			if (opt.objects.n == before)
				die_usage("no object files (*.o) under '%s'", argv[i]);
			continue;
		}
		if (!is_file(argv[i]))
			die_usage("no such file: '%s'", argv[i]);
		strv_push(&files, argv[i]);
	}

	/* Patch-only mode: read the change first (it may name the files). */
	if (opt.diff_rev || opt.patch_file) {
		if ((opt.diff_rev ? patch_from_git(opt.diff_rev, &patch)
				  : patch_from_file(opt.patch_file, &patch)) < 0)
			exit(EXIT_TROUBLE);
		have_patch = 1;
		if (!files.n && !opt.ccdb && !opt.objlist && !opt.log) {
			struct strv headers = {0};
			for (size_t i = 0; i < patch.n; i++) {
				char *d = display_path(patch.v[i].abspath);
				if (ends_with(d, ".c") && is_file(patch.v[i].abspath))
					strv_push(&files, d);
				else if (ends_with(d, ".h"))
					strv_push(&headers, d);
				free(d);
			}
			/* a header is compiled only through a unit that includes
			 * it: with no unit at all, say so instead of a clean exit */
			if (headers.n && !files.n) {
				for (size_t i = 0; i < headers.n; i++)
					fprintf(stderr, "cachehot: %s: changed header not checked: no unit "
						"that includes it is named (name the units, or give "
						"-p compile_commands.json)\n", headers.v[i]);
				strv_free(&headers);
				exit(EXIT_TROUBLE);
			}
			strv_free(&headers);
		}
	}

	if (opt.ccdb) {
		if (ccdb_load(opt.ccdb, &files, add_unit) < 0)
			exit(EXIT_TROUBLE);
	} else {
		for (size_t i = 0; i < files.n; i++) {
			if (ends_with(files.v[i], ".o") || ends_with(files.v[i], ".ko") ||
			    is_elf(files.v[i]))   /* a linked program, vmlinux */
				strv_push(&opt.objects, files.v[i]);
			else
				add_unit(files.v[i], NULL, NULL);
		}
	}
	if (shard.n) {   /* this job's units: i % N == K - 1, in database order */
		size_t kept = 0;
		for (size_t i = 0; i < opt.nunits; i++)
			if (i % shard.n == shard.k - 1)
				opt.units[kept++] = opt.units[i];
		opt.nunits = kept;
	}
	if (opt.objlist && load_objlist(opt.objlist) < 0)
		exit(EXIT_TROUBLE);
	if (opt.log && load_log(opt.log) < 0)
		exit(EXIT_TROUBLE);
	for (size_t i = 0; i < opt.records.n; i++)
		if (load_records(opt.records.v[i]) < 0)
			exit(EXIT_TROUBLE);
	if (!opt.nunits && !opt.objects.n && !have_patch && !opt.log && !merge && !shard.n &&
	    !opt.records.n)
		die_usage("nothing to check: name source files, objects, -p compile_commands.json "
			  "or --objects FILE%s", "");
	if (opt.objects.n && !(opt.engines & ENG_LAYOUT) && !opt.nunits)
		die_usage("object files need --engine=layout%s", "");

	/* Inputs and outputs that would only fail after every engine ran. */
	if (opt.baseline && !opt.update_baseline && access(opt.baseline, R_OK) != 0) {
		fprintf(stderr, "cachehot: cannot read baseline %s: %s\n", opt.baseline, strerror(errno));
		exit(EXIT_TROUBLE);
	}
	if (opt.output) {
		char *dir = xstrdup(opt.output), *slash = strrchr(dir, '/');
		struct stat st;
		if (slash)
			*(slash == dir ? slash + 1 : slash) = 0;
		if (slash && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
			fprintf(stderr, "cachehot: cannot write %s: no such directory %s\n", opt.output, dir);
			free(dir);
			exit(EXIT_TROUBLE);
		}
		free(dir);
	}

	/* profiles: a sidecar from them when none is given; html: a manifest */
	if (profile_load(&opt.profiles) < 0 ||
	    profile_prepare(&opt.annotations, &opt.plugin_args, opt.format == FMT_HTML) < 0)
		exit(EXIT_TROUBLE);

	/* Locate what the chosen engines need before running anything. */
	char *plugin = NULL, *sparse = NULL, *layout = NULL, *coccidir = NULL;
	struct strv rules = {0};
	if (opt.engines & ENG_PLUGIN) {
		plugin = tool_plugin();
		if (!plugin) {
			fprintf(stderr, "cachehot: the plugin engine needs plugin/cachehot.so "
				"(run 'make plugin', or set CACHEHOT_PLUGIN)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_SPARSE) {
		sparse = tool_bin("CACHEHOT_SPARSE", "cachehot-sparse");
		if (!sparse) {
			fprintf(stderr, "cachehot: the sparse engine needs bin/cachehot-sparse "
				"(run 'make sparse', or set CACHEHOT_SPARSE)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_LAYOUT) {
		layout = tool_bin("CACHEHOT_LAYOUT", "cachehot-layout");
		if (!layout) {
			fprintf(stderr, "cachehot: the layout engine needs bin/cachehot-layout "
				"(run 'make layout', or set CACHEHOT_LAYOUT)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_COCCI) {
		coccidir = tool_cocci_dir();
		if (coccidir) {
			char *cmd[] = { "sh", "-c", "ls \"$0\"/*.cocci 2>/dev/null", coccidir, NULL };
			char *out = NULL;
			if (run_capture(cmd, NULL, &out) == 0)
				for (char *s = strtok(out, "\n"); s; s = strtok(NULL, "\n"))
					strv_push(&rules, s);
			free(out);
		}
		if (!rules.n) {
			fprintf(stderr, "cachehot: the cocci engine needs the rules cocci/*.cocci "
				"(or set CACHEHOT_COCCI_DIR)\n");
			exit(EXIT_TROUBLE);
		}
	}

	const char *td = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/cachehot.XXXXXX", td && *td ? td : "/tmp");
	tmpdir = mkdtemp(tmpl);
	if (!tmpdir) {
		fprintf(stderr, "cachehot: mkdtemp %s: %s\n", tmpl, strerror(errno));
		exit(EXIT_TROUBLE);
	}
	main_pid = getpid();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	jobs_total = opt.nunits * (!!(opt.engines & ENG_PLUGIN) + !!(opt.engines & ENG_SPARSE) +
				   !!(opt.engines & ENG_COCCI) + !!(opt.engines & ENG_LAYOUT));
	if (opt.engines & ENG_LAYOUT)
		jobs_total += opt.objects.n;
	struct report_opts ro = { opt.format, opt.terse, 0 };
	struct engines_found ef = { plugin, sparse, layout, &rules };
	for (size_t i = 0; i < opt.nunits; i++)
		ro.lines_checked += count_lines(&opt.units[i]);
	if (opt.jobs > 1 && opt.nunits > 1) {
		run_units_parallel(&ef);
	} else {
		for (size_t i = 0; i < opt.nunits; i++)
			run_unit(&opt.units[i], &ef, 1);
	}
	for (size_t i = 0; layout && i < opt.objects.n; i++) {
		progress("layout", opt.objects.v[i]);
		run_layout_obj(opt.objects.v[i], NULL, layout, NULL);
		jobs_done++;
	}
	progress(NULL, NULL);
	remove_tmpdir();

	if (shard.n) {   /* the raw findings: --merge does the rest */
		shard.units = opt.nunits;
		shard.lines = ro.lines_checked;
		shard.whole = opt.ccdb && !files.n;
		shard.trouble = opt.trouble;
		if (shard_write(opt.output, &shard, &all) < 0)
			exit(EXIT_TROUBLE);
		findings_free(&all);
		return opt.trouble ? EXIT_TROUBLE : EXIT_CLEAN;
	}
	if (merge)
		ro.lines_checked = merged.lines;
	/* a build log has no unit count: its per-object notes are kept */
	findings_fold_unmatched(&all, opt.log || opt.records.n ? 0 : merge ? merged.units : opt.nunits,
				merge ? merged.whole : opt.ccdb && !files.n);
	findings_resolve_scopes(&all);
	findings_sort_dedupe(&all);
	if (have_patch)
		patch_filter(&patch, &all);
	if (opt.update_baseline) {
		if (baseline_write(opt.baseline, &all) < 0)
			exit(EXIT_TROUBLE);
		fprintf(stderr, "cachehot: wrote %zu findings to %s\n", all.n, opt.baseline);
		findings_free(&all);
		return opt.trouble ? EXIT_TROUBLE : EXIT_CLEAN;
	}
	if (opt.baseline && baseline_apply(opt.baseline, &all) < 0)
		exit(EXIT_TROUBLE);
	profile_mark(&all);

	if (opt.output) {
		void *arg[2] = { &all, &ro };
		if (write_atomic(opt.output, write_report_cb, arg) < 0)
			exit(EXIT_TROUBLE);
	} else if (report_write(stdout, &all, &ro) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "cachehot: cannot write the report: %s\n", strerror(errno));
		exit(EXIT_TROUBLE);
	}
	int e, w, n;
	findings_count(&all, &e, &w, &n);
	findings_free(&all);
	patch_free(&patch);
	strv_free(&rules);
	strv_free(&files);
	free(plugin); free(sparse); free(layout); free(coccidir);
	if (opt.trouble)
		return EXIT_TROUBLE;
	return e + w ? EXIT_FINDINGS : EXIT_CLEAN;
}

/* "cachehot layout|bloat ARGS": run the tool of that name with ARGS. */
static int cmd_front(const char *name, const char *env, int argc, char **argv)
{
	char *bin = xasprintf("cachehot-%s", name);
	char *tool = tool_bin(env, bin);
	if (!tool) {
		fprintf(stderr, "cachehot: %s not found next to cachehot (run 'make %s', or set %s)\n",
			bin, name, env);
		return EXIT_TROUBLE;
	}
	argv[0] = tool;
	execv(tool, argv);
	fprintf(stderr, "cachehot: cannot run %s: %s\n", tool, strerror(errno));
	(void)argc;
	return EXIT_TROUBLE;
}

/* "cachehot asserts STRUCT FILE...": cachehot-layout --asserts STRUCT FILE... */
static int cmd_asserts(int argc, char **argv)
{
	char **v;
	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cachehot asserts STRUCT OBJ|BTF...\n"
			"  prints the CACHELINE_ASSERT_GROUP_MEMBER/_SIZE block of STRUCT's cacheline\n"
			"  groups as laid out in OBJ (DWARF) or BTF (/sys/kernel/btf/vmlinux)\n");
		return argc >= 2 && !strcmp(argv[1], "--help") ? EXIT_CLEAN : EXIT_TROUBLE;
	}
	v = calloc((size_t)argc + 2, sizeof(char *));
	if (!v)
		abort();
	v[0] = argv[0];
	v[1] = (char *)"--asserts";
	memcpy(v + 2, argv + 1, (size_t)(argc - 1) * sizeof(char *));
	return cmd_front("layout", "CACHEHOT_LAYOUT", argc + 1, v);
}

int main(int argc, char **argv)
{
	opt.exedir = exe_dir();
	ch_check_stdout_at_exit("cachehot");
	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "layout"))
		return cmd_front("layout", "CACHEHOT_LAYOUT", argc - 1, argv + 1);
	if (!strcmp(cmd, "bloat"))
		return cmd_front("bloat", "CACHEHOT_BLOAT", argc - 1, argv + 1);
	if (!strcmp(cmd, "asserts"))
		return cmd_asserts(argc - 1, argv + 1);
	if (!strcmp(cmd, "annotate") && argc > 2 && !strncmp(argv[2], "--net-cachelines", 16))
		return cmd_annotate_net_cachelines(argc - 1, argv + 1);   /* driver/netcl.c */
	if (!strcmp(cmd, "annotate") && argc > 2 && !strncmp(argv[2], "--profile", 9)) {
		/* the run alone; with the code's facts (--build) both together */
		int facts = 0;
		for (int i = 2; i < argc; i++)
			facts |= !strncmp(argv[i], "--build", 7);
		if (!facts)
			return cmd_annotate_profile(argc - 1, argv + 1);   /* driver/profile.c */
	}
	if (!strcmp(cmd, "annotate"))
		return cmd_annotate(argc - 1, argv + 1);   /* driver/annotate.c */
	if (!strcmp(cmd, "report")) {   /* report --html: check --format=html */
		for (int i = 2; i < argc; i++)
			if (!strcmp(argv[i], "--html"))
				argv[i] = "--format=html";
		argv[1] = "check";
		return cmd_check(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "checks")) {   /* the registry, core/registry.c */
		for (int c = 0; c < CH_CHECK__ROWS; c++) {
			const struct ch_check_info *r = ch_check_info((enum ch_check)c);
			printf("%s\t%s\t%s\t%s\n", r->id, r->severity == CH_SEV_ERROR ? "error" :
			       r->severity == CH_SEV_WARNING ? "warning" : "note", r->doc, r->summary);
		}
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("cachehot %s\n", CH_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "cachehot: unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_TROUBLE;
}
