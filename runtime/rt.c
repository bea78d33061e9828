/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt.c -- libcachehot-rt: the access recorder (cachehot-rt.h).
 *
 * Fast path: a per-thread countdown; 1 access in CACHEHOT_RT_SAMPLE goes to
 * the slow path, which
 *  - resolves the site string to a member (sites[]: by address, lock-free
 *    after the first time; members[]: by text, so that two units share one
 *    member),
 *  - counts the access in the thread's own counters (no shared writes),
 *  - runs the coherence model of the line(s) touched, at 64 and at 128
 *    bytes (model()): the line's holders are the threads that touched it
 *    since the last write, each with the bytes it touched; a write or RMW by
 *    thread T while another thread U holds the line is one transfer, false
 *    sharing when U's bytes and T's are disjoint, true sharing when they
 *    overlap; the member pairs come from the line's byte -> member map.
 *    The model takes no lock (relaxed atomics; a line's accesses ordered by
 *    its sequence number): concurrent accesses may be counted in either
 *    order, never lost.
 * A signal handler that interrupts the slow path of its own thread is not
 * recorded (counted as "dropped"): the runtime's tables are not reentrant.
 *
 * Memory: the line tables are mmap'ed once (MAP_NORESERVE, pages touched
 * only where lines live); a line that finds no free slot within 64 probes is
 * not modelled ("lines_dropped"). fork: the child starts empty (its own
 * profile, its own pid, counting from the fork on).
 */
#define _GNU_SOURCE
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
	uint64_t count[NKIND];
	uint64_t threads[NKIND];
	uint64_t xfalse, xtrue, pairs_other;
	struct pair p[PAIRS];
	int32_t mem[128];           /* member + 1 at each byte; 0: none seen */
	int32_t base[128];          /* start of the object holding each byte,
				     * relative to the line's first byte */
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

/* Accesses to the next sample, per thread (cachehot-rt.h): the recording
 * build decrements it inline and calls in only when it reaches 0 or less;
 * starts at 0, so that a thread's first access comes in. Signed: a signal
 * handler's access that lands between a decrement to 0 and slow()
 * resetting it takes it below 0 and so comes in too (unsigned, it wrapped
 * and that access was neither recorded nor counted dropped). */
EXPORT __thread int __cachehot_rt_countdown __attribute__((tls_model("initial-exec")));

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

struct thr {
	uint64_t calls;             /* calls into the entry points */
	struct lcache cache[2][LCACHE];   /* 64- and 128-byte lines */
	uint64_t modelled[2], settled[2]; /* line accesses run through model() / fast() */
	uint32_t tid;
	uint64_t rng;               /* xorshift state: the gap to the next sample */
	int in_rt;
	uint64_t (*cnt)[NKIND];     /* [MAX_MEMBERS] */
	struct thr *next;
};

static pthread_mutex_t reg = PTHREAD_MUTEX_INITIALIZER;
static struct member *members;
static int nmembers;
static int mhash[1 << 16];
static struct site *sites;
static struct thr *threads;
static uint32_t next_tid;
/* 1 in 1024 by default: with the inline countdown the sampled accesses
 * are the cost (bench/record: x1.26 CPU on accumulators at 1024, x6.6 at 16) */
static uint32_t sample_n = 1024;
static struct table t64 = { 6, 18, NULL, 0, NULL, 0 }, t128 = { 7, 17, NULL, 0, NULL, 0 };
#define TABLE_NO(t) ((t) == &t128)
static volatile sig_atomic_t dump_requested;
static uint64_t dropped_signal;
static struct timespec t_start;
static char out_template[PATH_MAX];
static int quiet;
static int ready;
static __thread struct thr *self __attribute__((tls_model("initial-exec")));

/* ---- tables ---------------------------------------------------------------- */

