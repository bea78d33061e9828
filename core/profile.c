/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.c -- recording-build profiles (cachehot-profile.h, docs/record.md):
 * merge, verdicts on findings, and the sidecar made from real counts.
 *
 * Merged state (jansson):
 *   fields: "STRUCT.FIELD" -> [reads, writes, rmws, rthreads, wthreads, mthreads,
 *           sampled accesses]
 *   pairs:  "LS STRUCT A B" (A <= B) -> [false, true, sampled false, sampled true]:
 *           A and B in one object;
 *           "LSx STRUCT A B": in two objects of STRUCT (elements of an array)
 * FIELD is the top-level field of the recorded member path.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* asprintf */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cachehot-profile.h"

struct ch_profile {
	json_t *fields, *pairs, *structs;   /* structs: "STRUCT" -> size */
	json_t *paths;                      /* "STRUCT.a.b" -> counts as fields: every
					     * prefix of every recorded member path */
	json_t *typedefs;                   /* "STRUCT" -> true: a typedef's name, no tag */
	json_t *summary;                    /* "STRUCT" -> [accesses, fs, ts, objects, and
					     * the three sampled: accesses, fs + ts, objects]
					     * at 64 bytes, built on demand (NULL: stale) */
	double seconds;
	unsigned files;
	char err[512];
	char *text;
};

ch_profile *ch_profile_new(void)
{
	ch_profile *p = (ch_profile *)calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->fields = json_object();
	p->pairs = json_object();
	p->paths = json_object();
	p->structs = json_object();
	p->typedefs = json_object();
	return p;
}

void ch_profile_free(ch_profile *p)
{
	if (!p)
		return;
	json_decref(p->fields);
	json_decref(p->pairs);
	json_decref(p->paths);
	json_decref(p->structs);
	json_decref(p->typedefs);
	json_decref(p->summary);
	free(p->text);
	free(p);
}

const char *ch_profile_error(const ch_profile *p)
{
	return p->err;
}

unsigned ch_profile_count(const ch_profile *p)
{
	return p->files;
}

double ch_profile_seconds(const ch_profile *p)
{
	return p->seconds;
}

/* "holder.u.f" -> "holder", "u" (heap) */
static int split_member(const char *ref, char **s, char **f)
{
	const char *dot = ref ? strchr(ref, '.') : NULL, *end;
	size_t n;
	if (!dot || dot == ref || !dot[1])
		return -1;
	end = strchr(dot + 1, '.');
	n = end ? (size_t)(end - dot - 1) : strlen(dot + 1);
	*s = strndup(ref, (size_t)(dot - ref));
	*f = strndup(dot + 1, n);
	return *s && *f ? 0 : -1;
}

static json_int_t geti(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) && json_integer_value(v) > 0 ? json_integer_value(v) : 0;
}

static void add_at(json_t *arr, size_t i, json_int_t v, int keep_max)
{
	json_int_t old = json_integer_value(json_array_get(arr, i));
	json_array_set_new(arr, i, json_integer(keep_max ? (v > old ? v : old) : old + v));
}

static json_t *slot(json_t *obj, const char *key, size_t n)
{
	json_t *a = json_object_get(obj, key);
	if (!a) {
		a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_integer(0));
		json_object_set_new(obj, key, a);
	}
	return a;
}

/* A recorded member's counts (times the profile's sample), thread
 * counts (the largest) and sampled accesses (as recorded) added to a
 * counts entry. */
static void add_counts(json_t *a, json_t *m, json_int_t sample)
{
	json_int_t n = geti(m, "reads") + geti(m, "writes") + geti(m, "rmws");
	add_at(a, 0, geti(m, "reads") * sample, 0);
	add_at(a, 1, geti(m, "writes") * sample, 0);
	add_at(a, 2, geti(m, "rmws") * sample, 0);
	add_at(a, 3, geti(m, "reader_threads"), 1);
	add_at(a, 4, geti(m, "writer_threads"), 1);
	add_at(a, 5, geti(m, "rmw_threads"), 1);
	add_at(a, 6, n, 0);
}

