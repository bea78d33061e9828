// SPDX-License-Identifier: GPL-2.0
/*
 * cachehot-bloat -- list the out-of-line copies of inline functions in ELF
 * objects, with their size in bytes from the symbol table; --census totals
 * them over a built tree in the manner of the kernel's scripts/bloat-o-meter.
 * Output formats are documented in docs/bloat.rst (a public interface).
 *
 *   cachehot-bloat [--format=text|lines] [-o FILE] OBJ|DIR...
 *   cachehot-bloat --census [--top N] [--format=text|lines] [-o FILE] OBJ|DIR...
 *   cachehot-bloat --inline-list [-o FILE] OBJ|DIR...
 *
 * Exit status: 0 ok (a census reports, it does not judge: copies are not
 * findings), 2 usage error or some input could not be read (each one named
 * on stderr, the rest still reported). Options: getopt_long, --help and
 * --version as every cachehot tool.
 */
#define _GNU_SOURCE
#include "bloat.h"
#include "../core/cachehot-core.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
	"usage: cachehot-bloat [--census [--top N] | --inline-list] [--format=text|lines]\n"
	"                      [--no-source] [-o FILE] OBJ|DIR...\n"
	"  --census           totals per inline function over all inputs\n"
	"  --top N            with --census: the N largest only\n"
	"  --inline-list      the inline functions (with or without a copy), one a line\n"
	"  --format=text|lines  text (default) or one line per copy\n"
	"  --no-source        do not read the sources (no use counts)\n"
	"  -o, --output FILE  write to FILE (atomically)\n"
	"  --version, -h/--help\n"
	"  lists each out-of-line copy of an inline function (ELF symbol size, bytes);\n"
	"  directories are searched for *.o. Objects need DWARF (-g). See docs/bloat.rst.\n";

static int nerrors;
static size_t nskipped;          /* objects without DWARF found in directories */
static char *first_skipped;

static void report_error(const char *path, const char *msg)
{
	fprintf(stderr, "cachehot-bloat: %s: %s\n", path, msg);
	nerrors++;
}

static int cmp_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Files and folders already scanned, by (device, inode): a symlinked folder
 * (even a loop) or a second path to one object is read once (tsearch). */
struct seen_id { dev_t dev; ino_t ino; };
static void *seen_root;

