/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmap.h -- what the files of bloat/ share: allocation that aborts with a
 * message instead of returning NULL, and a string-keyed map (the core's
 * hash index, core/helpers.c; O(1) expected per operation).
 * Ownership: a map copies its keys (strdup) unless borrow is set, in which
 * case keys must outlive it; values are the caller's (bl_hmap_free can free
 * them).  Errors: none returned; out of memory aborts.
 */
#ifndef CACHEHOT_BLOAT_HMAP_H
#define CACHEHOT_BLOAT_HMAP_H

#include <stddef.h>
#include "../core/cachehot-core.h"

void *bl_xmalloc(size_t n);
void *bl_xrealloc(void *p, size_t n);
void *bl_xcalloc(size_t a, size_t b);

struct hent {
	char *key;      /* owned by the map */
	void *val;
};
struct hmap {
	struct hent *v;             /* the entries, in the order they were put */
	size_t n, cap;
	struct ch_index ix;         /* core/helpers.c */
	int borrow;     /* keys are not copied (they outlive the map) */
};

/* Entry for key, or NULL. */
struct hent *bl_hmap_get(struct hmap *m, const char *key);
/* Entry for key, created (val NULL) when absent. */
struct hent *bl_hmap_put(struct hmap *m, const char *key);
/* Frees the keys (unless borrowed), each value through freeval when not
 * NULL, and the table; the map is empty and usable again. */
void bl_hmap_free(struct hmap *m, void (*freeval)(void *));

#endif