static char *pair_key(unsigned ls, int objects, const char *s, const char *a, const char *b)
{
	size_t n = strlen(s) + strlen(a) + strlen(b) + 32;
	char *k = (char *)malloc(n);
	if (k)
		snprintf(k, n, "%u%s %s %s %s", ls, objects ? "x" : "", s, strcmp(a, b) <= 0 ? a : b,
			 strcmp(a, b) <= 0 ? b : a);
	return k;
}

static int merge_sharing(ch_profile *p, json_t *table, json_int_t sample)
{
	json_t *sh = json_object_get(table, "sharing"), *e;
	unsigned ls = (unsigned)geti(table, "line_size");
	size_t i;
	if (!json_is_array(sh) || (ls != 64 && ls != 128))
		return -1;
	json_array_foreach(sh, i, e) {
		char *sa = NULL, *fa = NULL, *sb = NULL, *fb = NULL, *k;
		if (split_member(json_string_value(json_object_get(e, "a")), &sa, &fa) ||
		    split_member(json_string_value(json_object_get(e, "b")), &sb, &fb) || strcmp(sa, sb)) {
			/* two structs on one line: no pair of one struct's fields */
			free(sa); free(fa); free(sb); free(fb);
			continue;
		}
		/* profiles before "objects": one object */
		k = pair_key(ls, !strcmp(json_string_value(json_object_get(e, "objects")) ?
					 json_string_value(json_object_get(e, "objects")) : "one", "two"),
			     sa, fa, fb);
		if (k) {
			json_t *a = slot(p->pairs, k, 4);
			add_at(a, 0, geti(e, "false_sharing") * sample, 0);
			add_at(a, 1, geti(e, "true_sharing") * sample, 0);
			add_at(a, 2, geti(e, "false_sharing"), 0);
			add_at(a, 3, geti(e, "true_sharing"), 0);
		}
		free(k); free(sa); free(fa); free(sb); free(fb);
	}
	return 0;
}

int ch_profile_merge_file(ch_profile *p, const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *ms, *m;
	json_int_t sample;
	size_t i;
	if (!root) {
		snprintf(p->err, sizeof(p->err), "%s:%d: not a profile: %s", path, je.line, je.text);
		return -1;
	}
	ms = json_object_get(root, "members");
	if (geti(root, "cachehot_profile") != 1 || !json_is_array(ms) ||
	    !json_is_object(json_object_get(root, "line64")) ||
	    !json_is_object(json_object_get(root, "line128"))) {
		snprintf(p->err, sizeof(p->err), "%s: not a cachehot profile (no \"cachehot_profile\": 1, "
			 "\"members\", \"line64\", \"line128\"; written by libcachehot-rt)", path);
		json_decref(root);
		return -1;
	}
	sample = geti(root, "sample");
	if (!sample)
		sample = 1;
	json_array_foreach(ms, i, m) {
		const char *s = json_string_value(json_object_get(m, "struct"));
		const char *mem = json_string_value(json_object_get(m, "member"));
		char *key, *ss = NULL, *f = NULL;
		if (!s || !mem)
			continue;
		key = (char *)malloc(strlen(s) + strlen(mem) + 2);
		if (!key)
			continue;
		sprintf(key, "%s.%s", s, mem);
		{	/* every prefix of the path: "S.a", "S.a.b", ... */
			char *dot = strchr(key, '.');
			while (dot) {
				char *next = strchr(dot + 1, '.');
				if (next)
					*next = 0;
				add_counts(slot(p->paths, key, 7), m, sample);
				if (next)
					*next = '.';
				dot = next;
			}
		}
		if (split_member(key, &ss, &f) == 0) {
			sprintf(key, "%s.%s", ss, f);
			add_counts(slot(p->fields, key, 7), m, sample);
			json_object_set_new(p->structs, ss, json_integer(geti(m, "struct_size")));
			if (json_is_true(json_object_get(m, "typedef")))
				json_object_set_new(p->typedefs, ss, json_true());
		}
		free(key); free(ss); free(f);
	}
	json_decref(p->summary);
	p->summary = NULL;
	merge_sharing(p, json_object_get(root, "line64"), sample);
	merge_sharing(p, json_object_get(root, "line128"), sample);
	{
		json_t *sec = json_object_get(root, "seconds");
		if (json_is_number(sec))
			p->seconds += json_number_value(sec);
	}
	p->files++;
	json_decref(root);
	return 0;
}

