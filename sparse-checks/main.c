// SPDX-License-Identifier: GPL-2.0
/*
 * main.c -- bin/cachehot-sparse: stock sparse plus the cachehot checks.
 *
 * There is no main() here: the binary links sparse.o, built unmodified from
 * Debian's sparse source package, so every argument sparse accepts is
 * accepted with the same meaning and every sparse warning is printed as
 * stock sparse prints it. The linker option --wrap (see rules.mk) routes
 * six libsparse entry points through the functions below (and a seventh,
 * lookup_symbol(), through attrs.c, for attributes on labels):
 *
 *   sparse_initialize()  strips and parses our own -fcachehot-* options,
 *                        creates the core context, loads sidecar files;
 *   init_builtins()      registers the cachehot attributes before any input
 *                        (also "-include" files) is read, so that
 *                        __has_attribute(cacheline_hot) is true everywhere;
 *   end_block_scope(), end_function_scope()
 *                        keep the structs defined inside function bodies;
 *   clear_token_alloc()  called by sparse() between parsing a file and
 *                        freeing its tokens: read SMP_CACHE_BYTES etc. now;
 *   sparse()             after each input file is evaluated: judge its
 *                        structs (core/), then the inline-addr check.
 *
 * Our options, in sparse's -fNAME=VALUE style, are listed once, in
 * sparse_options below (--help, the unknown-option error; tests/registry
 * checks docs/sparse.rst and cachehot-sparse(1) against --help).
 * The same keys as the GCC plugin's -fplugin-arg-cachehot-KEY=VAL.
 * A bad option or sidecar: "cachehot-sparse: error: ..." on stderr, exit 2
 * (usage or tool error, as every cachehot tool). Findings leave the exit
 * status to sparse (0 unless -Wsparse-error): make C=1 runs it on every
 * file and stops at a nonzero status. --help and --version are ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib.h"
#include "symbol.h"
#include "scope.h"
#include "target.h"

#include "cachehot-sparse.h"


struct symbol_list *__real_sparse_initialize(int argc, char **argv, struct string_list **filelist);
struct symbol_list *__wrap_sparse_initialize(int argc, char **argv, struct string_list **filelist);
void __real_init_builtins(int stream);
void __wrap_init_builtins(int stream);
struct symbol_list *__real_sparse(char *filename);
void __real_end_block_scope(void);
void __wrap_end_block_scope(void);
void __real_end_function_scope(void);
void __wrap_end_function_scope(void);
void __real_clear_token_alloc(void);
void __wrap_clear_token_alloc(void);
struct symbol_list *__wrap_sparse(char *filename);

/* The last input file, whose name a records directory's file takes. */
static const char *records_unit;

/* findings=PATH: every file's records, at exit (one file of them), or, for
 * a directory, each file's after it (sparse takes several inputs). */
static void write_records(void)
{
	if (ch_opts.findings && ch_records_write(ch_sparse_ctx, ch_opts.findings, records_unit)) {
		fprintf(stderr, "cachehot-sparse: error: %s\n", ch_ctx_error(ch_sparse_ctx));
		_exit(2);
	}
}

/* An output (the manifest) that could not be written: the files after it
 * are still checked, and the run ends with exit status 2, not sparse's 0. */
static int output_failed;

static void exit_on_output_failure(void)
{
	if (output_failed)
		_exit(2);
}

static void opt_die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "cachehot-sparse: error: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(2);
}

