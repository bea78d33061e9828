/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer-graph.c -- closures over the merged call graph for core/infer.c,
 * each a worklist: every function and every call edge is visited a bounded
 * number of times, so a call chain of any depth settles (a 70-deep chain
 * under an __init function is as slow as a 2-deep one) in time linear in
 * functions + edges.
 *
 * Graph: fns is the merged "functions" object (core/access.c); the edge
 * caller -> callee is callee["callers"][caller]; "unlikely_callers" are
 * calls made only on paths marked unlikely.
 */
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"

struct graph {
	size_t n;
	const char **key;     /* index -> key */
	json_t **fn;          /* index -> function object */
	json_t *index;        /* key -> index (json integer) */
	size_t *rev_start;    /* callee lists of each caller: rev[rev_start[i] .. rev_start[i+1]) */
	size_t *rev;
};

static long lookup(const struct graph *g, const char *key)
{
	json_t *v = json_object_get(g->index, key);
	return v ? (long)json_integer_value(v) : -1;
}

/* Every function, and for each one the functions it calls (reverse of the
 * "callers" edges whose caller is a known function). */
static void graph_build(struct graph *g, json_t *fns)
{
	const char *k, *ck;
	json_t *f, *c;
	size_t i = 0, e = 0, *fill;
	memset(g, 0, sizeof(*g));
	g->n = json_object_size(fns);
	g->key = (const char **)calloc(g->n + 1, sizeof(*g->key));
	g->fn = (json_t **)calloc(g->n + 1, sizeof(*g->fn));
	g->rev_start = (size_t *)calloc(g->n + 2, sizeof(size_t));
	g->index = json_object();
	if (!g->key || !g->fn || !g->rev_start || !g->index)
		abort();
	json_object_foreach(fns, k, f) {
		g->key[i] = k;
		g->fn[i] = f;
		json_object_set_new(g->index, k, json_integer((json_int_t)i));
		i++;
	}
	/* count, then fill: rev lists of callers */
	for (i = 0; i < g->n; i++)
		json_object_foreach(json_object_get(g->fn[i], "callers"), ck, c) {
			long x = lookup(g, ck);
			if (x >= 0) {
				g->rev_start[x + 1]++;
				e++;
			}
		}
	for (i = 0; i < g->n; i++)
		g->rev_start[i + 1] += g->rev_start[i];
	g->rev = (size_t *)malloc((e + 1) * sizeof(size_t));
	fill = (size_t *)calloc(g->n + 1, sizeof(size_t));
	if (!g->rev || !fill)
		abort();
	for (i = 0; i < g->n; i++)
		json_object_foreach(json_object_get(g->fn[i], "callers"), ck, c) {
			long x = lookup(g, ck);
			if (x >= 0)
				g->rev[g->rev_start[x] + fill[x]++] = i;
		}
	free(fill);
}

static void graph_free(struct graph *g)
{
	free(g->key);
	free(g->fn);
	free(g->rev_start);
	free(g->rev);
	json_decref(g->index);
}

void ch_infer_callers_closure(json_t *fns, json_t *set, int (*skip)(const char *key))
{
	size_t *queue, head = 0, tail = 0, n = json_object_size(fns);
	const char *k, *ck;
	json_t *v, *c;
	/* each function enters the set (and the queue) once */
	queue = (size_t *)malloc((n + 1) * sizeof(size_t));
	if (!queue)
		abort();
	{
		struct graph g;
		graph_build(&g, fns);
		json_object_foreach(set, k, v) {
			long x = lookup(&g, k);
			if (x >= 0)
				queue[tail++] = (size_t)x;
		}
		while (head < tail) {
			json_t *f = g.fn[queue[head++]];
			json_object_foreach(json_object_get(f, "callers"), ck, c) {
				long x;
				if (json_object_get(set, ck) || (skip && skip(ck)))
					continue;
				json_object_set_new(set, ck, json_true());
				x = lookup(&g, ck);
				if (x >= 0)
					queue[tail++] = (size_t)x;
			}
		}
		graph_free(&g);
	}
	free(queue);
}

static int is_slow(json_t *f)
{
	return json_is_true(json_object_get(f, "slow"));
}

void ch_infer_slow_callees(json_t *fns, int (*candidate)(json_t *f, void *arg), void *arg,
			   const char *why)
{
	struct graph g;
	size_t *pending, *queue, head = 0, tail = 0, i;
	const char *ck;
	json_t *c;
	graph_build(&g, fns);
	pending = (size_t *)calloc(g.n + 1, sizeof(size_t));
	queue = (size_t *)malloc((g.n + 1) * sizeof(size_t));
	if (!pending || !queue)
		abort();
	/* pending: callers not (yet) slow; (size_t)-1: never (no callers, or
	 * a caller no unit defines, or not a candidate) */
	for (i = 0; i < g.n; i++) {
		json_t *f = g.fn[i], *callers = json_object_get(f, "callers");
		if (is_slow(f) || !candidate(f, arg) ||
		    json_object_size(callers) +
		    json_object_size(json_object_get(f, "unlikely_callers")) == 0) {
			pending[i] = (size_t)-1;
			continue;
		}
		json_object_foreach(callers, ck, c) {
			json_t *cf = json_object_get(fns, ck);
			if (!cf) {
				pending[i] = (size_t)-1;
				break;
			}
			if (!is_slow(cf))
				pending[i]++;
		}
		if (pending[i] == 0)
			queue[tail++] = i;
	}
	/* a function turned slow settles its callees' counts */
	for (i = 0; i < tail; i++)
		json_object_set_new(g.fn[queue[i]], "slow", json_true());
	while (head < tail) {
		size_t s = queue[head++], j;
		if (!json_object_get(g.fn[s], "slow_why"))
			json_object_set_new(g.fn[s], "slow_why", json_string(why));
		for (j = g.rev_start[s]; j < g.rev_start[s + 1]; j++) {
			size_t f = g.rev[j];
			if (pending[f] == (size_t)-1 || pending[f] == 0)
				continue;
			if (--pending[f] == 0) {
				json_object_set_new(g.fn[f], "slow", json_true());
				queue[tail++] = f;
			}
		}
	}
	free(pending);
	free(queue);
	graph_free(&g);
}
