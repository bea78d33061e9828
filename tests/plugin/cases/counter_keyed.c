/* khugepaged isolate shape: the node looked up per page, the item one of
 * two per page */
struct pglist_data { long x; };
struct folio { unsigned long flags; int nid; struct folio *next; };
enum node_stat_item { NR_ISOLATED_ANON = 4, NR_ISOLATED_FILE, NR_WRITTEN };
void mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
extern struct pglist_data *node_data[];

static inline struct pglist_data *folio_pgdat(struct folio *f)
{
	return node_data[f->nid];
}

int isolate(struct folio **pages, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		struct folio *f = pages[i];
		mod_node_page_state(folio_pgdat(f), NR_ISOLATED_ANON + !!(f->flags & 2), 1);
	}
	return i;
}


/* shrink_folio_list shape: the folio popped off a list whose head is a
 * parameter; the loop rewrites list->prev, so the folio (and its node) is
 * new each time, not loop-invariant */
struct list_head { struct list_head *next, *prev; };
struct lfolio { struct list_head lru; int nid; };
static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}
void drain_list(struct list_head *list)
{
	while (list->next != list) {
		struct lfolio *f = (struct lfolio *)list->prev;
		list_del(&f->lru);
		mod_node_page_state(node_data[f->nid], NR_WRITTEN, 1);
	}
}

/*
 * expect:
 * 19:17: note: statistics update 'mod_node_page_state' of NR_ISOLATED_ANON..NR_ISOLATED_FILE runs once per element of the loop at tests/plugin/cases/counter_keyed.c:17 in 'isolate'; the target changes per element but is looked up from one value (the index into 'node_data') that stays the same over runs of elements: keep the current target and a keyed accumulator of 2 locals, apply when the target changes and after the loop [cachehot-counter-batch]
 * 17:23: note: the loop whose elements each update 'mod_node_page_state' [cachehot-counter-batch]
 * 40:17: note: statistics update 'mod_node_page_state' of NR_WRITTEN runs once per element of the loop at tests/plugin/cases/counter_keyed.c:37 in 'drain_list'; the target changes per element but is looked up from one value (the index into 'node_data') that stays the same over runs of elements: keep the current target and a local accumulator, apply when the target changes and after the loop [cachehot-counter-batch]
 * 37:20: note: the loop whose elements each update 'mod_node_page_state' [cachehot-counter-batch]
 */