/* Every -fcachehot-KEY[=VALUE], the one list. */
static const struct ch_option sparse_options[] = {
	{ "annotations", "FILE", "sidecar STRUCT.FIELD CLASS[:GROUP] lines (repeatable)" },
	{ "line-size", "BYTES", "cache line size (default SMP_CACHE_BYTES of the file, else 64)" },
	{ "predict", "BYTES", "also check at this larger line size" },
	{ "severity", "note|warning|error", "severity of findings (default warning)" },
	{ "manifest", "PATH", "merge a JSON manifest of checked structs into PATH" },
	{ "unmatched", "note|ignore", "sidecar entries that matched no struct in the file (default note)" },
	{ "inline-addr", "0|1", "the inline-addr check (default 0: sparse sees the address taken, not the copy)" },
	{ "inline-notes", "0|1", "inline-addr findings are notes (default 1)" },
	{ "smp", "0|1", "default: from CONFIG_SMP in kernel builds" },
	{ "layout", "0|1", "the layout checks (default 1)" },
	{ "findings", "PATH|-", "write the findings as records (JSON lines) for cachehot check; -: stderr" },
	{ "sidecar", "FILE", "the same as annotations" },
	{ NULL, NULL, NULL }
};

/* --help and --version: cachehot-sparse's, before sparse sees them. */
static void help_or_version(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			printf("cachehot-sparse %s (sparse %s)\n", CH_VERSION, sparse_version);
			exit(0);
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			ch_ctx *h = ch_ctx_new();
			printf("usage: cachehot-sparse [SPARSE OPTIONS] [-fcachehot-KEY=VALUE...] FILE.c...\n"
			       "  sparse with the cachehot checks (docs/sparse.rst); every option of\n"
			       "  sparse(1) is taken. cachehot's:\n%s"
			       "  --version, --help\n"
			       "exit status: sparse's (0 with findings, unless -Wsparse-error); 2 on a bad\n"
			       "cachehot option or sidecar\n",
			       ch_options_help(h, sparse_options, "-fcachehot-", 36));
			ch_ctx_free(h);
			exit(0);
		}
	}
}

static unsigned parse_bytes(const char *key, const char *val)
{
	char *end;
	unsigned long v;
	if (!val || !*val)
		opt_die("-fcachehot-%s needs a value in bytes%s", key, "");
	(void)end; (void)v;
	{
		unsigned out;
		if (ch_line_size_parse(val, &out))   /* the range every engine takes */
			opt_die("'-fcachehot-%s=%s': expected a power of two from 8 to 4096 bytes",
				key, val);
		return out;
	}
}

static int parse_bool(const char *key, const char *val)
{
	if (!val || !strcmp(val, "1") || !strcmp(val, "yes") || !strcmp(val, "on"))
		return 1;
	if (!strcmp(val, "0") || !strcmp(val, "no") || !strcmp(val, "off"))
		return 0;
	opt_die("-fcachehot-%s=%s: expected 0 or 1", key, val);
	return 0;
}

/* One -fcachehot-KEY[=VAL] option (arg points after "-fcachehot-"). */
static void parse_opt(const char *arg)
{
	char key[64];
	const char *eq = strchr(arg, '=');
	const char *val = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n == 0 || n >= sizeof(key))
		opt_die("bad option -fcachehot-%s%s", arg, "");
	memcpy(key, arg, n);
	key[n] = 0;
	if (!ch_option_find(sparse_options, key)) {
		opt_die("unknown option -fcachehot-%s (known: %s)", arg,
			ch_options_known(ch_sparse_ctx, sparse_options));
	} else if (!strcmp(key, "annotations") || !strcmp(key, "sidecar")) {
		if (!val || !*val)
			opt_die("-fcachehot-%s needs a file name%s", key, "");
		if (ch_sidecar_load_cached(ch_sparse_ctx, val, NULL))
			opt_die("%s%s", ch_ctx_error(ch_sparse_ctx), "");
	} else if (!strcmp(key, "line-size") || !strcmp(key, "predict")) {
		const char *problem;
		*(!strcmp(key, "predict") ? &ch_opts.predict : &ch_opts.line_size) = parse_bytes(key, val);
		if ((problem = ch_predict_problem(ch_sparse_ctx, ch_opts.line_size, ch_opts.predict)))
			opt_die("%s%s", problem, "");
	} else if (!strcmp(key, "severity")) {
		if (ch_severity_parse(val, &ch_opts.severity))
			opt_die("-fcachehot-severity=%s: expected note, warning or error%s",
				val ? val : "", "");
	} else if (!strcmp(key, "smp")) {
		ch_opts.smp = parse_bool(key, val);
	} else if (!strcmp(key, "inline-addr")) {
		ch_opts.inline_addr = parse_bool(key, val);
	} else if (!strcmp(key, "inline-notes")) {
		ch_opts.inline_notes = parse_bool(key, val);
	} else if (!strcmp(key, "unmatched")) {
		if (val && !strcmp(val, "note"))
			ch_opts.unmatched = 1;
		else if (val && !strcmp(val, "ignore"))
			ch_opts.unmatched = 0;
		else
			opt_die("-fcachehot-unmatched takes note or ignore%s%s", "", "");
	} else if (!strcmp(key, "layout")) {
		ch_opts.layout = parse_bool(key, val);
	} else if (!strcmp(key, "manifest")) {
		if (!val || !*val)
			opt_die("-fcachehot-%s needs a file name%s", key, "");
		ch_opts.manifest = val;
	} else if (!strcmp(key, "findings")) {
		if (!val || !*val)
			opt_die("-fcachehot-%s needs a file or directory name, or - (stderr)%s", key, "");
		ch_opts.findings = val;
	} else {
		opt_die("option -fcachehot-%s is listed in sparse_options but not handled%s",
			arg, "");
	}
}

