/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer.c -- from merged access facts (core/access.c) to a sidecar
 * suggestion (docs/annotations.rst syntax), the rules of `cachehot annotate`.
 *
 * Rules (issue 11; thresholds in struct ch_infer_opts; docs/annotate.md is
 * the reference, this list a summary):
 *  - A function is on a slow path when it lies in .init.text/.exit.text, is
 *    cold, or is static and every caller known in the build is on a slow
 *    path or calls it only on paths marked unlikely (least fixpoint over
 *    the merged call edges).
 *  - Accesses on paths marked unlikely (core/summary.c, plugin/access.c) are
 *    rare: a function that writes a member only there is evidence, never a
 *    writer; rare reads are not reads.
 *  - A direct member collects the accesses of every path under it, except a
 *    tagged struct/union member whose own fields are touched apart (more
 *    than one distinct nested field) and whose struct has both hot and
 *    read-mostly fields: that struct is judged under its own name
 *    (mem_cgroup.memory -> page_counter.usage).
 *  - hot: atomic RMWs in >= hot_rmw_fns functions, or writes (stores, marked
 *    stores, RMWs) in >= hot_write_fns functions, off slow paths.
 *  - read_mostly: no RMW off slow paths, read in >= rm_read_fns functions,
 *    written in <= rm_max_write_fns, and readers >= rm_ratio * writers.
 *  - hot groups: hot members whose writer sets overlap by >= group_overlap
 *    percent (Jaccard), joined transitively, named after the member with
 *    the lowest offset.
 *  - A struct is printed only with >= min_fields lines, one of them hot:
 *    anything less gives the checks nothing to judge.
 */
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"