void ch_profile_pair(const ch_profile *p, const char *s, const char *a, const char *b,
		     unsigned line_size, uint64_t *nfalse, uint64_t *ntrue)
{
	ch_profile_pair_sampled(p, s, a, b, line_size, nfalse, ntrue, NULL);
}

void ch_profile_pair_sampled(const ch_profile *p, const char *s, const char *a, const char *b,
			     unsigned line_size, uint64_t *nfalse, uint64_t *ntrue, uint64_t *sampled_false)
{
	char *k = pair_key(line_size, 0, s, a, b);
	json_t *v = k ? json_object_get(p->pairs, k) : NULL;
	*nfalse = v ? (uint64_t)json_integer_value(json_array_get(v, 0)) : 0;
	*ntrue = v ? (uint64_t)json_integer_value(json_array_get(v, 1)) : 0;
	if (sampled_false)
		*sampled_false = v ? (uint64_t)json_integer_value(json_array_get(v, 2)) : 0;
	free(k);
}

uint64_t ch_profile_objects(const ch_profile *p, const char *s, unsigned line_size)
{
	if (line_size == 64) {   /* the per-struct table has it: no walk of every pair */
		struct ch_profile_struct st;
		ch_profile_struct((ch_profile *)p, s, &st);
		return st.objects;
	}
	const char *key;
	json_t *v;
	uint64_t n = 0;
	char pre[64];
	size_t pl, sl = strlen(s);
	snprintf(pre, sizeof(pre), "%ux ", line_size);
	pl = strlen(pre);
	json_object_foreach(p->pairs, key, v)
		if (!strncmp(key, pre, pl) && !strncmp(key + pl, s, sl) && key[pl + sl] == ' ')
			n += (uint64_t)json_integer_value(json_array_get(v, 0));
	return n;
}

/* The counts table's entry "s.name" of table (fields or paths) into out. */
static int counts_of(json_t *table, const char *s, const char *name, struct ch_profile_field *out)
{
	char *k = (char *)malloc(strlen(s) + strlen(name) + 2);
	json_t *v;
	if (!k)
		return -1;
	sprintf(k, "%s.%s", s, name);
	v = json_object_get(table, k);
	free(k);
	if (!v)
		return -1;
#define AT(i) json_integer_value(json_array_get(v, i))
	out->reads = (uint64_t)AT(0);
	out->writes = (uint64_t)AT(1);
	out->rmws = (uint64_t)AT(2);
	out->reader_threads = (unsigned)AT(3);
	out->writer_threads = (unsigned)AT(4);
	out->rmw_threads = (unsigned)AT(5);
#undef AT
	return 0;
}

int ch_profile_field(const ch_profile *p, const char *s, const char *field,
		     struct ch_profile_field *out)
{
	return counts_of(p->fields, s, field, out);
}

int ch_profile_path(const ch_profile *p, const char *s, const char *path,
		    struct ch_profile_field *out)
{
	return counts_of(p->paths, s, path, out);
}

