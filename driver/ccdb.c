// SPDX-License-Identifier: GPL-2.0
/*
 * ccdb.c -- the units of a compile_commands.json ("cachehot check -p").
 *
 * Every shape the common generators write is read (JSON Compilation
 * Database, https://clang.llvm.org/docs/JSONCompilationDatabase.html):
 * "arguments" (bear, CMake >= 3.x with some generators) or "command" (CMake
 * Makefiles/Ninja, the kernel's gen_compile_commands.py), split like a shell
 * would (wordexp, no command substitution); "file" absolute or relative to
 * "directory"; "directory" absolute or relative to the database's own
 * folder; the source named on the command line in any spelling (relative,
 * absolute, "./x.c"); "-c", "-o X" and dependency-file flags present or not;
 * a compiler wrapper (ccache, distcc) in front.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <wordexp.h>
#include "driver.h"

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

/* Options whose value is the next argument (GCC's spelling). */
static int takes_value(const char *a)
{
	static const char *const v[] = { "-o", "-MF", "-MT", "-MQ", "-I", "-D", "-U", "-include",
		"-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix", "-iwithprefix",
		"-isysroot", "-x", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-L", "-l",
		"-aux-info", "--param", "-G", "-T", "-u", "-z", NULL };
	for (int i = 0; v[i]; i++)
		if (!strcmp(a, v[i]))
			return 1;
	return 0;
}

static int is_source_name(const char *a)
{
	return ends_with(a, ".c") || ends_with(a, ".i") || ends_with(a, ".s") || ends_with(a, ".S") ||
	       ends_with(a, ".o");
}

static int is_wrapper(const char *a)
{
	const char *b = strrchr(a, '/');
	b = b ? b + 1 : a;
	return !strcmp(b, "ccache") || !strcmp(b, "distcc") || !strcmp(b, "icecc") ||
	       !strcmp(b, "sccache");
}

/* Flags of a compile command worth keeping: everything but the compiler
 * (and a wrapper before it), -c, -o X, dependency-file flags, the source
 * and any other input file. */
static void keep_flags(char **argv, size_t argc, struct strv *out)
{
	size_t i = 1;
	if (argc > 1 && is_wrapper(argv[0]))
		i = 2;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-w"))   /* would hide every finding (ccdb_load says so) */
			continue;
		if (!strcmp(a, "-c") || !strcmp(a, "-MD") || !strcmp(a, "-MMD") ||
		    !strcmp(a, "-MP") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
		    !strncmp(a, "-Wp,-MD,", 8) || !strncmp(a, "-Wp,-MMD,", 9))
			continue;
		if (!strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ")) {
			i++;
			continue;
		}
		if (!strncmp(a, "-o", 2) || !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) ||
		    !strncmp(a, "-MQ", 3))
			continue;
		/* a build made with cachehot already (in-tree CONFIG_GCC_PLUGIN_CACHEHOT,
		 * KCFLAGS): the engines get their plugin and arguments from us */
		if (!strncmp(a, "-fplugin-arg-cachehot-", 22))
			continue;
		if (!strncmp(a, "-fplugin=", 9)) {
			const char *b = strrchr(a, '/');
			if (!strncmp(b ? b + 1 : a + 9, "cachehot", 8))
				continue;
		}
		if (takes_value(a) && i + 1 < argc) {
			strv_push(out, a);
			strv_push(out, argv[++i]);
			continue;
		}
		/* the source (in whatever spelling) and other inputs: we name ours */
		if (a[0] != '-' && is_source_name(a))
			continue;
		strv_push(out, a);
	}
}