void ch_infer_defaults(struct ch_infer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->hot_rmw_fns = 2;
	o->hot_write_fns = 4;
	o->rm_read_fns = 3;
	o->rm_max_write_fns = 3;
	o->rm_ratio = 3;
	o->min_fields = 2;
	o->group_overlap = 50;
	o->init_fields = 2;
	o->hot_update_fns = 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted keys of a JSON object (pointers into it). */
static const char **sorted_keys(json_t *obj, size_t *n)
{
	const char **v = (const char **)calloc(json_object_size(obj) + 1, sizeof(*v)), *k;
	json_t *x;
	*n = 0;
	json_object_foreach(obj, k, x)
		v[(*n)++] = k;
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

/* ---- slow paths ----------------------------------------------------------- */

static int flag(json_t *f, const char *k)
{
	return json_is_true(json_object_get(f, k));
}

/* Marks "slow": true on every function on a slow path. */
static void mark_slow(json_t *fns)
{
	const char *k;
	json_t *f;
	int changed = 1, rounds = 0;
	json_object_foreach(fns, k, f)
		json_object_set_new(f, "slow", json_boolean(flag(f, "init") || flag(f, "exit") ||
							    flag(f, "cold")));
	/* each round settles at least one more level of callers; call chains
	 * from init code are short, so this stops early on real trees */
	while (changed && rounds++ < 64) {
		changed = 0;
		json_object_foreach(fns, k, f) {
			json_t *callers = json_object_get(f, "callers"), *c;
			const char *ck;
			/* a call made only on a path marked unlikely is a slow edge */
			int all = json_object_size(callers) +
				  json_object_size(json_object_get(f, "unlikely_callers")) > 0;
			if (flag(f, "slow") || !flag(f, "static") || flag(f, "exported"))
				continue;
			json_object_foreach(callers, ck, c) {
				json_t *cf = json_object_get(fns, ck);
				if (!cf || !flag(cf, "slow")) {
					all = 0;
					break;
				}
			}
			if (all) {
				json_object_set_new(f, "slow", json_true());
				changed = 1;
			}
		}
	}
}

/* ---- inline helpers count at their callers ------------------------------- */

/* The functions an access in function key is counted in: the function
 * itself, or, for a function declared inline that has callers, those
 * callers' own attribution (what inlining would make of it; depth 4). */
static json_t *attribution(json_t *fns, const char *key, int depth)
{
	json_t *f = json_object_get(fns, key), *memo, *callers, *c, *out, *seen;
	const char *ck;
	if (!f)
		return NULL;
	if ((memo = json_object_get(f, "attr")))
		return memo;
	out = json_array();
	callers = json_object_get(f, "callers");
	if (depth < 4 && flag(f, "inline") && json_object_size(callers)) {
		json_object_set_new(f, "attr", json_array());   /* a cycle ends here */
		seen = json_object();
		json_object_foreach(callers, ck, c) {
			json_t *up = attribution(fns, ck, depth + 1), *u;
			size_t j;
			json_array_foreach(up, j, u)
				if (!json_object_get(seen, json_string_value(u))) {
					json_object_set_new(seen, json_string_value(u), json_true());
					json_array_append(out, u);
				}
		}
		json_decref(seen);
		if (!json_array_size(out))
			json_array_append_new(out, json_string(key));
	} else {
		json_array_append_new(out, json_string(key));
	}
	json_object_set_new(f, "attr", out);
	return out;
}

/* ---- one member ------------------------------------------------------------- */

struct fnset {
	const char **v;   /* function keys, sorted */
	size_t n, cap;
};

static void fnset_add(struct fnset *s, const char *k)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = (const char **)realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = k;
}

static void fnset_sort_unique(struct fnset *s)
{
	size_t i, o = 0;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (i = 0; i < s->n; i++)
		if (!o || strcmp(s->v[o - 1], s->v[i]))
			s->v[o++] = s->v[i];
	s->n = o;
}

static size_t fnset_common(const struct fnset *a, const struct fnset *b)
{
	size_t i = 0, j = 0, n = 0;
	while (i < a->n && j < b->n) {
		int c = strcmp(a->v[i], b->v[j]);
		if (!c) {
			n++;
			i++;
			j++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	return n;
}

static int fnset_equal(const struct fnset *a, const struct fnset *b)
{
	return a->n == b->n && fnset_common(a, b) == a->n;
}

struct member {
	const char *name;          /* direct member (owned by the JSON) */
	uint64_t offset;
	const char *composite;     /* the member's struct tag, or NULL */
	int deferred;              /* composite, its fields touched apart */
	json_t *subs;              /* distinct nested first fields */
	json_t *fns;               /* function key -> summed counts[CH_ACC__COUNT] */
	struct fnset rmw, wr, rd, slow_wr, upd;
	struct fnset all_wr;       /* writers off slow paths, rare writes included */
	unsigned long long nrmw, nwr, nrd;   /* access counts off slow paths */
	enum ch_class cls;
	int group;                 /* union-find parent, then root index */
	int grouped;               /* hot and in a group of two or more */
	int conf_high;
	int together;              /* hot because a hot field has its writers */
	size_t with;               /* ... that field's index */
};

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = (const struct member *)a, *y = (const struct member *)b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return strcmp(x->name, y->name);
}

static size_t name_len(const struct member *m)
{
	const char *dot = strchr(m->name, '.');
	return dot ? (size_t)(dot - m->name) : strlen(m->name);
}

static void collect_members(json_t *st, json_t *fnsall, struct member **out, size_t *nout)
{
	size_t np, i, n = 0;
	const char **paths = sorted_keys(st, &np);
	struct member *m = (struct member *)calloc(np + 1, sizeof(*m));
	for (i = 0; i < np; i++) {
		json_t *f = json_object_get(st, paths[i]), *fns = json_object_get(f, "functions"), *c;
		const char *dot = strchr(paths[i], '.'), *fk;
		size_t len = dot ? (size_t)(dot - paths[i]) : strlen(paths[i]), j;
		struct member *x = NULL;
		for (j = 0; j < n && !x; j++)
			if (name_len(&m[j]) == len && !strncmp(m[j].name, paths[i], len))
				x = &m[j];
		if (!x) {
			x = &m[n++];
			x->name = paths[i];   /* a path: name_len() cuts it */
			x->offset = (uint64_t)json_integer_value(json_object_get(f, "offset"));
			x->subs = json_object();
			x->fns = json_object();
		}
		if (json_is_string(json_object_get(f, "composite")))
			x->composite = json_string_value(json_object_get(f, "composite"));
		if (dot) {
			const char *dot2 = strchr(dot + 1, '.');
			char sub[256];
			snprintf(sub, sizeof(sub), "%.*s",
				 (int)(dot2 ? (size_t)(dot2 - dot - 1) : strlen(dot + 1)), dot + 1);
			json_object_set_new(x->subs, sub, json_true());
		}
		json_object_foreach(fns, fk, c) {
			json_t *targets = attribution(fnsall, fk, 0), *t;
			size_t ti;
			json_t *self = NULL;
			json_int_t add[CH_ACC__COUNT];
			int k;
			for (k = 0; k < CH_ACC__COUNT; k++)
				add[k] = json_integer_value(json_object_get(c,
					ch_access_kind_name((enum ch_access_kind)k)));
			ch_summary_add_passed(fnsall, c, add);   /* core/summary.c */
			if (!targets)
				targets = self = json_pack("[s]", fk);
			json_array_foreach(targets, ti, t) {
				const char *tk = json_string_value(t);
				json_t *sum = json_object_get(x->fns, tk);
				if (!sum) {
					sum = json_array();
					for (k = 0; k < CH_ACC__COUNT; k++)
						json_array_append_new(sum, json_integer(0));
					json_object_set_new(x->fns, tk, sum);
				}
				for (k = 0; k < CH_ACC__COUNT; k++) {
					json_t *e = json_array_get(sum, k);
					json_integer_set(e, json_integer_value(e) + add[k]);
				}
			}
			json_decref(self);
		}
	}
	free(paths);
	*out = m;
	*nout = n;
}

static void classify(struct member *m, json_t *fns, json_t *inits, const struct ch_infer_opts *o)
{
	const char *fk;
	json_t *sum;
	size_t nw;
	json_object_foreach(m->fns, fk, sum) {
		json_int_t c[CH_ACC__COUNT];
		int k, slow = json_is_true(json_object_get(json_object_get(fns, fk), "slow"));
		for (k = 0; k < CH_ACC__COUNT; k++)
			c[k] = json_integer_value(json_array_get(sum, k));
		if (slow || json_object_get(inits, fk) ||
		    (!(c[CH_ACC_STORE] + c[CH_ACC_MSTORE] + c[CH_ACC_RMW]) && c[CH_ACC_RARE_WRITE])) {
			/* a slow path, an initializer, or writes only on paths the
			 * code marks unlikely: evidence, not counted */
			if (c[CH_ACC_STORE] + c[CH_ACC_MSTORE] + c[CH_ACC_RMW] + c[CH_ACC_RARE_WRITE])
				fnset_add(&m->slow_wr, fk);
			if (slow || json_object_get(inits, fk))
				continue;
		}
		if (c[CH_ACC_STORE] + c[CH_ACC_MSTORE] + c[CH_ACC_RMW] + c[CH_ACC_RARE_WRITE])
			fnset_add(&m->all_wr, fk);
		if (c[CH_ACC_UPDATE])
			fnset_add(&m->upd, fk);
		if (c[CH_ACC_RMW]) {
			fnset_add(&m->rmw, fk);
			m->nrmw += (unsigned long long)c[CH_ACC_RMW];
		}
		if (c[CH_ACC_STORE] + c[CH_ACC_MSTORE] + c[CH_ACC_RMW]) {
			fnset_add(&m->wr, fk);
			m->nwr += (unsigned long long)(c[CH_ACC_STORE] + c[CH_ACC_MSTORE] + c[CH_ACC_RMW]);
		}
		if (c[CH_ACC_LOAD] + c[CH_ACC_MLOAD]) {
			fnset_add(&m->rd, fk);
			m->nrd += (unsigned long long)(c[CH_ACC_LOAD] + c[CH_ACC_MLOAD]);
		}
	}
	fnset_sort_unique(&m->rmw);
	fnset_sort_unique(&m->wr);
	fnset_sort_unique(&m->rd);
	fnset_sort_unique(&m->slow_wr);
	fnset_sort_unique(&m->upd);
	fnset_sort_unique(&m->all_wr);
	nw = m->wr.n;
	/* read-dominated first: a limit set by a few config writers (even with
	 * xchg, as page_counter_set_max() does) and read everywhere; never a
	 * field the code updates from its own value (a counter, a running clock
	 * or average): that changes with the work done */
	if (m->rd.n >= o->rm_read_fns && nw <= o->rm_max_write_fns && m->rd.n >= o->rm_ratio * nw &&
	    !m->upd.n) {
		m->cls = CH_CLASS_READ_MOSTLY;
		m->conf_high = nw == 0 || m->rd.n >= 2 * o->rm_read_fns;
	} else if (m->rmw.n >= o->hot_rmw_fns || nw >= o->hot_write_fns ||
		   (o->hot_update_fns && m->upd.n >= o->hot_update_fns)) {
		m->cls = CH_CLASS_HOT;
		m->conf_high = m->rmw.n >= 2 * o->hot_rmw_fns || nw >= 2 * o->hot_write_fns ||
			       (o->hot_update_fns && m->upd.n >= 2 * o->hot_update_fns);
	}
}

/* Functions that initialize the struct (see init_fields): a set (object). */
static json_t *initializers(struct member *m, size_t n, const struct ch_infer_opts *o)
{
	json_t *per = json_object(), *inits = json_object(), *v;
	const char *fk;
	size_t i;
	if (!o->init_fields)
		return inits;
	for (i = 0; i < n; i++) {
		json_t *sum;
		json_object_foreach(m[i].fns, fk, sum) {
			/* passed addresses included: a function that takes a lock
			 * of the struct (an unknown callee reads and writes it) is
			 * no constructor */
			json_int_t ld = json_integer_value(json_array_get(sum, CH_ACC_LOAD)) +
					json_integer_value(json_array_get(sum, CH_ACC_MLOAD));
			json_int_t st = json_integer_value(json_array_get(sum, CH_ACC_STORE)) +
					json_integer_value(json_array_get(sum, CH_ACC_MSTORE));
			json_int_t rmw = json_integer_value(json_array_get(sum, CH_ACC_RMW));
			json_t *p = json_object_get(per, fk);
			if (!p) {
				p = json_pack("{s:i, s:b}", "stored", 0, "bad", 0);
				json_object_set_new(per, fk, p);
			}
			if (rmw || (st && ld))
				json_object_set_new(p, "bad", json_true());
			if (st)
				json_integer_set(json_object_get(p, "stored"),
						 json_integer_value(json_object_get(p, "stored")) + 1);
		}
	}
	json_object_foreach(per, fk, v)
		if (!json_is_true(json_object_get(v, "bad")) &&
		    json_integer_value(json_object_get(v, "stored")) >= (json_int_t)o->init_fields)
			json_object_set_new(inits, fk, json_true());
	json_decref(per);
	return inits;
}

static int find(struct member *m, int i)
{
	while (m[i].group != i)
		i = m[i].group = m[m[i].group].group;
	return i;
}

/* "a, b, c +2" from a set of function keys ("name@unit" printed as name) */
static void print_fns(FILE *out, const struct fnset *s)
{
	size_t i, shown = s->n > 4 ? 4 : s->n;
	for (i = 0; i < shown; i++) {
		const char *k = s->v[i], *at = strchr(k, '@');
		fprintf(out, "%s%.*s", i ? ", " : "", (int)(at ? (size_t)(at - k) : strlen(k)), k);
	}
	if (s->n > shown)
		fprintf(out, " +%zu", s->n - shown);
}

static void print_set(FILE *out, const char *what, const struct fnset *s, unsigned long long count)
{
	fprintf(out, "%s %zu fn", what, s->n);
	if (count)
		fprintf(out, " (%llu)", count);
	if (s->n) {
		fputs(": ", out);
		print_fns(out, s);
	}
}

static void print_line(FILE *out, const char *st, const struct member *m, const struct member *all)
{
	char cls[300];
	if (m->cls == CH_CLASS_HOT && m->grouped)
		snprintf(cls, sizeof(cls), "hot:%.*s", (int)name_len(&all[m->group]), all[m->group].name);
	else
		snprintf(cls, sizeof(cls), "%s", ch_class_name(m->cls));
	fprintf(out, "%s.%.*s %s\t# ", st, (int)name_len(m), m->name, cls);
	if (m->cls == CH_CLASS_HOT) {
		print_set(out, "rmw", &m->rmw, m->nrmw);
		fputs("; ", out);
		print_set(out, "writes", &m->wr, m->nwr);
		if (m->upd.n) {
			fputs("; ", out);
			print_set(out, "updates from own value", &m->upd, 0);
		}
		if (m->together)
			fprintf(out, "; written with %.*s", (int)name_len(&all[m->with]), all[m->with].name);
		fprintf(out, "; reads %zu fn", m->rd.n);
	} else {
		print_set(out, "reads", &m->rd, m->nrd);
		fputs("; ", out);
		print_set(out, "writes", &m->wr, m->nwr);
	}
	fprintf(out, "; init/slow-path writes %zu fn", m->slow_wr.n);
	if (m->slow_wr.n) {
		fputs(": ", out);
		print_fns(out, &m->slow_wr);
	}
	fprintf(out, "; confidence %s\n", m->conf_high ? "high" : "medium");
}

static void free_members(struct member *m, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		json_decref(m[i].subs);
		json_decref(m[i].fns);
		free(m[i].rmw.v);
		free(m[i].wr.v);
		free(m[i].rd.v);
		free(m[i].slow_wr.v);
		free(m[i].upd.v);
		free(m[i].all_wr.v);
	}
	free(m);
}

struct judged {
	struct member *m;
	size_t n;
	int hot, rm;               /* members classified so, deferred ones aside */
};

size_t ch_infer_sidecar(ch_access_facts *a, const struct ch_infer_opts *o, FILE *out)
{
	json_t *fns = json_object_get(a->root, "functions");
	json_t *sts = json_object_get(a->root, "structs");
	json_t *index = json_object();   /* struct name -> position in js */
	size_t ns, s, total = 0;
	const char **names;
	struct judged *js;

	mark_slow(fns);
	ch_summary_resolve(fns);   /* what a passed address stands for */
	names = sorted_keys(sts, &ns);
	js = (struct judged *)calloc(ns + 1, sizeof(*js));
	fprintf(out, "# cachehot annotate: %zu translation unit%s; thresholds: hot-rmw-fns=%u "
		"hot-write-fns=%u hot-update-fns=%u rm-read-fns=%u rm-max-write-fns=%u rm-ratio=%u "
		"min-fields=%u group-overlap=%u init-fields=%u (docs/annotate.md)\n", a->nunits,
		a->nunits == 1 ? "" : "s", o->hot_rmw_fns, o->hot_write_fns, o->hot_update_fns,
		o->rm_read_fns, o->rm_max_write_fns, o->rm_ratio, o->min_fields, o->group_overlap,
		o->init_fields);
	/* every struct first: a composite member waits for its own struct */
	for (s = 0; s < ns; s++) {
		struct judged *j = &js[s];
		json_t *inits;
		size_t i;
		json_object_set_new(index, names[s], json_integer((json_int_t)s));
		collect_members(json_object_get(sts, names[s]), fns, &j->m, &j->n);
		qsort(j->m, j->n, sizeof(*j->m), cmp_member);
		inits = initializers(j->m, j->n, o);
		for (i = 0; i < j->n; i++) {
			struct member *m = &j->m[i];
			m->group = (int)i;
			if (m->composite && json_object_size(m->subs) > 1) {
				m->deferred = 1;
				continue;
			}
			classify(m, fns, inits, o);
			j->hot += m->cls == CH_CLASS_HOT;
			j->rm += m->cls == CH_CLASS_READ_MOSTLY;
		}
		json_decref(inits);
	}
	/* a composite member whose struct mixes hot and read-mostly fields is
	 * judged there (mem_cgroup.memory is a page_counter); one whose fields
	 * are all of one kind (zone.free_area) is judged as a whole here */
	for (s = 0; s < ns; s++) {
		struct judged *j = &js[s];
		json_t *inits = NULL;
		size_t i;
		for (i = 0; i < j->n; i++) {
			struct member *m = &j->m[i];
			json_t *pos;
			if (!m->deferred)
				continue;
			pos = json_object_get(index, m->composite);
			if (pos && js[json_integer_value(pos)].hot && js[json_integer_value(pos)].rm)
				continue;
			if (!inits)
				inits = initializers(j->m, j->n, o);
			classify(m, fns, inits, o);
		}
		json_decref(inits);
	}
	for (s = 0; s < ns; s++) {
		struct member *m = js[s].m;
		size_t n = js[s].n, i, j, lines = 0, hot = 0;
		if (o->only && strcmp(o->only, names[s]))
			continue;
		for (i = 0; i < n; i++) {
			lines += m[i].cls != CH_CLASS_NONE;
			hot += m[i].cls == CH_CLASS_HOT;
		}
		if (lines < o->min_fields || !hot)
			continue;
		/* fields written by exactly the functions that write a hot field
		 * (off slow paths, writes on unlikely paths included: the same
		 * code dirties both) are written together with it: hot, in its
		 * group (a suggestion never splits fields always written together) */
		for (i = 0; i < n; i++) {
			if (m[i].cls == CH_CLASS_HOT || m[i].deferred || !m[i].wr.n)
				continue;
			for (j = 0; j < n; j++)
				if (m[j].cls == CH_CLASS_HOT && !m[j].together &&
				    fnset_equal(&m[i].all_wr, &m[j].all_wr)) {
					m[i].cls = CH_CLASS_HOT;
					m[i].together = 1;
					m[i].with = j;
					m[i].conf_high = m[j].conf_high;
					break;
				}
		}
		/* hot groups: union by writer-set overlap, root = lowest index */
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n && m[i].cls == CH_CLASS_HOT; j++) {
				size_t common, uni;
				int ri, rj;
				if (m[j].cls != CH_CLASS_HOT)
					continue;
				common = fnset_common(&m[i].wr, &m[j].wr);
				uni = m[i].wr.n + m[j].wr.n - common;
				if (!uni || common * 100 < (size_t)o->group_overlap * uni)
					continue;
				ri = find(m, (int)i);
				rj = find(m, (int)j);
				if (ri != rj) {
					if (ri < rj)
						m[rj].group = ri;
					else
						m[ri].group = rj;
				}
			}
		for (i = 0; i < n; i++)
			m[i].group = find(m, (int)i);
		for (i = 0; i < n; i++)
			if (m[i].group != (int)i)
				m[i].grouped = m[m[i].group].grouped = 1;
		fprintf(out, "\n# struct %s\n", names[s]);
		for (i = 0; i < n; i++)
			if (m[i].cls != CH_CLASS_NONE) {
				print_line(out, names[s], &m[i], m);
				total++;
			}
	}
	for (s = 0; s < ns; s++)
		free_members(js[s].m, js[s].n);
	free(js);
	json_decref(index);
	free(names);
	return total;
}
