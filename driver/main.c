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
#include "check.h"
#include "../core/cachehot-core.h"


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
	      "  --log=FILE              also read the record lines of a build log ('-': stdin)\n"
	      "                          whose engines had findings=-, e.g. make KCFLAGS=\"-fplugin=...\n"
	      "                          -fplugin-arg-cachehot-findings=-\" (docs/findings.md)\n"
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


/* What a build needs to write record lines into its log (findings=-). */
#define LOG_NEEDS_RECORDS \
	"cachehot: add findings=- to the engines and build again:\n" \
	"  kernel:     make KCFLAGS=\"... -fplugin-arg-cachehot-findings=-\"\n" \
	"  userspace:  CFLAGS=\"... -fplugin-arg-cachehot-findings=-\"\n" \
	"  sparse:     make C=1 CHECK=\"cachehot-sparse -fcachehot-findings=-\"\n" \
	"  coccicheck: make coccicheck MODE=report SPFLAGS=\"-D cachehot_records\"\n" \
	"  (docs/findings.md, \"Records in a build log\")\n"

/* --log: the record lines a build wrote among its output (the engines
 * given findings=-: the plugin in KCFLAGS or CFLAGS, make C=1
 * CHECK="cachehot-sparse -fcachehot-findings=-", coccicheck with -D
 * cachehot_records); relative paths taken from the cwd. The log's other
 * lines are not read, except to see that cachehot printed diagnostics:
 * diagnostics without any record line is an error (exit 2), never a
 * clean result. */