static int cmp_seen(const void *a, const void *b)
{
	const struct seen_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* 1 if st's file was seen before (and remember it). */
static int seen_before(const struct stat *st)
{
	struct seen_id *k = malloc(sizeof(*k)), **r;
	if (!k)
		abort();
	k->dev = st->st_dev;
	k->ino = st->st_ino;
	r = tsearch(k, &seen_root, cmp_seen);
	if (!r)
		abort();
	if (*r != k) {
		free(k);
		return 1;
	}
	return 0;
}

/* Scan path: an object, or a directory searched (sorted, recursively) for
 * regular files named *.o. */
static void scan_path(struct bl_scan *s, const char *path, int top)
{
	struct stat st;
	char err[512];

	if (stat(path, &st)) {
		report_error(path, strerror(errno));
		return;
	}
	if (seen_before(&st))
		return;
	if (S_ISDIR(st.st_mode)) {
		struct dirent **ents;
		int n = scandir(path, &ents, NULL, cmp_name);
		if (n < 0) {
			report_error(path, strerror(errno));
			return;
		}
		for (int i = 0; i < n; i++) {
			const char *nm = ents[i]->d_name;
			size_t len = strlen(nm);
			char *sub;
			if (nm[0] == '.' && (!nm[1] || (nm[1] == '.' && !nm[2]))) {
				free(ents[i]);
				continue;
			}
			size_t pl = strlen(path);
			while (pl > 1 && path[pl - 1] == '/')
				pl--;
			if (asprintf(&sub, "%.*s/%s", (int)pl, path, nm) < 0)
				abort();
			if (!stat(sub, &st) && (S_ISDIR(st.st_mode) ||
			    (S_ISREG(st.st_mode) && len > 2 && !strcmp(nm + len - 2, ".o"))))
				scan_path(s, sub, 0);
			free(sub);
			free(ents[i]);
		}
		free(ents);
		return;
	}
	int rc = bl_scan_object(s, path, err, sizeof(err));
	if (rc == -2 && !top) {
		/* e.g. objects assembled from .S files in a -g kernel tree */
		if (!nskipped++)
			first_skipped = strdup(path);
	} else if (rc)
		report_error(path, err);
}

/* Shorten absolute paths below the current directory (stable test output). */
static const char *show_path(const char *p, const char *cwd)
{
	size_t n = strlen(cwd);
	if (n > 1 && !strncmp(p, cwd, n) && p[n] == '/')
		return p + n + 1;
	return p;
}

static const char *how_token(enum bl_how h)
{
	return h == BL_DECLARED ? "declared" : h == BL_HEADER ? "header" : "source";
}

static void print_list(FILE *out, struct bl_scan *s, int lines, const char *cwd)
{
	size_t n, objs = 0;
	uint64_t bytes = 0;
	const struct bl_copy *c = bl_scan_copies(s, &n);
	const char *last = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *decl = show_path(c[i].decl_file, cwd);
		if (lines)
			fprintf(out, "%s\t%s\t%s\t%llu\t%s:%u\t%s\t%s\n", c[i].object, c[i].symbol,
				c[i].function, (unsigned long long)c[i].bytes, decl,
				c[i].decl_line, how_token(c[i].how), c[i].global ? "global" : "local");
		else
			fprintf(out, "%s: %s: %llu bytes: out-of-line copy of inline %s (%s:%u, %s%s)\n",
				c[i].object, c[i].symbol, (unsigned long long)c[i].bytes,
				c[i].function, decl, c[i].decl_line, bl_how_name(c[i].how),
				c[i].global ? ", global symbol" : "");
		bytes += c[i].bytes;
		if (c[i].object != last)
			objs++;
		last = c[i].object;
	}
	if (!lines)
		fprintf(out, "Total: %zu copies, %llu bytes, in %zu of %zu objects\n", n,
			(unsigned long long)bytes, objs, bl_scan_objects(s));
}

static void print_census(FILE *out, struct bl_scan *s, int lines, long top)
{
	size_t n, ncopies = 0;
	uint64_t bytes = 0;
	const struct bl_census_row *r = bl_scan_census(s, &n);
	const struct bl_copy *c = bl_scan_copies(s, &ncopies);
	size_t objs = 0;
	const char *last = NULL;

	for (size_t i = 0; i < ncopies; i++) {
		bytes += c[i].bytes;
		if (c[i].object != last)
			objs++;
		last = c[i].object;
	}
	if (!lines)
		fprintf(out, "%-40s %7s %7s %7s\n", "function", "copies", "objects", "bytes");
	for (size_t i = 0; i < n && (top < 0 || (long)i < top); i++) {
		if (lines)
			fprintf(out, "%s\t%zu\t%zu\t%llu\n", r[i].function, r[i].copies,
				r[i].objects, (unsigned long long)r[i].bytes);
		else
			fprintf(out, "%-40s %7zu %7zu %7llu\n", r[i].function, r[i].copies,
				r[i].objects, (unsigned long long)r[i].bytes);
	}
	if (!lines)
		fprintf(out, "Total: %zu functions, %zu copies, %llu bytes, in %zu of %zu objects\n",
			n, ncopies, (unsigned long long)bytes, objs, bl_scan_objects(s));
}

