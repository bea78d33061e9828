/* server.c -- a miniature threaded server for `cachehot annotate` with a
 * recorded run (tests/evidence/run.sh). Three threads take turns, step by
 * step, so that their accesses interleave on any number of cores:
 *  - struct srv: the acceptor reads the limits (maxconn, timeout) on every
 *    step and writes nothing there; both workers count into served and
 *    bytes: the limits' line is lost to every count (false sharing);
 *  - struct rate: every worker reads the period tick and adds to the
 *    counter beside it, as one unit (no false sharing to remove);
 *  - struct req: each worker's own request object, written in many
 *    functions but never touched by another thread (owned at run time);
 *  - struct admin: code that the recorded workload never runs. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct srv {
	int maxconn;      /* configuration: read by the acceptor */
	int timeout;
	long served;      /* counted by every worker */
	long bytes;
	int state;        /* changed by the admin path only */
};

struct rate {
	unsigned tick;    /* read by every worker with each add */
	unsigned ctr;
	unsigned prev;
};

struct req {
	int flags;
	int len;
	long sent;
	long started;
};

struct admin {
	int level;
	long changes;
	int mode;
};

/* each object on its own lines: the run judges each struct apart */
static struct srv the_srv __attribute__((aligned(64)));
static struct rate the_rate __attribute__((aligned(64)));
static struct admin adm __attribute__((aligned(64)));
static int nreq = 20000;
static int turn;   /* whose step it is: 0 the acceptor, 1 and 2 the workers */
static int admitted_total;

static void wait_turn(int me)
{
	while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
		sched_yield();
}

static void pass_turn(int me)
{
	__atomic_store_n(&turn, (me + 1) % 3, __ATOMIC_RELEASE);
}

static __attribute__((noinline)) int admit(int load)
{
	return load < the_srv.maxconn && the_srv.timeout > 0;
}

static __attribute__((noinline)) int admit_again(int load)
{
	return load + 1 < the_srv.maxconn && the_srv.timeout > 1;
}

static __attribute__((noinline)) int can_wait(void)
{
	return the_srv.timeout > 2 && the_srv.maxconn > 2;
}

static void *acceptor(void *arg)
{
	(void)arg;
	for (int i = 0; i < nreq; i++) {
		wait_turn(0);
		admitted_total += admit(i & 511) + admit_again(i & 255) + can_wait();
		pass_turn(0);
	}
	return NULL;
}

static __attribute__((noinline)) void rate_add(unsigned n)
{
	unsigned now = (unsigned)the_srv.served >> 10;
	unsigned t = __atomic_load_n(&the_rate.tick, __ATOMIC_RELAXED);
	if (t != now && __atomic_compare_exchange_n(&the_rate.tick, &t, now, 0, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED)) {   /* a new period */
		the_rate.prev = __atomic_exchange_n(&the_rate.ctr, 0, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&the_rate.ctr, n, __ATOMIC_RELAXED);
}

static __attribute__((noinline)) unsigned rate_read(void)
{
	return __atomic_load_n(&the_rate.tick, __ATOMIC_RELAXED) + the_rate.prev;
}

static __attribute__((noinline)) void req_start(struct req *r, int i)
{
	r->flags = 1;
	r->len = i & 255;
	r->started = i;
	r->sent = 0;
}

static __attribute__((noinline)) void req_send(struct req *r)
{
	r->sent += r->len;
	r->flags |= 2;
	__atomic_fetch_add(&the_srv.bytes, r->len, __ATOMIC_RELAXED);
	rate_add((unsigned)r->len);
}

static __attribute__((noinline)) void req_done(struct req *r)
{
	r->flags |= 4;
	r->started = 0;
	__atomic_fetch_add(&the_srv.served, 1, __ATOMIC_RELAXED);
	rate_add(1);
}

static __attribute__((noinline)) void req_retry(struct req *r)
{
	r->flags = 0;
	r->sent = 0;
	r->len = r->len / 2;
	__atomic_fetch_add(&the_srv.served, 0, __ATOMIC_RELAXED);
	rate_add(0);
}

static void *worker(void *arg)
{
	struct req *r = calloc(1, sizeof(*r));
	int me = (int)(long)arg;
	for (int i = 0; i < nreq; i++) {
		wait_turn(me);
		req_start(r, i);
		if (r->len > 250)
			req_retry(r);
		req_send(r);
		req_done(r);
		if (rate_read() > 1u << 30)
			req_retry(r);
		pass_turn(me);
	}
	free(r);
	return NULL;
}

/* the admin path: not run by the recorded workload */
static __attribute__((noinline)) int admin_allowed(int level)
{
	return level <= adm.level + 1 && adm.mode >= 0;
}

static __attribute__((noinline)) int admin_show(void)
{
	return adm.level * 10 + adm.mode;
}

static __attribute__((noinline)) void admin_set(int level)
{
	if (!admin_allowed(level))
		return;
	__atomic_fetch_add(&adm.changes, 1, __ATOMIC_RELAXED);
	adm.level = level;
	adm.mode = level > 1;
	the_srv.state = level;
}

static __attribute__((noinline)) void admin_reset(void)
{
	__atomic_fetch_add(&adm.changes, 1, __ATOMIC_RELAXED);
	adm.mode = adm.level > 3;
}

static void *admin_thread(void *arg)
{
	admin_set((int)(long)arg);
	admin_reset();
	return (void *)(long)(admin_show() > 100 && admin_allowed(0));
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	the_srv.maxconn = 1000;
	the_srv.timeout = 30;
	the_rate.tick = 0;
	if (argc > 2 && !strcmp(argv[1], "admin")) {   /* an admin thread, never recorded */
		void *rc;
		pthread_create(&t[0], NULL, admin_thread, (void *)(long)atoi(argv[2]));
		pthread_join(t[0], &rc);
		return (int)(long)rc;
	}
	if (argc > 1)
		nreq = atoi(argv[1]);
	pthread_create(&t[0], NULL, acceptor, NULL);
	for (long i = 1; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return the_srv.served == 2L * nreq + 0 ? 0 : 1;
}
