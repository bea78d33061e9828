// SPDX-License-Identifier: GPL-2.0
/*
 * annotate.c -- "cachehot annotate": merge the access facts of many
 * translation units (plugin access mode, docs/annotate.md) into a sidecar
 * suggestion (docs/annotations.rst syntax). The rules are the core's
 * (core/infer.c); this file finds the inputs, runs the build for --build,
 * and writes the result.
 *
 *   cachehot annotate [OPTIONS] ACCESS.json|DIR...
 *   cachehot annotate --build DIR|compile_commands.json [OPTIONS]
 *
 * A DIR argument is searched (recursively) for *.access.json, the files the
 * plugin writes with -fplugin-arg-cachehot-access=DIR. --build runs
 * "cachehot check --engine=plugin -p CCDB -A access=TMPDIR" (its compile
 * database reading and -j) and merges what that wrote. A kernel O= tree
 * without compile_commands.json gets one from the kernel's own
 * scripts/clang-tools/gen_compile_commands.py (all its .cmd files, or the
 * objects listed by --objects).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-profile.h"
#include "../core/cachehot-core.h"

static void usage_annotate(FILE *f)
{
	fputs("usage: cachehot annotate [OPTIONS] ACCESS.json|OBJECT.o|LIB.a|DIR...\n"
	      "       cachehot annotate --build DIR|compile_commands.json [OPTIONS]\n"
	      "  Merge access facts (gcc -fplugin=cachehot.so -fplugin-arg-cachehot-access=DIR|object:\n"
	      "  facts files, or the objects that carry them; a DIR is searched for both; each\n"
	      "  unit counted once) into a sidecar suggestion; then: cachehot check --annotations=FILE\n"
	      "  --build=DIR             compile the units of DIR/compile_commands.json (or of\n"
	      "                          that file) with the access mode first\n"
	      "  --objects=FILE          --build on a kernel O= tree: only these objects\n"
	      "                          (one a line; via scripts/clang-tools/gen_compile_commands.py)\n"
	      "  -j N                    --build: N units at once (default 1)\n"
	      "  --keep-facts=DIR        --build: leave the access files in DIR (its old\n"
	      "                          *.access.json are removed first)\n"
	      "  --only=STRUCT           suggest for this struct only\n"
	      "  -o, --output=FILE       write the sidecar to FILE (atomically; default stdout)\n"
	      "  --hot-rmw-fns=N         hot: atomic RMWs in >= N functions (default 2)\n"
	      "  --hot-write-fns=N       hot: writes in >= N functions (default 4)\n"
	      "  --hot-update-fns=N      hot: updated from its own value (x->n++) in >= N\n"
	      "                          functions (default 1; 0 off); never read_mostly then\n"
	      "  --rm-read-fns=N         read_mostly: reads in >= N functions (default 3)\n"
	      "  --rm-max-write-fns=N    read_mostly: writes in <= N functions (default 3)\n"
	      "  --rm-ratio=N            read_mostly: readers >= N x writers (default 3)\n"
	      "  --min-fields=N          a struct needs N suggested lines, one hot (default 2)\n"
	      "  --group-overlap=PCT     hot fields sharing PCT% of writers form a group (default 50)\n"
	      "  --init-fields=N         a function storing >= N fields of a struct, without RMW\n"
	      "                          or loading them, initializes it (default 2; 0 off)\n"
	      "  --slow=FUNC|REGEX       functions whose name matches (extended regex) are slow\n"
	      "                          paths: their writes are no evidence\n"
	      "  --explain=STRUCT.FIELD  print the evidence for one member instead of a sidecar\n"
	      "  --units=REGEX           merge only units whose source path matches (one program)\n"
	      "  --exclude-units=REGEX   leave out units whose source path matches\n"
	      "  --program=BINARY        merge only the units BINARY was linked from (the\n"
	      "                          source files of its DWARF compile units; -g):\n"
	      "                          one program of a tree (repeatable)\n"
	      "  --no-progress           no progress line even on a terminal\n"
	      "  --profile=FILE          a recorded run (libcachehot-rt profile; repeatable): its\n"
	      "                          counts class the fields of structs its threads share;\n"
	      "                          structs it did not touch or share: lines commented out\n"
	      "  --min-share=N           --profile: a struct is shared when transfers between\n"
	      "                          threads inside its objects are >= N per mille of its\n"
	      "                          accesses (default 10)\n"
	      "  --min-samples=N         --profile: ... and N of them sampled; a struct with too\n"
	      "                          few sampled accesses to see that is not judged (default 10)\n"
	      "Functions are counted off slow paths (__init, __exit, __cold and what only\n"
	      "they call; in userspace also exit and signal handlers and what main() calls\n"
	      "before its first thread); accesses through objects one thread or CPU owns\n"
	      "are no evidence; an inline helper counts at its callers. See docs/annotate.md.\n"
	      "exit status: 0 done, 1 --explain found no such member, 2 usage or tool error\n", f);
}

static int die(const char *fmt, const char *arg)
{
	fputs("cachehot: annotate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(try 'cachehot annotate --help')\n", stderr);
	return EXIT_TROUBLE;
}

static struct strv found, named_files;

static int is_named(const char *path)
{
	for (size_t i = 0; i < named_files.n; i++)
		if (!strcmp(named_files.v[i], path))
			return 1;
	return 0;
}

/* The *.access.json files a --keep-facts directory holds from an earlier
 * run (only those: the directory may hold other files). */
