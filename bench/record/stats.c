/* The page_counter story in userspace: a charge counter that one thread
 * adds to (an atomic RMW on every charge) beside the limits that another
 * thread reads on every check (read-mostly: set once, never written while
 * the benchmark runs). */
#include <pthread.h>
#include "harness.h"

struct charge_counter {
	long usage;                /* the charging thread: atomic add and sub */
	long max;                  /* limits: read by the checking thread */
	long high;
	long low;
	struct charge_counter *parent;
	long failcnt;
};

static struct charge_counter root;
static int stop;

static void *charger(void *p)
{
	long n = 0;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		__atomic_add_fetch(&root.usage, 1, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&root.usage, 1, __ATOMIC_RELAXED);
		n++;
	}
	return (void *)n;
}

__attribute__((noipa)) static long headroom(const struct charge_counter *c)
{
	long h = 0;
	for (; c; c = c->parent)
		h += c->max - c->high + c->low;
	return h;
}

long bench_run(void)
{
	pthread_t t;
	long sum = 0;
	stop = 0;
	pthread_create(&t, NULL, charger, NULL);
	for (long i = 0; i < bench_reps * 50000L; i++)
		sum += headroom(&root);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	return sum & 0x7fffffff;
}

void bench_init(void)
{
	root.max = 1L << 40;
	root.high = 1L << 39;
	root.low = 1;
}
long bench_ops(void) { return bench_reps * 50000L; }
