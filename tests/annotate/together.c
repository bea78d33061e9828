/* Groups from evidence (docs/annotate.md, "Written together"): a ring whose
 * producers bump 'head' atomically and record 'head_stamp' beside it, in
 * the same two functions; six readers look at the stamp. 'head_stamp'
 * alone looks read-mostly (two writers, six readers), but it is dirtied
 * exactly when 'head' is: it belongs in head's group, never opposite it. 'size' is
 * set up once and read everywhere: read_mostly. */
struct ring {
	unsigned long head;
	unsigned long head_stamp;
	unsigned long size;
	void **slots;
};

#define noinline __attribute__((__noinline__))
#define __cold __attribute__((__cold__))

void __cold ring_setup(struct ring *r, unsigned long size, void **slots)
{
	r->size = size;
	r->slots = slots;
}

void ring_push(struct ring *r, void *p, unsigned long now)
{
	unsigned long h = __atomic_fetch_add(&r->head, 1, __ATOMIC_RELAXED);
	r->head_stamp = now;
	r->slots[h % r->size] = p;
}

void ring_push_many(struct ring *r, void **p, unsigned long n, unsigned long now)
{
	unsigned long h = __atomic_fetch_add(&r->head, n, __ATOMIC_RELAXED), i;
	r->head_stamp = now;
	for (i = 0; i < n; i++)
		r->slots[(h + i) % r->size] = p[i];
}

unsigned long ring_used(const struct ring *r, unsigned long tail)
{
	return __atomic_load_n(&r->head, __ATOMIC_RELAXED) - tail;
}

/* six readers of the push time and the size */
#define READER(NAME) \
unsigned long NAME(const struct ring *r, unsigned long now) \
{ \
	return (now - r->head_stamp) / r->size; \
}
READER(ring_age)
READER(ring_idle)
READER(ring_stale)
READER(ring_rate)
READER(ring_dump)
READER(ring_stats)
