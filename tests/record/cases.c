/* Deterministic programs for the runtime's counts (tests/record/run.sh):
 * threads run one after another (create, join), so every transfer is known.
 * ./cases MODE; the profile goes where CACHEHOT_RT_OUT says. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define noipa __attribute__((noipa))

struct pair { long a; long b; };
struct wide { long a; char gap[56]; long b; } __attribute__((aligned(128)));
struct sig { long x; long y; };
struct elem { long a; long b; };

struct pair P;
struct wide W;
struct sig G;
struct elem E[2] __attribute__((aligned(64)));   /* both elements on one line */

noipa void write_a(struct pair *p) { p->a = p->a + 1; }   /* 1 read, 1 write */
noipa void store_a(struct pair *p) { p->a = 7; }
noipa void store_b(struct pair *p) { p->b = 7; }
noipa long load_a(struct pair *p) { return p->a; }
noipa void rmw_a(struct pair *p) { __atomic_fetch_add(&p->a, 1, __ATOMIC_RELAXED); }
noipa void wide_a(struct wide *w) { w->a = 1; }
noipa void wide_b(struct wide *w) { w->b = 1; }
noipa void sig_x(struct sig *s) { s->x = s->x + 1; }
noipa void sig_y(struct sig *s) { s->y = 1; }
noipa void elem_a(struct elem *e) { e->a = 1; }
/* a loop with no call: the countdown lives in a register in it */
noipa void fill(struct elem *e, int n) { for (int i = 0; i < n; i++) e[i].b = i; }
struct elem F[64];
/* two such loops in turn: the register is stored on the way out of the
 * first before it is loaded on the way into the second */
noipa void fill2(struct elem *e, int n)
{
	for (int i = 0; i < n; i++)
		e[i].a = i;
	for (int i = 0; i < n; i++)
		e[i].b = i;
}

/* a loop with a call: the countdown lives in a register there too, stored
 * before the call and loaded after it (the callee counts it down) */
noipa void bump(struct elem *e) { e->a = e->a + 1; }
noipa void fill_call(struct elem *e, int n)
{
	for (int i = 0; i < n; i++) {
		e[i].b = i;
		bump(&e[i]);
		e[i].b = e[i].b + 1;
	}
}

/* bench/record/stats.c's headroom(): a short function whose recorded loads
 * are the whole of it; with a call in its cold block it kept its values in
 * callee-saved registers (pushed and popped on every call) */
struct node { long max, high, low; struct node *parent; };
struct node N1, N0 = { 10, 4, 1, &N1 };
noipa long chain(const struct node *c)
{
	long h = 0;
	for (; c; c = c->parent)
		h += c->max - c->high + c->low;
	return h;
}
/* one word, two names (a union), and a word beside it */
struct word { union { long a; long b; }; long c; };
struct word Wd;
noipa void word_a(struct word *w) { w->a = 1; }
noipa void word_b(struct word *w) { w->b = 2; }
noipa long word_c(struct word *w) { return w->c; }

static void run(void *(*fn)(void *))
{
	pthread_t t;
	pthread_create(&t, NULL, fn, NULL);
	pthread_join(t, NULL);
}

static void *t_store_a3(void *x) { for (int i = 0; i < 3; i++) store_a(&P); return x; }
static void *t_store_b2(void *x) { for (int i = 0; i < 2; i++) store_b(&P); return x; }
static void *t_store_a(void *x) { store_a(&P); return x; }
static void *t_rmw_a(void *x) { rmw_a(&P); return x; }
static void *t_load_a(void *x) { load_a(&P); return x; }
static void *t_wide_a(void *x) { wide_a(&W); return x; }
static void *t_wide_b(void *x) { wide_b(&W); return x; }
static void *t_elem0(void *x) { elem_a(&E[0]); return x; }
static void *t_elem1(void *x) { elem_a(&E[1]); return x; }

/* T1: a, a, b, a, a on one word; T2 reads the word beside it */
static void *t_word_seq(void *x)
{
	word_a(&Wd);
	word_a(&Wd);
	word_b(&Wd);
	word_a(&Wd);
	word_a(&Wd);
	return x;
}
static void *t_word_c(void *x) { word_c(&Wd); return x; }

#if defined(__x86_64__) && !defined(__ILP32__)
/* The register-preserving entry points (runtime/allregs.h), called as the
 * plugin's cold block calls them, with every general register the ABI lets
 * C clobber set to a known value: 0 when all came back, else the first
 * register (1-based, in the order below) that did not. */
