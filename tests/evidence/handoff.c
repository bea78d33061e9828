/* handoff.c -- objects handed from thread to thread whole, for `cachehot
 * annotate` with a recorded run (tests/evidence/run.sh). Reduced from Apache
 * httpd's event MPM: a connection goes from the listener to a worker
 * through a queue under a global mutex, and its request objects live in
 * pools that the next connection, on another thread, reuses. Two stages
 * take turns on a ring of jobs (the turn is the handover): each job is
 * used by one thread at a time, never by two at once, and no field of it is
 * written atomically or under a lock. The run still sees every field
 * written by both threads and the line of each job move at each handover:
 * that is no false sharing (the new owner needs the whole object; splitting
 * its lines would cost a second miss, not save one). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct job {
	long limit;       /* set when the job is made, read at every step */
	long chunk;
	long stage;       /* moved on by whichever thread holds the job */
	long done;
};

#define NJOBS 8
static struct job *ring[NJOBS];
static int nsteps = 4000;
static int turn;   /* whose step it is: the handover, as a queue's mutex is */

static void wait_turn(int me)
{
	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
		sched_yield();
}

static void pass_turn(int me)
{
	__atomic_store_n(&turn, !me, __ATOMIC_RELEASE);
}

static long sink;

/* the two steps of a job, as a listener's and a worker's: whichever thread
 * holds the job takes the step that is due */
static __attribute__((noinline)) void accept_step(struct job *j, int k)
{
	j->stage = k;
	sink += j->limit - k;
}

static __attribute__((noinline)) void finish_step(struct job *j)
{
	j->done = (j->done + j->chunk) % j->limit;
}

static void *stage(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < nsteps; i++) {
		wait_turn(me);
		if ((i + me) & 1)
			finish_step(ring[i % NJOBS]);
		else
			accept_step(ring[i % NJOBS], i);
		pass_turn(me);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	if (argc > 1)
		nsteps = atoi(argv[1]);
	for (int i = 0; i < NJOBS; i++) {
		ring[i] = aligned_alloc(64, 64);
		ring[i]->limit = 1000 + i;
		ring[i]->chunk = 4;
		ring[i]->stage = 0;
		ring[i]->done = 0;
	}
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, stage, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return ring[0]->limit == 1000 ? 0 : 1;
}
