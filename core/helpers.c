/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.c -- the small helpers every folder uses (cachehot-core.h): an
 * allocation that aborts instead of returning NULL (and CH_GROW, a macro on
 * it) and the project's one hash index: open addressing with linear probing over slots that hold an
 * item number + 1 (0: empty), grown to twice its size at half full. The
 * items live in an array of the caller's; the index only finds them, with
 * the caller's hash and equality. O(1) expected per lookup or addition.
 * Hashes: FNV-1a over bytes (64 bits), a mix of a pointer's bits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void *ch_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fputs("cachehot: out of memory\n", stderr);
		abort();
	}
	return q;
}

/* Eight bytes a step: names are looked up per member of every judged
 * struct and per function DIE of every object (a byte loop, FNV-1a, was
 * 3 % of a census and most of the sidecar's look-ups) */
void ch_grow_put(struct ch_grow *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->len + n)
			cap *= 2;
		b->p = (unsigned char *)ch_xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

uint64_t ch_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	const uint64_t k = 0x9E3779B97F4A7C15ull;
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)n << 56), w;
	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	for (w = 0; n; n--)   /* (memcpy of a variable length: a libc call) */
		w = (w << 8) | s[n - 1];
	h = (h ^ w) * k;
	return h ^ (h >> 32);
}

uint64_t ch_hash_str(const char *s)
{
	return ch_hash_bytes(s, strlen(s));
}

uint64_t ch_hash_ptr(const void *p)
{
	uint64_t v = (uint64_t)(uintptr_t)p;
	v ^= v >> 29;
	v *= 0xbf58476d1ce4e5b9ull;
	v ^= v >> 32;
	return v;
}

size_t ch_index_find(const struct ch_index *ix, uint64_t h, ch_index_eq_fn eq, const void *key,
		     const void *arg)
{
	size_t i;
	if (!ix->cap)
		return CH_INDEX_NONE;
	for (i = (size_t)h & (ix->cap - 1); ix->slot[i]; i = (i + 1) & (ix->cap - 1))
		if (eq(ix->slot[i] - 1, key, arg))
			return ix->slot[i] - 1;
	return CH_INDEX_NONE;
}

static void put(struct ch_index *ix, size_t item, uint64_t h)
{
	size_t i;
	for (i = (size_t)h & (ix->cap - 1); ix->slot[i]; i = (i + 1) & (ix->cap - 1))
		;
	ix->slot[i] = item + 1;
}

void ch_index_add(struct ch_index *ix, size_t item, uint64_t h, ch_index_hash_fn hash,
		  const void *arg)
{
	if (2 * (ix->n + 1) > ix->cap) {
		size_t *old = ix->slot, oldcap = ix->cap, i;
		ix->cap = oldcap ? 2 * oldcap : 64;
		ix->slot = (size_t *)ch_xrealloc(NULL, ix->cap * sizeof(size_t));
		memset(ix->slot, 0, ix->cap * sizeof(size_t));
		for (i = 0; i < oldcap; i++)
			if (old[i])
				put(ix, old[i] - 1, hash(old[i] - 1, arg));
		free(old);
	}
	put(ix, item, h);
	ix->n++;
}

void ch_index_free(struct ch_index *ix)
{
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}