const char *ch_profile_verdict(ch_profile *p, const char *s, const char *a, const char *b,
			       unsigned line_size, uint64_t *cost)
{
	uint64_t nf = 0, nt = 0;
	free(p->text);
	p->text = NULL;
	*cost = 0;
	if (!s || !json_object_get(p->structs, s)) {
		/* nothing of it was recorded: not instrumented (record=TAGS, a
		 * unit built without record, an array of scalars) or never run */
		if (asprintf(&p->text, "not recorded in this run: no access to %s%s%s", s ? "'struct " : "",
			     s ? s : "its objects", s ? "'" : "") < 0)
			p->text = NULL;
		return p->text ? p->text : "not recorded in this run";
	}
	if (s && !a && !b) {   /* objects of s: an array of them */
		nf = ch_profile_objects(p, s, line_size);
		*cost = nf;
		if (!nf || asprintf(&p->text, "confirmed: %llu false-sharing transfers between "
				    "objects of 'struct %s' in %.2f s", (unsigned long long)nf, s,
				    p->seconds) < 0)
			p->text = strdup("not observed in this run");
		return p->text ? p->text : "not observed in this run";
	}
	if (s && a && b)
		ch_profile_pair(p, s, a, b, line_size, &nf, &nt);
	*cost = nf;
	if (!nf) {
		p->text = strdup("not observed in this run");
		return p->text;
	}
	if (asprintf(&p->text, "confirmed: %llu false-sharing transfers between '%s' and '%s' in %.2f s",
		     (unsigned long long)nf, a, b, p->seconds) < 0)
		p->text = NULL;
	return p->text ? p->text : "confirmed";
}

/* The per-struct table of ch_profile_struct(): one pass over fields and
 * pairs. Keys: "STRUCT.FIELD" and "64 STRUCT A B" / "64x STRUCT A B". */
static void build_summary(ch_profile *p)
{
	const char *k;
	json_t *v;
	p->summary = json_object();
	json_object_foreach(p->fields, k, v) {
		const char *dot = strchr(k, '.');
		char *s;
		if (!dot || !(s = strndup(k, (size_t)(dot - k))))
			continue;
		add_at(slot(p->summary, s, 7), 0, json_integer_value(json_array_get(v, 0)) +
		       json_integer_value(json_array_get(v, 1)) + json_integer_value(json_array_get(v, 2)), 0);
		add_at(slot(p->summary, s, 7), 4, json_integer_value(json_array_get(v, 6)), 0);
		free(s);
	}
	json_object_foreach(p->pairs, k, v) {
		const char *s0, *e;
		int objects;
		char *s;
		if (strncmp(k, "64 ", 3) && strncmp(k, "64x ", 4))
			continue;
		objects = k[2] == 'x';
		s0 = k + (objects ? 4 : 3);
		if (!(e = strchr(s0, ' ')) || !(s = strndup(s0, (size_t)(e - s0))))
			continue;
		if (objects) {
			add_at(slot(p->summary, s, 7), 3, json_integer_value(json_array_get(v, 0)), 0);
			add_at(slot(p->summary, s, 7), 6, json_integer_value(json_array_get(v, 2)), 0);
		} else {
			add_at(slot(p->summary, s, 7), 1, json_integer_value(json_array_get(v, 0)), 0);
			add_at(slot(p->summary, s, 7), 2, json_integer_value(json_array_get(v, 1)), 0);
			add_at(slot(p->summary, s, 7), 5, json_integer_value(json_array_get(v, 2)) +
			       json_integer_value(json_array_get(v, 3)), 0);
		}
		free(s);
	}
}

int ch_profile_struct(ch_profile *p, const char *s, struct ch_profile_struct *out)
{
	json_t *v;
	memset(out, 0, sizeof(*out));
	if (!s || !json_object_get(p->structs, s))
		return -1;
	if (!p->summary)
		build_summary(p);
	v = json_object_get(p->summary, s);
	if (!v)
		return 0;
	out->accesses = (uint64_t)json_integer_value(json_array_get(v, 0));
	out->false_sharing = (uint64_t)json_integer_value(json_array_get(v, 1));
	out->true_sharing = (uint64_t)json_integer_value(json_array_get(v, 2));
	out->objects = (uint64_t)json_integer_value(json_array_get(v, 3));
	out->sampled_accesses = (uint64_t)json_integer_value(json_array_get(v, 4));
	out->sampled_moved = (uint64_t)json_integer_value(json_array_get(v, 5));
	out->sampled_objects = (uint64_t)json_integer_value(json_array_get(v, 6));
	return 0;
}

