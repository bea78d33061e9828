// SPDX-License-Identifier: GPL-2.0
/* hmap.c -- allocation helpers and the string-keyed hash map of bloat/
 * (see hmap.h), on the core's hash index. */
#include "hmap.h"
#include "../core/cachehot-core.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *bl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("cachehot-bloat: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *bl_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("cachehot-bloat: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *bl_xcalloc(size_t a, size_t b)
{
	void *p = calloc(a ? a : 1, b ? b : 1);
	if (!p) {
		fputs("cachehot-bloat: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* the entries by key (core's ch_index) */
static int key_eq(size_t item, const void *key, const void *arg)
{
	return !strcmp(((const struct hmap *)arg)->v[item].key, key);
}

static uint64_t key_hash(size_t item, const void *arg)
{
	return ch_hash_str(((const struct hmap *)arg)->v[item].key);
}

struct hent *bl_hmap_get(struct hmap *m, const char *key)
{
	size_t i = ch_index_find(&m->ix, ch_hash_str(key), key_eq, key, m);
	return i == CH_INDEX_NONE ? NULL : &m->v[i];
}

struct hent *bl_hmap_put(struct hmap *m, const char *key)
{
	struct hent *e = bl_hmap_get(m, key);
	if (e)
		return e;
	CH_GROW(m->v, m->n, m->cap, 32);
	e = &m->v[m->n];
	e->key = m->borrow ? (char *)key : strdup(key);
	if (!e->key)
		abort();
	e->val = NULL;
	ch_index_add(&m->ix, m->n, ch_hash_str(key), key_hash, m);
	m->n++;
	return e;
}

void bl_hmap_free(struct hmap *m, void (*freeval)(void *))
{
	for (size_t i = 0; i < m->n; i++) {
		if (!m->borrow)
			free(m->v[i].key);
		if (freeval)
			freeval(m->v[i].val);
	}
	free(m->v);
	ch_index_free(&m->ix);
	memset(m, 0, sizeof(*m));
}
