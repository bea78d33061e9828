/* Per-thread accumulators in one array, as Phoenix's linear_regression and
 * histogram keep them: each thread adds into its own element through a
 * pointer while it reads its slice of a byte buffer (char data: the
 * compiler must assume the stores alias it, so every iteration loads and
 * stores the element). Two threads' elements share a cache line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

struct lreg_args {
	long long SX;
	long long SY;
	long long SXX;
	long long SXY;
};

#define NTHREADS 2
static struct lreg_args args[NTHREADS] __attribute__((aligned(64)));   /* both on one line */
static unsigned char *points;
static long npoints;

static void *worker(void *p)
{
	struct lreg_args *a = p;
	long id = a - args, n = npoints / NTHREADS;
	const unsigned char *pt = points + 2 * id * n;
	for (long rep = 0; rep < bench_reps; rep++)
		for (long i = 0; i < n; i++) {
			a->SX += pt[2 * i];
			a->SY += pt[2 * i + 1];
			a->SXX += pt[2 * i] * pt[2 * i];
			a->SXY += pt[2 * i] * pt[2 * i + 1];
		}
	return NULL;
}

long bench_run(void)
{
	pthread_t t[NTHREADS];
	long long sx = 0;
	memset(args, 0, sizeof(args));
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, &args[i]);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NTHREADS; i++)
		sx += args[i].SX;
	return (long)(sx & 0x7fffffff);
}

void bench_init(void)
{
	npoints = 1 << 16;
	points = malloc(2 * npoints);
	for (long i = 0; i < 2 * npoints; i++)
		points[i] = (unsigned char)(i * 7);
}
long bench_ops(void) { return npoints * bench_reps; }
