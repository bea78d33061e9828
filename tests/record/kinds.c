/* Every access kind the recording build instruments, one call each from
 * main(): the counts are exact at every optimization level (noipa keeps
 * each function's accesses where they are written).
 * expect: (struct.member reads writes rmws; from a run with sampling 1)
 * acc.count 1 1 0
 * anon_t.v 1 1 0
 * anon_t.w 1 0 0
 * acc.sum 2 2 0
 * bits.hi 0 1 0
 * bits.lo 1 0 0
 * holder.u.f 0 1 0
 * holder.u.i 1 0 0
 * num.i 1 0 0
 * ring.bits 0 0 1
 * ring.head 1 0 0
 * ring.refs 0 0 1
 * ring.tail 1 0 1
 * stats.c11 0 0 1
 * stats.counter 1 1 3
 * stats.flag 1 1 0
 * stats.limit 1 0 0
 */
#define noipa __attribute__((noipa))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

struct bits { unsigned lo : 3, hi : 5; int z; };
struct acc { long sum; long count; };
union num { int i; float f; };
struct holder { long pad; union num u; };
struct stats {
	long counter;
	long limit;
	int flag;
	_Atomic long c11;
};

typedef struct { long v; long w; } anon_t;   /* named by its typedef */
/* atomics GCC folds into internal functions at -O1 and above: a
 * compare-exchange whose expected value is a register, a bit test-and-set,
 * an op-fetch compared with 0 (.ATOMIC_COMPARE_EXCHANGE, ...) */
struct ring { unsigned head; unsigned tail; unsigned long bits; long refs; };

struct bits B;
anon_t AN;
struct acc A[4];
union num N;
struct holder H;
struct stats S;
struct ring R;

noipa void bf_store(struct bits *p, unsigned v) { p->hi = v; }   /* one store of byte 0 */
noipa unsigned bf_load(struct bits *p) { return p->lo; }
noipa void arr(struct acc *a, int i, long v) { a[i].sum += v; a[i + 1].count++; }
noipa void arr2(struct acc *a, int i) { a[i].sum = a[i - 1].sum; }
noipa int un_load(union num *p) { return p->i; }
noipa void un_store(struct holder *h, float f) { h->u.f = f; }
noipa int un_load2(struct holder *h) { return h->u.i; }
noipa void atom(struct stats *s)
{
	__atomic_fetch_add(&s->counter, 1, __ATOMIC_RELAXED);
	__sync_fetch_and_add(&s->counter, 1);
	(void)__atomic_load_n(&s->counter, __ATOMIC_ACQUIRE);
	__atomic_store_n(&s->counter, 5, __ATOMIC_RELEASE);
	s->c11++;
	__asm__ __volatile__("lock; incq %0" : "+m"(s->counter));
}
noipa int push(struct ring *r)
{
	unsigned pos = r->tail, next;
	do {
		next = pos + 1;
		if (next == r->head)
			return 0;
	} while (!__atomic_compare_exchange_n(&r->tail, &pos, next, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return 1;
}
noipa int bit(struct ring *r) { return (__atomic_fetch_or(&r->bits, 4, __ATOMIC_RELAXED) & 4) != 0; }
noipa int put(struct ring *r) { return __atomic_sub_fetch(&r->refs, 1, __ATOMIC_RELAXED) == 0; }
noipa void anon(anon_t *p) { p->v++; }
noipa long anon_once(anon_t *p) { return READ_ONCE(p->w); }
noipa long once(struct stats *s)
{
	WRITE_ONCE(s->flag, 1);
	return READ_ONCE(s->flag) + READ_ONCE(s->limit);
}

int main(void)
{
	bf_store(&B, 3);
	bf_load(&B);
	arr(A, 1, 5);
	arr2(A, 2);
	un_load(&N);
	un_store(&H, 1.0f);
	un_load2(&H);
	atom(&S);
	push(&R);
	bit(&R);
	put(&R);
	anon(&AN);
	anon_once(&AN);
	return (int)once(&S) - 1;
}