/* "#pragma cachehot LINE" in a header given with -include: sparse drops
 * pragmas, so the lines are read here from the header's text, as the
 * plugin reads them from the preprocessor (docs/plugin.rst): the same
 * sidecar line, named by the header's FILE:LINE. Pragmas in headers that
 * are only #included are not seen (docs/plugin.rst says so). */
static void include_pragmas(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *p, *c;
	size_t cap = 0;
	unsigned lineno = 0;
	if (!f)
		return;   /* sparse itself says the file is missing */
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		p = line + strspn(line, " \t");
		if (*p != '#')
			continue;
		p += 1 + strspn(p + 1, " \t");
		if (strncmp(p, "pragma", 6) || (p[6] != ' ' && p[6] != '\t'))
			continue;
		p += 6 + strspn(p + 6, " \t");
		if (strncmp(p, "cachehot", 8) || (p[8] != ' ' && p[8] != '\t'))
			continue;
		p += 8;
		while ((c = strstr(p, "/*")) != NULL) {   /* C comments */
			char *e = strstr(c + 2, "*/");
			if (!e) {
				*c = 0;
				break;
			}
			memmove(c, e + 2, strlen(e + 2) + 1);
		}
		if (ch_sidecar_load_line(ch_sparse_ctx, strdup(path), lineno, p))
			die("cachehot-sparse: %s", ch_ctx_error(ch_sparse_ctx));
	}
	free(line);
	fclose(f);
}

struct symbol_list *__wrap_sparse_initialize(int argc, char **argv, struct string_list **filelist)
{
	char **nargv = calloc((size_t)argc + 1, sizeof(char *));
	struct symbol_list *list;
	int i, n = 0;

	if (!nargv)
		die("cachehot-sparse: out of memory");
	help_or_version(argc, argv);
	ch_sparse_ctx = ch_ctx_new();
	/* a big struct's fix searched by one unit of a build, as the plugin
	 * does (core/fix-cache.c): struct pglist_data's was 4.5 M of
	 * mm/mmzone.c's check in every unit that includes mmzone.h */
	ch_fix_cache_enable(ch_sparse_ctx, NULL);
	for (i = 0; i < argc; i++) {
		if (i > 0 && !strncmp(argv[i], "-fcachehot-", 11)) {
			parse_opt(argv[i] + 11);
			continue;
		}
		if (i > 0 && !strcmp(argv[i], "-include") && i + 1 < argc)
			include_pragmas(argv[i + 1]);
		nargv[n++] = argv[i];
	}
	nargv[n] = NULL;
	if (ch_opts.manifest) {
		ch_manifest_use(ch_sparse_ctx, ch_opts.manifest);
		atexit(exit_on_output_failure);
	}
	if (ch_opts.findings) {
		ch_records_begin(ch_sparse_ctx, "sparse");
		atexit(write_records);
	}
	ch_sidecar_names_init();
	/* _Bool as GCC stores it: one byte. With sparse's default of one bit
	 * its lay-out put every '_Bool x : 1' bit-field in a byte of its own
	 *; sparse's own compiler (compile.c) sets the same. Read by
	 * init_ctypes() inside sparse_initialize(). */
	bits_in_bool = 8;
	ch_enum_options(n, nargv);
	list = __real_sparse_initialize(n, nargv, filelist);
	/* structs from "-include" files live in the builtin scope */
	if (*filelist) {
		struct ch_config cfg;
		ch_file_config(&cfg);
		if (ch_opts.layout) {
			ch_check_scope(1, &cfg);
			ch_check_per_thread(file_scope->symbols, list, &cfg);
		}
	}
	return list;
}

