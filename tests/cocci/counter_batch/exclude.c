// SPDX-License-Identifier: GPL-2.0
/*
 * counter_batch.cocci must-not-report fixture: one function per exclusion.
 * Every update below is either outside a loop or has a target that changes
 * per element, so it cannot be merged. Compiles on its own.
 */
struct zone { struct zone *next; };
struct lruvec;
struct page { struct page *next; };
struct list_head { struct list_head *next; };
enum { NR_FREE_PAGES, NR_ISOLATED_ANON };
void __mod_zone_page_state(struct zone *zone, int item, long delta);
void __mod_lruvec_state(struct lruvec *lruvec, int item, long val);
void __mod_lruvec_page_state(struct page *page, int item, int val);
struct lruvec *page_lruvec(struct page *page);
struct lruvec *lock_lruvec(struct page *page);
#define for_each_page(pos, head) for (pos = (head); pos; pos = pos->next)

/* Not in a loop at all. */
void once(struct zone *zone, long nr)
{
	__mod_zone_page_state(zone, NR_FREE_PAGES, nr);
}

/* The target is declared per element in the loop body. */
void declared_target(struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct lruvec *lruvec = page_lruvec(pages[i]);

		__mod_lruvec_state(lruvec, NR_ISOLATED_ANON, 1);
	}
}

/* The target is reassigned per element (different memcgs/lruvecs). */
void assigned_target(struct page **pages, int n)
{
	struct lruvec *lruvec;
	int i;

	for (i = 0; i < n; i++) {
		lruvec = lock_lruvec(pages[i]);
		__mod_lruvec_state(lruvec, NR_ISOLATED_ANON, 1);
	}
}

/* The target is computed from the element in the argument itself. */
void computed_target(struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++)
		__mod_lruvec_state(page_lruvec(pages[i]), NR_ISOLATED_ANON, 1);
}

/* The target is the page being walked (its memcg differs per page). */
void page_target(struct page *head)
{
	struct page *page;

	for_each_page(page, head) {
		__mod_lruvec_page_state(page, NR_ISOLATED_ANON, 1);
	}
}

/* The target is the for-loop cursor. */
void zone_cursor(struct zone *first)
{
	struct zone *zone;

	for (zone = first; zone; zone = zone->next)
		__mod_zone_page_state(zone, NR_FREE_PAGES, 1);
}

/* The loop ends right after the update: it runs at most once per call. */
int scan(struct zone *zone, struct page **pages, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!pages[i]) {
			__mod_zone_page_state(zone, NR_FREE_PAGES, 1);
			break;
		}
	}
	return i;
}

/* The item is the loop index: every item is updated once (a fold). */
void fold(struct zone *zone, long *deltas)
{
	int i;

	for (i = 0; i < NR_ISOLATED_ANON; i++)
		__mod_zone_page_state(zone, i, deltas[i]);
}
