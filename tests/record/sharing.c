/* Two threads in lockstep (barriers): the charger writes usage 10 times,
 * then the checker reads max and high 10 times each; 150 rounds. Every
 * round after the first, the charger's first write (charge() loads, then
 * stores usage) takes the line from the
 * checker: 149 false-sharing transfers between usage and max, and between
 * usage and high, at sampling 1 (tests/record/run.sh: annotate --profile,
 * check --profile, the html report). */
#include <pthread.h>

struct limits {
	long usage;          /* written by the charger */
	long max;            /* read by the checker */
	long high;           /* read by the checker */
	long spare;          /* never touched */
};

/* only in the html report's hand-written sidecar: a hole after flag */
struct holey {
	char flag;
	long count;
};

/* in the hand-written sidecar, never accessed: "not recorded" */
struct idle {
	long a;
	long b;
};

struct limits L;
struct holey Y;
struct idle I;
static pthread_barrier_t bar;
#define ROUNDS 150

__attribute__((noipa)) static void charge(struct limits *l) { l->usage = l->usage + 1; }
__attribute__((noipa)) static long check(struct limits *l) { return l->max + l->high; }

static void *charger(void *x)
{
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&bar);
		for (int i = 0; i < 10; i++)
			charge(&L);
		pthread_barrier_wait(&bar);
	}
	return x;
}

static void *checker(void *x)
{
	long s = 0;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		for (int i = 0; i < 10; i++)
			s += check(&L);
	}
	return (void *)s;
}

int main(void)
{
	pthread_t a, b;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&a, NULL, charger, NULL);
	pthread_create(&b, NULL, checker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	Y.count = Y.flag;
	return 0;
}
