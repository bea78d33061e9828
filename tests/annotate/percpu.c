/* Per-thread data that other threads read (the kernel's struct rq: each
 * CPU writes its own through this_rq(), the others read it through
 * cpu_rq(cpu)). The owner's writes through its own element are owned, but
 * 'pinned' is also read by three functions through any element: the
 * owner's updates dirty a line the others read, so they count (hot).
 * 'limit' is only read there: read_mostly; 'flags' is set atomically by
 * the others: hot. 'scratch' is touched only through the owner's element:
 * owned accesses, no evidence, no line. */
__thread unsigned int tid;

struct worker {
	long pinned;
	long scratch;
	long limit;
	long flags;
};

struct worker workers[64];

void pin(void)
{
	workers[tid].pinned++;
	workers[tid].scratch = 1;
}

void unpin(void)
{
	workers[tid].pinned--;
	workers[tid].scratch = 0;
}

int busy(unsigned int cpu)
{
	__atomic_fetch_or(&workers[cpu].flags, 1, __ATOMIC_RELAXED);
	return workers[cpu].pinned != 0 && workers[cpu].limit > 0;
}

int any_busy(void)
{
	for (unsigned int i = 0; i < 64; i++)
		if (workers[i].pinned > workers[i].limit)
			return 1;
	return 0;
}

long drain(unsigned int cpu)
{
	__atomic_fetch_and(&workers[cpu].flags, ~1L, __ATOMIC_RELAXED);
	return workers[cpu].pinned + workers[cpu].limit;
}

/* facts:
 * fn any_busy static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn busy static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn drain static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn pin static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn unpin static=0 inline=0 init=0 exit=0 cold=0 callers=
 * worker flags busy rmw=1
 * worker flags drain rmw=1
 * worker limit any_busy load=1
 * worker limit busy load=1
 * worker limit drain load=1
 * worker pinned any_busy load=1
 * worker pinned busy load=1
 * worker pinned drain load=1
 * worker pinned owned-via indexed by the thread's id=4
 * worker pinned pin owned=2,owned_write=1,owned_update=1
 * worker pinned unpin owned=2,owned_write=1,owned_update=1
 * worker scratch owned-via indexed by the thread's id=2
 * worker scratch pin owned=1,owned_write=1
 * worker scratch unpin owned=1,owned_write=1
 */
