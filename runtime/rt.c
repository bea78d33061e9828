/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt.c -- libcachehot-rt: the access recorder (cachehot-rt.h).
 *
 * Fast path: a per-thread countdown; 1 access in CACHEHOT_RT_SAMPLE goes to
 * the slow path, which
 *  - settles a repeat of a recent access of this thread from its memo
 *    (struct memo, memo_settle()) when nothing it depends on has moved:
 *    the site's member, the bytes, the thread's view of the lines, the
 *    lines' member maps (mapver); otherwise:
 *  - resolves the site string to a member (sites.c),
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
 *  - settles in the thread's own view of a line (struct lcache, fast())
 *    what the model would not change: a read of a current copy, a write
 *    by the line's only holder since its last modelled access.
 * A signal handler that interrupts the slow path of its own thread is not
 * recorded (counted as "dropped"): the runtime's tables are not reentrant.
 * The profile is written by profile.c; on x86-64 a recording build calls
 * the entry points through allregs.c's register-preserving twins.
 *
 * Memory: the line tables are mmap'ed once (MAP_NORESERVE, pages touched
 * only where lines live); a line that finds no free slot within 64 probes is
 * not modelled ("lines_dropped"). fork: the child starts empty (its own
 * profile, its own pid, counting from the fork on).
 */
#define _GNU_SOURCE
#include "rt-private.h"

/* Accesses to the next sample less one, per thread (cachehot-rt.h): the
 * recording build decrements it inline and calls in only when it goes below
 * 0; starts at 0, so that a thread's first access comes in (it finds no
 * thread yet). Signed: a signal handler's access that lands between a
 * decrement below 0 and slow() resetting it takes it lower and so comes in
 * too (unsigned, it wrapped and that access was neither recorded nor
 * counted dropped). A build of the plugin before this convention calls in
 * when it reaches 0 or less: one call more now and then, the same samples. */
EXPORT __thread int __cachehot_rt_countdown __attribute__((tls_model("initial-exec")));

pthread_mutex_t reg = PTHREAD_MUTEX_INITIALIZER;
struct member *members;
int nmembers;
struct thr *threads;
uint32_t next_tid;
/* 1 in 1024 by default: with the inline countdown the sampled accesses
 * are the cost (bench/record, CPU: x1.20 on accumulators at 1024, x6.0 at 16) */
uint32_t sample_n = 1024;
struct table t64 = { 6, 18, NULL, 0, NULL, 0 }, t128 = { 7, 17, NULL, 0, NULL, 0 };
static volatile sig_atomic_t dump_requested;
uint64_t dropped_signal;
struct timespec t_start;
char out_template[PATH_MAX];
int quiet;
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

uint32_t hash64(uint64_t k, unsigned bits)
{
	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> (64 - bits));
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

