/* Paths the code marks unlikely, and values computed from a field's own
 * value (docs/annotate.md). Reduced from 6.1: mm/page_alloc.c
 * (reserve_highatomic_pageblock() called under unlikely(), the allocator's
 * slow path behind likely(page)), include/linux/refcount.h (the saturation
 * warning under unlikely()), kernel/sched/core.c (rq->clock += delta) and
 * kernel/sched/fair.c (update_avg(): a running average). */
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)
#define noinline __attribute__((__noinline__))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

struct zone {
	unsigned long nr_reserved_highatomic;
	unsigned long watermark;
	unsigned long nr_free;
	int refs;
	unsigned long clock;
	unsigned long emin;
	struct zone *parent;
};

void refcount_warn_saturate(int *r);    /* another unit's */
void *take_page(struct zone *z, int order);

noinline static void reserve_highatomic(struct zone *z)
{
	z->nr_reserved_highatomic += 512;
}

noinline static void *alloc_slowpath(struct zone *z)
{
	z->watermark = 0;
	return 0;
}

void *alloc_pages(struct zone *z, int order)
{
	void *page = take_page(z, order);
	if (unlikely(order > 3 && z->nr_free < z->watermark))
		reserve_highatomic(z);
	if (likely(page))
		return page;
	return alloc_slowpath(z);
}

void zone_get(struct zone *z)
{
	int old = __atomic_fetch_add(&z->refs, 1, __ATOMIC_RELAXED);
	if (unlikely(old <= 0))
		refcount_warn_saturate(&z->refs);
}

void zone_tick(struct zone *z, unsigned long delta)
{
	z->clock += delta;
}

void zone_protect(struct zone *z)
{
	/* a running average of its own value; the parent's value alone would
	 * be a copy (a child inheriting a setting), not an update */
	WRITE_ONCE(z->emin, READ_ONCE(z->emin) / 2 + READ_ONCE(z->parent->emin) / 2);
}

#define READER(NAME) \
unsigned long NAME(const struct zone *z) \
{ \
	return z->clock + z->emin + z->nr_reserved_highatomic + z->watermark; \
}
READER(zone_age)
READER(zone_low)
READER(zone_show)

/* facts:
 * fn alloc_pages static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn alloc_slowpath static=1 inline=0 init=0 exit=0 cold=0 callers= unlikely_callers=alloc_pages
 * fn reserve_highatomic static=1 inline=0 init=0 exit=0 cold=0 callers= unlikely_callers=alloc_pages
 * fn zone_age static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn zone_get static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn zone_low static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn zone_protect static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn zone_show static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn zone_tick static=0 inline=0 init=0 exit=0 cold=0 callers=
 * param alloc_pages 0 unlikely_read=2
 * param alloc_slowpath 0 store=1
 * param reserve_highatomic 0 load=1,store=1,update=1
 * param zone_age 0 load=4
 * param zone_get 0 rmw=1
 * param zone_low 0 load=4
 * param zone_protect 0 load=1,marked_load=1,marked_store=1,update=1
 * param zone_show 0 load=4
 * param zone_tick 0 load=1,store=1,update=1
 * pass alloc_pages 0 take_page/0=1
 * zone clock zone_age load=1
 * zone clock zone_low load=1
 * zone clock zone_show load=1
 * zone clock zone_tick load=1,store=1,update=1
 * zone emin zone_age load=1
 * zone emin zone_low load=1
 * zone emin zone_protect marked_load=2,marked_store=1,update=1
 * zone emin zone_show load=1
 * zone nr_free alloc_pages unlikely_read=1
 * zone nr_reserved_highatomic reserve_highatomic load=1,store=1,update=1
 * zone nr_reserved_highatomic zone_age load=1
 * zone nr_reserved_highatomic zone_low load=1
 * zone nr_reserved_highatomic zone_show load=1
 * zone parent zone_protect load=1
 * zone refs zone_get rmw=1,passed_unlikely:refcount_warn_saturate/0=1
 * zone watermark alloc_pages unlikely_read=1
 * zone watermark alloc_slowpath store=1
 * zone watermark zone_age load=1
 * zone watermark zone_low load=1
 * zone watermark zone_show load=1
 */