void __wrap_init_builtins(int stream)
{
	__real_init_builtins(stream);
	ch_attr_register();
	ch_attr_register_marks();
	ch_enum_register();
}

static void note_scope_for_variables(struct symbol_list *syms, int block);

/* A sidecar entry's report, at the entry (file:line) in its record. */
static void sidecar_note(const char *msg, const char *file, unsigned line, const char *entry,
			 const char *ident, const char *hint)
{
	struct position none;
	struct ch_record r;
	memset(&none, 0, sizeof(none));
	ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, msg);
	ch_record_entry(&r, file, line, entry, ident, hint);
	ch_sparse_report(none, &r);
}

static void list_unmatched(const char *file, unsigned line, const char *entry, void *arg)
{
	(void)arg;
	sidecar_note(ch_msg_sidecar_unmatched(ch_sparse_ctx, entry, file, line), file, line, entry,
		     "unmatched", NULL);
}

/* Struct definitions inside function bodies live in block scopes that
 * sparse ends (unbinds) while parsing: note them first. */
void __wrap_end_block_scope(void)
{
	if (block_scope)
		note_scope_for_variables(block_scope->symbols, 1);
	ch_note_block_scope(block_scope);
	ch_note_block_statics(block_scope);
	__real_end_block_scope();
}

void __wrap_end_function_scope(void)
{
	if (block_scope)
		note_scope_for_variables(block_scope->symbols, 1);
	ch_attr_end_function();
	ch_note_block_scope(block_scope);
	ch_note_block_statics(block_scope);
	__real_end_function_scope();
}

/* The config of the file being checked, taken just before sparse frees the
 * file's tokens (macro bodies among them). */
static struct ch_config file_cfg;

void __wrap_clear_token_alloc(void)
{
	ch_file_config(&file_cfg);
	__real_clear_token_alloc();
}

/* Sidecar "VARIABLE CLASS" lines naming a variable this file defines or
 * declares at file scope: marked matched (an attribute, if any, gives the
 * class), and into the manifest's "globals", as the plugin records them,
 * unless an attribute gave the variable its class. */
static void record_sidecar_globals(struct symbol_list *list)
{
	struct symbol *sym;
	if (!ch_sidecar_global_count(ch_sparse_ctx))
		return;
	FOR_EACH_PTR(list, sym) {
		struct symbol *bt = sym->ctype.base_type;
		const char *group = NULL;
		enum ch_class cls;
		struct ch_loc l;
		if (sym->type != SYM_NODE || !sym->ident || (bt && bt->type == SYM_FN) ||
		    (sym->ctype.modifiers & MOD_USERTYPE))
			continue;
		cls = ch_sidecar_global_class(ch_sparse_ctx, show_ident(sym->ident), &group);
		if (cls == CH_CLASS_NONE || !ch_opts.manifest || ch_attr_var_annotated(sym->ident))
			continue;
		memset(&l, 0, sizeof(l));
		l.file = stream_name(sym->pos.stream);
		l.line = sym->pos.line;
		l.col = sym->pos.pos;
		ch_manifest_add_global(ch_sparse_ctx, show_ident(sym->ident), cls, group, l, "sparse");
	} END_FOR_EACH_PTR(sym);
}

