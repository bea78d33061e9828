/* Access-mode fixture, reduced from include/linux/page_counter.h,
 * mm/page_counter.c and arch/x86/include/asm/atomic64_64.h (6.1). */
typedef struct { long counter; } atomic64_t;
typedef atomic64_t atomic_long_t;
#define __always_inline inline __attribute__((__always_inline__))
#define __init __attribute__((__section__(".init.text"))) __attribute__((__cold__))
#define __exit __attribute__((__section__(".exit.text")))
#define __cold __attribute__((__cold__))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#define LOCK_PREFIX "\n\tlock; "

static __always_inline long arch_atomic64_add_return(long i, atomic64_t *v)
{
	long r = i;
	asm volatile(LOCK_PREFIX "xaddq %q0, %1" : "+r"(r), "+m"(v->counter) : : "memory");
	return r + i;
}
static __always_inline long atomic_long_add_return(long i, atomic_long_t *v)
{
	return arch_atomic64_add_return(i, v);
}

struct page_counter {
	atomic_long_t usage;
	unsigned long min;
	unsigned long low;
	unsigned long max;
	struct page_counter *parent;
	unsigned long failcnt;
	unsigned long watermark;
};

struct mem_cgroup {
	int id;
	struct page_counter memory;
	unsigned long events;
	struct page_counter *swap;
};

/* atomic RMW through kernel-style inline asm; a pointer walk to parent */
int page_counter_try_charge(struct page_counter *counter, unsigned long nr)
{
	struct page_counter *c;
	for (c = counter; c; c = c->parent) {
		long new = atomic_long_add_return(nr, &c->usage);
		if (new > READ_ONCE(c->max)) {
			c->failcnt++;
			return 0;
		}
	}
	return 1;
}

/* WRITE_ONCE; the only writer of 'low' */
void page_counter_set_low(struct page_counter *c, unsigned long nr)
{
	WRITE_ONCE(c->low, nr);
}

/* init-only writers */
void __init page_counter_init(struct page_counter *c, struct page_counter *parent)
{
	c->min = 0;
	c->parent = parent;
}

void __exit page_counter_exit(struct page_counter *c)
{
	c->parent = 0;
}

/* __atomic builtin; nested member; a struct reached through a pointer */
void memcg_event(struct mem_cgroup *memcg)
{
	__atomic_fetch_add(&memcg->events, 1, __ATOMIC_RELAXED);
	memcg->memory.watermark = 7;
	memcg->swap->min = memcg->memory.low;
}

/* a local variable that shadows a field name is not a field access */
unsigned long __cold page_counter_shadow(struct page_counter *c)
{
	unsigned long max = 5, low = c->min;
	return max + low;
}

/* facts:
 * fn memcg_event static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn page_counter_exit static=0 inline=0 init=0 exit=1 cold=0 callers=
 * fn page_counter_init static=0 inline=0 init=1 exit=0 cold=1 callers=
 * fn page_counter_set_low static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn page_counter_shadow static=0 inline=0 init=0 exit=0 cold=1 callers=
 * fn page_counter_try_charge static=0 inline=0 init=0 exit=0 cold=0 callers=
 * mem_cgroup events memcg_event rmw=1
 * mem_cgroup memory.low memcg_event load=1
 * mem_cgroup memory.watermark memcg_event store=1
 * mem_cgroup swap memcg_event load=1
 * page_counter failcnt page_counter_try_charge load=1,store=1,update=1
 * page_counter low memcg_event load=1
 * page_counter low page_counter_set_low marked_store=1
 * page_counter max page_counter_try_charge marked_load=1
 * page_counter min memcg_event store=1
 * page_counter min page_counter_init store=1
 * page_counter min page_counter_shadow load=1
 * page_counter parent page_counter_exit store=1
 * page_counter parent page_counter_init store=1
 * page_counter parent page_counter_try_charge load=1
 * page_counter usage.counter page_counter_try_charge rmw=1
 * page_counter watermark memcg_event store=1
 * param memcg_event 0 load=2,store=1,rmw=1
 * param page_counter_exit 0 store=1
 * param page_counter_init 0 store=2
 * param page_counter_set_low 0 marked_store=1
 * param page_counter_shadow 0 load=1
 * param page_counter_try_charge 0 load=2,store=1,rmw=1,marked_load=1,update=1
 */