static int load_log(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct ch_records_scan scan;
	long n;
	if (!f) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = findings_from_text(&all, f, strcmp(path, "-") ? path : "<stdin>", NULL, &scan);
	if (f != stdin)
		fclose(f);
	if (n < 0)
		return -1;
	if (!scan.records && scan.diagnostics) {
		fprintf(stderr, "cachehot: %s: %lu lines of cachehot diagnostics (the first at line "
			"%lu) and no record line\n" LOG_NEEDS_RECORDS,
			strcmp(path, "-") ? path : "<stdin>", scan.diagnostics, scan.first_diagnostic);
		return -1;
	}
	/* every engine writes a record for each tagged line it prints (or
	 * more: once=DIR prints a header's finding once, sparse stops
	 * printing after -fmax-warnings): fewer records than tagged lines is
	 * an engine of the build without findings=- */
	if (scan.tagged > scan.records) {
		fprintf(stderr, "cachehot: %s: %lu lines with a cachehot check tag but %lu record "
			"lines: an engine of the build wrote no records\n" LOG_NEEDS_RECORDS,
			strcmp(path, "-") ? path : "<stdin>", scan.tagged, scan.records);
		return -1;
	}
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
		return findings_from_records(&all, path, NULL) < 0 ? -1 : 0;
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), rc = 0;
	if (n < 0) {
		fprintf(stderr, "cachehot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rc && ends_with(names[i]->d_name, ".findings.jsonl")) {
			char *p = xasprintf("%s/%s", path, names[i]->d_name);
			rc = findings_from_records(&all, p, NULL) < 0 ? -1 : 0;
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

/* What "cachehot check" was asked, beyond opt: its inputs and modes. */
struct check_args {
	struct strv files;          /* sources and objects named */
	struct shard_info shard;    /* --shard K/N (n 0: not sharded) */
	int merge;                  /* --merge: the arguments are shard files */
	struct shard_info merged;   /* what the merged shards said */
	struct patch patch;         /* --diff/--patch: the change */
	int have_patch;
	const char *engine_list;    /* --engine=LIST */
};

/* The options of "cachehot check" into opt and a; exits 2 on a usage error. */
static void check_options(int argc, char **argv, struct check_args *a)
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
	int c;

	a->engine_list = "plugin";
	opt.progress = isatty(2) && !getenv("CI");
	/* getopt_long_only so that GCC's single-dash -include/-isystem work. */
	while ((c = getopt_long_only(argc, argv, "p:o:A:I:D:U:O::j:vh", lo, NULL)) != -1) {
		char *w;
		switch (c) {
		case 'e': a->engine_list = optarg; break;
		case 1004: strv_push(&opt.profiles, optarg); break;
		case 'p': opt.ccdb = optarg; break;
		case 1001: opt.objlist = optarg; break;
		case 1002:
			if (shard_parse(optarg, &a->shard.k, &a->shard.n))
				die_usage("--shard takes K/N, 1 <= K <= N (this job's part of N), not '%s'",
					  optarg);
			break;
		case 1003: a->merge = 1; break;
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
			w = xasprintf("-%c%s", c, optarg);
			strv_push(&opt.cflags, w);
			free(w);
			break;
		case 'O':   /* optimisation decides which inline copies exist */
			w = xasprintf("-O%s", optarg ? optarg : "");
			strv_push(&opt.cflags, w);
			free(w);
			break;
		case 'i': strv_push(&opt.cflags, "-include"); strv_push(&opt.cflags, optarg); break;
		case 's': strv_push(&opt.cflags, "-isystem"); strv_push(&opt.cflags, optarg); break;
		default: usage_check(stderr); exit(EXIT_TROUBLE);
		}
	}
	opt.engines = parse_engines(a->engine_list);
	if (opt.terse && opt.format != FMT_CHECKPATCH)
		die_usage("--terse goes with --format=checkpatch%s", "");
	if (opt.update_baseline && !opt.baseline)
		die_usage("--update-baseline needs --baseline=FILE%s", "");
	if (opt.diff_rev && opt.patch_file)
		die_usage("--diff and --patch exclude each other%s", "");
	if (a->shard.n && (a->merge || !opt.output || opt.update_baseline || opt.baseline ||
			opt.diff_rev || opt.patch_file))
		die_usage("--shard K/N writes its part to -o FILE; baselines, --diff/--patch and "
			  "formats go with --merge%s", "");
	if (a->merge) {   /* the arguments are shard files: no engine runs */
		struct strv sf = {0};
		if (opt.ccdb || opt.objlist || opt.log || optind >= argc)
			die_usage("--merge takes the shard files of 'cachehot check --shard K/N -o FILE' "
				  "(and no other input)%s", "");
		for (int i = optind; i < argc; i++)
			strv_push(&sf, argv[i]);
		if (shard_merge(&sf, &all, &a->merged) < 0)
			exit(EXIT_TROUBLE);
		strv_free(&sf);
		opt.trouble |= a->merged.trouble;
		opt.engines = 0;
		optind = argc;
	}
}

/* The inputs: the files and directories named, the change (--diff/--patch:
 * it may name the files), the compile database, this shard's units, the
 * object list, a build log, records; exits 2 when there is nothing to check
 * or an input cannot be read. */
static void check_inputs(int argc, char **argv, struct check_args *a)
{
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
		strv_push(&a->files, argv[i]);
	}

	/* Patch-only mode: read the change first (it may name the files). */
	if (opt.diff_rev || opt.patch_file) {
		if ((opt.diff_rev ? patch_from_git(opt.diff_rev, &a->patch)
				  : patch_from_file(opt.patch_file, &a->patch)) < 0)
			exit(EXIT_TROUBLE);
		a->have_patch = 1;
		if (!a->files.n && !opt.ccdb && !opt.objlist && !opt.log) {
			struct strv headers = {0};
			for (size_t i = 0; i < a->patch.n; i++) {
				char *d = display_path(a->patch.v[i].abspath);
				if (ends_with(d, ".c") && is_file(a->patch.v[i].abspath))
					strv_push(&a->files, d);
				else if (ends_with(d, ".h"))
					strv_push(&headers, d);
				free(d);
			}
			/* a header is compiled only through a unit that includes
			 * it: with no unit at all, say so instead of a clean exit */
			if (headers.n && !a->files.n) {
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
		if (ccdb_load(opt.ccdb, &a->files, add_unit) < 0)
			exit(EXIT_TROUBLE);
	} else {
		for (size_t i = 0; i < a->files.n; i++) {
			if (ends_with(a->files.v[i], ".o") || ends_with(a->files.v[i], ".ko") ||
			    is_elf(a->files.v[i]))   /* a linked program, vmlinux */
				strv_push(&opt.objects, a->files.v[i]);
			else
				add_unit(a->files.v[i], NULL, NULL);
		}
	}
	if (a->shard.n) {   /* this job's units: i % N == K - 1, in database order */
		size_t kept = 0;
		for (size_t i = 0; i < opt.nunits; i++)
			if (i % a->shard.n == a->shard.k - 1)
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
	if (!opt.nunits && !opt.objects.n && !a->have_patch && !opt.log && !a->merge && !a->shard.n &&
	    !opt.records.n)
		die_usage("nothing to check: name source files, objects, -p compile_commands.json "
			  "or --objects FILE%s", "");
	if (opt.objects.n && !(opt.engines & ENG_LAYOUT) && !opt.nunits)
		die_usage("object files need --engine=layout%s", "");

}

/* Where the engines opt.engines names are, before anything runs: exits 2
 * when one is missing. */
static void locate_engines(char **plugin, char **sparse, char **layout, char **coccidir,
			   struct strv *rules)
{
	if (opt.engines & ENG_PLUGIN) {
		*plugin = tool_plugin();
		if (!*plugin) {
			fprintf(stderr, "cachehot: the plugin engine needs plugin/cachehot.so "
				"(run 'make plugin', or set CACHEHOT_PLUGIN)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_SPARSE) {
		*sparse = tool_bin("CACHEHOT_SPARSE", "cachehot-sparse");
		if (!*sparse) {
			fprintf(stderr, "cachehot: the sparse engine needs bin/cachehot-sparse "
				"(run 'make sparse', or set CACHEHOT_SPARSE)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_LAYOUT) {
		*layout = tool_bin("CACHEHOT_LAYOUT", "cachehot-layout");
		if (!*layout) {
			fprintf(stderr, "cachehot: the layout engine needs bin/cachehot-layout "
				"(run 'make layout', or set CACHEHOT_LAYOUT)\n");
			exit(EXIT_TROUBLE);
		}
	}
	if (opt.engines & ENG_COCCI) {
		*coccidir = tool_cocci_dir();
		if (*coccidir) {
			char *cmd[] = { "sh", "-c", "ls \"$0\"/*.cocci 2>/dev/null", *coccidir, NULL };
			char *out = NULL;
			if (run_capture(cmd, NULL, &out) == 0)
				for (char *s = strtok(out, "\n"); s; s = strtok(NULL, "\n"))
					strv_push(rules, s);
			free(out);
		}
		if (!rules->n) {
			fprintf(stderr, "cachehot: the cocci engine needs the rules cocci/*.cocci "
				"(or set CACHEHOT_COCCI_DIR)\n");
			exit(EXIT_TROUBLE);
		}
	}

}

/* The scratch directory and the signal handlers of a run. */
static void begin_run(void)
{
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
}

static int cmd_check(int argc, char **argv)
{
	struct check_args args = {0}, *a = &args;
	char *plugin = NULL, *sparse = NULL, *layout = NULL, *coccidir = NULL;
	struct strv rules = {0};

	check_options(argc, argv, a);
	check_inputs(argc, argv, a);
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
	locate_engines(&plugin, &sparse, &layout, &coccidir, &rules);
	begin_run();
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

	if (a->shard.n) {   /* the raw findings: --merge does the rest */
		a->shard.units = opt.nunits;
		a->shard.lines = ro.lines_checked;
		a->shard.whole = opt.ccdb && !a->files.n;
		a->shard.trouble = opt.trouble;
		if (shard_write(opt.output, &a->shard, &all) < 0)
			exit(EXIT_TROUBLE);
		findings_free(&all);
		return opt.trouble ? EXIT_TROUBLE : EXIT_CLEAN;
	}
	if (a->merge)
		ro.lines_checked = a->merged.lines;
	/* a build log has no unit count: its per-object notes are kept */
	findings_fold_unmatched(&all, opt.log || opt.records.n ? 0 : a->merge ? a->merged.units : opt.nunits,
				a->merge ? a->merged.whole : opt.ccdb && !a->files.n);
	findings_sort_dedupe(&all);
	if (a->have_patch)
		patch_filter(&a->patch, &all);
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
	patch_free(&a->patch);
	strv_free(&rules);
	strv_free(&a->files);
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
