/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer-member.c -- one member of a struct as `cachehot annotate` judges it
 * (core/infer.c's rules): the accesses of every path under it collected
 * from the merged facts, its writer and reader sets, its class, the
 * struct's initializers, hot groups (union-find), and the JSON and set
 * helpers the other infer*.c files share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"
#include "infer-internal.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted keys of a JSON object (pointers into it). */
const char **ch_infer_sorted_keys(json_t *obj, size_t *n)
{
	const char **v = (const char **)calloc(json_object_size(obj) + 1, sizeof(*v)), *k;
	json_t *x;
	*n = 0;
	json_object_foreach(obj, k, x)
		v[(*n)++] = k;
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
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

size_t ch_infer_fnset_common(const struct fnset *a, const struct fnset *b)
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
char *ch_infer_fnset_key(const struct fnset *s)
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

int ch_infer_cmp_member(const void *a, const void *b)
{
	const struct member *x = (const struct member *)a, *y = (const struct member *)b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t ch_infer_name_len(const struct member *m)
{
	const char *dot = strchr(m->name, '.');
	return dot ? (size_t)(dot - m->name) : strlen(m->name);
}

void ch_infer_collect_members(json_t *st, json_t *fnsall, struct member **out, size_t *nout)
{
	size_t np, i, n = 0;
	const char **paths = ch_infer_sorted_keys(st, &np);
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
			if (ch_infer_name_len(&m[j]) == len && !strncmp(m[j].name, paths[i], len))
				x = &m[j];
		if (!x) {
			x = &m[n++];
			x->name = paths[i];   /* a path: ch_infer_name_len() cuts it */
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
			json_t *targets = ch_infer_attribution(fnsall, fk, 0), *t;
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

void ch_infer_classify(struct member *m, json_t *fns, json_t *inits, const struct ch_infer_opts *o)
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
json_t *ch_infer_initializers(struct member *m, size_t n, const struct ch_infer_opts *o)
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

int ch_infer_find(struct member *m, int i)
{
	while (m[i].group != i)
		i = m[i].group = m[m[i].group].group;
	return i;
}

void ch_infer_free_members(struct member *m, size_t n)
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
