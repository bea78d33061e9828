/* Second unit for the merge (reduced from mm/page_counter.c, 6.1): another
 * atomic writer of 'usage', readers of 'max', and a static helper that
 * writes 'max' but is only called from __init code (a slow path). */
typedef struct { long counter; } atomic64_t;
typedef atomic64_t atomic_long_t;
#define __always_inline inline __attribute__((__always_inline__))
#define __init __attribute__((__section__(".init.text"))) __attribute__((__cold__))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

static __always_inline void atomic_long_sub(long i, atomic_long_t *v)
{
	asm volatile("\n\tlock; subq %1,%0" : "=m"(v->counter) : "er"(i), "m"(v->counter) : "memory");
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

void page_counter_cancel(struct page_counter *c, unsigned long nr)
{
	atomic_long_sub(nr, &c->usage);
}

unsigned long page_counter_margin(struct page_counter *c)
{
	return READ_ONCE(c->max) - c->min;
}

static void __attribute__((__noinline__)) setup_limits(struct page_counter *c)
{
	c->max = 100;
}

void __init limits_init(struct page_counter *c)
{
	setup_limits(c);
}

/* two counters bumped together: a hot group */
void page_counter_account(struct page_counter *c)
{
	c->failcnt++;
	c->watermark++;
}

#pragma GCC diagnostic ignored "-Wattributes"   /* inline + noinline, on purpose */
/* an inline helper the early inliner leaves alone: its read of 'low'
 * counts in each of its callers */
static inline __attribute__((__noinline__)) unsigned long read_low(struct page_counter *c)
{
	return READ_ONCE(c->low);
}

unsigned long low_a(struct page_counter *c)
{
	return read_low(c);
}

unsigned long low_b(struct page_counter *c)
{
	return read_low(c) + 1;
}

/* facts:
 * fn limits_init static=0 inline=0 init=1 exit=0 cold=1 callers=
 * fn low_a static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn low_b static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn page_counter_account static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn page_counter_cancel static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn page_counter_margin static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn read_low static=1 inline=1 init=0 exit=0 cold=0 callers=low_a,low_b
 * fn setup_limits static=1 inline=0 init=0 exit=0 cold=0 callers=limits_init
 * page_counter failcnt page_counter_account load=1,store=1,update=1
 * page_counter low read_low marked_load=1
 * page_counter max page_counter_margin marked_load=1
 * page_counter max setup_limits store=1
 * page_counter min page_counter_margin load=1
 * page_counter usage.counter page_counter_cancel rmw=1
 * page_counter watermark page_counter_account load=1,store=1,update=1
 * param page_counter_account 0 load=2,store=2,update=2
 * param page_counter_cancel 0 rmw=1
 * param page_counter_margin 0 load=1,marked_load=1
 * param read_low 0 marked_load=1
 * param setup_limits 0 store=1
 * pass limits_init 0 setup_limits/0=1
 * pass low_a 0 read_low/0=1
 * pass low_b 0 read_low/0=1
 */
