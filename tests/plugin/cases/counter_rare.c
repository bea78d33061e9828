/* Updates on rare paths, silent.
 * map_range: memory.c's loops call __pte_alloc() only under pte_alloc()'s
 * unlikely(pmd_none()), and __pte_alloc() frees (NR_PAGETABLE down) only
 * the page table it lost the race with (a new page each time, too).
 * free_range: free_pages_prepare() (6.1 mm/page_alloc.c) counts NR_MLOCK
 * only for a page still mlocked, unlikely(); make_alloc_exact() and
 * free_reserved_area() call it per page.
 * free_list: free_unref_page_list() frees an isolated page through
 * free_one_page() under unlikely(is_migrate_isolate()). */
struct page { unsigned long flags; int mt; struct page *next; };
struct zone { long x; };
enum node_stat_item { NR_PAGETABLE = 9 };
enum zone_stat_item { NR_FREE_PAGES, NR_MLOCK = 4 };
void mod_lruvec_page_state(struct page *, enum node_stat_item, int);
void mod_zone_page_state(struct zone *, enum zone_stat_item, long);
struct page *pte_alloc_one(void);
void pmd_install(long *pmd, struct page **new);
void free_page(struct page *p);
extern struct zone zone0;

static inline void pte_free(struct page *p)
{
	mod_lruvec_page_state(p, NR_PAGETABLE, -1);
	free_page(p);
}

__attribute__((noinline)) int __pte_alloc(long *pmd)
{
	struct page *new = pte_alloc_one();
	if (!new)
		return -12;
	pmd_install(pmd, &new);
	if (new)
		pte_free(new);
	return 0;
}
#define pte_alloc(pmd) (__builtin_expect(!*(pmd), 0) && __pte_alloc(pmd))

int map_range(long *pmd, long *end)
{
	for (; pmd < end; pmd++)
		if (pte_alloc(pmd))
			return -12;
	return 0;
}

static __attribute__((noinline)) void free_prepare(struct page *p)
{
	if (__builtin_expect(p->flags & 8, 0)) {
		p->flags &= ~8ul;
		mod_zone_page_state(&zone0, NR_MLOCK, -1);
	}
	free_page(p);
}

void free_range(struct page *p, struct page *end)
{
	for (; p < end; p++)
		free_prepare(p);
}

static __attribute__((noinline)) void free_one(struct page *p)
{
	mod_zone_page_state(&zone0, NR_FREE_PAGES, 1);
	free_page(p);
}

void free_list(struct page *p)
{
	for (; p; p = p->next) {
		if (__builtin_expect(p->mt == 3, 0)) {
			free_one(p);
			continue;
		}
		free_page(p);
	}
}

/*
 * expect-none
 */