/* The bytes [first, first + n) of a line (first + n <= 128) as a mask. */
static void byte_mask(unsigned first, unsigned n, uint64_t bm[2])
{
	unsigned __int128 m = n >= 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << n) - 1);
	m <<= first;
	bm[0] = (uint64_t)m;
	bm[1] = (uint64_t)(m >> 64);
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
	int changed = 0;
	for (b = first; b < first + n; b++) {
		uint64_t v = LD(l->map[b]), want = MAP(member >= 0 ? member + 1 : MAP_MEM(v), rel);
		if (v != want) {
			ST(l->map[b], want);
			changed = 1;
		}
	}
	if (changed)   /* after the bytes: a memo that sees this version sees them */
		__atomic_fetch_add(&l->mapver, 1, __ATOMIC_RELEASE);
	byte_mask(first, n, bm);
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
			m = MAP_MEM(LD(l->map[b])) - 1;
			for (k = 0; k < nseen && seen[k] != m; k++)
				;
			if (k < nseen)
				continue;
			if (nseen < 4)
				seen[nseen++] = m;
			pair_add(l, member, m,
				 !one_object(member, base, m, laddr + (uintptr_t)(intptr_t)MAP_BASE(LD(l->map[b]))),
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

/* Adds the bytes bm (a 128-bit map of a line's bytes) to w, storing only
 * when a bit is new: the slot's line is read far more often than it
 * changes. */
static inline __attribute__((always_inline)) void bytes_add(uint64_t w[2], const uint64_t bm[2])
{
	uint64_t w0 = LD(w[0]), w1 = LD(w[1]);
	if ((w0 & bm[0]) != bm[0])
		ST(w[0], w0 | bm[0]);
	if ((w1 & bm[1]) != bm[1])
		ST(w[1], w1 | bm[1]);
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
	if (member >= 0) {
		uint64_t want = MAP(member + 1, rel);
		for (b = first; b < first + n; b++)
			if (LD(l->map[b]) != want)
				return 0;
	} else {
		for (b = first; b < first + n; b++)
			if (MAP_BASE(LD(l->map[b])) != rel)
				return 0;
	}
	byte_mask(first, n, bm);
	if (kind == K_READ) {
		if (LD(me->last) < LD(l->last_write))
			return 0;
		bytes_add(me->mask, bm);
	} else {
		if (!e->excl || LD(l->seq) != e->seq)
			return 0;
		ST(me->mask[0], bm[0]);
		ST(me->mask[1], bm[1]);
		bytes_add(me->wrote, bm);
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

/* ---- the thread's memo of recent accesses ------------------------------------ */

/* The slot by site, address and kind: a load and a store of one member
 * have the same site string and address, and in one slot they evicted each
 * other on every access of a loop that reads a member and writes it back
 * (bench/record/ring.c: 40 % of the accesses, 320 330 of 801 104, went the
 * slow way; tests/record memo-kinds) */
static struct memo *memo_slot(struct thr *th, const void *addr, const char *site, int kind)
{
	uint64_t k = ((uintptr_t)addr ^ ((uintptr_t)site << 7)) + (uint64_t)kind;
	return &th->memo[hash64(k, 8)];
}

/* A repeat of a memoized access, settled as fast() would settle it in both
 * tables (same counts, same later transfers), without the site lookup, the
 * byte masks or the per-byte check of the member map: the line's mapver has
 * not moved since the bytes were checked. Both tables or neither (a half
 * settled access would be counted twice by the model): memo_ok() for each,
 * then memo_do() for each (each table's code written out once, with the kind
 * a constant where the entry points inline it). */
static inline __attribute__((always_inline)) int memo_ok(const struct memo *mo, int i, int kind, uint32_t tid1)
{
	const struct lcache *e = mo->e[i];
	const struct line *l = e->l;
	const struct holder *me = e->me;
	if (e->key != mo->key[i] || !(e->kinds & (1u << kind)) || LD(me->tid1) != tid1 ||
	    LD(l->mapver) != mo->ver[i])
		return 0;
	return kind == K_READ ? LD(me->last) >= LD(l->last_write) : e->excl && LD(l->seq) == e->seq;
}

static inline __attribute__((always_inline)) void memo_do(struct thr *th, struct memo *mo, int i, int kind)
{
	struct lcache *e = mo->e[i];
	struct holder *me = e->me;
	const uint64_t *bm = mo->bm[i];
	if (kind == K_READ) {
		bytes_add(me->mask, bm);
	} else {   /* stored only when it changes: the slot's line stays shared */
		if (LD(me->mask[0]) != bm[0])
			ST(me->mask[0], bm[0]);
		if (LD(me->mask[1]) != bm[1])
			ST(me->mask[1], bm[1]);
		bytes_add(me->wrote, bm);
	}
	ST(e->pend[kind], LD(e->pend[kind]) + 1);
	th->settled[i]++;
}

/* Returns 0 when the slow way must run. */
static inline __attribute__((always_inline)) int memo_settle(struct thr *th, struct memo *mo, int kind)
{
	uint32_t tid1 = th->tid + 1;
	if (!memo_ok(mo, 0, kind, tid1) || !memo_ok(mo, 1, kind, tid1))
		return 0;
	memo_do(th, mo, 0, kind);
	memo_do(th, mo, 1, kind);
	return 1;
}

/* After the slow way: memoize the access when each table holds it in one
 * line the thread has an entry for, and the line's member map says what the
 * access says (checked after reading mapver: a later change moves it). */
static void memo_fill(struct thr *th, struct memo *mo, const void *addr, const char *site, int kind,
		      int member, uint32_t n)
{
	struct table *ts[2] = { &t64, &t128 };
	uintptr_t a = (uintptr_t)addr, base;
	int i;
	mo->site = NULL;
	if (member < 0 || !n)
		return;
	base = a - members[member].off;
	for (i = 0; i < 2; i++) {
		unsigned shift = ts[i]->shift, first = (unsigned)(a & ((1u << shift) - 1)), b;
		uintptr_t idx = a >> shift, laddr = idx << shift;
		struct lcache *e = &th->cache[i][idx & (LCACHE - 1)];
		uint64_t want = MAP(member + 1, (int32_t)(base - laddr));
		if (first + n > (1u << shift) || e->key != idx + 1)
			return;
		mo->ver[i] = __atomic_load_n(&e->l->mapver, __ATOMIC_ACQUIRE);
		for (b = first; b < first + n; b++)
			if (LD(e->l->map[b]) != want)
				return;
		mo->e[i] = e;
		mo->key[i] = e->key;
		byte_mask(first, n, mo->bm[i]);
	}
	mo->addr = a;
	mo->kind = kind;
	mo->member = member;
	mo->site = site;
}

/* The accesses of line l of table t still waiting in the threads' caches. */
uint64_t pending(struct table *t, struct line *l, int kind)
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

/* the per-member counts: the thread's own, and the set of threads */
static inline __attribute__((always_inline)) void count_member(struct thr *t, int m, int kind)
{
	uint64_t bit = 1ull << (t->tid & 63);
	if (m < 0)
		return;
	if (t->cnt)
		t->cnt[m][kind]++;
	if (!(__atomic_load_n(&members[m].threads[kind], __ATOMIC_RELAXED) & bit))
		__atomic_fetch_or(&members[m].threads[kind], bit, __ATOMIC_RELAXED);
}

/* The next sample's countdown (after 1..2N-1 accesses, mean N: a fixed gap
 * would see only the loads of a loop that loads and stores in turn). */
static inline __attribute__((always_inline)) void countdown_reset(struct thr *t)
{
	if (sample_n > 1) {
		t->rng ^= t->rng << 13;
		t->rng ^= t->rng >> 7;
		t->rng ^= t->rng << 17;
		__cachehot_rt_countdown = (int)(t->rng % (2 * sample_n - 1));
	} else {
		__cachehot_rt_countdown = 0;
	}
}

__attribute__((noinline)) static void slow(const void *addr, const char *key, int kind)
{
	struct thr *t = self;
	struct site *s;
	struct memo *mo;
	if (!ready)
		return;
	if (!t) {
		t = thread_new();
		if (!t)
			return;
		self = t;
		t->calls++;
	}
	countdown_reset(t);
	if (t->in_rt) {
		__atomic_fetch_add(&dropped_signal, 1, __ATOMIC_RELAXED);
		return;
	}
	t->in_rt = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	mo = memo_slot(t, addr, key, kind);
	if (mo->site == key && mo->addr == (uintptr_t)addr && mo->kind == kind && memo_settle(t, mo, kind)) {
		t->memo_settled++;
		count_member(t, mo->member, kind);
	} else if ((s = site_of(key))) {
		count_member(t, s->member, kind);
		model_table(&t64, t, (uintptr_t)addr, s->asize, kind, s->member);
		model_table(&t128, t, (uintptr_t)addr, s->asize, kind, s->member);
		memo_fill(t, mo, addr, key, kind, s->member, s->asize);
	}
	if (dump_requested)
		maybe_dump();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->in_rt = 0;
}

/* A sampled access that the thread's memo settles: what slow() does then,
 * inlined into each entry point with its kind, without slow()'s frame (which
 * the model's registers make large): the memo's checks first, and nothing
 * changed unless they all pass. Returns 0 when slow() must run (also when
 * the thread is inside the runtime already, i.e. in a signal handler that
 * interrupted it, or a dump is requested). */
static inline __attribute__((always_inline)) int quick(struct thr *t, const void *addr, const char *key, int kind)
{
	struct memo *mo;
	if (!ready || t->in_rt || dump_requested)
		return 0;
	mo = memo_slot(t, addr, key, kind);
	if (mo->site != key || mo->addr != (uintptr_t)addr || mo->kind != kind)
		return 0;
	t->in_rt = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!memo_settle(t, mo, kind)) {
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t->in_rt = 0;
		return 0;
	}
	t->memo_settled++;
	count_member(t, mo->member, kind);
	countdown_reset(t);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->in_rt = 0;
	return 1;
}

/* A recording build calls these when its inline countdown goes below 0
 * (one call per access of the batch that took it there, in order); a build
 * of an older plugin calls them on every access. */
#define ENTRY(name, kind)                                        \
	EXPORT void name(const void *addr, const char *site)     \
	{                                                        \
		struct thr *t = self;                            \
		if (t)                                           \
			t->calls++;                              \
		if (LIKELY(t && --__cachehot_rt_countdown >= 0)) \
			return;                                  \
		if (LIKELY(t && quick(t, addr, site, kind)))     \
			return;                                  \
		slow(addr, site, kind);                          \
	}
ENTRY(__cachehot_rt_load, K_READ)
ENTRY(__cachehot_rt_store, K_WRITE)
ENTRY(__cachehot_rt_rmw, K_RMW)
/* for allregs.c's entry points: the same functions, called without the PLT */
__typeof(__cachehot_rt_load) rt_load_hidden __attribute__((alias("__cachehot_rt_load"), visibility("hidden")));
__typeof(__cachehot_rt_store) rt_store_hidden __attribute__((alias("__cachehot_rt_store"), visibility("hidden")));
__typeof(__cachehot_rt_rmw) rt_rmw_hidden __attribute__((alias("__cachehot_rt_rmw"), visibility("hidden")));

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
		memset(t->memo, 0, sizeof(t->memo));
		memset(t->modelled, 0, sizeof(t->modelled));
		memset(t->settled, 0, sizeof(t->settled));
		t->memo_settled = 0;
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
	sites_init();
	table_init(&t64);
	table_init(&t128);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	atexit(at_exit);
	ready = members && sites_ready() && t64.l && t128.l && t64.used && t128.used;
	if (!ready)
		fprintf(stderr, "cachehot-rt: out of memory: nothing is recorded\n");
}
