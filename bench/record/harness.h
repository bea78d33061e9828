/* harness.h -- bench/record programs: ./prog [REPS] runs bench_run() once
 * and prints "ops SECONDS": the throughput is ops/seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
long bench_reps = 200;
long bench_run(void);
void bench_init(void);
long bench_ops(void);
int main(int argc, char **argv)
{
	struct timespec a, b;
	long check;
	if (argc > 1)
		bench_reps = atol(argv[1]);
	bench_init();
	clock_gettime(CLOCK_MONOTONIC, &a);
	check = bench_run();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld %.6f %ld\n", bench_ops(), (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, check);
	return 0;
}
