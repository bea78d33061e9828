// SPDX-License-Identifier: GPL-2.0
/*
 * engines.c -- "cachehot check" running its engines (check.h): the GCC
 * plugin, cachehot-sparse, spatch with the Coccinelle rules and
 * cachehot-layout on each unit, -j N units at once in worker processes,
 * each engine's records (spatch's: record lines in its output) collected
 * into the findings;
 * the scratch directory and interruption.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "../core/cachehot-core.h"

struct check_opts opt;
struct findings all;

int die_usage(const char *fmt, const char *arg)
{
	fputs("cachehot: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n(try 'cachehot check --help')\n", stderr);
	exit(EXIT_TROUBLE);
}

/* ---- locating the engines ---------------------------------------------- */

int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}
int is_dir(const char *p)
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

char *tool_plugin(void)
{
	static const char *const c[] = { "../plugin/cachehot.so", "../lib/cachehot/cachehot.so", NULL };
	return find_tool("CACHEHOT_PLUGIN", c, 0);
}
char *tool_bin(const char *env, const char *name)
{
	const char *c[] = { name, NULL };
	return find_tool(env, c, 0);
}
char *tool_cocci_dir(void)
{
	static const char *const c[] = { "../cocci", "../share/cachehot/cocci", NULL };
	return find_tool("CACHEHOT_COCCI_DIR", c, 1);
}
const char *tool_cc(void)
{
	const char *e = getenv("CACHEHOT_CC");
	return e && *e ? e : "gcc";
}
const char *tool_spatch(void)
{
	const char *e = getenv("CACHEHOT_SPATCH");
	return e && *e ? e : "spatch";
}


/* ---- running the engines ------------------------------------------------ */

unsigned jobs_done, jobs_total;

void progress(const char *engine, const char *what)
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
 * write; NULL for spatch, whose record lines, -D cachehot_records, come
 * among its output); returns 1 if it ran fine (status 0, or nonzero with
 * cachehot findings and no error line beyond them: -Werror,
 * severity=error), else 0. */
static int collect(const char *engine, int status, const char *out, char *const argv[],
		   const char *dir, const char *records)
{
	int nfind = 0, other_errors = 0, error_lines = 0;
	size_t before = all.n;
	if (opt.verbose) {
		progress(NULL, NULL);
		fprintf(stderr, "cachehot: [%s]", engine);
		for (int i = 0; argv[i]; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, " -> %d\n%s", status, out);
	}
	if (records && status >= 0 && status < 128) {
		long n = access(records, F_OK) == 0 ? findings_from_records(&all, records, dir) : -2;
		if (n == -2 && status == 0) {
			progress(NULL, NULL);
			fprintf(stderr, "cachehot: engine %s wrote no records (%s): is it from "
				"another cachehot?\n", engine, records);
			opt.trouble = 1;
		}
		if (n < 0 && status == 0)
			opt.trouble = 1;
	} else if (!records && status >= 0 && status < 128) {
		FILE *f = fmemopen((void *)out, strlen(out), "r");
		if (!f || findings_from_text(&all, f, engine, dir, NULL) < 0)
			opt.trouble = 1;
		if (f)
			fclose(f);
	}
	for (size_t i = before; i < all.n; i++)
		nfind += all.v[i].sev >= SEV_WARNING;
	for (const char *s = out; *s; ) {
		const char *e = strchr(s, '\n');
		char *l = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		if (!strncmp(l, "{\"cachehot_finding\"", 19))
			;   /* a record line (read above) */
		else if (strstr(l, "error: ") || strstr(l, "Error"))
			error_lines++;
		else if (!strncmp(l, "cachehot-layout: warning: ", 26)) {
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

/* "-c SRC -o OBJ": compile u's source to obj. */
static void push_compile(struct strv *av, const struct unit *u, const char *obj)
{
	strv_push(av, "-c");
	strv_push(av, u->src);
	strv_push(av, "-o");
	strv_push(av, obj);
}

static int run_one(const char *engine, struct strv *av, const char *dir, const char *records)
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
		ok = collect(engine, st, out, av->v, dir, records);
	if (records)
		unlink(records);
	free(out);
	return ok;
}

char *tmpdir;
pid_t main_pid;

/* Remove the scratch directory: objects, manifests (and the core's
 * manifest lock files), worker results. */
void remove_tmpdir(void)
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

void on_signal(int sig)
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
	push_compile(&av, u, obj);
	{
		size_t first = all.n;
		run_one("plugin", &av, u->dir, rec);
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
	run_one("sparse", &av, u->dir, rec);
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

/* Each rule in report mode with its records asked (-D cachehot_records:
 * a record line a report, the rule's check id "cachehot-RULE" or its own). */
static void run_cocci(const struct unit *u, const struct strv *rules)
{
	for (size_t r = 0; r < rules->n; r++) {
		struct strv av = {0};
		strv_push(&av, tool_spatch());
		strv_push(&av, "-D"); strv_push(&av, "report");
		strv_push(&av, "-D"); strv_push(&av, "cachehot_records");
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
		run_one("cocci", &av, u->dir, NULL);
		strv_free(&av);
	}
}

void run_layout_obj(const char *obj, const char *dir, const char *layout,
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
	run_one("layout", &av, dir, rec);
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
	push_compile(&av, u, obj);
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

unsigned long count_lines(const struct unit *u)
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

int parse_engines(const char *list)
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

void add_plugin_arg(const char *key, const char *val)
{
	char *a = val ? xasprintf("%s=%s", key, val) : xstrdup(key);
	strv_push(&opt.plugin_args, a);
	free(a);
}


/* Every chosen engine on one unit; show_progress: per engine. */
void run_unit(const struct unit *u, const struct engines_found *ef, int show_progress)
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
		fprintf(f, "%s\x1f%s\x1f%u\x1f%u\x1f%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s"
			"\x1f%s\x1f%s\n", x->file, x->abspath, x->line, x->col, (int)x->sev, x->check,
			x->message, x->engines, OR0(x->scope), OR0(x->field),
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
		char *fld[13];
		int n = 0;
		for (char *p = l; n < 13; n++) {
			fld[n] = p;
			p = strchr(p, '\x1f');
			if (!p) { n++; break; }
			*p++ = 0;
		}
		if (n != 13)
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
#define ORNULL(s) (*(s) ? xstrdup(s) : NULL)
		f.scope = ORNULL(fld[8]);
		f.field = ORNULL(fld[9]);
		f.other = ORNULL(fld[10]);
		f.lines = ORNULL(fld[11]);
		f.ident = ORNULL(fld[12]);
#undef ORNULL
		findings_add(&all, &f);
	}
	free(text);
}

void run_units_parallel(const struct engines_found *ef)
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
