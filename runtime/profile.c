/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.c -- libcachehot-rt's profile: the JSON that rt.c's tables say
 * (docs/record.md, "Profile"), written through a temporary file and a
 * rename.
 */
#define _GNU_SOURCE
#include "rt-private.h"

static int pair_a(const struct pair *p)
{
	return (int)(uint32_t)(p->key >> 32) - 1;
}

static int pair_b(const struct pair *p)
{
	return (int)((uint32_t)p->key & 0x7fffffffu) - 1;
}

static int pair_objects(const struct pair *p)
{
	return (int)((p->key >> 31) & 1);
}


static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static int popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* Member pairs summed over every line of t: open addressing on the pair key. */
static struct pair *aggregate(struct table *t, size_t *cap_out)
{
	size_t cap = 1024, n = 0, i;
	struct pair *h = calloc(cap, sizeof(*h));
	if (!h || !t->l || !t->used)
		goto done;
	for (i = 0; i < t->nused; i++) {
		struct line *l = &t->l[t->used[i]];
		int j;
		if (!l->key || l->xfalse + l->xtrue == 0)
			continue;
		for (j = 0; j < PAIRS; j++) {
			struct pair *p = &l->p[j];
			size_t k;
			if (!p->key || p->nfalse + p->ntrue == 0)
				continue;
			if (2 * (n + 1) > cap) {   /* grow */
				struct pair *g = calloc(cap * 2, sizeof(*g));
				size_t q;
				if (!g)
					goto done;
				for (q = 0; q < cap; q++)
					if (h[q].key) {
						size_t r = hash64(h[q].key, 30) & (cap * 2 - 1);
						while (g[r].key)
							r = (r + 1) & (cap * 2 - 1);
						g[r] = h[q];
					}
				free(h);
				h = g;
				cap *= 2;
			}
			k = hash64(p->key, 30) & (cap - 1);
			while (h[k].key && h[k].key != p->key)
				k = (k + 1) & (cap - 1);
			if (!h[k].key) {
				h[k].key = p->key;
				n++;
			}
			h[k].nfalse += p->nfalse;
			h[k].ntrue += p->ntrue;
		}
	}
done:
	*cap_out = h ? cap : 0;
	return h;
}

static void member_ref(FILE *f, int m)
{
	if (m < 0 || m >= nmembers) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	fputs(members[m].sname, f);
	fputc('.', f);
	fputs(members[m].path, f);
	fputc('"', f);
}

