/* Ownership and userspace slow paths (docs/annotate.md): a per-thread
 * context reached as a thread-local object, through a thread-local pointer
 * and as an array element indexed by the thread's id, a stack object; a
 * server struct whose limits are written only by startup code (called by
 * main() before its first thread), an exit handler and a signal handler,
 * and whose counters are written by the workers. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

struct thread_ctx {
	long runs;
	long wakeups;
	long idle;
	long polled;
};

struct server {
	long conns;
	long maxconn;
	const char *pidfile;
	long served;
	int mode;
};

__thread unsigned int tid;
__thread struct thread_ctx *th_ctx;
__thread struct thread_ctx tls_ctx;
struct thread_ctx thread_ctxs[64];
struct server global;

void poll_once(void)
{
	struct thread_ctx mine = { 0 };
	tls_ctx.runs++;
	thread_ctxs[tid].wakeups++;
	th_ctx->runs += tls_ctx.idle;
	th_ctx->idle = 0;
	mine.polled = tls_ctx.polled + 1;
	tls_ctx.polled = mine.polled;
	__atomic_fetch_add(&global.served, 1, __ATOMIC_RELAXED);
	if (global.conns < global.maxconn)
		__atomic_fetch_add(&global.conns, 1, __ATOMIC_RELAXED);
}

void close_one(void)
{
	__atomic_fetch_sub(&global.conns, 1, __ATOMIC_RELAXED);
	thread_ctxs[tid].runs--;
	th_ctx->wakeups = 0;
}

__attribute__((noinline)) static void parse_config(void)
{
	if (!global.maxconn)
		global.maxconn = 100;
	global.pidfile = global.pidfile ? global.pidfile : "/run/x.pid";
	global.mode = 1;
}

static void cleanup(void)
{
	if (global.conns)
		global.conns = 0;
	global.pidfile = 0;
}

static void on_hup(int sig)
{
	global.maxconn = global.maxconn / 2 + sig;
	global.mode = 0;
}

static void *worker(void *arg)
{
	tid = (unsigned int)(long)arg;
	th_ctx = &thread_ctxs[tid];
	for (;;)
		poll_once();
	return 0;
}

int main(void)
{
	pthread_t t;
	parse_config();
	atexit(cleanup);
	signal(SIGHUP, on_hup);
	global.mode = global.mode + 2;
	pthread_create(&t, 0, worker, (void *)1L);
	poll_once();
	close_one();
	return 0;
}


/* facts:
 * fn cleanup static=1 inline=0 init=0 exit=0 cold=0 callers= slow_root=atexit address_taken
 * fn close_one static=0 inline=0 init=0 exit=0 cold=0 callers=main
 * fn main static=0 inline=0 init=0 exit=0 cold=0 callers= creates_thread main_calls=atexit:87-87,close_one:92-92,parse_config:86-86,poll_once:91-91,pthread_create:90-90,signal:88-88
 * fn on_hup static=1 inline=0 init=0 exit=0 cold=0 callers= slow_root=signal address_taken
 * fn parse_config static=1 inline=0 init=0 exit=0 cold=0 callers=main
 * fn poll_once static=0 inline=0 init=0 exit=0 cold=0 callers=main,worker
 * fn worker static=1 inline=0 init=0 exit=0 cold=0 callers= address_taken
 * server conns cleanup load=1,store=1
 * server conns close_one rmw=1
 * server conns poll_once load=1,rmw=1
 * server maxconn on_hup load=1,store=1,update=1
 * server maxconn parse_config load=1,store=1
 * server maxconn poll_once load=1
 * server mode main load=1,store=1,update=1
 * server mode on_hup store=1
 * server mode parse_config store=1
 * server pidfile cleanup store=1
 * server pidfile parse_config load=2,store=1,update=1
 * server served poll_once rmw=1
 * thread_ctx idle owned-via thread-context pointer=1,thread-local=1
 * thread_ctx idle poll_once owned=2,owned_write=1
 * thread_ctx polled owned-via on the thread's stack=2,thread-local=2
 * thread_ctx polled poll_once owned=4
 * thread_ctx runs close_one owned=2,owned_write=1,owned_update=1
 * thread_ctx runs owned-via indexed by the thread's id=2,thread-context pointer=2,thread-local=2
 * thread_ctx runs poll_once owned=4,owned_write=1
 * thread_ctx wakeups close_one owned=1,owned_write=1
 * thread_ctx wakeups owned-via indexed by the thread's id=2,thread-context pointer=1
 * thread_ctx wakeups poll_once owned=2,owned_write=1,owned_update=1
 */
