// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c -- recording-build profiles in the driver (docs/record.md):
 *
 *   cachehot annotate --profile FILE... [OPTIONS]   the sidecar from real counts
 *   cachehot check --profile FILE... ...            each false-sharing finding
 *        "confirmed: N false-sharing transfers ..." or "not observed in this
 *        run", ordered by that cost; without --annotations, the sidecar
 *        made from the profile is what the engines check (a profile alone
 *        reports the false sharing it saw, with the fix per struct)
 *
 * The rules and texts are the core's (core/profile.c); this file loads the
 * files, writes temporary sidecars and manifests, and reorders findings.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-profile.h"

static ch_profile *prof;
static char *sidecar_tmp, *manifest_tmp;

ch_profile *profile_get(void)
{
	return prof;
}

const char *profile_manifest(void)
{
	return manifest_tmp;
}

int profile_load(const struct strv *files)
{
	if (!files->n)
		return 0;
	prof = ch_profile_new();
	for (size_t i = 0; i < files->n; i++)
		if (ch_profile_merge_file(prof, files->v[i])) {
			fprintf(stderr, "cachehot: %s\n", ch_profile_error(prof));
			return -1;
		}
	return 0;
}

static void profile_cleanup(void)
{
	if (sidecar_tmp)
		unlink(sidecar_tmp);
	if (manifest_tmp) {
		/* and the lock file the manifest writers made beside it
		 * (core/manifest.c: MANIFEST.lock) */
		char *lock = xasprintf("%s.lock", manifest_tmp);
		unlink(manifest_tmp);
		unlink(lock);
		free(lock);
	}
}

static char *temp_name(const char *what)
{
	const char *td = getenv("TMPDIR");
	char *t = xasprintf("%s/cachehot-%s.XXXXXX", td && *td ? td : "/tmp", what);
	int fd = mkstemp(t);
	if (fd < 0) {
		fprintf(stderr, "cachehot: mkstemp %s: %s\n", t, strerror(errno));
		free(t);
		return NULL;
	}
	close(fd);
	return t;
}

static int sidecar_cb(FILE *f, void *arg)
{
	struct ch_profile_opts o;
	(void)arg;
	ch_profile_defaults(&o);
	ch_profile_sidecar(prof, &o, f);
	return 0;
}

int profile_prepare(struct strv *annotations, struct strv *plugin_args, int want_manifest)
{
	if (prof || want_manifest)
		atexit(profile_cleanup);
	if (prof && !annotations->n) {
		sidecar_tmp = temp_name("profile-sidecar");
		if (!sidecar_tmp || write_atomic(sidecar_tmp, sidecar_cb, NULL) < 0)
			return -1;
		strv_push(annotations, sidecar_tmp);
	}
	if (want_manifest) {
		char *a;
		manifest_tmp = temp_name("manifest");
		if (!manifest_tmp)
			return -1;
		unlink(manifest_tmp);   /* the plugin makes it */
		a = xasprintf("manifest=%s", manifest_tmp);
		strv_push(plugin_args, a);
		free(a);
	}
	return 0;
}

struct costed {
	struct finding f;
	uint64_t cost;
	size_t pos;
};

