// SPDX-License-Identifier: GPL-2.0
/* hmap.c -- allocation helpers and the string-keyed hash map of bloat/
 * (see hmap.h). */
#include "hmap.h"

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

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct hent *hmap_slot(struct hmap *m, const char *key)
{
	size_t i = hash_str(key) & (m->cap - 1);
	while (m->tab[i].key && strcmp(m->tab[i].key, key))
		i = (i + 1) & (m->cap - 1);
	return &m->tab[i];
}

struct hent *bl_hmap_get(struct hmap *m, const char *key)
{
	struct hent *e;
	if (!m->cap)
		return NULL;
	e = hmap_slot(m, key);
	return e->key ? e : NULL;
}

struct hent *bl_hmap_put(struct hmap *m, const char *key)
{
	struct hent *e;
	if ((m->n + 1) * 2 > m->cap) {
		struct hmap nm = { bl_xcalloc(m->cap ? m->cap * 2 : 64, sizeof(struct hent)),
				   m->cap ? m->cap * 2 : 64, m->n, m->borrow };
		for (size_t i = 0; i < m->cap; i++)
			if (m->tab[i].key)
				*hmap_slot(&nm, m->tab[i].key) = m->tab[i];
		free(m->tab);
		*m = nm;
	}
	e = hmap_slot(m, key);
	if (!e->key) {
		e->key = m->borrow ? (char *)key : strdup(key);
		if (!e->key)
			abort();
		e->val = NULL;
		m->n++;
	}
	return e;
}

void bl_hmap_free(struct hmap *m, void (*freeval)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->tab[i].key) {
			if (!m->borrow)
				free(m->tab[i].key);
			if (freeval)
				freeval(m->tab[i].val);
		}
	free(m->tab);
	memset(m, 0, sizeof(*m));
}