int ch_profile_worth(const struct ch_profile_struct *st, uint64_t n, uint64_t sampled,
		     const struct ch_profile_opts *o)
{
	return n >= o->min_transfers && sampled >= o->min_samples &&
	       n * 1000 >= (uint64_t)o->min_share * st->accesses;
}

int ch_profile_decidable(const struct ch_profile_struct *st, const struct ch_profile_opts *o)
{
	return !o->min_share || st->sampled_accesses * o->min_share >= (uint64_t)o->min_samples * 1000;
}

void ch_profile_defaults(struct ch_profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->hot_writes = 1000;
	o->rm_reads = 1000;
	o->rm_ratio = 10;
	o->min_transfers = 100;
	o->fs_ratio = 4;
	o->min_share = 10;
	o->min_samples = 10;
}

/* ---- the sidecar ------------------------------------------------------------- */

struct pfield {
	const char *name;
	struct ch_profile_field c;
	int cls;          /* 0 none, 1 hot, 2 read_mostly, 3 owned */
	int color;        /* hot: group index */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_pfield(const void *a, const void *b)
{
	return strcmp(((const struct pfield *)a)->name, ((const struct pfield *)b)->name);
}

static size_t one_struct(ch_profile *p, const char *s, const struct ch_profile_opts *o, FILE *out)
{
	struct pfield *fs = NULL;
	size_t nf = 0, i, j, lines = 0, plen = strlen(s);
	const char *key;
	json_t *v;
	uint64_t fs_total = 0, ts_total = 0, self_total = 0, fs_sampled = 0, nfa, nta, sfa;
	int shared_data, fs_worth, self_worth;
	int ncolors = 0;
	struct ch_profile_struct st;
	json_object_foreach(p->fields, key, v) {
		if (strncmp(key, s, plen) || key[plen] != '.')
			continue;
		fs = (struct pfield *)realloc(fs, (nf + 1) * sizeof(*fs));
		fs[nf].name = key + plen + 1;
		ch_profile_field(p, s, fs[nf].name, &fs[nf].c);
		fs[nf].cls = 0;
		fs[nf].color = -1;
		nf++;
	}
	if (!nf)
		return 0;
	qsort(fs, nf, sizeof(*fs), cmp_pfield);
	for (i = 0; i < nf; i++)
		for (j = i; j < nf; j++) {
			ch_profile_pair_sampled(p, s, fs[i].name, fs[j].name, 64, &nfa, &nta, &sfa);
			if (j != i) {
				fs_total += nfa;
				fs_sampled += sfa;
			}
			ts_total += nta;
		}
	/* false sharing that does not dominate the true sharing of the same
	 * lines is data the threads share (each uses every field, as the
	 * request workers of a cache use an item's header): moving fields
	 * apart would not move the transfers away */
	shared_data = fs_total < (uint64_t)o->fs_ratio * ts_total;
	self_total = ch_profile_objects(p, s, 64);
	ch_profile_struct(p, s, &st);
	fs_worth = ch_profile_worth(&st, fs_total, fs_sampled, o);
	self_worth = ch_profile_worth(&st, self_total, st.sampled_objects, o);
	if (!o->all_structs && !fs_worth && !self_worth &&
	    (fs_total >= o->min_transfers || self_total >= o->min_transfers) &&
	    (fs_sampled < o->min_samples && st.sampled_objects < o->min_samples)) {
		/* an estimate from a handful of sampled transfers is noise */
		fprintf(out, "\n# struct %s: %llu false-sharing transfers between its fields, %llu between "
			"objects of it, estimated from %llu and %llu sampled: fewer than %llu sampled, too "
			"few to judge (min-samples; record longer or with a lower CACHEHOT_RT_SAMPLE)\n", s,
			(unsigned long long)fs_total, (unsigned long long)self_total,
			(unsigned long long)fs_sampled, (unsigned long long)st.sampled_objects,
			(unsigned long long)o->min_samples);
		free(fs);
		return 0;
	}
	if (!o->all_structs && !fs_worth && !self_worth &&
	    (fs_total >= o->min_transfers || self_total >= o->min_transfers)) {
		fprintf(out, "\n# struct %s: %llu false-sharing transfers between its fields, %llu between "
			"objects of it, in %llu accesses: fewer than %u per mille, too few to pay for a "
			"layout change (min-share)\n", s, (unsigned long long)fs_total,
			(unsigned long long)self_total, (unsigned long long)st.accesses, o->min_share);
		free(fs);
		return 0;
	}
	if (!o->all_structs && shared_data && fs_worth && !self_worth) {
		fprintf(out, "\n# struct %s: %llu false-sharing transfers between its fields, %llu true "
			"sharing: data the threads share, not a layout to change (fs-ratio)\n", s,
			(unsigned long long)fs_total, (unsigned long long)ts_total);
		free(fs);
		return 0;
	}
	if (!o->all_structs && (!fs_worth || shared_data) && !self_worth) {
		free(fs);
		return 0;
	}
	for (i = 0; i < nf; i++) {
		struct ch_profile_field *c = &fs[i].c;
		uint64_t w = c->writes + c->rmws, shared = 0;
		unsigned wt = c->writer_threads > c->rmw_threads ? c->writer_threads : c->rmw_threads;
		/* false sharing seen between this field and another one: the
		 * other side is another thread, whatever the counts of threads */
		for (j = 0; j < nf; j++)
			if (j != i) {
				ch_profile_pair(p, s, fs[i].name, fs[j].name, 64, &nfa, &nta);
				shared += nfa;
			}
		if (w >= o->hot_writes && (uint64_t)o->rm_ratio * w > c->reads &&
		    (wt >= 2 || shared >= o->min_transfers))
			fs[i].cls = 1;
		else if (c->reads >= o->rm_reads && c->reads >= (uint64_t)o->rm_ratio * w &&
			 (c->reader_threads >= 2 || shared >= o->min_transfers))
			fs[i].cls = 2;
		else if (c->reader_threads <= 1 && wt <= 1 && shared < o->min_transfers)
			fs[i].cls = 3;
	}
	/* hot fields with false sharing between them go to different groups
	 * (greedy coloring, fields in name order) */
	for (i = 0; i < nf; i++) {
		int used[64] = { 0 }, c;
		if (fs[i].cls != 1)
			continue;
		for (j = 0; j < i; j++) {
			if (fs[j].cls != 1 || fs[j].color < 0 || fs[j].color >= 64)
				continue;
			ch_profile_pair(p, s, fs[i].name, fs[j].name, 64, &nfa, &nta);
			if (nfa >= o->min_transfers)
				used[fs[j].color] = 1;
		}
		for (c = 0; c < 63 && used[c]; c++)
			;
		fs[i].color = c;
		if (c + 1 > ncolors)
			ncolors = c + 1;
	}
	fprintf(out, "\n# struct %s: %llu false-sharing transfers between its fields (%llu true "
		"sharing%s), %llu between objects of it (64-byte lines)\n", s,
		(unsigned long long)fs_total, (unsigned long long)ts_total,
		shared_data && fs_total ? ": data the threads share, not a layout to change" : "",
		(unsigned long long)self_total);
	for (i = 0; i < nf; i++) {
		struct ch_profile_field *c = &fs[i].c;
		const char *why = NULL;
		char grp[256] = "";
		if (fs[i].cls == 1 && ncolors > 1) {
			/* the group is named after its first field */
			for (j = 0; j < nf; j++)
				if (fs[j].cls == 1 && fs[j].color == fs[i].color)
					break;
			snprintf(grp, sizeof(grp), ":%s", fs[j].name);
		}
		/* no false sharing inside an object: its layout is not the
		 * problem (the array of it is: per_thread below) */
		if ((!fs_worth || shared_data) && !o->all_structs &&
		    (fs[i].cls == 1 || fs[i].cls == 2))
			why = fs[i].cls == 1 ? "hot, but in no false sharing inside one object"
					     : "read_mostly, but in no false sharing inside one object";
		else switch (fs[i].cls) {
		case 1: fprintf(out, "%s.%s hot%s", s, fs[i].name, grp); lines++; break;
		case 2: fprintf(out, "%s.%s read_mostly", s, fs[i].name); lines++; break;
		case 3: why = "owned by one thread"; break;
		default: why = "no class"; break;
		}
		if (why)
			fprintf(out, "# %s.%s %s", s, fs[i].name, why);
		fprintf(out, "\t# reads %llu by %u threads, writes %llu by %u, rmws %llu by %u (profile)\n",
			(unsigned long long)c->reads, c->reader_threads, (unsigned long long)c->writes,
			c->writer_threads, (unsigned long long)c->rmws, c->rmw_threads);
		/* false sharing inside the field: elements of a member array */
		ch_profile_pair_sampled(p, s, fs[i].name, fs[i].name, 64, &nfa, &nta, &sfa);
		if (ch_profile_worth(&st, nfa, sfa, o)) {
			fprintf(out, "%s.%s[] per_thread\t# %llu false-sharing transfers between its "
				"elements\n", s, fs[i].name, (unsigned long long)nfa);
			lines++;
		}
	}
	{
		json_int_t size = json_integer_value(json_object_get(p->structs, s));
		if (self_worth && size > 0 && size < 64 && json_object_get(p->typedefs, s))
			/* the sidecar names arrays of a struct by its tag only */
			fprintf(out, "# %s[] per_thread: %llu false-sharing transfers between objects of "
				"%s (%lld bytes each); %s is the typedef of a struct without a tag: name "
				"the array (ARRAY[] per_thread)\n", s, (unsigned long long)self_total, s,
				(long long)size, s);
		else if (self_worth && size > 0 && size < 64) {
			fprintf(out, "%s[] per_thread\t# %llu false-sharing transfers between objects of "
				"%s (%lld bytes each) in one array\n", s, (unsigned long long)self_total, s,
				(long long)size);
			lines++;
		}
	}
	free(fs);
	return lines;
}

size_t ch_profile_sidecar(ch_profile *p, const struct ch_profile_opts *o, FILE *out)
{
	const char *key, **names;
	json_t *v;
	size_t n = 0, i, lines = 0;
	names = (const char **)calloc(json_object_size(p->structs) + 1, sizeof(*names));
	json_object_foreach(p->structs, key, v)
		names[n++] = key;
	qsort(names, n, sizeof(*names), cmp_str);
	fprintf(out, "# cachehot annotate --profile: %u profile%s, %.2f s recorded; thresholds: "
		"hot-writes=%llu rm-reads=%llu rm-ratio=%u min-transfers=%llu min-share=%u "
		"min-samples=%llu fs-ratio=%u (docs/record.md)\n",
		p->files, p->files == 1 ? "" : "s", p->seconds, (unsigned long long)o->hot_writes,
		(unsigned long long)o->rm_reads, o->rm_ratio, (unsigned long long)o->min_transfers,
		o->min_share, (unsigned long long)o->min_samples, o->fs_ratio);
	for (i = 0; i < n; i++)
		if (!o->only || !strcmp(o->only, names[i]))
			lines += one_struct(p, names[i], o, out);
	free(names);
	return lines;
}
