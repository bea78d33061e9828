/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer.c -- from merged access facts (core/access.c) to a sidecar
 * suggestion (docs/annotations.rst syntax), the rules of `cachehot annotate`.
 *
 * Rules (thresholds in struct ch_infer_opts; docs/annotate.md is
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
 *  - Initializers (slow for the struct): >= init_fields fields stored, no
 *    RMW, nothing loaded that is stored; or >= 4 * init_fields stored, no
 *    RMW or update, at most half of them loaded (a constructor testing
 *    what it allocated).
 *  - A hot line on thin evidence (thin_hot()) is written commented out.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"
#include "infer-internal.h"

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

/* The function's name without "@FILE:LINE". */
static void plain_name(const char *key, char *buf, size_t n)
{
	const char *at = strchr(key, '@');
	snprintf(buf, n, "%.*s", (int)(at ? (size_t)(at - key) : strlen(key)), key);
}

static void set_slow(json_t *f, const char *why)
{
	json_object_set_new(f, "slow", json_true());
	if (!json_object_get(f, "slow_why"))
		json_object_set_new(f, "slow_why", json_string(why));
}

/* main(), keyed "main@FILE:LINE" (one per program) */
static int is_main(const char *key)
{
	return !strncmp(key, "main", 4) && (!key[4] || key[4] == '@');
}

/* The first line of main()'s calls at which a thread may exist: the first
 * call of a function that starts threads (calls pthread_create() without
 * pthread_join(), or calls such a function), or 0 when main() starts none
 * that the facts show. */
static json_int_t first_thread_line(json_t *fns, json_t *main_fn)
{
	json_t *starters = json_object(), *f, *c, *calls = json_object_get(main_fn, "main_calls");
	const char *k, *ck;
	json_int_t first = 0;
	json_object_foreach(fns, k, f)
		if (flag(f, "creates_thread") && !flag(f, "joins_thread"))
			json_object_set_new(starters, k, json_true());
	/* callers of starters start threads too (least fixpoint) */
	ch_infer_callers_closure(fns, starters, is_main);
	json_object_foreach(calls, ck, c) {
		json_int_t lo = json_integer_value(json_array_get(c, 0));
		if ((json_object_get(starters, ck) || !strcmp(ck, "pthread_create") ||
		     !strcmp(ck, "thrd_create")) && (!first || lo < first))
			first = lo;
	}
	json_decref(starters);
	return first;
}

/* Can f be slow because all its callers are? Not if exported; in the
 * kernel only static functions (other callers may be outside the build). */
static int slow_candidate(json_t *f, void *arg)
{
	return !flag(f, "exported") && (*(int *)arg || flag(f, "static"));
}

/* Marks "slow": true (and "slow_why") on every function on a slow path:
 * - .init.text/.exit.text or cold, in any program;
 * - matched by a --slow pattern (the name, without @FILE:LINE);
 * - in userspace (no kernel unit merged): exit and signal handlers
 *   (atexit(), signal(), sigaction's sa_handler), and main()'s callees
 *   whose every call in main() comes before main() starts its first
 *   thread;
 * - a function all of whose known callers are slow: static ones (and not
 *   EXPORT_SYMBOL'd) anywhere; any function in userspace, where the whole
 *   program is built together;
 * - main() itself in userspace (it runs once; its callees are judged by
 *   where main() calls them, so main() is marked after the fixpoint). */
static void mark_slow(ch_access_facts *a, json_t *fns, const struct ch_infer_opts *o)
{
	const char *k, *mk;
	json_t *f, *mf;
	int user = a->nkernel == 0;
	regex_t re;
	int have_re = 0;
	char name[512];
	if (o->slow && *o->slow && !regcomp(&re, o->slow, REG_EXTENDED | REG_NOSUB))
		have_re = 1;
	json_object_foreach(fns, k, f) {
		json_object_set_new(f, "slow", json_false());
		json_object_del(f, "slow_why");
		plain_name(k, name, sizeof(name));
		/* userspace: a static function no unit calls and none takes the
		 * address of was inlined into its callers by the early inliner
		 * (its accesses are counted there); its own body is dead */
		if (user && flag(f, "static") && !flag(f, "address_taken") &&
		    json_is_string(json_object_get(f, "file")) &&
		    !json_object_size(json_object_get(f, "callers")) &&
		    !json_object_size(json_object_get(f, "unlikely_callers")) && !is_main(k))
			json_object_set_new(f, "inlined_away", json_true());
		if (flag(f, "init"))
			set_slow(f, "__init");
		else if (flag(f, "exit"))
			set_slow(f, "__exit");
		else if (flag(f, "cold"))
			set_slow(f, "cold");
		else if (have_re && !regexec(&re, name, 0, NULL, 0))
			set_slow(f, "--slow");
		else if (user && json_is_string(json_object_get(f, "slow_root")))
		{
			const char *r = json_string_value(json_object_get(f, "slow_root"));
			set_slow(f, !strcmp(r, "atexit") ? "exit handler"
				    : !strcmp(r, "constructor") ? "constructor or destructor"
				    : "signal handler");
		}
	}
	if (have_re)
		regfree(&re);
	json_object_foreach(fns, mk, mf) {
		json_int_t first;
		json_t *c;
		if (!user || !is_main(mk))
			continue;
		first = first_thread_line(fns, mf);
		json_object_foreach(json_object_get(mf, "main_calls"), k, c) {
			json_t *cf = json_object_get(fns, k);
			if (cf && first && json_integer_value(json_array_get(c, 1)) < first &&
			    !flag(cf, "slow"))
				set_slow(cf, "called by main() before its first thread");
		}
	}
	/* a call made only on a path marked unlikely is a slow edge; the
	 * least fixpoint, however deep the chain */
	ch_infer_slow_callees(fns, slow_candidate, &user, "only called from slow paths");
	/* main()'s own accesses run once; its callees were judged above by
	 * where main() calls them, not by main() being slow */
	json_object_foreach(fns, mk, mf)
		if (user && is_main(mk) && !flag(mf, "slow"))
			set_slow(mf, "main() runs once");
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

static void fnset_add(struct fnset *s, const char *k)
{
	CH_GROW(s->v, s->n, s->cap, 8);
	s->v[s->n++] = k;
}

static void fnset_sort_unique(struct fnset *s)
{
	size_t i, o = 0;
	if (s->n > 1)   /* qsort(NULL, 0) is undefined */
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

/* The set as one string (keys joined by '\n', which no key holds): equal
 * sets, equal strings. malloc'd. Lets a hash map find equal sets. */
static char *fnset_key(const struct fnset *s)
{
	size_t i, len = 1;
	char *k, *p;
	for (i = 0; i < s->n; i++)
		len += strlen(s->v[i]) + 1;
	k = p = (char *)malloc(len);
	if (!k)
		abort();
	for (i = 0; i < s->n; i++)
		p += sprintf(p, "%s\n", s->v[i]);
	*p = 0;
	return k;
}

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
		/* paths are sorted, and '.' sorts before every identifier
		 * character: a member's paths are adjacent, only the last
		 * member can be this one */
		for (j = n ? n - 1 : 0; j < n && !x; j++)
			if (name_len(&m[j]) == len && !strncmp(m[j].name, paths[i], len))
				x = &m[j];
		if (!x) {
			x = &m[n++];
			x->name = paths[i];   /* a path: name_len() cuts it */
			x->offset = (uint64_t)json_integer_value(json_object_get(f, "offset"));
			x->subs = json_object();
			x->fns = json_object();
			x->owned_via = json_object();
			x->owned_wr = json_object();
		}
		{
			json_t *ov = json_object_get(f, "owned_via"), *oc, *prev;
			const char *ok;
			json_object_foreach(ov, ok, oc) {
				prev = json_object_get(x->owned_via, ok);
				json_object_set_new(x->owned_via, ok, json_integer(
					json_integer_value(prev) + json_integer_value(oc)));
				x->nowned += (unsigned long long)json_integer_value(oc);
			}
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
			json_t *lk = json_object_get(c, "locked");
			if (json_is_integer(lk) && json_integer_value(lk) &&
			    !json_is_true(json_object_get(json_object_get(fnsall, fk), "slow")))
				x->nlocked += (unsigned long long)json_integer_value(lk);
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
				json_int_t ow = json_integer_value(json_object_get(c, "owned_write")),
					   ou = json_integer_value(json_object_get(c, "owned_update"));
				if (ow || ou) {
					json_t *o2 = json_object_get(x->owned_wr, tk);
					if (!o2) {
						o2 = json_pack("[I,I]", (json_int_t)0, (json_int_t)0);
						json_object_set_new(x->owned_wr, tk, o2);
					}
					json_array_set_new(o2, 0, json_integer(
						json_integer_value(json_array_get(o2, 0)) + ow));
					json_array_set_new(o2, 1, json_integer(
						json_integer_value(json_array_get(o2, 1)) + ou));
				}
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
		if (json_is_true(json_object_get(json_object_get(fns, fk), "inlined_away")))
			continue;   /* counted in its callers */
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
	/* per-CPU or per-thread data that other functions also reach (a
	 * remote CPU reading cpu_rq(cpu)->nr_pinned, another thread reading
	 * ctx[i].flags): its owner's writes dirty a line the others read, so
	 * they count as writes (and updates) like any other */
	if (m->rd.n + m->wr.n + m->rmw.n) {
		json_t *ov;
		json_object_foreach(m->owned_wr, fk, ov) {
			json_t *f = json_object_get(fns, fk);
			json_int_t w = json_integer_value(json_array_get(ov, 0));
			if (json_is_true(json_object_get(f, "slow")) || json_object_get(inits, fk) ||
			    json_is_true(json_object_get(f, "inlined_away")))
				continue;
			if (w) {
				fnset_add(&m->wr, fk);
				fnset_add(&m->all_wr, fk);
				fnset_add(&m->own_wr, fk);
				m->nwr += (unsigned long long)w;
			}
			if (json_integer_value(json_array_get(ov, 1)))
				fnset_add(&m->upd, fk);
		}
	}
	fnset_sort_unique(&m->own_wr);
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
				p = json_pack("{s:i, s:b, s:i, s:b}", "stored", 0, "bad", 0, "mixed", 0,
					      "hard", 0);
				json_object_set_new(per, fk, p);
			}
			if (rmw || (st && ld))
				json_object_set_new(p, "bad", json_true());
			if (rmw || json_integer_value(json_array_get(sum, CH_ACC_UPDATE)))
				json_object_set_new(p, "hard", json_true());
			if (st && ld)
				json_integer_set(json_object_get(p, "mixed"),
						 json_integer_value(json_object_get(p, "mixed")) + 1);
			if (st)
				json_integer_set(json_object_get(p, "stored"),
						 json_integer_value(json_object_get(p, "stored")) + 1);
		}
	}
	json_object_foreach(per, fk, v) {
		json_int_t stored = json_integer_value(json_object_get(v, "stored"));
		json_int_t mixed = json_integer_value(json_object_get(v, "mixed"));
		if ((!json_is_true(json_object_get(v, "bad")) && stored >= (json_int_t)o->init_fields) ||
		    (!json_is_true(json_object_get(v, "hard")) && stored >= 4 * (json_int_t)o->init_fields &&
		     2 * mixed <= stored))
			json_object_set_new(inits, fk, json_true());
	}
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

/* Thin evidence for hot: only the update rule holds (no RMW or write
 * count reaches its threshold), from one function, the field is read in
 * fewer functions than a read-mostly line needs, and no other field is
 * written with it (no group): nothing says the one writer runs often or
 * that other code reads the line. (6.1: pglist_data.totalreserve_pages,
 * recomputed by calculate_totalreserve_pages() on watermark changes.) */
static int thin_hot(const struct member *m, const struct ch_infer_opts *o)
{
	return m->cls == CH_CLASS_HOT && !m->has_run && !m->grouped && !m->together &&
	       m->upd.n == 1 && m->rmw.n < o->hot_rmw_fns && m->wr.n < o->hot_write_fns &&
	       m->rd.n < o->rm_read_fns;
}

/* low: 0, 1 (the struct shows no sign of sharing) or 2 (thin_hot) */
static void print_line(FILE *out, const char *st, const struct member *m, const struct member *all,
		       int low)
{
	char cls[300];
	if (m->cls == CH_CLASS_HOT && m->grouped) {
		/* a group is a C identifier: "out_rate.curr" names it out_rate_curr */
		const struct member *r = &all[m->group];
		char *c;
		snprintf(cls, sizeof(cls), "hot:%s%.*s", r->prefix ? r->prefix : "", (int)name_len(r), r->name);
		for (c = cls; *c; c++)
			if (*c == '.')
				*c = '_';
	} else {
		snprintf(cls, sizeof(cls), "%s", ch_class_name(m->cls));
	}
	fprintf(out, "%s%s.%s%.*s %s\t# ", low ? "#" : "", st, m->prefix ? m->prefix : "",
		(int)name_len(m), m->name, cls);
	if (m->cls == CH_CLASS_HOT) {
		print_set(out, "rmw", &m->rmw, m->nrmw);
		fputs("; ", out);
		print_set(out, "writes", &m->wr, m->nwr);
		if (m->upd.n) {
			fputs("; ", out);
			print_set(out, "updates from own value", &m->upd, 0);
		}
		if (m->own_wr.n) {
			fputs("; ", out);
			print_set(out, "of them by the owning CPU or thread of data others read", &m->own_wr, 0);
		}
		if (m->together)
			fprintf(out, "; written with %s%.*s", all[m->with].prefix ? all[m->with].prefix : "",
				(int)name_len(&all[m->with]), all[m->with].name);
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
	if (m->has_run)
		fprintf(out, "; run: reads %llu by %u threads, writes %llu by %u, rmws %llu by %u",
			(unsigned long long)m->run.reads, m->run.reader_threads,
			(unsigned long long)m->run.writes, m->run.writer_threads,
			(unsigned long long)m->run.rmws, m->run.rmw_threads);
	fprintf(out, "; confidence %s\n", low == 2 ? "low (thin evidence: one function updates it, "
		"fewer readers than a read-mostly field needs, no field written with it)"
		: low ? "low" : m->conf_high ? "high" : "medium");
}

/* A member the run took its read-mostly class from (read_with): why, as a
 * comment line. */
static void print_run_note(FILE *out, const char *st, const struct member *m, size_t i)
{
	const struct member *h = &m[m[i].beside];
	if (m[i].read_with == 1)
		fprintf(out, "# %s.%s%.*s read_mostly by its counts, but no hot field to be kept from: no "
			"line\n", st, m[i].prefix ? m[i].prefix : "", (int)name_len(&m[i]), m[i].name);
	else if (m[i].read_with)
		fprintf(out, "# %s.%s%.*s read_mostly by its counts, but its reads were not disturbed in "
			"the run (at most %llu false-sharing transfers, with hot '%s%.*s'; it was read %llu "
			"times): no line\n", st, m[i].prefix ? m[i].prefix : "", (int)name_len(&m[i]), m[i].name,
			(unsigned long long)m[i].beside_fs, h->prefix ? h->prefix : "", (int)name_len(h),
			h->name, (unsigned long long)m[i].run.reads);
}

/* A struct whose fields are touched only through objects one thread or CPU
 * owns (and on slow paths): "owned", with its evidence, and no line. */
static void print_owned(FILE *out, const char *st, const struct member *m, size_t n,
			const struct ch_infer_opts *o)
{
	json_t *why = json_object(), *c;
	unsigned long long owned = 0;
	(void)c;
	size_t i, touched = 0;
	const char *k;
	int first = 1;
	for (i = 0; i < n; i++) {
		if (m[i].rmw.n || m[i].wr.n || m[i].rd.n) {
			json_decref(why);
			return;   /* shared evidence too: not owned */
		}
		if (!m[i].nowned)
			continue;
		touched++;
		owned += m[i].nowned;
		json_object_foreach(m[i].owned_via, k, c)
			json_object_set_new(why, k, json_integer(json_integer_value(json_object_get(why, k)) +
								json_integer_value(c)));
	}
	if (touched >= o->min_fields && (!o->only || !strcmp(o->only, st))) {
		/* a sidecar line every engine reads: no false sharing is
		 * reported inside an object of the struct (core/rules.c) */
		fprintf(out, "\n# struct %s\n%s owned\t# owned by one thread or CPU (%llu accesses in "
			"%zu fields: ", st, st, owned, touched);
		size_t nk, q;
		const char **keys = sorted_keys(why, &nk);
		for (q = 0; q < nk; q++) {
			fprintf(out, "%s%s %lld", first ? "" : ", ", keys[q],
				(long long)json_integer_value(json_object_get(why, keys[q])));
			first = 0;
		}
		free(keys);
		fputs("): no hot field suggested, no false sharing inside it\n", out);
	}
	json_decref(why);
}

static void free_members(struct member *m, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		json_decref(m[i].subs);
		json_decref(m[i].fns);
		json_decref(m[i].owned_via);
		json_decref(m[i].owned_wr);
		free(m[i].own_wr.v);
		json_decref(m[i].holder);
		free((char *)m[i].prefix);
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

/* ---- per-member paths of small embedded types ----------------------------- */

/* All accesses recorded under st's paths "name." + ... (name = NULL: every
 * path), every function and kind, owned ones too. */
static json_int_t raw_accesses(json_t *st, const char *name, size_t len)
{
	json_int_t n = 0;
	const char *p, *fk, *kk;
	json_t *f, *c, *v;
	json_object_foreach(st, p, f) {
		if (name && (strncmp(p, name, len) || p[len] != '.'))
			continue;
		json_object_foreach(json_object_get(f, "functions"), fk, c)
			json_object_foreach(c, kk, v)
				if (json_is_integer(v))
					n += json_integer_value(v);
	}
	return n;
}

/* Types judged per containing member: tag -> number of containers. A type
 * qualifies when it is a member whose fields are touched apart in at least
 * two structs, and every access to it was made through one of those
 * containers (none through a bare pointer to it, as page_counter_charge()
 * does: such a type has a life of its own and is judged by type). */
static json_t *per_member_types(json_t *sts, const char **names, struct judged *js, size_t ns)
{
	json_t *via = json_object(), *cont = json_object(), *out = json_object(), *v;
	const char *t;
	size_t s, i;
	for (s = 0; s < ns; s++)
		for (i = 0; i < js[s].n; i++) {
			struct member *m = &js[s].m[i];
			json_t *c;
			if (!m->composite || !m->deferred)
				continue;
			c = json_object_get(cont, m->composite);
			if (!c) {
				c = json_object();
				json_object_set_new(cont, m->composite, c);
			}
			json_object_set_new(c, names[s], json_true());
			json_object_set_new(via, m->composite, json_integer(
				json_integer_value(json_object_get(via, m->composite)) +
				raw_accesses(json_object_get(sts, names[s]), m->name, name_len(m))));
		}
	json_object_foreach(cont, t, v) {
		json_t *own = json_object_get(sts, t);
		if (json_object_size(v) >= 2 && own &&
		    raw_accesses(own, NULL, 0) <= json_integer_value(json_object_get(via, t)))
			json_object_set_new(out, t, json_integer((json_int_t)json_object_size(v)));
	}
	json_decref(via);
	json_decref(cont);
	return out;
}

/* Replace container member x (of type tag, judged per member) by one
 * member per field path under it, judged on the container's own evidence;
 * appended to *m. */
static void expand_member(struct judged *j, size_t xi, json_t *st, json_t *type_st, json_t *fns,
			  json_t *inits, const struct ch_infer_opts *o)
{
	json_t *sub = json_object(), *f;
	const char *p;
	struct member *sm = NULL;
	size_t sn = 0, len = name_len(&j->m[xi]), k;
	char *prefix;
	json_object_foreach(st, p, f)
		if (!strncmp(p, j->m[xi].name, len) && p[len] == '.')
			json_object_set(sub, p + len + 1, f);
	collect_members(sub, fns, &sm, &sn);
	prefix = (char *)malloc(len + 2);
	memcpy(prefix, j->m[xi].name, len);
	prefix[len] = '.';
	prefix[len + 1] = 0;
	j->m = (struct member *)realloc(j->m, (j->n + sn + 1) * sizeof(*j->m));
	j->m[xi].expanded = 1;
	for (k = 0; k < sn; k++) {
		struct member *y = &j->m[j->n];
		json_t *tf = NULL;
		*y = sm[k];
		/* the field's place: its offset in its own type, after the member */
		{
			const char *tp;
			json_t *tv;
			json_object_foreach(type_st, tp, tv)
				if (!strncmp(tp, y->name, name_len(y)) &&
				    (tp[name_len(y)] == '.' || !tp[name_len(y)])) {
					tf = tv;
					break;
				}
		}
		y->offset = j->m[xi].offset + (tf ? (uint64_t)json_integer_value(json_object_get(tf, "offset")) : 0);
		y->prefix = strdup(prefix);
		y->holder = k ? NULL : json_incref(sub);
		y->group = (int)j->n;
		y->deferred = 0;
		classify(y, fns, inits, o);
		j->hot += y->cls == CH_CLASS_HOT;
		j->rm += y->cls == CH_CLASS_READ_MOSTLY;
		j->n++;
	}
	free(sm);
	free(prefix);
	json_decref(sub);
}

size_t ch_infer_sidecar(ch_access_facts *a, const struct ch_infer_opts *o, FILE *out)
{
	json_t *fns = json_object_get(a->root, "functions");
	json_t *sts = json_object_get(a->root, "structs");
	json_t *index = json_object();   /* struct name -> position in js */
	json_t *pm;                      /* types judged per containing member */
	size_t ns, s, total = 0, dropped;
	const char **names;
	char dropped_example[128];
	struct judged *js;

	mark_slow(a, fns, o);
	ch_summary_resolve(fns);   /* what a passed address stands for */
	dropped = ch_infer_drop_unnamable(sts, dropped_example, sizeof(dropped_example));
	names = sorted_keys(sts, &ns);
	js = (struct judged *)calloc(ns + 1, sizeof(*js));
	fprintf(out, "# cachehot annotate: %zu translation unit%s; thresholds: hot-rmw-fns=%u "
		"hot-write-fns=%u hot-update-fns=%u rm-read-fns=%u rm-max-write-fns=%u rm-ratio=%u "
		"min-fields=%u group-overlap=%u init-fields=%u%s (docs/annotate.md)\n", a->nunits,
		a->nunits == 1 ? "" : "s", o->hot_rmw_fns, o->hot_write_fns, o->hot_update_fns,
		o->rm_read_fns, o->rm_max_write_fns, o->rm_ratio, o->min_fields, o->group_overlap,
		o->init_fields, a->nskipped ? "; units of other programs left out" : "");
	if (o->profile && o->profile_opts)
		fprintf(out, "# with a recorded run: %u profile%s, %.2f s; a struct is shared when transfers "
			"between threads inside its objects are >= %llu (>= %llu sampled) and >= %u per mille "
			"of its accesses; then hot-writes=%llu rm-reads=%llu rm-ratio=%u (counts)\n", ch_profile_count(o->profile),
			ch_profile_count(o->profile) == 1 ? "" : "s", ch_profile_seconds(o->profile),
			(unsigned long long)o->profile_opts->min_transfers,
			(unsigned long long)o->profile_opts->min_samples, o->profile_opts->min_share,
			(unsigned long long)o->profile_opts->hot_writes,
			(unsigned long long)o->profile_opts->rm_reads, o->profile_opts->rm_ratio);
	if (dropped)
		fprintf(out, "# left out %zu struct%s or member%s whose name is no C identifier%s%s%s "
			"(no sidecar line can name %s)\n", dropped, dropped == 1 ? "" : "s",
			dropped == 1 ? "" : "s", *dropped_example ? " ('" : "",
			dropped_example, *dropped_example ? "')" : "", dropped == 1 ? "it" : "them");
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
	/* a small type embedded in several structs and touched only through
	 * them is judged per containing member: its fields' lines are written
	 * under each container (global.out_rate.curr_ctr), on that
	 * container's evidence; the type gets none of its own */
	pm = per_member_types(sts, names, js, ns);
	/* a composite member whose struct mixes hot and read-mostly fields is
	 * judged there (mem_cgroup.memory is a page_counter); one whose fields
	 * are all of one kind (zone.free_area) is judged as a whole here */
	for (s = 0; s < ns; s++) {
		struct judged *j = &js[s];
		json_t *inits = NULL;
		size_t i, n0 = j->n;
		for (i = 0; i < n0; i++) {
			struct member *m = &j->m[i];
			json_t *pos;
			if (!m->deferred)
				continue;
			if (json_object_get(pm, m->composite)) {
				if (!inits)
					inits = initializers(j->m, j->n, o);
				expand_member(j, i, json_object_get(sts, names[s]),
					      json_object_get(sts, m->composite), fns, inits, o);
				continue;
			}
			pos = json_object_get(index, m->composite);
			if (pos && js[json_integer_value(pos)].hot && js[json_integer_value(pos)].rm)
				continue;
			if (!inits)
				inits = initializers(j->m, j->n, o);
			classify(m, fns, inits, o);
		}
		json_decref(inits);
		if (j->n != n0) {   /* per-member lines: in offset order */
			qsort(j->m, j->n, sizeof(*j->m), cmp_member);
			for (i = 0; i < j->n; i++)
				j->m[i].group = (int)i;
		}
	}
	for (s = 0; s < ns; s++) {
		struct member *m = js[s].m;
		size_t n = js[s].n, i, j, lines = 0, hot = 0;
		int sync;
		enum ch_run run;
		char runwhy[1024];
		json_t *by_wr;
		if (o->only && strcmp(o->only, names[s]))
			continue;
		if (strchr(names[s], '@')) {
			/* another definition of a tag (another program of the
			 * tree): a sidecar names tags, so none of its lines */
			fprintf(out, "\n# struct %.*s defined again at %s (another program of the tree?): "
				"judged apart, no line (cachehot annotate --program=BINARY, or "
				"--units/--exclude-units, for one program)\n", (int)(strchr(names[s], '@') - names[s]), names[s],
				strchr(names[s], '@') + 1);
			continue;
		}
		if (json_object_get(pm, names[s])) {
			fprintf(out, "\n# struct %s: embedded in %lld structs and touched only through them: "
				"judged per containing member (STRUCT.MEMBER.FIELD lines there)\n", names[s],
				(long long)json_integer_value(json_object_get(pm, names[s])));
			continue;
		}
		/* a recorded run: its counts class the fields of a struct its
		 * threads share (core/infer-profile.c) */
		run = ch_infer_profile_apply(o, names[s], m, n, runwhy, sizeof(runwhy));
		for (i = 0; i < n; i++) {
			lines += m[i].cls != CH_CLASS_NONE;
			hot += m[i].cls == CH_CLASS_HOT;
		}
		if (lines < o->min_fields || !hot) {
			if (run == CH_RUN_SHARED || run == CH_RUN_HANDED) {
				if (!o->only || !strcmp(o->only, names[s]))
					fprintf(out, "\n# struct %s: %s; the run leaves %zu line%s, %zu hot (a "
						"struct needs %u, one hot): no line\n", names[s], runwhy, lines,
						lines == 1 ? "" : "s", hot, o->min_fields);
				for (i = 0; i < n && (!o->only || !strcmp(o->only, names[s])); i++)
					print_run_note(out, names[s], m, i);
			} else {
				print_owned(out, names[s], m, n, o);
			}
			continue;
		}
		/* fields written by exactly the functions that write a hot field
		 * (off slow paths, writes on unlikely paths included: the same
		 * code dirties both) are written together with it: hot, in its
		 * group (a suggestion never splits fields always written together);
		 * with a recorded run the counts say what is written, not the
		 * writer sets */
		/* (the first hot field of each writer set, by a hash of the set:
		 * linear in the fields, a struct of 40k fields is no slower per
		 * field than one of 40) */
		by_wr = json_object();
		for (j = 0; j < n; j++)
			if (m[j].cls == CH_CLASS_HOT) {
				char *k = fnset_key(&m[j].all_wr);
				if (!json_object_get(by_wr, k))
					json_object_set_new(by_wr, k, json_integer((json_int_t)j));
				free(k);
			}
		for (i = 0; i < n && run != CH_RUN_SHARED && run != CH_RUN_HANDED; i++) {
			char *k;
			json_t *hit;
			if (m[i].cls == CH_CLASS_HOT || m[i].deferred || !m[i].wr.n)
				continue;
			k = fnset_key(&m[i].all_wr);
			hit = json_object_get(by_wr, k);
			free(k);
			if (hit) {
				j = (size_t)json_integer_value(hit);
				m[i].cls = CH_CLASS_HOT;
				m[i].together = 1;
				m[i].with = j;
				m[i].conf_high = m[j].conf_high;
			}
		}
		json_decref(by_wr);
		/* hot groups: union by writer-set overlap, root = lowest index.
		 * Fields with one writer set overlap 100%: joined at once, and
		 * only the first of each set is compared with the others */
		by_wr = json_object();
		for (i = 0; i < n; i++) {
			char *k;
			json_t *first;
			m[i].wr_dup = 0;
			if (m[i].cls != CH_CLASS_HOT || !m[i].wr.n || o->group_overlap > 100)
				continue;
			k = fnset_key(&m[i].wr);
			first = json_object_get(by_wr, k);
			if (first) {
				m[i].group = find(m, (int)json_integer_value(first));
				m[i].wr_dup = 1;
			} else
				json_object_set_new(by_wr, k, json_integer((json_int_t)i));
			free(k);
		}
		json_decref(by_wr);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n && m[i].cls == CH_CLASS_HOT && !m[i].wr_dup; j++) {
				size_t common, uni;
				int ri, rj;
				if (m[j].cls != CH_CLASS_HOT || m[j].wr_dup)
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
		/* no field written atomically or locked off slow paths: no
		 * sign that threads share the struct at all (an object one thread
		 * handles at a time, or one the facts cannot tell); its plain
		 * writes are low-confidence evidence: lines written commented out */
		for (i = 0, sync = 0; i < n; i++)
			sync |= m[i].rmw.n > 0 || m[i].nlocked > 0;
		if (run != CH_RUN_NONE) {
			/* the run, not the code's locks, says whether threads share it */
			sync = run == CH_RUN_SHARED;
			fprintf(out, "\n# struct %s: %s%s\n", names[s], runwhy,
				run == CH_RUN_HANDED ? ", lines commented out" : "");
			if (run == CH_RUN_OWNED)   /* check reports no false sharing inside it */
				fprintf(out, "%s owned\t# owned at run time (the recorded run)\n", names[s]);
		} else {
			fprintf(out, "\n# struct %s%s\n", names[s], sync ? "" :
				": low confidence, no field is written atomically or under a lock off slow "
				"paths (no sign that threads share it): lines commented out");
		}
		for (i = 0; i < n; i++)
			if (m[i].cls != CH_CLASS_NONE) {
				int thin = sync && thin_hot(&m[i], o);
				print_line(out, names[s], &m[i], m, thin ? 2 : !sync);
				total += sync && !thin;
			} else {
				print_run_note(out, names[s], m, i);
			}
	}
	for (s = 0; s < ns; s++)
		free_members(js[s].m, js[s].n);
	free(js);
	json_decref(pm);
	json_decref(index);
	free(names);
	return total;
}

/* ---- --explain STRUCT.FIELD ------------------------------------------------ */

int ch_infer_explain(ch_access_facts *a, const struct ch_infer_opts *o, const char *what, FILE *out)
{
	json_t *fns = json_object_get(a->root, "functions");
	json_t *sts = json_object_get(a->root, "structs"), *st, *inits, *sum;
	const char *dot = strchr(what, '.'), *fk;
	char sname[512];
	struct member *m = NULL, *x = NULL;
	size_t n = 0, i, nk, q;
	const char **keys;
	if (!dot || dot == what || !dot[1])
		return -1;
	snprintf(sname, sizeof(sname), "%.*s", (int)(dot - what), what);
	st = json_object_get(sts, sname);
	if (!st) {
		fprintf(out, "%s: no access to struct %s in the facts (%zu units)\n", what, sname, a->nunits);
		return 1;
	}
	mark_slow(a, fns, o);
	ch_summary_resolve(fns);   /* passed addresses count as in the sidecar */
	collect_members(st, fns, &m, &n);
	for (i = 0; i < n && !x; i++)
		if (name_len(&m[i]) == strlen(dot + 1) && !strncmp(m[i].name, dot + 1, name_len(&m[i])))
			x = &m[i];
	if (!x) {
		fprintf(out, "%s: no access to member %s of struct %s in the facts\n", what, dot + 1, sname);
		free_members(m, n);
		return 1;
	}
	inits = initializers(m, n, o);
	classify(x, fns, inits, o);
	fprintf(out, "%s (offset %llu): %s", what, (unsigned long long)x->offset,
		x->cls == CH_CLASS_NONE ? "no suggestion" : ch_class_name(x->cls));
	if (x->cls != CH_CLASS_NONE)
		fprintf(out, ", confidence %s", x->conf_high ? "high" : "medium");
	fprintf(out, "\n  counted: rmw %zu fn, writes %zu fn, reads %zu fn; not counted: slow-path or "
		"initializer writes %zu fn, %llu accesses through owned objects\n",
		x->rmw.n, x->wr.n, x->rd.n, x->slow_wr.n, x->nowned);
	fprintf(out, "  rules: hot needs rmw >= %u fn or writes >= %u fn; read_mostly needs reads >= %u fn, "
		"writes <= %u fn, reads >= %u x writes\n", o->hot_rmw_fns, o->hot_write_fns,
		o->rm_read_fns, o->rm_max_write_fns, o->rm_ratio);
	if (o->profile) {   /* the recorded run's judgement of the struct and the member */
		char why[1024];
		enum ch_run run;
		for (i = 0; i < n; i++)
			if (&m[i] != x)
				classify(&m[i], fns, inits, o);
		run = ch_infer_profile_apply(o, sname, m, n, why, sizeof(why));
		fprintf(out, "  run: struct %s %s\n", sname, why);
		if ((run == CH_RUN_SHARED || run == CH_RUN_HANDED) && x->has_run)
			fprintf(out, "  run: reads %llu by %u threads, writes %llu by %u, rmws %llu by %u: %s\n",
				(unsigned long long)x->run.reads, x->run.reader_threads,
				(unsigned long long)x->run.writes, x->run.writer_threads,
				(unsigned long long)x->run.rmws, x->run.rmw_threads,
				x->read_with ? "read_mostly by its counts, but its reads not disturbed by a hot "
					       "field: no suggestion" :
				x->cls == CH_CLASS_NONE ? "no suggestion" : ch_class_name(x->cls));
		else if (run == CH_RUN_SHARED || run == CH_RUN_HANDED)
			fputs("  run: no access to it in the run: no suggestion\n", out);
	}
	keys = sorted_keys(x->owned_via, &nk);
	for (q = 0; q < nk; q++)
		fprintf(out, "  owned object: %s, %lld accesses\n", keys[q],
			(long long)json_integer_value(json_object_get(x->owned_via, keys[q])));
	free(keys);
	keys = sorted_keys(x->fns, &nk);
	for (q = 0; q < nk; q++) {
		json_t *f = json_object_get(fns, keys[q]);
		const char *why = json_string_value(json_object_get(f, "slow_why"));
		int k;
		char name[512];
		fk = keys[q];
		sum = json_object_get(x->fns, fk);
		plain_name(fk, name, sizeof(name));
		fprintf(out, "  %s", name);
		if (json_is_string(json_object_get(f, "file")))
			fprintf(out, " (%s:%lld)", json_string_value(json_object_get(f, "file")),
				(long long)json_integer_value(json_object_get(f, "line")));
		for (k = 0; k < CH_ACC__COUNT; k++) {
			json_int_t c = json_integer_value(json_array_get(sum, k));
			if (c)
				fprintf(out, " %s %lld", ch_access_kind_name((enum ch_access_kind)k), (long long)c);
		}
		if (json_is_true(json_object_get(f, "inlined_away")))
			fputs(" [inlined into its callers: counted there]", out);
		else if (json_is_true(json_object_get(f, "slow")))
			fprintf(out, " [slow: %s]", why ? why : "slow path");
		else if (json_object_get(inits, fk))
			fputs(" [initializer of the struct]", out);
		fputc('\n', out);
	}
	free(keys);
	json_decref(inits);
	free_members(m, n);
	return 0;
}
