/* Two kinds of thin evidence (docs/annotate.md, "Confidence" and
 * "Initializers"):
 * - a constructor that stores many fields and tests what it just
 *   allocated (mem_cgroup_alloc(): 'memcg->vmstats = kzalloc(...); if
 *   (!memcg->vmstats) goto fail;'): with no RMW and no update, 8 or more
 *   fields stored and at most half of them loaded, it is an initializer;
 *   'ev_lock' is then taken by 3 functions, not 4: not hot;
 * - 'reserve' is hot only because one function recomputes it from its own
 *   value, and 2 functions read it: its line is written commented out,
 *   confidence low. 'hits' (RMW in 2 functions) and 'limit' stay. */
#include <stdlib.h>

struct ev_lock { int v; };
extern void lock(struct ev_lock *l);
extern void unlock(struct ev_lock *l);

struct group {
	long hits;
	struct ev_lock ev_lock;
	long *stats;
	long *percpu;
	long a, b, c, d, e, f;
	long reserve;
	long limit;
};

struct group *group_alloc(void)
{
	struct group *g = malloc(sizeof(*g));
	if (!g)
		return 0;
	g->stats = calloc(4, sizeof(long));
	if (!g->stats)
		return 0;
	g->percpu = calloc(4, sizeof(long));
	if (!g->percpu)
		return 0;
	g->ev_lock.v = 0;
	g->a = 1; g->b = 2; g->c = 3; g->d = 4; g->e = 5; g->f = 6;
	return g;
}

void ev_register(struct group *g)   { lock(&g->ev_lock); g->a = g->limit; unlock(&g->ev_lock); }
void ev_unregister(struct group *g) { lock(&g->ev_lock); g->b = g->limit; unlock(&g->ev_lock); }
void ev_signal(struct group *g)     { lock(&g->ev_lock); g->c = g->limit; unlock(&g->ev_lock); }

void charge(struct group *g)   { __atomic_fetch_add(&g->hits, 1, __ATOMIC_RELAXED); }
void uncharge(struct group *g) { __atomic_fetch_sub(&g->hits, 1, __ATOMIC_RELAXED); }

void recompute(struct group *g, long x)
{
	g->reserve = g->reserve / 2 + x;
}

long reserve_of(struct group *g) { return g->reserve + g->limit; }
