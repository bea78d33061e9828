/* SPDX-License-Identifier: GPL-2.0 */
/* Sidecar index (core/sidecar-index.c): the input is the bytes of an index
 * file for one of two sidecars this harness writes once (a small index, up
 * to SMALL_INDEX_SLOTS slots, checked whole when mapped, and a big one,
 * checked slot by slot as lookups pass; the first input byte picks which).
 * The identity in the input's header (device, inode, times: bytes 8-63) is
 * replaced by the sidecar's own, so that an input reaches the checks after
 * it on any machine. The sidecar is then loaded through the index and asked
 * what a unit asks (structs, members, variables, functions, groups, then
 * the unmatched and missing-field lists), and every answer must equal the
 * answer of a whole parse (ch_sidecar_load): a damaged index is used only
 * where it gives the same entries, or the unit parses the rest itself.
 * With bit 1 of the first byte set, the input's checks are first made to
 * match it (ch_sidecar_index_reseal: a forged index, which the checks do
 * not guard against, docs/plugin.rst): then only reading outside the index
 * or the text, or any other sanitizer report, fails; the same for an input
 * with a part that passes its check but differs from the good index
 * (ch_sidecar_index_forged: libFuzzer writes a compared check's value into
 * its inputs, so the plain mode forges too).
 * Seeds: the two good indexes (fuzz/run.sh). */
#include "common.h"
#include "cachehot-core.h"
#include <dirent.h>
#include <stdarg.h>
#include <sys/stat.h>

#define SMALL_STRUCTS 40     /* about 115 lines: 256 slots */
#define BIG_STRUCTS 300      /* about 850 lines: 2 048 slots, over 1 024 */

static char dir[64], side[2][96], cache[2][96], idx[2][160];
static char *good[2];
static size_t good_len[2];

static void side_write(const char *path, int nstructs)
{
	FILE *f = fopen(path, "w");
	int i, k;
	if (!f)
		abort();
	fprintf(f, "# fuzz sidecar\nglobal_a hot\nglobal_b read_mostly\nfn_a() addressable\n"
		   "pool.workers[] per_thread\n");
	for (i = 0; i < nstructs; i++) {
		if (i == nstructs / 2)
			fprintf(f, "# cachehot annotate: inferred lines\n");
		for (k = 0; k < 1 + i % 4; k++)
			fprintf(f, "s%d.f%d %s\n", i, k,
				k == 0 ? "exclusive" : k == 1 ? "read_mostly" : k == 2 ? "hot:g" : "hot");
		if (i % 7 == 0)
			fprintf(f, "s%d.@grp written\n", i);
		if (i % 11 == 0)
			fprintf(f, "s%d owned\n", i);
		if (i % 13 == 0)
			fprintf(f, "var%d hot:v\n", i);
	}
	fclose(f);
}

/* the one file in d (the index the load wrote) */
static void only_file(const char *d, char *out, size_t size)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	out[0] = 0;
	if (!dp)
		abort();
	while ((e = readdir(dp)))
		if (e->d_name[0] != '.')
			snprintf(out, size, "%s/%s", d, e->d_name);
	closedir(dp);
	if (!out[0])
		abort();
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		abort();
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* at exit: the sidecars, their indexes (and temporaries) and the folders */
static void cleanup(void)
{
	int w;
	for (w = 0; w < 2; w++) {
		DIR *dp = opendir(cache[w]);
		struct dirent *e;
		char p[400];
		while (dp && (e = readdir(dp)))
			if (e->d_name[0] != '.') {
				snprintf(p, sizeof(p), "%s/%s", cache[w], e->d_name);
				unlink(p);
			}
		if (dp)
			closedir(dp);
		rmdir(cache[w]);
		unlink(side[w]);
	}
	rmdir(dir);
}

static void setup(void)
{
	int w;
	snprintf(dir, sizeof(dir), "/dev/shm/cachehot-fuzz-sidx-%d", (int)getpid());
	mkdir(dir, 0700);
	atexit(cleanup);
	for (w = 0; w < 2; w++) {
		snprintf(side[w], sizeof(side[w]), "%s/side%d.ann", dir, w);
		snprintf(cache[w], sizeof(cache[w]), "%s/cache%d", dir, w);
		mkdir(cache[w], 0700);
		side_write(side[w], w ? BIG_STRUCTS : SMALL_STRUCTS);
	}
	sleep(3);   /* no index is written for a file changed in the last 2 s */
	for (w = 0; w < 2; w++) {
		ch_ctx *ctx = ch_ctx_new();
		if (ch_sidecar_load_cached(ctx, side[w], cache[w])) {
			fprintf(stderr, "%s: %s\n", side[w], ch_ctx_error(ctx));
			abort();
		}
		ch_ctx_free(ctx);
		only_file(cache[w], idx[w], sizeof(idx[w]));
		good[w] = slurp(idx[w], &good_len[w]);
		if (getenv("FUZZ_SIDX_SEEDS")) {   /* fuzz/run.sh: the seeds */
			char p[256];
			FILE *f;
			int forged;
			for (forged = 0; forged < 2; forged++) {
				snprintf(p, sizeof(p), "%s/%s%s", getenv("FUZZ_SIDX_SEEDS"),
					 w ? "big" : "small", forged ? "-forged" : "");
				f = fopen(p, "wb");
				if (!f)
					abort();
				fputc(w | forged << 1, f);
				fwrite(good[w], 1, good_len[w], f);
				fclose(f);
			}
		}
	}
}