int ccdb_load(const char *path, const struct strv *only,
	      void (*add)(const char *src, const char *dir, const struct strv *flags))
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *e;
	char *dbdir = NULL, *slash;
	size_t i;
	int rc = -1;
	if (!root) {
		fprintf(stderr, "cachehot: %s:%d: %s\n", path, jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_array(root)) {
		fprintf(stderr, "cachehot: %s: not a compile_commands.json (expected an array)\n", path);
		json_decref(root);
		return -1;
	}
	/* a relative "directory" is taken from the database's own folder */
	{
		char *abs = canon_path(path);
		dbdir = abs ? abs : xstrdup(path);
		slash = strrchr(dbdir, '/');
		if (slash)
			*(slash == dbdir ? slash + 1 : slash) = 0;
		else
			strcpy(dbdir, ".");
	}
	/* the files named on the command line, canonical */
	struct strv want = {0};
	for (size_t k = 0; only && k < only->n; k++) {
		char *o = canon_path(only->v[k]);
		strv_push(&want, o ? o : only->v[k]);
		free(o);
	}
	json_array_foreach(root, i, e) {
		const char *file = json_string_value(json_object_get(e, "file"));
		const char *d = json_string_value(json_object_get(e, "directory"));
		json_t *args = json_object_get(e, "arguments");
		const char *cmd = json_string_value(json_object_get(e, "command"));
		struct strv av = {0}, flags = {0};
		if (!file || !d || (!json_is_array(args) && !cmd)) {
			fprintf(stderr, "cachehot: %s: entry %zu lacks file, directory or "
				"arguments/command\n", path, i);
			goto out;
		}
		if (!ends_with(file, ".c"))
			continue;
		char *dir = d[0] == '/' ? xstrdup(d) : xasprintf("%s/%s", dbdir, d);
		char *full = file[0] == '/' ? xstrdup(file) : xasprintf("%s/%s", dir, file);
		char *abs = canon_path(full);
		if (want.n) {
			int hit = 0;
			for (size_t k = 0; k < want.n && !hit; k++)
				hit = abs && !strcmp(want.v[k], abs);
			if (!hit) {
				free(dir); free(full); free(abs);
				continue;
			}
		}
		if (json_is_array(args)) {
			size_t k;
			json_t *a;
			json_array_foreach(args, k, a)
				if (json_is_string(a))
					strv_push(&av, json_string_value(a));
		} else {
			wordexp_t we;
			int werr = wordexp(cmd, &we, WRDE_NOCMD);
			if (werr != 0) {
				fprintf(stderr, "cachehot: %s: entry %zu (%s): cannot split command: %s\n",
					path, i, file,
					werr == WRDE_BADCHAR ? "an unquoted |, &, ;, <, >, (, ), {, } or newline" :
					werr == WRDE_CMDSUB ? "command substitution ($(...) or `...`) is never run" :
					werr == WRDE_SYNTAX ? "unbalanced quotes or parentheses" :
					werr == WRDE_BADVAL ? "an undefined shell variable" :
					"out of memory");
				free(dir); free(full); free(abs);
				goto out;
			}
			for (size_t k = 0; k < we.we_wordc; k++)
				strv_push(&av, we.we_wordv[k]);
			wordfree(&we);
		}
		/* a preprocessing step compiles nothing: say so, never judge it
		 * silently as clean; -w would silence the engines: dropped */
		{
			int only_pp = 0, quiet = 0;
			for (size_t k = 1; k < av.n; k++) {
				only_pp |= !strcmp(av.v[k], "-E") || !strcmp(av.v[k], "-M") ||
					   !strcmp(av.v[k], "-MM");
				quiet |= !strcmp(av.v[k], "-w");
			}
			if (only_pp) {
				fprintf(stderr, "cachehot: %s: entry %zu (%s): skipped: it only "
					"preprocesses (-E/-M/-MM), there is no compile to check\n",
					path, i, file);
				strv_free(&av);
				free(dir); free(full); free(abs);
				continue;
			}
			if (quiet)
				fprintf(stderr, "cachehot: %s: entry %zu (%s): -w dropped: it would "
					"hide every cachehot finding\n", path, i, file);
		}
		keep_flags(av.v, av.n, &flags);
		/* the unit runs in its directory, the source named absolutely
		 * (relative flags like -Iinclude keep their meaning there) */
		add(abs ? abs : full, dir, &flags);
		strv_free(&av);
		strv_free(&flags);
		free(dir); free(full); free(abs);
	}
	rc = 0;
out:
	strv_free(&want);
	free(dbdir);
	json_decref(root);
	return rc;
}
