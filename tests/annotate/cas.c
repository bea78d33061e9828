/* Atomics that GCC folds into internal functions before the access pass
 * runs (after early inlining): a compare-exchange whose expected value is a
 * register (.ATOMIC_COMPARE_EXCHANGE), a bit test-and-set, an op-fetch
 * compared with 0. Reduced from HAProxy 2.6's accept queue
 * (accept_queue_push_mp(): producers CAS the ring's tail in a retry loop);
 * at -O0 they stay __atomic_* builtins. Each is an RMW of its object.
 * facts:
 * fn bit static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn push static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn put static=0 inline=0 init=0 exit=0 cold=0 callers=
 * param bit 0 rmw=1
 * param push 0 load=2,rmw=1
 * param put 0 rmw=1
 * ring bits bit rmw=1
 * ring head push load=1
 * ring refs put rmw=1
 * ring tail push load=1,rmw=1
 */
struct ring {
	unsigned head;
	unsigned tail;
	unsigned long bits;
	long refs;
};

static inline __attribute__((always_inline)) void barrier_store(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/* an inlined call makes early inlining fold the CAS: pos is a register */
int push(struct ring *r)
{
	unsigned pos = r->tail, next;
	do {
		next = pos + 1;
		if (next == r->head)
			return 0;
	} while (__builtin_expect(!__atomic_compare_exchange_n(&r->tail, &pos, next, 0, __ATOMIC_RELAXED,
							     __ATOMIC_RELAXED), 0));
	barrier_store();
	return 1;
}

int bit(struct ring *r)
{
	return (__atomic_fetch_or(&r->bits, 4, __ATOMIC_RELAXED) & 4) != 0;
}

int put(struct ring *r)
{
	return __atomic_sub_fetch(&r->refs, 1, __ATOMIC_RELAXED) == 0;
}
