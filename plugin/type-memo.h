/* SPDX-License-Identifier: GPL-2.0 */
/*
 * type-memo.h -- what plugin/cachehot.c remembers per struct or union type
 * (TYPE_MAIN_VARIANT): its relevance verdict, whether it was judged, and
 * whether its members gave sidecar hints.
 *
 * One open-addressing table keyed by the type's pointer (linear probing,
 * a power-of-two size, grown at half full), instead of two hash_set<tree>
 * and a hash_map<tree, int>: relevant_1() asks about every aggregate
 * member of every struct a unit defines (1 615 members on
 * mm/page_counter.c), and a lookup here is a multiply, a shift and one
 * compare where GCC's hash tables take a prime modulus and a call, about
 * 60 instructions each (bench/plugin-overhead; docs/performance.md
 * "GCC plugin"). The slots come from xcalloc, which plugin/heap.c serves
 * from the plugin's own heap (it exits on failure). Single-threaded, as
 * cc1 is.
 */
#ifndef CACHEHOT_TYPE_MEMO_H
#define CACHEHOT_TYPE_MEMO_H

#include <stdint.h>

struct type_memo_slot {
	tree type;               /* NULL: empty */
	unsigned char verdict;   /* relevant_1's: 0 unknown, 1 relevant, 2 not, 3 group markers */
	unsigned char judged;    /* judge() ran on it (or its no-layout note) */
	unsigned char hinted;    /* hint_members() ran on it */
};

struct type_memo {
	struct type_memo_slot *slots;
	unsigned bits;           /* 1 << bits slots */
	size_t used;
};

static inline size_t type_memo_index(const struct type_memo *m, tree t)
{
	return (size_t)(((uint64_t)(uintptr_t)t * 0x9e3779b97f4a7c15ull) >> (64 - m->bits));
}

static void type_memo_init(struct type_memo *m, unsigned bits)
{
	m->bits = bits;
	m->used = 0;
	m->slots = (struct type_memo_slot *)xcalloc((size_t)1 << bits, sizeof(*m->slots));
}

/* The slot of t, or NULL when t has none. */
static inline struct type_memo_slot *type_memo_find(const struct type_memo *m, tree t)
{
	size_t mask = ((size_t)1 << m->bits) - 1, i = type_memo_index(m, t);
	for (;; i = (i + 1) & mask) {
		struct type_memo_slot *s = &m->slots[i];
		if (s->type == t)
			return s;
		if (!s->type)
			return NULL;
	}
}

static void type_memo_grow(struct type_memo *m)
{
	struct type_memo_slot *old = m->slots;
	size_t n = (size_t)1 << m->bits, i;
	type_memo_init(m, m->bits + 1);
	for (i = 0; i < n; i++)
		if (old[i].type) {
			size_t mask = ((size_t)1 << m->bits) - 1, j = type_memo_index(m, old[i].type);
			while (m->slots[j].type)
				j = (j + 1) & mask;
			m->slots[j] = old[i];
			m->used++;
		}
	free(old);
}

/* The slot of t, made (all zero) when t has none. */
static struct type_memo_slot *type_memo_add(struct type_memo *m, tree t)
{
	size_t mask, i;
	struct type_memo_slot *s = type_memo_find(m, t);
	if (s)
		return s;
	if ((m->used + 1) * 2 > (size_t)1 << m->bits)
		type_memo_grow(m);
	mask = ((size_t)1 << m->bits) - 1;
	for (i = type_memo_index(m, t); m->slots[i].type; i = (i + 1) & mask)
		;
	m->slots[i].type = t;
	m->used++;
	return &m->slots[i];
}

#endif