static int cmp_cost(const void *a, const void *b)
{
	const struct costed *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

void profile_mark(struct findings *fs)
{
	struct costed *c;
	if (!prof || !fs->n)
		return;
	c = xmalloc(fs->n * sizeof(*c));
	for (size_t i = 0; i < fs->n; i++) {
		struct finding *f = &fs->v[i];
		c[i].cost = 0;
		c[i].pos = i;
		int fsh = f->check && !strcmp(f->check, "cachehot-false-sharing") && f->field && f->other;
		int arr = f->check && !strcmp(f->check, "cachehot-array-sharing");
		/* the scope of an array of scalars is no struct name */
		int named = f->scope && f->scope[strspn(f->scope, "abcdefghijklmnopqrstuvwxyz"
						      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] == 0;
		if (fsh || arr) {
			unsigned ls = f->lines && strstr(f->lines, "128") ? 128 : 64;
			const char *v = ch_profile_verdict(prof, named ? f->scope : NULL, fsh ? f->field : NULL,
							   fsh ? f->other : NULL, ls, &c[i].cost);
			char *m = xasprintf("%s (%s)", f->message, v);
			free(f->message);
			f->message = m;
		}
		c[i].f = *f;
	}
	qsort(c, fs->n, sizeof(*c), cmp_cost);
	for (size_t i = 0; i < fs->n; i++)
		fs->v[i] = c[i].f;
	free(c);
}

/* ---- cachehot annotate --profile -------------------------------------------- */

static void usage_annotate_profile(FILE *f)
{
	fputs("usage: cachehot annotate --profile FILE... [OPTIONS]\n"
	      "  A sidecar from the real counts of recording builds (libcachehot-rt profiles,\n"
	      "  docs/record.md); then: cachehot check --annotations=FILE ...\n"
	      "  --profile=FILE          a profile (repeatable; further FILEs may follow)\n"
	      "  -o, --output=FILE       write the sidecar to FILE (atomically; default stdout)\n"
	      "  --only=STRUCT           this struct only\n"
	      "  --hot-writes=N          hot: >= N writes and RMWs, by >= 2 threads (default 1000)\n"
	      "  --rm-reads=N            read_mostly: >= N reads by >= 2 threads (default 1000)\n"
	      "  --rm-ratio=N            read_mostly: reads >= N x writes (default 10)\n"
	      "  --min-transfers=N       annotate a struct with >= N false-sharing transfers\n"
	      "                          between its fields or its objects (default 100)\n"
	      "  --fs-ratio=N            ... and, between its fields, N x its true-sharing\n"
	      "                          transfers (default 4)\n"
	      "  --min-share=N           ... and N per mille of the struct's accesses (default\n"
	      "                          10: 1 %; fewer transfers do not pay for a layout change)\n"
	      "  --min-samples=N         ... and N of them sampled (default 10: at 1 in 1024 one\n"
	      "                          sampled transfer is an estimate of 1024)\n"
	      "  --all-structs           annotate every struct the profile counted\n"
	      "exit status: 0 done, 2 usage or tool error\n", f);
}

static int num_arg(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static int write_cb(FILE *f, void *arg)
{
	ch_profile_sidecar(prof, arg, f);
	return 0;
}

int cmd_annotate_profile(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "profile", required_argument, 0, 'P' },
		{ "output", required_argument, 0, 'o' },
		{ "only", required_argument, 0, 's' },
		{ "hot-writes", required_argument, 0, 1 },
		{ "rm-reads", required_argument, 0, 2 },
		{ "rm-ratio", required_argument, 0, 3 },
		{ "min-transfers", required_argument, 0, 4 },
		{ "all-structs", no_argument, 0, 5 },
		{ "fs-ratio", required_argument, 0, 6 },
		{ "min-share", required_argument, 0, 7 },
		{ "min-samples", required_argument, 0, 8 },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	struct ch_profile_opts o;
	struct strv files = {0};
	const char *output = NULL;
	int c, rc = EXIT_TROUBLE;
	uint64_t v;

	ch_profile_defaults(&o);
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'P': strv_push(&files, optarg); break;
		case 'o': output = optarg; break;
		case 's': o.only = optarg; break;
		case 5: o.all_structs = 1; break;
		case 1: case 2: case 3: case 4: case 6: case 7: case 8:
			if (num_arg(optarg, &v) || ((c == 3 || c == 6 || c == 8) && v > 1000000) ||
			    (c == 7 && v > 1000)) {
				fprintf(stderr, "cachehot: annotate: thresholds are whole numbers, not '%s'\n",
					optarg);
				return EXIT_TROUBLE;
			}
			if (c == 1) o.hot_writes = v;
			else if (c == 2) o.rm_reads = v;
			else if (c == 3) o.rm_ratio = (unsigned)v;
			else if (c == 6) o.fs_ratio = (unsigned)v;
			else if (c == 7) o.min_share = (unsigned)v;
			else if (c == 8) o.min_samples = (unsigned)v;
			else o.min_transfers = v;
			break;
		case 'h': usage_annotate_profile(stdout); return 0;
		default: usage_annotate_profile(stderr); return EXIT_TROUBLE;
		}
	}
	for (int i = optind; i < argc; i++)
		strv_push(&files, argv[i]);
	if (!files.n) {
		fprintf(stderr, "cachehot: annotate: --profile needs a profile file\n");
		return EXIT_TROUBLE;
	}
	if (profile_load(&files) < 0)
		goto out;
	if (output ? write_atomic(output, write_cb, &o) < 0
		   : (ch_profile_sidecar(prof, &o, stdout), fflush(stdout) != 0))
		goto out;
	rc = 0;
out:
	strv_free(&files);
	ch_profile_free(prof);
	prof = NULL;
	return rc;
}
