/* Loops that apply counts already gathered, silent.
 * reset_batch: reset_batch_size() (6.1 mm/vmscan.c) applies, per
 * generation and type, the count update_batch_size() added up in
 * walk->nr_pages[gen][type][zone] during the page-table walk.
 * apply_taken: update_lru_sizes() applies, per zone, the pages
 * isolate_lru_folios() counted in its local nr_zone_taken[]. */
struct lruvec { long x; };
struct folio { int zone; struct folio *next; };
enum node_stat_item { NR_LRU_BASE, NR_ACTIVE_ANON, NR_INACTIVE_FILE };
void __mod_lruvec_state(struct lruvec *, enum node_stat_item, int);

struct walk { int nr_pages[4][2]; };
void update_batch(struct walk *w, int gen, int type, int delta)
{
	w->nr_pages[gen][type] += delta;
}

void reset_batch(struct lruvec *lruvec, struct walk *w)
{
	for (int gen = 0; gen < 4; gen++)
		for (int type = 0; type < 2; type++) {
			int delta = w->nr_pages[gen][type];
			if (!delta)
				continue;
			w->nr_pages[gen][type] = 0;
			__mod_lruvec_state(lruvec, type ? NR_INACTIVE_FILE : NR_LRU_BASE, delta);
		}
}

int take(struct folio *f);
void apply_taken(struct lruvec *lruvec, struct folio *list, int lru)
{
	long taken[4] = { 0 };
	for (; list; list = list->next)
		if (take(list))
			taken[list->zone & 3]++;
	for (int z = 0; z < 4; z++)
		if (taken[z])
			__mod_lruvec_state(lruvec, NR_LRU_BASE + (lru & 1), -taken[z]);
}

/*
 * expect-none
 */