static void clear_old_facts(const char *dir)
{
	static const char *const facts_only[] = { ".access.json", NULL };
	char **v;
	size_t n = ch_find_files(dir, facts_only, &v);
	for (size_t i = 0; i < n; i++) {
		unlink(v[i]);
		free(v[i]);
	}
	free(v);
}

/* Facts files, objects and archives under dir (the objects carry their
 * unit's facts: plugin/build.c); 0 when there is none of them. */
static size_t find_inputs(const char *dir)
{
	static const char *const suffixes[] = { ".access.json", ".o", ".a", NULL };
	char **v;
	size_t n = ch_find_files(dir, suffixes, &v), i;
	for (i = 0; i < n; i++) {
		strv_push(&found, v[i]);
		free(v[i]);
	}
	free(v);
	return n;
}

static int is_facts_file(const char *path)
{
	size_t n = strlen(path);
	return n > 12 && !strcmp(path + n - 12, ".access.json");
}

struct rec_arg {
	ch_access_facts *facts;
	size_t n;          /* access records seen */
	int failed;
};

static int merge_record(const char *text, size_t len, const char *origin, void *arg)
{
	struct rec_arg *r = arg;
	(void)len;
	/* other records (the manifest's) are not facts */
	static const char head[] = "{\"cachehot_access\":";
	if (strncmp(text, head, sizeof(head) - 1))
		return 0;
	r->n++;
	if (ch_access_merge_text(r->facts, text, origin)) {
		r->failed = 1;
		return 1;
	}
	return 0;
}

/* One input into facts: a facts file, or the records of an object or
 * archive. named: given on the command line (an object without facts is
 * then an error; found in a directory, it is skipped). -1 after an error
 * message. */