int main(int argc, char **argv)
{
	enum { LIST, CENSUS, NAMES } mode = LIST;
	int lines = 0, i, nin = 0;
	long top = -1;
	const char *outpath = NULL;
	char *tmp = NULL;
	char cwd[PATH_MAX];
	FILE *out = stdout;
	struct bl_scan *s;

	static const struct option lo[] = {
		{ "census", no_argument, NULL, 'c' },
		{ "inline-list", no_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "no-source", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, source = 1;
	/* options anywhere (GNU getopt permutes), "--" ends them */
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'c': mode = CENSUS; break;
		case 'n': mode = NAMES; break;
		case 'f':
			if (!strcmp(optarg, "lines")) lines = 1;
			else if (!strcmp(optarg, "text")) lines = 0;
			else {
				fprintf(stderr, "cachehot-bloat: --format takes text or lines\n%s", usage);
				return 2;
			}
			break;
		case 's': source = 0; break;
		case 't':
			if (!*optarg || (top = strtol(optarg, &end, 10), *end) || top < 0) {
				fprintf(stderr, "cachehot-bloat: --top needs a number >= 0\n%s", usage);
				return 2;
			}
			break;
		case 'o': outpath = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case 'V': printf("cachehot-bloat %s\n", CH_VERSION); return 0;
		default:
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	i = optind;
	nin = argc - optind;
	if (!nin) {
		fprintf(stderr, "cachehot-bloat: no object given\n%s", usage);
		return 2;
	}
	if (top >= 0 && mode != CENSUS) {
		fprintf(stderr, "cachehot-bloat: --top goes with --census\n%s", usage);
		return 2;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");

	s = bl_scan_new();
	/* only --inline-list needs the names of inline functions without a copy */
	bl_scan_set_all_names(s, mode == NAMES);
	bl_scan_set_source(s, source);
	for (int j = i; j < argc; j++)
		scan_path(s, argv[j], 1);

	if (nskipped) {
		fprintf(stderr, "cachehot-bloat: warning: skipped %zu object%s without DWARF "
			"found in directories (e.g. %s)\n", nskipped, nskipped == 1 ? "" : "s",
			first_skipped ? first_skipped : "?");
		if (!bl_scan_objects(s))
			nerrors++;
	}
	free(first_skipped);
	if (nerrors && !bl_scan_objects(s)) {
		/* nothing could be read: no output at all, no output file */
		bl_scan_free(s);
		return 2;
	}
	int out_direct = 0;
	if (outpath) {
		/* written whole to a temporary file, then renamed onto the file a
		 * symlink points to; a device or FIFO (/dev/stdout) is written in
		 * place (ch_output_target) */
		int direct;
		char *target = ch_output_target(outpath, &direct);
		if (!target) {
			fprintf(stderr, "cachehot-bloat: %s: %s\n", outpath, strerror(errno));
			bl_scan_free(s);
			return 2;
		}
		out_direct = direct;
		if (direct)
			tmp = target;
		else {
			if (asprintf(&tmp, "%s.tmp.%d", target, (int)getpid()) < 0)
				abort();
			outpath = target;   /* freed with the process */
		}
		out = fopen(tmp, "w");
		if (!out) {
			fprintf(stderr, "cachehot-bloat: %s: %s\n", tmp, strerror(errno));
			bl_scan_free(s);
			free(tmp);
			return 2;
		}
	}
	if (mode == NAMES) {
		size_t n;
		const char *const *names = bl_scan_inline_names(s, &n);
		for (size_t k = 0; k < n; k++)
			fprintf(out, "%s\n", names[k]);
	} else if (mode == CENSUS)
		print_census(out, s, lines, top);
	else
		print_list(out, s, lines, cwd);

	if (outpath) {
		int bad = ferror(out);
		if (fclose(out) || bad || (!out_direct && rename(tmp, outpath))) {
			fprintf(stderr, "cachehot-bloat: cannot write %s: %s\n", outpath,
				strerror(errno ? errno : EIO));
			if (!out_direct)
				unlink(tmp);
			nerrors++;
		}
		free(tmp);
	} else if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cachehot-bloat: write error on standard output\n");
		nerrors++;
	}
	bl_scan_free(s);
	return nerrors ? 2 : 0;
}