static void *map(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void table_init(struct table *t)
{
	t->l = map(sizeof(struct line) << t->bits);
	t->used = map(sizeof(*t->used) << t->bits);
	t->dropped = 0;
	t->nused = 0;
}

static void table_reset(struct table *t)
{
	if (t->l)
		munmap(t->l, sizeof(struct line) << t->bits);
	if (t->used)
		munmap(t->used, sizeof(*t->used) << t->bits);
	table_init(t);
}

static uint32_t hash64(uint64_t k, unsigned bits)
{
	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static uint32_t hash_str(const char *a, const char *b)
{
	uint32_t h = 2166136261u;
	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 16777619u;
	h = (h ^ '.') * 16777619u;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 16777619u;
	return h;
}

/* The line with index idx; NULL when the table is full there. */
static struct line *line_get(struct table *t, uintptr_t idx)
{
	uintptr_t key = idx + 1;
	uint32_t i = hash64(key, t->bits), mask = (1u << t->bits) - 1, n;
	if (!t->l || !t->used)
		return NULL;
	for (n = 0; n < PROBES; n++, i = (i + 1) & mask) {
		struct line *l = &t->l[i];
		uintptr_t k = __atomic_load_n(&l->key, __ATOMIC_ACQUIRE);
		if (k == 0) {
			uintptr_t zero = 0;
			if (!__atomic_compare_exchange_n(&l->key, &zero, key, 0, __ATOMIC_ACQ_REL,
							  __ATOMIC_ACQUIRE)) {
				k = zero;
			} else {
				k = key;
				t->used[__atomic_fetch_add(&t->nused, 1, __ATOMIC_RELAXED)] = i;
			}
		}
		if (k == key)
			return l;
	}
	__atomic_fetch_add(&t->dropped, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* ---- members and sites ----------------------------------------------------- */

static char *field(const char **p)
{
	const char *s = *p, *e = strchr(s, '\t');
	size_t n = e ? (size_t)(e - s) : strlen(s);
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = 0;
	*p = e ? e + 1 : s + n;
	return r;
}

static uint32_t num(const char **p)
{
	char *f = field(p);
	uint32_t v = f ? (uint32_t)strtoul(f, NULL, 10) : 0;
	free(f);
	return v;
}

/* Under reg. Returns the member id, or -1. */
static int member_of(const char *site, uint32_t *asize)
{
	const char *p = site;
	char *ver = field(&p), *sname = field(&p), *path = field(&p);
	uint32_t off = num(&p), size = num(&p), ssize = num(&p), h, b;
	int id = -1, td;
	*asize = num(&p);
	td = *p == 't';
	if (!ver || strcmp(ver, "1") || !sname || !path || !members)
		goto out;
	h = hash_str(sname, path);
	b = h & ((1u << 16) - 1);
	for (id = mhash[b] - 1; id >= 0; id = members[id].next)
		if (members[id].hash == h && !strcmp(members[id].sname, sname) &&
		    !strcmp(members[id].path, path))
			goto out;
	if (nmembers >= MAX_MEMBERS) {
		id = -1;
		goto out;
	}
	id = nmembers++;
	members[id] = (struct member){ sname, path, off, size, ssize, td, { 0, 0, 0 }, h, mhash[b] - 1 };
	mhash[b] = id + 1;
	sname = path = NULL;
out:
	free(ver);
	free(sname);
	free(path);
	return id;
}

static struct site *site_of(const char *key)
{
	uint32_t i = hash64((uintptr_t)key, 17), n;
	struct site *s;
	if (!sites)
		return NULL;
	for (n = 0; n < MAX_SITES; n++, i = (i + 1) & (MAX_SITES - 1)) {
		s = &sites[i];
		const char *k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (k == key)
			return s;
		if (!k)
			break;
	}
	/* not seen yet: insert under reg */
	pthread_mutex_lock(&reg);
	i = hash64((uintptr_t)key, 17);
	for (n = 0; n < MAX_SITES; n++, i = (i + 1) & (MAX_SITES - 1)) {
		s = &sites[i];
		if (s->key == key)
			break;
		if (!s->key) {
			s->member = member_of(key, &s->asize);
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&reg);
	return n < MAX_SITES ? s : NULL;
}

/* ---- threads --------------------------------------------------------------- */

static struct thr *thread_new(void)
{
	struct thr *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cnt = map(sizeof(*t->cnt) * MAX_MEMBERS);
	pthread_mutex_lock(&reg);
	t->tid = next_tid++;
	t->rng = 0x9E3779B97F4A7C15ull * (t->tid + 1);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&reg);
	return t;
}

/* ---- the coherence model ----------------------------------------------------- */

#define LD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define ST(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ADD(x, v) __atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)

/* objects: a and b are in two objects (of one struct or two), not in one */
static void pair_add(struct line *l, int a, int b, int objects, int is_true)
{
	uint64_t key = ((uint64_t)(uint32_t)(a + 1) << 32) | ((uint64_t)!!objects << 31) |
		       ((uint32_t)(b + 1) & 0x7fffffffu);
	int i;
	for (i = 0; i < PAIRS; i++) {
		struct pair *p = &l->p[i];
		uint64_t k = LD(p->key);
		if (k == 0) {
			uint64_t zero = 0;
			if (__atomic_compare_exchange_n(&p->key, &zero, key, 0, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
				k = key;
			else
				k = zero;
		}
		if (k == key) {
			ADD(*(is_true ? &p->ntrue : &p->nfalse), 1);
			return;
		}
	}
	ADD(l->pairs_other, 1);
}

static int pair_a(const struct pair *p)
{
	return (int)(uint32_t)(p->key >> 32) - 1;
}

static int pair_b(const struct pair *p)
{
	return (int)((uint32_t)p->key & 0x7fffffffu) - 1;
}

static int pair_objects(const struct pair *p)
{
	return (int)((p->key >> 31) & 1);
}

/* Are the member a of the object at base ba and the member b of the one at
 * bb in one object? One struct, and starts less than its size apart (the
 * start is estimated as the address less the member's offset, which is
 * exact for a whole member and a few bytes off inside an array member). */
static int one_object(int a, uintptr_t ba, int b, uintptr_t bb)
{
	if (a < 0 || b < 0)
		return 0;
	if (a != b && strcmp(members[a].sname, members[b].sname))
		return 0;
	return (ba > bb ? ba - bb : bb - ba) < members[a].ssize;
}

/* The slot of thread tid: its own, a free one, or the least recent one's. */
static struct holder *slot_of(struct line *l, uint32_t tid)
{
	uint32_t want = tid + 1;
	struct holder *old = &l->h[0];
	int i;
	for (i = 0; i < HOLDERS; i++)
		if (LD(l->h[i].tid1) == want)
			return &l->h[i];
	for (i = 0; i < HOLDERS; i++) {
		uint32_t zero = 0;
		if (!LD(l->h[i].tid1) && __atomic_compare_exchange_n(&l->h[i].tid1, &zero, want, 0,
								     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return &l->h[i];
		if (LD(l->h[i].last) < LD(old->last))
			old = &l->h[i];
	}
	ST(old->tid1, want);   /* the oldest leaves */
	ST(old->last, 0);
	ST(old->wrote[0], 0);
	ST(old->wrote[1], 0);
	return old;
}

/* One access of bytes [first, first+n) of line l (all within it). A thread
 * holds the line when it touched it at or after the last write; a write by
 * T is one transfer for each other holder U: false sharing when U's bytes
 * and T's are disjoint, true sharing when they overlap or when U wrote T's
 * bytes before (threads that write the same data share it). */
static uint64_t model(struct line *l, uintptr_t laddr, unsigned first, unsigned n, int kind, int member,
		      uintptr_t base, uint32_t tid, struct holder **slot, int *excl)
{
	int32_t rel = (int32_t)(base - laddr);
	uint64_t bm[2] = { 0, 0 }, s, lw;
	unsigned b;
	int i;
	struct holder *me;
	for (b = first; b < first + n; b++) {
		bm[b >> 6] |= 1ull << (b & 63);
		if (member >= 0 && LD(l->mem[b]) != member + 1)
			ST(l->mem[b], member + 1);
		if (LD(l->base[b]) != rel)
			ST(l->base[b], rel);
	}
	s = ADD(l->seq, 1) + 1;   /* the count: in the caller's cache entry */
	if (!(LD(l->threads[kind]) & (1ull << (tid & 63))))
		__atomic_fetch_or(&l->threads[kind], 1ull << (tid & 63), __ATOMIC_RELAXED);
	me = slot_of(l, tid);
	*slot = me;
	lw = LD(l->last_write);
	if (kind == K_READ) {
		if (LD(me->last) < lw) {   /* its copy went with a later write */
			ST(me->mask[0], bm[0]);
			ST(me->mask[1], bm[1]);
		} else {
			ST(me->mask[0], LD(me->mask[0]) | bm[0]);
			ST(me->mask[1], LD(me->mask[1]) | bm[1]);
		}
		ST(me->last, s);
		*excl = 1;
		for (i = 0; i < HOLDERS; i++)
			if (&l->h[i] != me && LD(l->h[i].tid1) && LD(l->h[i].last) &&
			    LD(l->h[i].last) >= lw)
				*excl = 0;
		return s;
	}
	for (i = 0; i < HOLDERS; i++) {
		struct holder *h = &l->h[i];
		uint64_t hm[2], last = LD(h->last);
		int is_true, seen[4], nseen = 0, k;
		if (h == me || !LD(h->tid1) || !last || last < lw)
			continue;
		hm[0] = LD(h->mask[0]);
		hm[1] = LD(h->mask[1]);
		/* true sharing: U touched these bytes since it got the line, or
		 * wrote them before (both threads write that data: moving it
		 * to another line would move the transfers with it) */
		is_true = (hm[0] & bm[0]) || (hm[1] & bm[1]) || (LD(h->wrote[0]) & bm[0]) ||
			  (LD(h->wrote[1]) & bm[1]);
		ADD(*(is_true ? &l->xtrue : &l->xfalse), 1);
		/* false sharing: the members of U's bytes; true sharing: the
		 * written bytes' member (the set bits, in order: was a walk of
		 * all 128 bytes per transfer) */
		uint64_t w[2] = { (is_true ? bm : hm)[0], (is_true ? bm : hm)[1] };
		for (b = 0; b < 128; b++) {
			int m;
			if (!w[b >> 6]) {
				b |= 63;
				continue;
			}
			b = (b & 64) | (unsigned)__builtin_ctzll(w[b >> 6]);
			w[b >> 6] &= w[b >> 6] - 1;
			m = LD(l->mem[b]) - 1;
			for (k = 0; k < nseen && seen[k] != m; k++)
				;
			if (k < nseen)
				continue;
			if (nseen < 4)
				seen[nseen++] = m;
			pair_add(l, member, m,
				 !one_object(member, base, m, laddr + (uintptr_t)(intptr_t)LD(l->base[b])),
				 is_true);
		}
	}
	ST(me->mask[0], bm[0]);
	ST(me->mask[1], bm[1]);
	ST(me->wrote[0], LD(me->wrote[0]) | bm[0]);
	ST(me->wrote[1], LD(me->wrote[1]) | bm[1]);
	ST(me->last, s);
	/* the largest sequence number wins when two writes race */
	while (lw < s && !__atomic_compare_exchange_n(&l->last_write, &lw, s, 0, __ATOMIC_RELAXED,
						      __ATOMIC_RELAXED))
		;
	*excl = 1;   /* the other holders' copies went with this write */
	return s;
}

/* The bytes [first, first + n) of a line (at most 128) as a mask. */
static void byte_mask(unsigned first, unsigned n, uint64_t bm[2])
{
	unsigned w;
	for (w = 0; w < 2; w++) {
		unsigned lo = first > 64 * w ? first : 64 * w, hi = first + n < 64 * w + 64 ? first + n : 64 * w + 64;
		bm[w] = lo >= hi ? 0 : (hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1) << (lo - 64 * w));
	}
}

/* An access the thread can settle from its cache entry e of line l, as
 * model() would (same counts, same later transfers), without touching the
 * line's shared fields: the thread still has its slot, the bytes' member
 * map says what it says, and
 *  - a read: the thread's copy is current (touched at or after the last
 *    write): model() would only add the bytes to its mask (and move its
 *    sequence number, which no decision of the model reads but the order
 *    in which a line's 9th thread evicts one);
 *  - a write or RMW: no other thread has touched the line since this
 *    thread's last modelled access, after which no other thread held it:
 *    no transfer; the bytes become its mask.
 * The count waits in e->pend (added to the line's when the entry is
 * reused, and by the profile). Returns 0 when model() must run. */
static int fast(struct lcache *e, struct line *l, unsigned first, unsigned n, int kind, int member,
		int32_t rel, uint32_t tid)
{
	struct holder *me = e->me;
	uint64_t bm[2];
	unsigned b;
	if (!(e->kinds & (1u << kind)) || LD(me->tid1) != tid + 1)
		return 0;
	for (b = first; b < first + n; b++)
		if ((member >= 0 && LD(l->mem[b]) != member + 1) || LD(l->base[b]) != rel)
			return 0;
	byte_mask(first, n, bm);
	if (kind == K_READ) {
		if (LD(me->last) < LD(l->last_write))
			return 0;
		if ((LD(me->mask[0]) & bm[0]) != bm[0])
			ST(me->mask[0], LD(me->mask[0]) | bm[0]);
		if ((LD(me->mask[1]) & bm[1]) != bm[1])
			ST(me->mask[1], LD(me->mask[1]) | bm[1]);
	} else {
		if (!e->excl || LD(l->seq) != e->seq)
			return 0;
		ST(me->mask[0], bm[0]);
		ST(me->mask[1], bm[1]);
		if ((LD(me->wrote[0]) & bm[0]) != bm[0])
			ST(me->wrote[0], LD(me->wrote[0]) | bm[0]);
		if ((LD(me->wrote[1]) & bm[1]) != bm[1])
			ST(me->wrote[1], LD(me->wrote[1]) | bm[1]);
	}
	ST(e->pend[kind], LD(e->pend[kind]) + 1);
	return 1;
}

/* Move an entry's waiting counts to its line. */
static void lcache_flush(struct lcache *e)
{
	int k;
	for (k = 0; k < NKIND; k++) {
		uint64_t n = LD(e->pend[k]);
		if (n) {
			ADD(e->l->count[k], n);
			ST(e->pend[k], 0);
		}
	}
}

static void model_table(struct table *t, struct thr *th, uintptr_t a, uint32_t n, int kind, int member)
{
	struct lcache *cache = th->cache[TABLE_NO(t)];
	uint32_t tid = th->tid;
	uintptr_t base = member >= 0 ? a - members[member].off : a;
	uintptr_t end = a + (n ? n : 1), ls = (uintptr_t)1 << t->shift;
	int guard = 0;
	while (a < end && guard++ < 64) {
		uintptr_t idx = a >> t->shift, lend = (idx + 1) << t->shift;
		uintptr_t stop = end < lend ? end : lend;
		uintptr_t laddr = idx << t->shift;
		unsigned first = (unsigned)(a & (ls - 1)), len = (unsigned)(stop - a);
		struct lcache *e = &cache[idx & (LCACHE - 1)];
		struct line *l;
		a = stop;
		if (e->key == idx + 1 &&
		    fast(e, e->l, first, len, kind, member, (int32_t)(base - laddr), tid)) {
			th->settled[TABLE_NO(t)]++;
			continue;
		}
		l = e->key == idx + 1 ? e->l : line_get(t, idx);
		if (!l)
			continue;
		if (e->key && e->key != idx + 1)
			lcache_flush(e);
		if (e->key != idx + 1) {
			memset(e, 0, sizeof(*e));
			e->key = idx + 1;
			e->l = l;
		}
		e->seq = model(l, laddr, first, len, kind, member, base, tid, &e->me, &e->excl);
		e->pend[kind]++;
		th->modelled[TABLE_NO(t)]++;
		e->kinds |= 1u << kind;
	}
}

/* The accesses of line l of table t still waiting in the threads' caches. */
static uint64_t pending(struct table *t, struct line *l, int kind)
{
	uint64_t n = 0;
	struct thr *th;
	int i;
	for (th = threads; th; th = th->next)
		for (i = 0; i < LCACHE; i++)
			if (th->cache[TABLE_NO(t)][i].l == l)
				n += LD(th->cache[TABLE_NO(t)][i].pend[kind]);
	return n;
}

static void maybe_dump(void);

static void slow(const void *addr, const char *key, int kind)
{
	struct thr *t = self;
	struct site *s;
	if (!ready)
		return;
	if (!t) {
		t = thread_new();
		if (!t)
			return;
		self = t;
		t->calls++;
	}
	/* the next sample after 1..2N-1 accesses (mean N): a fixed gap would
	 * see only the loads of a loop that loads and stores in turn */
	if (sample_n > 1) {
		t->rng ^= t->rng << 13;
		t->rng ^= t->rng >> 7;
		t->rng ^= t->rng << 17;
		__cachehot_rt_countdown = 1 + (int)(t->rng % (2 * sample_n - 1));
	} else {
		__cachehot_rt_countdown = 1;
	}
	if (t->in_rt) {
		__atomic_fetch_add(&dropped_signal, 1, __ATOMIC_RELAXED);
		return;
	}
	t->in_rt = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s = site_of(key);
	if (s) {
		int m = s->member;
		if (m >= 0) {
			uint64_t bit = 1ull << (t->tid & 63);
			if (t->cnt)
				t->cnt[m][kind]++;
			if (!(__atomic_load_n(&members[m].threads[kind], __ATOMIC_RELAXED) & bit))
				__atomic_fetch_or(&members[m].threads[kind], bit, __ATOMIC_RELAXED);
		}
		model_table(&t64, t, (uintptr_t)addr, s->asize, kind, m);
		model_table(&t128, t, (uintptr_t)addr, s->asize, kind, m);
	}
	if (dump_requested)
		maybe_dump();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->in_rt = 0;
}

/* A recording build calls these when its inline countdown reaches 0 (one
 * call per access of the batch that reached it, in order); a build of an
 * older plugin calls them on every access. */
#define ENTRY(name, kind)                                        \
	EXPORT void name(const void *addr, const char *site)     \
	{                                                        \
		struct thr *t = self;                            \
		if (t)                                           \
			t->calls++;                              \
		if (LIKELY(t && --__cachehot_rt_countdown > 0))  \
			return;                                  \
		slow(addr, site, kind);                          \
	}
ENTRY(__cachehot_rt_load, K_READ)
ENTRY(__cachehot_rt_store, K_WRITE)
ENTRY(__cachehot_rt_rmw, K_RMW)

/* ---- the profile --------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static int popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* Member pairs summed over every line of t: open addressing on the pair key. */
static struct pair *aggregate(struct table *t, size_t *cap_out)
{
	size_t cap = 1024, n = 0, i;
	struct pair *h = calloc(cap, sizeof(*h));
	if (!h || !t->l || !t->used)
		goto done;
	for (i = 0; i < t->nused; i++) {
		struct line *l = &t->l[t->used[i]];
		int j;
		if (!l->key || l->xfalse + l->xtrue == 0)
			continue;
		for (j = 0; j < PAIRS; j++) {
			struct pair *p = &l->p[j];
			size_t k;
			if (!p->key || p->nfalse + p->ntrue == 0)
				continue;
			if (2 * (n + 1) > cap) {   /* grow */
				struct pair *g = calloc(cap * 2, sizeof(*g));
				size_t q;
				if (!g)
					goto done;
				for (q = 0; q < cap; q++)
					if (h[q].key) {
						size_t r = hash64(h[q].key, 30) & (cap * 2 - 1);
						while (g[r].key)
							r = (r + 1) & (cap * 2 - 1);
						g[r] = h[q];
					}
				free(h);
				h = g;
				cap *= 2;
			}
			k = hash64(p->key, 30) & (cap - 1);
			while (h[k].key && h[k].key != p->key)
				k = (k + 1) & (cap - 1);
			if (!h[k].key) {
				h[k].key = p->key;
				n++;
			}
			h[k].nfalse += p->nfalse;
			h[k].ntrue += p->ntrue;
		}
	}
done:
	*cap_out = h ? cap : 0;
	return h;
}

static void member_ref(FILE *f, int m)
{
	if (m < 0 || m >= nmembers) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	fputs(members[m].sname, f);
	fputc('.', f);
	fputs(members[m].path, f);
	fputc('"', f);
}

static void dump_table(FILE *f, struct table *t, const char *name)
{
	size_t i, cap = 0, nl = 0;
	struct pair *a;
	int first = 1;
	uint64_t modelled = 0, settled = 0;
	struct thr *th;
	for (th = threads; th; th = th->next) {
		modelled += th->modelled[TABLE_NO(t)];
		settled += th->settled[TABLE_NO(t)];
	}
	fprintf(f, ",\n\"%s\":{\"line_size\":%u,\"lines_dropped\":%llu,\"modelled\":%llu,"
		"\"settled_in_thread\":%llu,\"sharing\":[", name, 1u << t->shift,
		(unsigned long long)t->dropped, (unsigned long long)modelled, (unsigned long long)settled);
	a = aggregate(t, &cap);
	for (i = 0; i < cap; i++) {
		if (!a[i].key)
			continue;
		fprintf(f, "%s\n {\"a\":", first ? "" : ",");
		member_ref(f, pair_a(&a[i]));
		fputs(",\"b\":", f);
		member_ref(f, pair_b(&a[i]));
		fprintf(f, ",\"objects\":%s,\"false_sharing\":%llu,\"true_sharing\":%llu}",
			pair_objects(&a[i]) ? "\"two\"" : "\"one\"",
			(unsigned long long)a[i].nfalse, (unsigned long long)a[i].ntrue);
		first = 0;
	}
	free(a);
	fputs("],\n\"lines\":[", f);
	first = 1;
	/* lines that more than one thread touched, at most 4096 */
	for (i = 0; t->l && t->used && i < t->nused && nl < 4096; i++) {
		struct line *l = &t->l[t->used[i]];
		int j, k;
		if (!l->key || popcount(l->threads[0] | l->threads[1] | l->threads[2]) < 2)
			continue;
		nl++;
		fprintf(f, "%s\n {\"addr\":\"0x%llx\",\"reads\":%llu,\"writes\":%llu,\"rmws\":%llu,"
			"\"reader_threads\":%d,\"writer_threads\":%d,\"rmw_threads\":%d,"
			"\"transfers\":%llu,\"false_sharing\":%llu,\"true_sharing\":%llu,\"members\":[",
			first ? "" : ",", (unsigned long long)((l->key - 1) << t->shift),
			(unsigned long long)(l->count[0] + pending(t, l, 0)),
			(unsigned long long)(l->count[1] + pending(t, l, 1)),
			(unsigned long long)(l->count[2] + pending(t, l, 2)), popcount(l->threads[0]), popcount(l->threads[1]),
			popcount(l->threads[2]), (unsigned long long)(l->xfalse + l->xtrue),
			(unsigned long long)l->xfalse, (unsigned long long)l->xtrue);
		first = 0;
		/* byte ranges of each member seen on the line */
		for (j = 0, k = 0; j < (1 << t->shift);) {
			int m = l->mem[j] - 1, s0 = j;
			while (j < (1 << t->shift) && l->mem[j] - 1 == m)
				j++;
			if (m < 0)
				continue;
			fprintf(f, "%s{\"member\":", k++ ? "," : "");
			member_ref(f, m);
			fprintf(f, ",\"from\":%d,\"to\":%d}", s0, j);
		}
		fputs("],\"pairs\":[", f);
		for (j = 0, k = 0; j < PAIRS; j++) {
			struct pair *p = &l->p[j];
			if (p->nfalse + p->ntrue == 0)
				continue;
			fprintf(f, "%s{\"a\":", k++ ? "," : "");
			member_ref(f, pair_a(p));
			fputs(",\"b\":", f);
			member_ref(f, pair_b(p));
			fprintf(f, ",\"objects\":%s,\"false_sharing\":%llu,\"true_sharing\":%llu}",
				pair_objects(p) ? "\"two\"" : "\"one\"",
				(unsigned long long)p->nfalse, (unsigned long long)p->ntrue);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}

static void out_path(char *buf, size_t n, const char *path)
{
	struct stat st;
	const char *tpl = path ? path : out_template;
	char prog[256] = "prog";
	size_t o = 0;
	ssize_t r = readlink("/proc/self/exe", buf, n - 1);
	if (r > 0) {
		buf[r] = 0;
		snprintf(prog, sizeof(prog), "%s", strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf);
	}
	if (!*tpl)
		tpl = "cachehot-rt.%p.json";
	if (stat(tpl, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, n, "%s/cachehot-rt.%s.%d.json", tpl, prog, (int)getpid());
		return;
	}
	for (; *tpl && o + 16 < n; tpl++) {
		if (tpl[0] == '%' && tpl[1] == 'p') {
			o += (size_t)snprintf(buf + o, n - o, "%d", (int)getpid());
			tpl++;
		} else {
			buf[o++] = *tpl;
		}
	}
	buf[o] = 0;
}

static int write_profile(const char *path)
{
	char final[PATH_MAX], tmp[PATH_MAX + 32], exe[PATH_MAX];
	struct timespec now;
	FILE *f;
	int i, fd, first = 1, err;
	struct thr *t;
	uint64_t calls = 0;
	ssize_t r;
	double secs;

	out_path(final, sizeof(final), path);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", final, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - t_start.tv_sec) + (now.tv_nsec - t_start.tv_nsec) / 1e9;
	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[r > 0 ? r : 0] = 0;
	fputs("{\"cachehot_profile\":1,\"program\":", f);
	json_str(f, exe);
	for (t = threads; t; t = t->next)
		calls += t->calls;
	fprintf(f, ",\"pid\":%d,\"seconds\":%.6f,\"sample\":%u,\"threads\":%u,\"dropped_in_signal\":%llu,"
		"\"runtime_calls\":%llu,\n\"members\":[", (int)getpid(), secs, sample_n, next_tid,
		(unsigned long long)dropped_signal, (unsigned long long)calls);
	for (i = 0; i < nmembers; i++) {
		uint64_t c[NKIND] = { 0, 0, 0 };
		int k;
		for (t = threads; t; t = t->next)
			if (t->cnt)
				for (k = 0; k < NKIND; k++)
					c[k] += t->cnt[i][k];
		fprintf(f, "%s\n {\"struct\":", first ? "" : ",");
		json_str(f, members[i].sname);
		fputs(",\"member\":", f);
		json_str(f, members[i].path);
		if (members[i].by_typedef)
			fputs(",\"typedef\":true", f);
		fprintf(f, ",\"offset\":%u,\"size\":%u,\"struct_size\":%u,\"reads\":%llu,\"writes\":%llu,"
			"\"rmws\":%llu,\"reader_threads\":%d,\"writer_threads\":%d,\"rmw_threads\":%d}",
			members[i].off, members[i].size, members[i].ssize, (unsigned long long)c[0],
			(unsigned long long)c[1], (unsigned long long)c[2], popcount(members[i].threads[0]),
			popcount(members[i].threads[1]), popcount(members[i].threads[2]));
		first = 0;
	}
	fputs("]", f);
	dump_table(f, &t64, "line64");
	dump_table(f, &t128, "line128");
	fputs("}\n", f);
	if (fflush(f) || fsync(fd)) {
		err = errno;
		fclose(f);
		unlink(tmp);
		errno = err;
		return -1;
	}
	if (fclose(f) || rename(tmp, final)) {
		err = errno;
		unlink(tmp);
		errno = err;
		return -1;
	}
	if (!quiet)
		fprintf(stderr, "cachehot-rt: wrote %s\n", final);
	return 0;
}

EXPORT int cachehot_rt_dump(const char *path)
{
	struct thr *t = self;
	int r, saved = t ? t->in_rt : 0;
	if (t)
		t->in_rt = 1;   /* accesses made while writing are not recorded */
	pthread_mutex_lock(&reg);
	r = write_profile(path);
	pthread_mutex_unlock(&reg);
	if (t)
		t->in_rt = saved;
	return r;
}

static void maybe_dump(void)
{
	if (__atomic_exchange_n(&dump_requested, 0, __ATOMIC_ACQ_REL)) {
		pthread_mutex_lock(&reg);
		if (write_profile(NULL) && !quiet)
			fprintf(stderr, "cachehot-rt: cannot write the profile: %s\n", strerror(errno));
		pthread_mutex_unlock(&reg);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	dump_requested = 1;
}

static void at_exit(void)
{
	struct thr *t = self;
	if (!ready)
		return;
	if (t)
		t->in_rt = 1;
	pthread_mutex_lock(&reg);
	if (write_profile(NULL) && !quiet)
		fprintf(stderr, "cachehot-rt: cannot write the profile: %s\n", strerror(errno));
	ready = 0;
	pthread_mutex_unlock(&reg);
}

/* ---- fork ------------------------------------------------------------------ */

static void fork_prepare(void)
{
	pthread_mutex_lock(&reg);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&reg);
}

static void fork_child(void)
{
	struct thr *t = self;
	int i;
	pthread_mutex_init(&reg, NULL);
	table_reset(&t64);
	table_reset(&t128);
	for (i = 0; i < nmembers; i++)
		memset(members[i].threads, 0, sizeof(members[i].threads));
	/* the other threads are not in the child: only this one counts on */
	threads = NULL;
	next_tid = 0;
	dropped_signal = 0;
	if (t) {
		if (t->cnt)
			munmap(t->cnt, sizeof(*t->cnt) * MAX_MEMBERS);
		t->cnt = map(sizeof(*t->cnt) * MAX_MEMBERS);
		t->tid = next_tid++;
		t->calls = 0;
		memset(t->cache, 0, sizeof(t->cache));   /* the tables are new */
		memset(t->modelled, 0, sizeof(t->modelled));
		memset(t->settled, 0, sizeof(t->settled));
		t->next = NULL;
		threads = t;
	}
	clock_gettime(CLOCK_MONOTONIC, &t_start);
}

/* ---- start ------------------------------------------------------------------ */

static int signal_number(const char *s)
{
	if (!strcmp(s, "USR1") || !strcmp(s, "SIGUSR1"))
		return SIGUSR1;
	if (!strcmp(s, "USR2") || !strcmp(s, "SIGUSR2"))
		return SIGUSR2;
	return atoi(s);
}

__attribute__((constructor)) static void rt_init(void)
{
	const char *e;
	if (ready)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t_start);
	if ((e = getenv("CACHEHOT_RT_SAMPLE")) && atoi(e) > 0)
		sample_n = (uint32_t)atoi(e);
	if ((e = getenv("CACHEHOT_RT_OUT")))
		snprintf(out_template, sizeof(out_template), "%s", e);
	quiet = (e = getenv("CACHEHOT_RT_QUIET")) && *e == '1';
	if ((e = getenv("CACHEHOT_RT_SIGNAL")) && signal_number(e) > 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(signal_number(e), &sa, NULL);
	}
	members = calloc(MAX_MEMBERS, sizeof(*members));
	sites = map(sizeof(*sites) * MAX_SITES);
	table_init(&t64);
	table_init(&t128);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	atexit(at_exit);
	ready = members && sites && t64.l && t128.l && t64.used && t128.used;
	if (!ready)
		fprintf(stderr, "cachehot-rt: out of memory: nothing is recorded\n");
}
