/* A single-producer single-consumer ring in the style of folly's
 * ProducerConsumerQueue and the kernel's ptr_ring: each side keeps a copy
 * of the other side's index and reads the shared one only when the copy
 * says full (or empty). The producer's fields (head, its copy of tail) and
 * the consumer's (tail, its copy of head) share one cache line: every
 * write by one side takes the line from the other although neither reads
 * what the other wrote. */
#include <pthread.h>
#include <sched.h>
#include "harness.h"

struct ring {
	unsigned long head;          /* producer: written per item */
	unsigned long tail_cache;    /* producer: its copy of tail */
	unsigned long tail;          /* consumer: written per item */
	unsigned long head_cache;    /* consumer: its copy of head */
	unsigned long mask;          /* both: read per item */
	long *slots;
};

static struct ring R;
static long slots[4096];
#define N_ITEMS (bench_reps * 10000L)

static void *producer(void *x)
{
	for (long i = 0; i < N_ITEMS; i++) {
		unsigned long h = R.head;
		for (int spin = 0; h - R.tail_cache > R.mask; spin++) {
			R.tail_cache = __atomic_load_n(&R.tail, __ATOMIC_ACQUIRE);
			if (spin > 100)
				sched_yield();   /* the other thread may be off the CPU */
		}
		R.slots[h & R.mask] = i;
		__atomic_store_n(&R.head, h + 1, __ATOMIC_RELEASE);
	}
	return x;
}

static void *consumer(void *x)
{
	long sum = 0;
	for (long i = 0; i < N_ITEMS; i++) {
		unsigned long t = R.tail;
		for (int spin = 0; t == R.head_cache; spin++) {
			R.head_cache = __atomic_load_n(&R.head, __ATOMIC_ACQUIRE);
			if (spin > 100)
				sched_yield();
		}
		sum += R.slots[t & R.mask];
		__atomic_store_n(&R.tail, t + 1, __ATOMIC_RELEASE);
	}
	*(long *)x = sum;
	return x;
}

long bench_run(void)
{
	pthread_t p, c;
	long sum = 0;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, &sum);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return sum & 0x7fffffff;
}

void bench_init(void)
{
	R.mask = 4095;
	R.slots = slots;
}
long bench_ops(void) { return N_ITEMS; }