static void dump_table(FILE *f, struct table *t, const char *name)
{
	size_t i, cap = 0, nl = 0;
	struct pair *a;
	int first = 1;
	uint64_t modelled = 0, settled = 0;
	struct thr *th;
	for (th = threads; th; th = th->next) {
		modelled += th->modelled[TABLE_NO(t)];
		settled += th->settled[TABLE_NO(t)];
	}
	fprintf(f, ",\n\"%s\":{\"line_size\":%u,\"lines_dropped\":%llu,\"modelled\":%llu,"
		"\"settled_in_thread\":%llu,\"sharing\":[", name, 1u << t->shift,
		(unsigned long long)t->dropped, (unsigned long long)modelled, (unsigned long long)settled);
	a = aggregate(t, &cap);
	for (i = 0; i < cap; i++) {
		if (!a[i].key)
			continue;
		fprintf(f, "%s\n {\"a\":", first ? "" : ",");
		member_ref(f, pair_a(&a[i]));
		fputs(",\"b\":", f);
		member_ref(f, pair_b(&a[i]));
		fprintf(f, ",\"objects\":%s,\"false_sharing\":%llu,\"true_sharing\":%llu}",
			pair_objects(&a[i]) ? "\"two\"" : "\"one\"",
			(unsigned long long)a[i].nfalse, (unsigned long long)a[i].ntrue);
		first = 0;
	}
	free(a);
	fputs("],\n\"lines\":[", f);
	first = 1;
	/* lines that more than one thread touched, at most 4096 */
	for (i = 0; t->l && t->used && i < t->nused && nl < 4096; i++) {
		struct line *l = &t->l[t->used[i]];
		int j, k;
		if (!l->key || popcount(l->threads[0] | l->threads[1] | l->threads[2]) < 2)
			continue;
		nl++;
		fprintf(f, "%s\n {\"addr\":\"0x%llx\",\"reads\":%llu,\"writes\":%llu,\"rmws\":%llu,"
			"\"reader_threads\":%d,\"writer_threads\":%d,\"rmw_threads\":%d,"
			"\"transfers\":%llu,\"false_sharing\":%llu,\"true_sharing\":%llu,\"members\":[",
			first ? "" : ",", (unsigned long long)((l->key - 1) << t->shift),
			(unsigned long long)(l->count[0] + pending(t, l, 0)),
			(unsigned long long)(l->count[1] + pending(t, l, 1)),
			(unsigned long long)(l->count[2] + pending(t, l, 2)), popcount(l->threads[0]), popcount(l->threads[1]),
			popcount(l->threads[2]), (unsigned long long)(l->xfalse + l->xtrue),
			(unsigned long long)l->xfalse, (unsigned long long)l->xtrue);
		first = 0;
		/* byte ranges of each member seen on the line */
		for (j = 0, k = 0; j < (1 << t->shift);) {
			int m = MAP_MEM(l->map[j]) - 1, s0 = j;
			while (j < (1 << t->shift) && MAP_MEM(l->map[j]) - 1 == m)
				j++;
			if (m < 0)
				continue;
			fprintf(f, "%s{\"member\":", k++ ? "," : "");
			member_ref(f, m);
			fprintf(f, ",\"from\":%d,\"to\":%d}", s0, j);
		}
		fputs("],\"pairs\":[", f);
		for (j = 0, k = 0; j < PAIRS; j++) {
			struct pair *p = &l->p[j];
			if (p->nfalse + p->ntrue == 0)
				continue;
			fprintf(f, "%s{\"a\":", k++ ? "," : "");
			member_ref(f, pair_a(p));
			fputs(",\"b\":", f);
			member_ref(f, pair_b(p));
			fprintf(f, ",\"objects\":%s,\"false_sharing\":%llu,\"true_sharing\":%llu}",
				pair_objects(p) ? "\"two\"" : "\"one\"",
				(unsigned long long)p->nfalse, (unsigned long long)p->ntrue);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}

static void out_path(char *buf, size_t n, const char *path)
{
	struct stat st;
	const char *tpl = path ? path : out_template;
	char prog[256] = "prog";
	size_t o = 0;
	ssize_t r = readlink("/proc/self/exe", buf, n - 1);
	if (r > 0) {
		buf[r] = 0;
		snprintf(prog, sizeof(prog), "%s", strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf);
	}
	if (!*tpl)
		tpl = "cachehot-rt.%p.json";
	if (stat(tpl, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, n, "%s/cachehot-rt.%s.%d.json", tpl, prog, (int)getpid());
		return;
	}
	for (; *tpl && o + 16 < n; tpl++) {
		if (tpl[0] == '%' && tpl[1] == 'p') {
			o += (size_t)snprintf(buf + o, n - o, "%d", (int)getpid());
			tpl++;
		} else {
			buf[o++] = *tpl;
		}
	}
	buf[o] = 0;
}

int write_profile(const char *path)
{
	char final[PATH_MAX], tmp[PATH_MAX + 32], exe[PATH_MAX];
	struct timespec now;
	FILE *f;
	int i, fd, first = 1, err;
	struct thr *t;
	uint64_t calls = 0, memo = 0;
	ssize_t r;
	double secs;

	out_path(final, sizeof(final), path);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", final, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - t_start.tv_sec) + (now.tv_nsec - t_start.tv_nsec) / 1e9;
	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[r > 0 ? r : 0] = 0;
	fputs("{\"cachehot_profile\":1,\"program\":", f);
	json_str(f, exe);
	for (t = threads; t; t = t->next) {
		calls += t->calls;
		memo += t->memo_settled;
	}
	fprintf(f, ",\"pid\":%d,\"seconds\":%.6f,\"sample\":%u,\"threads\":%u,\"dropped_in_signal\":%llu,"
		"\"runtime_calls\":%llu,\"memo_settled\":%llu,\n\"members\":[", (int)getpid(), secs, sample_n,
		next_tid, (unsigned long long)dropped_signal, (unsigned long long)calls, (unsigned long long)memo);
	for (i = 0; i < nmembers; i++) {
		uint64_t c[NKIND] = { 0, 0, 0 };
		int k;
		for (t = threads; t; t = t->next)
			if (t->cnt)
				for (k = 0; k < NKIND; k++)
					c[k] += t->cnt[i][k];
		fprintf(f, "%s\n {\"struct\":", first ? "" : ",");
		json_str(f, members[i].sname);
		fputs(",\"member\":", f);
		json_str(f, members[i].path);
		if (members[i].by_typedef)
			fputs(",\"typedef\":true", f);
		fprintf(f, ",\"offset\":%u,\"size\":%u,\"struct_size\":%u,\"reads\":%llu,\"writes\":%llu,"
			"\"rmws\":%llu,\"reader_threads\":%d,\"writer_threads\":%d,\"rmw_threads\":%d}",
			members[i].off, members[i].size, members[i].ssize, (unsigned long long)c[0],
			(unsigned long long)c[1], (unsigned long long)c[2], popcount(members[i].threads[0]),
			popcount(members[i].threads[1]), popcount(members[i].threads[2]));
		first = 0;
	}
	fputs("]", f);
	dump_table(f, &t64, "line64");
	dump_table(f, &t128, "line128");
	fputs("}\n", f);
	if (fflush(f) || fsync(fd)) {
		err = errno;
		fclose(f);
		unlink(tmp);
		errno = err;
		return -1;
	}
	if (fclose(f) || rename(tmp, final)) {
		err = errno;
		unlink(tmp);
		errno = err;
		return -1;
	}
	if (!quiet)
		fprintf(stderr, "cachehot-rt: wrote %s\n", final);
	return 0;
}
