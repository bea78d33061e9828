/* rmqueue_bulk shape: a direct update in the loop, its twin (NR_FREE_PAGES)
 * already applied once after the loop, an early exit by break */
struct zone { long x; };
struct page { unsigned long flags; struct page *next; };
enum zone_stat_item { NR_FREE_PAGES, NR_ZONE_LRU_BASE, NR_MLOCK = 6, NR_FREE_CMA_PAGES };
void __mod_zone_page_state(struct zone *, enum zone_stat_item, long);
struct page *take_one(struct zone *zone);

static inline int page_is_cma(struct page *p) { return p->flags & 8; }

int take_bulk(struct zone *zone, int count, struct page **list)
{
	int i;
	for (i = 0; i < count; ++i) {
		struct page *page = take_one(zone);
		if (!page)
			break;
		list[i] = page;
		if (page_is_cma(page))
			__mod_zone_page_state(zone, NR_FREE_CMA_PAGES, -1);
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -i);
	return i;
}

/*
 * expect:
 * 20:25: warning: statistics update '__mod_zone_page_state' of NR_FREE_CMA_PAGES runs once per element of the loop at tests/plugin/cases/counter_direct.c:14 in 'take_bulk' with a target and item that do not change in the loop: accumulate in a local and apply once after the loop; 'take_bulk' already applies '__mod_zone_page_state' of NR_FREE_PAGES once after a loop (line 22): do the same here [cachehot-counter-batch]
 * 14:23: note: the loop whose elements each update '__mod_zone_page_state' [cachehot-counter-batch]
 */