#define ALLREGS_CALL(name)                                                                 \
	__asm__ volatile("mov $0x1111, %%rax\n\tmov $0x2222, %%rcx\n\tmov $0x3333, %%rdx\n\t"    \
			 "mov $0x8888, %%r8\n\tmov $0x9999, %%r9\n\tmov $0xaaaa, %%r10\n\t"         \
			 "mov $0xbbbb, %%r11\n\t"                                                  \
			 "lea -128(%%rsp), %%rsp\n\tcall *" name "@GOTPCREL(%%rip)\n\t"          \
			 "lea 128(%%rsp), %%rsp\n\t"                                               \
			 "mov %%rax, 0(%2)\n\tmov %%rcx, 8(%2)\n\tmov %%rdx, 16(%2)\n\t"           \
			 "mov %%r8, 24(%2)\n\tmov %%r9, 32(%2)\n\tmov %%r10, 40(%2)\n\t"           \
			 "mov %%r11, 48(%2)\n\tmov %%rdi, 56(%2)\n\tmov %%rsi, 64(%2)"               \
			 : : "D"(&P.a), "S"(site), "b"(out)                                        \
			 : "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "memory", "cc")
noipa static int allregs(void)
{
	static const char site[] = "1\tpair\ta\t0\t8\t16\t8";
	unsigned long out[9], want[9] = { 0x1111, 0x2222, 0x3333, 0x8888, 0x9999, 0xaaaa, 0xbbbb,
					  (unsigned long)&P.a, (unsigned long)site };
	for (int k = 0; k < 6; k++) {
		if (k % 3 == 0)
			ALLREGS_CALL("__cachehot_rt_load_allregs");
		else if (k % 3 == 1)
			ALLREGS_CALL("__cachehot_rt_store_allregs");
		else
			ALLREGS_CALL("__cachehot_rt_rmw_allregs");
		for (int i = 0; i < 9; i++)
			if (out[i] != want[i])
				return i + 1;
	}
	return 0;
}
#else
static int allregs(void) { return -1; }
#endif

static volatile sig_atomic_t handled;
static void on_usr1(int s) { (void)s; sig_x(&G); handled++; }

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "single")) {
		/* one thread: exact counts, no transfer */
		for (int i = 0; i < 10; i++)
			write_a(&P);
		for (int i = 0; i < 5; i++)
			load_a(&P);
		store_b(&P);
	} else if (!strcmp(m, "chain")) {
		printf("%ld\n", chain(&N0));
	} else if (!strcmp(m, "word")) {
		run(t_word_seq);
		run(t_word_c);
	} else if (!strcmp(m, "allregs")) {
		printf("%d\n", allregs());
	} else if (!strcmp(m, "loop")) {
		for (int i = 0; i < 1000000; i++)
			write_a(&P);
	} else if (!strcmp(m, "fill")) {
		for (int i = 0; i < 1000; i++)
			fill(F, 64);
	} else if (!strcmp(m, "fillcall")) {
		for (int i = 0; i < 1000; i++)
			fill_call(F, 64);
	} else if (!strcmp(m, "fill2")) {
		for (int i = 0; i < 10000; i++)
			fill2(F, 64);
	} else if (!strcmp(m, "storeloop")) {
		/* one recorded access per call: one access per batch */
		for (int i = 0; i < 1000000; i++)
			store_a(&P);
	} else if (!strcmp(m, "false")) {
		/* T1 writes a (3x), then T2 writes b (2x): one false-sharing transfer */
		run(t_store_a3);
		run(t_store_b2);
	} else if (!strcmp(m, "true")) {
		/* T1 stores a, T2 RMWs a: true sharing; T3 loads a, T4 stores b:
		 * T4 takes the line from T2 and T3 (both on a): two false */
		run(t_store_a);
		run(t_rmw_a);
		run(t_load_a);
		run(t_store_b2);
	} else if (!strcmp(m, "objects")) {
		/* two elements of an array, one thread each: false sharing
		 * between two objects, not between two fields of one */
		run(t_elem0);
		run(t_elem1);
	} else if (!strcmp(m, "predict")) {
		/* a and b 64 bytes apart: apart at 64-byte lines, together at 128 */
		run(t_wide_a);
		run(t_wide_b);
	} else if (!strcmp(m, "fork")) {
		pid_t c;
		int st;
		store_a(&P);
		store_a(&P);
		fflush(stdout);
		c = fork();
		if (c == 0) {
			for (int i = 0; i < 3; i++)
				store_b(&P);
			exit(0);
		}
		waitpid(c, &st, 0);
		store_a(&P);
		printf("%d %d\n", (int)getpid(), (int)c);
	} else if (!strcmp(m, "signal")) {
		/* a handler run synchronously (raise) is recorded exactly */
		signal(SIGUSR1, on_usr1);
		for (int i = 0; i < 4; i++)
			raise(SIGUSR1);
	} else if (!strcmp(m, "stress")) {
		/* a timer's handler interrupts the runtime itself: never a
		 * deadlock; what the handler did is recorded or counted dropped */
		struct itimerval it = { { 0, 200 }, { 0, 200 } };
		signal(SIGPROF, on_usr1);
		setitimer(ITIMER_PROF, &it, NULL);
		for (int i = 0; i < 2000000; i++)
			sig_y(&G);
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_PROF, &it, NULL);
		printf("%d\n", (int)handled);
	} else if (!strcmp(m, "dump")) {
		/* CACHEHOT_RT_SIGNAL=USR2: the dump happens at the next access */
		const char *out = getenv("CACHEHOT_RT_OUT");
		char snap[4096];
		for (int i = 0; i < 5; i++)
			store_a(&P);
		raise(SIGUSR2);
		store_a(&P);
		snprintf(snap, sizeof(snap), "%s.snap", out);
		if (rename(out, snap))
			perror("rename");
		for (int i = 0; i < 4; i++)
			store_a(&P);
	} else {
		fprintf(stderr, "usage: cases single|loop|false|true|objects|predict|fork|signal|stress|dump\n");
		return 2;
	}
	return 0;
}
