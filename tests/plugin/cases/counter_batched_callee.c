/* Callees that already batch, silent.
 * uncharge_list: __mem_cgroup_uncharge_list() (6.1 mm/memcontrol.c) counts
 * PGPGOUT in ug->pgpgout per folio and calls uncharge_batch() only when the
 * memcg changes; uncharge_batch() applies that count.
 * alloc_bulk: __alloc_pages_bulk() (mm/page_alloc.c) refills its per-cpu
 * list through rmqueue_bulk(), which updates NR_FREE_PAGES once with the
 * count its own loop took. */
struct mem_cgroup { long x; };
struct zone { long x; };
struct page { long x; };
enum vm_event_item { PGPGOUT = 2 };
enum zone_stat_item { NR_FREE_PAGES };
void __count_memcg_events(struct mem_cgroup *, enum vm_event_item, unsigned long);
void __mod_zone_page_state(struct zone *, enum zone_stat_item, long);
struct page *take(struct zone *z);

struct gather { struct mem_cgroup *memcg; unsigned long pgpgout; };
struct folio { struct mem_cgroup *memcg; struct folio *next; };

static __attribute__((noinline)) void uncharge_batch(struct gather *ug)
{
	__count_memcg_events(ug->memcg, PGPGOUT, ug->pgpgout);
	ug->pgpgout = 0;
}

static void uncharge_folio(struct folio *f, struct gather *ug)
{
	if (ug->memcg != f->memcg) {
		if (ug->memcg)
			uncharge_batch(ug);
		ug->memcg = f->memcg;
	}
	ug->pgpgout++;
}

void uncharge_list(struct folio *list)
{
	struct gather ug = { 0, 0 };
	for (; list; list = list->next)
		uncharge_folio(list, &ug);
	if (ug.memcg)
		uncharge_batch(&ug);
}

static __attribute__((noinline)) int refill(struct zone *zone, struct page **list, int count)
{
	int i;
	for (i = 0; i < count; i++) {
		struct page *p = take(zone);
		if (!p)
			break;
		list[i] = p;
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -i);
	return i;
}

int alloc_bulk(struct zone *zone, struct page **out, int n)
{
	struct page *pcp[8];
	int have = 0, k = 0, j;
	for (j = 0; j < n; j++) {
		if (!have) {
			have = refill(zone, pcp, 8);
			k = 0;
			if (!have)
				break;
		}
		out[j] = pcp[k++];
		have--;
	}
	return j;
}

/*
 * expect-none
 */