/* Every member name of tag's struct (anonymous members' names as its own)
 * to the core, for the "did you mean 'TAG.MEMBER'?" hint of a variable
 * entry that matched nothing (ch_sidecar_hint_member); the plugin does the
 * same for every struct it sees. */
static void hint_members(const char *tag, struct symbol *type, int depth)
{
	struct symbol *mem;
	if (!type || depth > 16)
		return;
	FOR_EACH_PTR(type->symbol_list, mem) {
		struct symbol *bt = mem->ctype.base_type;
		if (mem->ident)
			ch_sidecar_hint_member(ch_sparse_ctx, tag, show_ident(mem->ident));
		else if (bt && (bt->type == SYM_STRUCT || bt->type == SYM_UNION))
			hint_members(tag, bt, depth + 1);
	} END_FOR_EACH_PTR(mem);
}

/* The struct tags of a scope (hints), and, in a block, its static and
 * extern variables (they match variable entries as file-scope ones do). */
static void note_scope_for_variables(struct symbol_list *syms, int block)
{
	struct symbol *sym;
	if (!ch_sidecar_global_count(ch_sparse_ctx))
		return;
	FOR_EACH_PTR(syms, sym) {
		if (sym->namespace == NS_STRUCT && sym->ident && sym->symbol_list &&
		    (sym->type == SYM_STRUCT || sym->type == SYM_UNION) &&
		    ch_sidecar_hint_tag(ch_sparse_ctx, show_ident(sym->ident)))
			hint_members(show_ident(sym->ident), sym, 0);
		else if (block && sym->namespace == NS_SYMBOL && sym->type == SYM_NODE &&
			 sym->ident && (sym->ctype.modifiers & (MOD_STATIC | MOD_EXTERN)) &&
			 !(sym->ctype.base_type && sym->ctype.base_type->type == SYM_FN))
			ch_sidecar_global_class(ch_sparse_ctx, show_ident(sym->ident), NULL);
	} END_FOR_EACH_PTR(sym);
}

/* A variable entry that named no variable of this file: a note (it may be
 * defined in another file; cachehot check decides over the whole run). */
static void list_unmatched_var(const char *name, enum ch_class cls, const char *group,
			       const char *file, unsigned line, int matched, void *arg)
{
	(void)arg;
	if (!matched) {
		const char *entry = ch_sidecar_global_entry(ch_sparse_ctx, name, cls, group);
		const char *hint = ch_sidecar_global_hint(ch_sparse_ctx, name);
		sidecar_note(ch_msg_sidecar_no_variable_unit(ch_sparse_ctx, entry, file, line, hint),
			     file, line, entry, "unmatched-variable", hint);
	}
}

struct symbol_list *__wrap_sparse(char *filename)
{
	struct symbol_list *list = __real_sparse(filename);

	record_sidecar_globals(list);
	note_scope_for_variables(file_scope->symbols, 0);

	if (ch_opts.layout) {
		ch_check_scope(0, &file_cfg);
		ch_check_per_thread(file_scope->symbols, list, &file_cfg);
	}
	if (ch_opts.inline_addr)
		ch_check_inline_addr(&file_cfg);
	if (ch_opts.unmatched && !has_error) {
		ch_sidecar_unmatched(ch_sparse_ctx, list_unmatched, NULL);
		if (ch_sidecar_global_count(ch_sparse_ctx))
			ch_sidecar_globals(ch_sparse_ctx, list_unmatched_var, NULL);
	}
	ch_attr_reset();
	if (ch_opts.manifest && ch_manifest_write(ch_sparse_ctx, ch_opts.manifest)) {
		fprintf(stderr, "cachehot-sparse: error: %s\n", ch_ctx_error(ch_sparse_ctx));
		output_failed = 1;
	}
	records_unit = filename;
	if (ch_opts.findings) {
		struct stat st;
		if (stat(ch_opts.findings, &st) == 0 && S_ISDIR(st.st_mode))
			write_records();
	}
	return list;
}
