/* Retry loops are no loops over elements: each is silent.
 * retry_pass: evict_folios() in 6.1 mm/vmscan.c retries its reclaim pass
 * once with `goto retry`; ___slab_alloc() in mm/slub.c the same with
 * `goto redo`. add_cached: __filemap_add_folio() in mm/filemap.c repeats
 * do { ... } while (xas_nomem()) while the store fails for memory, and
 * carries a value around (so it has an element cursor to the old test).
 * bump: a compare-and-swap loop.
 * add_split: __filemap_add_folio() in 6.1.192 is do { } while (1) with a
 * "split needed, allocate and retry" continue and `if (!xas_nomem()) break`:
 * after the update no split is pending, so the loop goes round again only
 * when xas_nomem() says the store failed for memory.
 * take_page: rmqueue_buddy() (mm/page_alloc.c) takes a page off a free
 * list picked per attempt and repeats while check_new_pages() finds the
 * page bad: no value carried around, no list of its own popped. */
struct mem_cgroup { long x; };
struct lruvec { long x; };
struct folio { unsigned long flags; };
struct list_head { struct list_head *next, *prev; };
enum vm_event_item { PGSTEAL_KSWAPD = 3, PGSTEAL_DIRECT };
enum node_stat_item { NR_FILE_PAGES = 7, NR_WRITTEN };
void __count_memcg_events(struct mem_cgroup *, enum vm_event_item, unsigned long);
void __mod_lruvec_state(struct lruvec *, enum node_stat_item, int);
unsigned long shrink_list(struct list_head *list);
int current_is_kswapd(void);
int list_empty(struct list_head *l);

void retry_pass(struct mem_cgroup *memcg, struct list_head *list, struct list_head *clean)
{
	int skip_retry = 0;
retry:
	shrink_list(list);
	__count_memcg_events(memcg, current_is_kswapd() ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, 1);
	if (!skip_retry && !list_empty(clean)) {
		skip_retry = 1;
		list = clean;
		goto retry;
	}
}

struct xa_state { int err; };
int xas_store_order(struct xa_state *xas, struct folio *f, int order);
int xas_nomem(struct xa_state *xas, unsigned gfp);
void add_cached(struct lruvec *lruvec, struct folio *f, unsigned gfp)
{
	struct xa_state xas = { 0 };
	int order = 0;
	do {
		order = xas_store_order(&xas, f, order);
		if (order < 0)
			continue;
		__mod_lruvec_state(lruvec, NR_FILE_PAGES, 1);
	} while (xas_nomem(&xas, gfp));
}

void bump(struct lruvec *lruvec, long *v, long n)
{
	long old = *v;
	do
		__mod_lruvec_state(lruvec, NR_WRITTEN, 1);
	while (!__atomic_compare_exchange_n(v, &old, old + n, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

int xas_split_alloc(struct xa_state *xas, int order);
void add_split(struct lruvec *lruvec, struct folio *f, unsigned gfp)
{
	struct xa_state xas = { 0 };
	int order = 0;
	do {
		int split_order = 0;
		order = xas_store_order(&xas, f, order);
		if (order > 4)
			split_order = order;
		else if (order >= 0)
			__mod_lruvec_state(lruvec, NR_FILE_PAGES, 1);
		if (split_order) {
			xas_split_alloc(&xas, split_order);
			continue;
		}
		if (!xas_nomem(&xas, gfp))
			break;
	} while (1);
}

struct zone { struct list_head free_list[4]; };
struct page { struct list_head lru; };
enum zone_stat_item { NR_FREE_PAGES };
void __mod_zone_page_state(struct zone *, enum zone_stat_item, long);
int check_new_page(struct page *p);
static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

struct page *take_page(struct zone *zone, int order)
{
	struct page *page;
	do {
		int o;
		for (o = order; o < 4; o++)
			if (zone->free_list[o].next != &zone->free_list[o])
				break;
		if (o == 4)
			return 0;
		page = (struct page *)zone->free_list[o].next;
		list_del(&page->lru);
		__mod_zone_page_state(zone, NR_FREE_PAGES, -1);
	} while (check_new_page(page));
	return page;
}

/*
 * expect-none
 */
