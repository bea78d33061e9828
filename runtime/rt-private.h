/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt-private.h -- libcachehot-rt's tables, shared by the recorder (rt.c) and
 * the profile writer (profile.c); not installed. Every name here is hidden
 * (the library is built with -fvisibility=hidden).
 */
#ifndef CACHEHOT_RT_PRIVATE_H
#define CACHEHOT_RT_PRIVATE_H
#include "cachehot-rt.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define LIKELY(x) __builtin_expect(!!(x), 1)

enum { K_READ, K_WRITE, K_RMW, NKIND };

#define MAX_MEMBERS  65536
#define MAX_SITES    (1u << 17)
#define HOLDERS      8
#define PAIRS        16
#define PROBES       64

struct member {
	char *sname, *path;
	uint32_t off, size, ssize;
	int by_typedef;             /* sname is a typedef's name, not a tag */
	uint64_t threads[NKIND];    /* bit tid%64 */
	uint32_t hash;
	int next;                   /* hash chain */
};

struct site {
	const char *key;            /* published last (release) */
	int member;
	uint32_t asize;
};

struct holder {
	uint32_t tid1;              /* thread number + 1; 0 = free slot */
	uint64_t last;              /* the line's sequence number at its last access */
	uint64_t mask[2];           /* bytes touched since it got the line */
	uint64_t wrote[2];          /* bytes it ever wrote (while in this slot) */
};

struct pair {
	uint64_t key;               /* (a + 1) << 32 | objects << 31 | (b + 1); 0 = free */
	uint64_t nfalse, ntrue;
};

/* No lock: every field is read and written with relaxed atomics, so that
 * the threads that share a line interleave in the model as they do on the
 * line itself (a lock serializes them into bursts, and the model then sees
 * few transfers). A line's accesses are ordered by its sequence number. */
struct line {
	uintptr_t key;              /* line index + 1; 0 = free */
	uint64_t seq;               /* accesses so far */
	uint64_t last_write;        /* seq of the last write or RMW */
	struct holder h[HOLDERS];
	uint64_t mapver;            /* bumped (release) after any change of map[] */
	uint64_t count[NKIND];
	uint64_t threads[NKIND];
	uint64_t xfalse, xtrue, pairs_other;
	struct pair p[PAIRS];
	/* each byte's member + 1 (0: none seen; low half) and the start of
	 * the object holding it, relative to the line's first byte (high
	 * half): one word, so that a check of a byte is one compare */
	uint64_t map[128];
};

struct table {
	unsigned shift;             /* log2 line size */
	unsigned bits;              /* log2 slots */
	struct line *l;
	uint64_t dropped;
	/* the slots in use, in the order they were taken: the profile reads
	 * these, not the whole table (reading every slot of a table mapped
	 * with MAP_NORESERVE faulted in 750 MB of zero pages at each dump:
	 * 181000 page faults and 0.08 s of CPU for a program that did nothing) */
	uint32_t *used;
	uint32_t nused;
};

/* A thread's view of a line it touched last (per table, direct-mapped by
 * line index): an access it can settle from here leaves the shared model
 * alone (see fast()). */
#define LCACHE 64
struct lcache {
	uintptr_t key;              /* line index + 1; 0 = empty */
	struct line *l;
	struct holder *me;          /* its slot on the line */
	uint64_t seq;               /* the line's seq after its last modelled access */
	uint64_t pend[NKIND];       /* accesses settled here, not yet in l->count */
	unsigned kinds;             /* kinds already in l->threads */
	int excl;                   /* after that access no other thread held the line */
};

/* A thread's memo of one recent access (site, address, kind), direct-mapped:
 * which member it is and where its bytes are, so that a repeat is settled
 * without resolving the site, recomputing the bytes or checking the bytes'
 * member map (the line's mapver says the map is unchanged); see
 * memo_settle() in rt.c. */
#define MEMO 256
struct memo {
	const char *site;           /* NULL: empty */
	uintptr_t addr;
	int kind, member;
	struct lcache *e[2];        /* the thread's entries of the line, per table */
	uintptr_t key[2];           /* e[i]->key when memoized (the entry may move on) */
	uint64_t ver[2];            /* the line's mapver when the bytes were checked */
	uint64_t bm[2][2];          /* the bytes, as masks of the line, per table */
};

struct thr {
	uint64_t calls;             /* calls into the entry points */
	struct memo memo[MEMO];
	struct lcache cache[2][LCACHE];   /* 64- and 128-byte lines */
	uint64_t modelled[2], settled[2]; /* line accesses run through model() / fast() */
	uint64_t memo_settled;      /* accesses settled from the memo (memo_settle()) */
	uint32_t tid;
	uint64_t rng;               /* xorshift state: the gap to the next sample */
	int in_rt;
	uint64_t (*cnt)[NKIND];     /* [MAX_MEMBERS] */
	struct thr *next;
};

#define LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define MAP(m1, rel) ((uint64_t)(uint32_t)(m1) | (uint64_t)(uint32_t)(rel) << 32)
#define MAP_MEM(v) ((int32_t)(uint32_t)(v))          /* member + 1 */
#define MAP_BASE(v) ((int32_t)(uint32_t)((v) >> 32))
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ADD(x, v) __atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)

/* rt.c's state that the profile reads (under reg) */
extern pthread_mutex_t reg;
extern struct member *members;
extern int nmembers;
extern struct thr *threads;
extern uint32_t next_tid;
extern uint32_t sample_n;
extern struct table t64, t128;
#define TABLE_NO(t) ((t) == &t128)
extern uint64_t dropped_signal;
extern struct timespec t_start;
extern char out_template[PATH_MAX];
extern int quiet;

/* rt.c */
uint32_t hash64(uint64_t k, unsigned bits);
/* sites.c: the site of a site string (NULL: the table is full), its member
 * resolved (-1: none); sites_init maps the table, sites_ready says it is */
struct site *site_of(const char *key);
void sites_init(void);
int sites_ready(void);
uint64_t pending(struct table *t, struct line *l, int kind);   /* counts still in threads' caches */
/* profile.c: writes the profile (to CACHEHOT_RT_OUT, or path); under reg.
 * Returns 0, or -1 with errno set. */
int write_profile(const char *path);

#endif