static int merge_input(ch_access_facts *facts, const char *path, int named)
{
	int kind = is_facts_file(path) ? CH_OBJ_NONE : ch_objsec_kind(path);
	struct rec_arg r = { facts, 0, 0 };
	char err[512];
	if (kind == CH_OBJ_NONE) {
		if (ch_access_merge_file(facts, path) == 0)
			return 0;
		fprintf(stderr, "cachehot: annotate: %s\n", ch_access_error(facts));
		return -1;
	}
	if (kind == CH_OBJ_THIN && named) {
		fprintf(stderr, "cachehot: annotate: %s: a thin archive holds no objects: name the "
			"build directory (or its objects)\n", path);
		return -1;
	}
	if (ch_objsec_read(path, merge_record, &r, err, sizeof(err)) < 0) {
		if (r.failed)
			fprintf(stderr, "cachehot: annotate: %s\n", ch_access_error(facts));
		else
			fprintf(stderr, "cachehot: annotate: %s\n", err);
		return -1;
	}
	if (!r.n && named) {
		fprintf(stderr, "cachehot: annotate: %s: no access facts in it (compiled without "
			"-fplugin-arg-cachehot-access, or with object-records=0)\n", path);
		return -1;
	}
	return 0;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int parse_num(const char *s, unsigned max, unsigned *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 0 || v > (long)max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* cachehot check --engine=plugin -p CCDB -A access=DIR [-j N], stdout
 * (findings of the unannotated tree) to /dev/null, stderr as is. A unit
 * that fails to compile (check's exit status 2) costs its own facts, not
 * every unit's: said, and the others are merged. */
static int run_build(const char *ccdb, const char *factdir, const char *jobs, int progress)
{
	char *dir = exe_dir(), *self = xasprintf("%s/cachehot", dir);
	char *acc = xasprintf("access=%s", factdir), *p = xasprintf("--compile-commands=%s", ccdb);
	struct strv av = {0};
	int status;
	pid_t pid;
	strv_push(&av, self);
	strv_push(&av, "check");
	strv_push(&av, "--engine=plugin");
	strv_push(&av, p);
	strv_push(&av, "-A");
	strv_push(&av, acc);
	strv_push(&av, "-A");
	strv_push(&av, "unmatched=ignore");
	strv_push(&av, "-A");
	strv_push(&av, "inline-addr=0");
	if (jobs) {
		strv_push(&av, "-j");
		strv_push(&av, jobs);
	}
	if (!progress)
		strv_push(&av, "--no-progress");
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execv(self, av.v);
		fprintf(stderr, "cachehot: annotate: cannot run %s: %s\n", self, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = -1;
	strv_free(&av);
	free(dir); free(self); free(acc); free(p);
	/* check exits 1 on findings: the build itself went fine */
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == EXIT_TROUBLE) {
		fprintf(stderr, "cachehot: annotate: some units of the access build failed (said "
			"above): merging the facts of the units that compiled\n");
		return 0;
	}
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		fprintf(stderr, "cachehot: annotate: the access build failed (cachehot check, status %d)\n",
			status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -1;
	}
	return 0;
}

/* A kernel tree's compile_commands.json, made by its own script into
 * tmpdir: "python3 SCRIPT -d DIR -o OUT [OBJ...]". NULL when DIR is no
 * kernel tree (no script) or the script failed (said so). */
static char *kernel_ccdb(const char *dir, const char *objlist, const char *tmpdir)
{
	static const char *const where[] = { "source/scripts/clang-tools/gen_compile_commands.py",
					     "scripts/clang-tools/gen_compile_commands.py" };
	char *script = NULL, *out, *text = NULL;
	struct strv av = {0};
	int status;
	pid_t pid;
	for (size_t i = 0; i < 2 && !script; i++) {
		char *p = xasprintf("%s/%s", dir, where[i]);
		if (access(p, R_OK) == 0)
			script = p;
		else
			free(p);
	}
	if (!script)
		return NULL;
	out = xasprintf("%s/compile_commands.json", tmpdir);
	strv_push(&av, "python3");
	strv_push(&av, script);
	strv_push(&av, "-d");
	strv_push(&av, dir);
	strv_push(&av, "-o");
	strv_push(&av, out);
	if (objlist) {
		if (!(text = read_file(objlist, NULL))) {
			fprintf(stderr, "cachehot: annotate: cannot read %s: %s\n", objlist, strerror(errno));
			goto fail;
		}
		for (char *o = strtok(text, "\n"); o; o = strtok(NULL, "\n")) {
			o += strspn(o, " \t");
			o[strcspn(o, "\r")] = 0;
			if (!*o || *o == '#')
				continue;
			if (o[0] != '/' && access(o, F_OK) != 0) {   /* relative to the tree */
				char *p = xasprintf("%s/%s", dir, o);
				strv_push(&av, p);
				free(p);
			} else {
				strv_push(&av, o);
			}
		}
	}
	pid = fork();
	if (pid == 0) {
		execvp("python3", av.v);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "cachehot: annotate: %s failed\n", script);
		goto fail;
	}
	free(script); free(text);
	strv_free(&av);
	return out;
fail:
	free(script); free(text); free(out);
	strv_free(&av);
	return NULL;
}

struct out_arg {
	ch_access_facts *facts;
	const struct ch_infer_opts *o;
};

static int write_cb(FILE *f, void *arg)
{
	struct out_arg *a = arg;
	ch_infer_sidecar(a->facts, a->o, f);
	return 0;
}

static int rm_tree_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st; (void)type; (void)ftw;
	remove(path);
	return 0;
}

int cmd_annotate(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "build", required_argument, 0, 'B' },
		{ "keep-facts", required_argument, 0, 'K' },
		{ "objects", required_argument, 0, 'O' },
		{ "only", required_argument, 0, 's' },
		{ "output", required_argument, 0, 'o' },
		{ "hot-rmw-fns", required_argument, 0, 1 },
		{ "hot-write-fns", required_argument, 0, 2 },
		{ "rm-read-fns", required_argument, 0, 3 },
		{ "rm-max-write-fns", required_argument, 0, 4 },
		{ "rm-ratio", required_argument, 0, 5 },
		{ "min-fields", required_argument, 0, 6 },
		{ "group-overlap", required_argument, 0, 7 },
		{ "init-fields", required_argument, 0, 8 },
		{ "hot-update-fns", required_argument, 0, 9 },
		{ "no-progress", no_argument, 0, 'n' },
		{ "slow", required_argument, 0, 'S' },
		{ "units", required_argument, 0, 'U' },
		{ "exclude-units", required_argument, 0, 'X' },
		{ "explain", required_argument, 0, 'E' },
		{ "profile", required_argument, 0, 'P' },
		{ "program", required_argument, 0, 11 },
		{ "min-share", required_argument, 0, 10 },
		{ "min-samples", required_argument, 0, 12 },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct ch_infer_opts o;
	struct ch_profile_opts po;
	struct strv profiles = {0}, programs = {0};
	const char *build = NULL, *keep = NULL, *output = NULL, *jobs = NULL, *objlist = NULL;
	const char *explain = NULL, *units = NULL, *xunits = NULL;
	char *tmpdir = NULL;
	int c, rc = EXIT_TROUBLE, progress = isatty(2) && !getenv("CI");
	ch_access_facts *facts = NULL;

	ch_infer_defaults(&o);
	ch_profile_defaults(&po);
	while ((c = getopt_long(argc, argv, "o:j:h", lo, NULL)) != -1) {
		unsigned *slot = NULL, max = 1000000;
		switch (c) {
		case 'B': build = optarg; break;
		case 'K': keep = optarg; break;
		case 'O': objlist = optarg; break;
		case 's': o.only = optarg; break;
		case 'o': output = optarg; break;
		case 'j': {
			unsigned j;
			if (parse_num(optarg, 256, &j) || !j)
				return die("-j needs a number of jobs from 1 to 256, not '%s'", optarg);
			jobs = optarg;
			break;
		}
		case 1: slot = &o.hot_rmw_fns; break;
		case 2: slot = &o.hot_write_fns; break;
		case 3: slot = &o.rm_read_fns; break;
		case 4: slot = &o.rm_max_write_fns; break;
		case 5: slot = &o.rm_ratio; break;
		case 6: slot = &o.min_fields; break;
		case 7: slot = &o.group_overlap; max = 100; break;
		case 8: slot = &o.init_fields; break;
		case 9: slot = &o.hot_update_fns; break;
		case 'n': progress = 0; break;
		case 'S': {
			regex_t re;
			if (regcomp(&re, optarg, REG_EXTENDED | REG_NOSUB))
				return die("--slow takes a function name or an extended regular expression, not '%s'",
					   optarg);
			regfree(&re);
			o.slow = optarg;
			break;
		}
		case 'U': case 'X': {
			regex_t re;
			if (regcomp(&re, optarg, REG_EXTENDED | REG_NOSUB))
				return die("--units/--exclude-units take an extended regular expression, not '%s'",
					   optarg);
			regfree(&re);
			if (c == 'U')
				units = optarg;
			else
				xunits = optarg;
			break;
		}
		case 'E':
			explain = optarg;
			if (!strchr(optarg, '.') || optarg[0] == '.' || !strchr(optarg, '.')[1])
				return die("--explain takes STRUCT.FIELD, not '%s'", optarg);
			break;
		case 'P': strv_push(&profiles, optarg); break;
		case 11: {
			char err[4200];
			if (program_units(optarg, &programs, err, sizeof(err))) {
				fprintf(stderr, "cachehot: annotate: %s\n", err);
				strv_free(&programs);
				return EXIT_TROUBLE;
			}
			break;
		}
		case 10: slot = &po.min_share; max = 1000; break;
		case 12: slot = &po.min_samples; break;
		case 'h': usage_annotate(stdout); return 0;
		default: usage_annotate(stderr); return EXIT_TROUBLE;
		}
		if (slot && parse_num(optarg, max, slot))
			return die(max == 100 ? "--group-overlap takes a percentage from 0 to 100, not '%s'"
					      : "thresholds are whole numbers, not '%s'", optarg);
	}
	if (o.hot_rmw_fns == 0 && o.hot_write_fns == 0)
		return die("%s", "--hot-rmw-fns and --hot-write-fns cannot both be 0 (every field would be hot)");
	if (objlist && !build)
		return die("--objects needs --build DIR (a kernel O= tree)%s", "");
	if (build) {
		struct stat st;
		char *ccdb = NULL;
		if (optind < argc)
			return die("--build takes no other inputs ('%s')", argv[optind]);
		if (stat(build, &st) != 0)
			return die("no such build directory or compile database: '%s'", build);
		if (keep) {
			struct stat kst;   /* st stays the build's: FILE.json or DIR */
			mkdir(keep, 0755);
			if (stat(keep, &kst) != 0 || !S_ISDIR(kst.st_mode))
				return die("--keep-facts: cannot make directory '%s'", keep);
			tmpdir = realpath(keep, NULL);
			/* a directory used before: the previous build's facts are
			 * no part of this one */
			if (tmpdir)
				clear_old_facts(tmpdir);
		} else {
			const char *t = getenv("TMPDIR");
			char *tmpl = xasprintf("%s/cachehot-annotate.XXXXXX", t && *t ? t : "/tmp");
			tmpdir = mkdtemp(tmpl) ? tmpl : (free(tmpl), NULL);
		}
		if (!tmpdir)
			return die("cannot make a directory for the access facts%s", "");
		if (!S_ISDIR(st.st_mode)) {
			ccdb = xstrdup(build);
		} else {
			ccdb = xasprintf("%s/compile_commands.json", build);
			if (objlist || access(ccdb, R_OK) != 0) {
				char *k = kernel_ccdb(build, objlist, tmpdir);
				if (k) {
					free(ccdb);
					ccdb = k;
				} else if (objlist) {
					fprintf(stderr, "cachehot: annotate: --objects: %s is not a kernel tree "
						"(no scripts/clang-tools/gen_compile_commands.py)\n", build);
					free(ccdb);
					goto out;
				}
			}
		}
		if (access(ccdb, R_OK) != 0) {
			fprintf(stderr, "cachehot: annotate: no %s (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; "
				"make: bear -- make; kernel: make compile_commands.json, or build with "
				"KCFLAGS=-fplugin-arg-cachehot-access=DIR and name DIR)\n", ccdb);
			free(ccdb);
			goto out;
		}
		if (run_build(ccdb, tmpdir, jobs, progress)) {
			free(ccdb);
			goto out;
		}
		free(ccdb);
		{
			static const char *const facts_only[] = { ".access.json", NULL };
			char **v;
			size_t n = ch_find_files(tmpdir, facts_only, &v);
			for (size_t i = 0; i < n; i++) {
				strv_push(&found, v[i]);
				free(v[i]);
			}
			free(v);
		}
		if (!found.n) {
			fprintf(stderr, "cachehot: annotate: the build wrote no access facts\n");
			goto out;
		}
	} else {
		if (optind >= argc)
			return die("%s", "nothing to merge: name ACCESS.json files or directories, or --build DIR");
		for (int i = optind; i < argc; i++) {
			struct stat st;
			size_t before = found.n;
			if (stat(argv[i], &st) != 0) {
				fprintf(stderr, "cachehot: annotate: no such file: '%s'\n", argv[i]);
				goto out;
			}
			if (S_ISDIR(st.st_mode)) {
				if (!find_inputs(argv[i]) || found.n == before) {
					fprintf(stderr, "cachehot: annotate: no *.access.json, object or "
						"archive in '%s'\n", argv[i]);
					goto out;
				}
			} else {
				strv_push(&found, argv[i]);
				strv_push(&named_files, argv[i]);
			}
		}
	}
	/* one order whatever the file system lists: the merge is deterministic */
	qsort(found.v, found.n, sizeof(*found.v), cmp_strp);
	facts = ch_access_new(NULL);
	ch_access_set_units(facts, units, xunits);
	if (programs.n)
		ch_access_set_program_units(facts, (const char *const *)programs.v, programs.n);
	for (size_t i = 0; i < found.n; i++) {
		if (progress) {
			fprintf(stderr, "\r\033[K[%zu/%zu] merging %s", i + 1, found.n, found.v[i]);
			fflush(stderr);
		}
		if (merge_input(facts, found.v[i], is_named(found.v[i])) < 0)
			goto out;
	}
	if (!ch_access_units(facts)) {
		if (progress)
			fputs("\r\033[K", stderr);
		fprintf(stderr, "cachehot: annotate: no access facts in the inputs (the objects were "
			"compiled without -fplugin-arg-cachehot-access)\n");
		goto out;
	}
	{
		size_t conflicts, rep = ch_access_repeats(facts, &conflicts);
		if (conflicts)
			fprintf(stderr, "%scachehot: annotate: %zu of %zu units read more than once differ "
				"(a stale object or facts file beside a newer one?): the first by path "
				"name was used\n", progress ? "\r\033[K" : "", conflicts, rep);
	}
	if (progress)
		fputs("\r\033[K", stderr);
	if (profiles.n) {
		o.profile = ch_profile_new();
		o.profile_opts = &po;
		for (size_t i = 0; i < profiles.n; i++)
			if (ch_profile_merge_file(o.profile, profiles.v[i])) {
				fprintf(stderr, "cachehot: annotate: %s\n", ch_profile_error(o.profile));
				goto out;
			}
	}
	if (explain) {
		rc = ch_infer_explain(facts, &o, explain, stdout) == 0 ? 0 : 1;
		goto out;
	}
	{
		struct out_arg a = { facts, &o };
		if (output) {
			if (write_atomic(output, write_cb, &a) < 0)
				goto out;
		} else {
			ch_infer_sidecar(facts, &o, stdout);
			if (fflush(stdout) != 0)
				goto out;
		}
	}
	rc = 0;
out:
	if (tmpdir && !keep)
		nftw(tmpdir, rm_tree_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(tmpdir);
	ch_access_free(facts);
	ch_profile_free(o.profile);
	strv_free(&profiles);
	strv_free(&programs);
	strv_free(&found);
	strv_free(&named_files);
	return rc;
}