/* what a unit asks, as text */
struct answers {
	char *s;
	size_t n, cap;
};

static void say(struct answers *a, const char *fmt, ...)
{
	va_list ap;
	int k;
	if (a->cap - a->n < 512) {
		a->cap = a->cap ? 2 * a->cap : 65536;
		a->s = realloc(a->s, a->cap);
		if (!a->s)
			abort();
	}
	va_start(ap, fmt);
	k = vsnprintf(a->s + a->n, a->cap - a->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		a->n += (size_t)k < a->cap - a->n ? (size_t)k : a->cap - a->n - 1;
}

static void entry_cb(const char *file, unsigned line, const char *entry, void *arg)
{
	say(arg, "  %u %s\n", line, entry);
}

static void global_cb(const char *name, enum ch_class cls, const char *group, const char *file,
		      unsigned line, int matched, void *arg)
{
	say(arg, "  global %s %d %s %u %d\n", name, (int)cls, group ? group : "-", line, matched);
}

static void ask(ch_ctx *ctx, int nstructs, struct answers *a)
{
	int i, k;
	const char *g;
	uint64_t n;
	say(a, "count %zu globals %zu pt %zu\n", ch_sidecar_count(ctx), ch_sidecar_global_count(ctx),
	    ch_sidecar_per_thread_count(ctx));
	/* a unit asks about some structs only (the others stay unparsed) */
	for (i = 0; i < nstructs + 3; i += 1 + i % 3) {
		char t[32], f[32];
		snprintf(t, sizeof(t), "s%d", i);
		say(a, "%s named %d owned %d\n", t, ch_sidecar_names_type(ctx, t), ch_sidecar_owned(ctx, t));
		for (k = 0; k < 5; k += 1 + (i & 1)) {
			int inf = 0;
			enum ch_class c;
			snprintf(f, sizeof(f), "f%d", k);
			g = NULL;
			c = ch_sidecar_class_inferred(ctx, t, f, &g, &inf);
			say(a, " .%s %d %s %d\n", f, (int)c, g ? g : "-", inf);
		}
		if (i % 5 == 0)
			say(a, " missing %zu\n", ch_sidecar_missing_fields(ctx, t, entry_cb, a));
	}
	g = NULL;
	say(a, "global_a %d\n", (int)ch_sidecar_global_class(ctx, "global_a", &g));
	say(a, "var13 %d %s\n", (int)ch_sidecar_global_class(ctx, "var13", &g), g ? g : "-");
	say(a, "fn_a %d fn_b %d\n", ch_sidecar_addressable(ctx, "fn_a"), ch_sidecar_addressable(ctx, "fn_b"));
	n = 0;
	say(a, "pool.workers %d %llu\n", ch_sidecar_per_thread(ctx, "pool.workers", &n),
	    (unsigned long long)n);
	say(a, "unmatched %zu\n", ch_sidecar_unmatched(ctx, entry_cb, a));
	say(a, "globals %zu\n", ch_sidecar_globals(ctx, global_cb, a));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct answers whole[2];
	struct answers got = { 0 };
	ch_ctx *ctx;
	int w, forged;
	FILE *f;
	char *buf;

	if (!good[0])
		setup();
	if (size < 1)
		return 0;
	w = data[0] & 1;
	if (!whole[w].s) {
		ctx = ch_ctx_new();
		if (ch_sidecar_load(ctx, side[w]))
			abort();
		ask(ctx, w ? BIG_STRUCTS : SMALL_STRUCTS, &whole[w]);
		ch_ctx_free(ctx);
	}
	/* the input as the index, with this machine's identity of the file */
	buf = malloc(size);
	if (!buf)
		abort();
	memcpy(buf, data + 1, size - 1);
	if (size - 1 >= 64 && good_len[w] >= 64)
		memcpy(buf + 8, good[w] + 8, 56);
	if (data[0] & 2)
		ch_sidecar_index_reseal(buf, size - 1);
	f = fopen(idx[w], "wb");
	if (!f)
		abort();
	if (size > 1 && fwrite(buf, 1, size - 1, f) != size - 1)
		abort();
	fclose(f);

	/* a part passing its check but changed (the forging mode's, or one
	 * libFuzzer wrote the check's value into): only sanitizers judge */
	forged = (data[0] & 2) || ch_sidecar_index_forged(buf, size - 1, good[w], good_len[w]);
	free(buf);

	ctx = ch_ctx_new();
	if (ch_sidecar_load_cached(ctx, side[w], cache[w]) && !forged) {
		fprintf(stderr, "load through a damaged index failed: %s\n", ch_ctx_error(ctx));
		abort();
	}
	ask(ctx, w ? BIG_STRUCTS : SMALL_STRUCTS, &got);
	ch_ctx_free(ctx);
	if (!forged && (got.n != whole[w].n || memcmp(got.s, whole[w].s, got.n))) {
		size_t i = 0;
		while (i < got.n && i < whole[w].n && got.s[i] == whole[w].s[i])
			i++;
		fprintf(stderr, "answers through the index differ from a whole parse at byte %zu:\n"
				"index: %.200s\nwhole: %.200s\n(before: %.*s)\n", i, got.s + i, whole[w].s + i, (int)(i < 160 ? i : 160), whole[w].s + (i < 160 ? 0 : i - 160));
		abort();
	}
	free(got.s);
	return 0;
}
