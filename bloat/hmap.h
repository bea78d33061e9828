/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmap.h -- what the files of bloat/ share: allocation that aborts with a
 * message instead of returning NULL, and a string-keyed hash map (open
 * addressing, FNV-1a; O(1) per operation, grows at half full).
 * Ownership: a map copies its keys (strdup) unless borrow is set, in which
 * case keys must outlive it; values are the caller's (bl_hmap_free can free
 * them).  Errors: none returned; out of memory aborts.
 */
#ifndef CACHEHOT_BLOAT_HMAP_H
#define CACHEHOT_BLOAT_HMAP_H

#include <stddef.h>

void *bl_xmalloc(size_t n);
void *bl_xrealloc(void *p, size_t n);
void *bl_xcalloc(size_t a, size_t b);

struct hent {
	char *key;      /* owned by the map */
	void *val;
};
struct hmap {
	struct hent *tab;
	size_t cap, n;
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
