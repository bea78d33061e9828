// SPDX-License-Identifier: GPL-2.0
/*
 * counter_batch.cocci fixture: loops that update a statistics counter per
 * element. Reduced from linux-6.1 mm/page_alloc.c rmqueue_bulk() (per-page
 * NR_FREE_CMA_PAGES) and the shapes of mm/vmscan.c. Compiles on its own.
 */
struct zone;
struct lruvec;
struct page { struct page *next; };
enum { NR_FREE_PAGES, NR_FREE_CMA_PAGES, NR_ISOLATED_ANON, NR_ISOLATED_FILE, PGFREE };
void __mod_zone_page_state(struct zone *zone, int item, long delta);
void __mod_lruvec_state(struct lruvec *lruvec, int item, long val);
void __count_vm_event(int item);
void my_stat_add(struct zone *zone, int item, long delta);
struct page *take_page(struct zone *zone);
int page_is_cma(struct page *page);
int page_is_file(struct page *page);
#define for_each_page(pos, head) for (pos = (head); pos; pos = pos->next)

/* The rmqueue_bulk() shape: reported, loop-invariant target and item. */
int bulk(struct zone *zone, unsigned int order, unsigned long count)
{
	unsigned long i;
	int allocated = 0;

	for (i = 0; i < count; ++i) {
		struct page *page = take_page(zone);

		if (!page)
			break;
		allocated++;
		if (page_is_cma(page))
			__mod_zone_page_state(zone, NR_FREE_CMA_PAGES,
					      -(1 << order));
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -(i << order));
	return allocated;
}

/* The item depends on the element: reported as a keyed accumulator. */
void isolate(struct lruvec *lruvec, struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++)
		__mod_lruvec_state(lruvec, NR_ISOLATED_ANON + page_is_file(pages[i]), 1);
}

/* A per-cpu event counter (no target) in a while loop: reported. */
void free_some(int n)
{
	while (n-- > 0)
		__count_vm_event(PGFREE);
}

/* A user-listed updater (-D counter_batch_updaters=my_stat_add:0:1). */
void custom(struct zone *zone, int n)
{
	int i;

	for (i = 0; i < n; i++)
		my_stat_add(zone, NR_FREE_PAGES, 1);
}

/* An iterator macro whose cursor is not the target: reported. */
void walk(struct zone *zone, struct page *head)
{
	struct page *page;

	for_each_page(page, head) {
		if (page_is_cma(page))
			__mod_zone_page_state(zone, NR_FREE_CMA_PAGES, -1);
	}
}
