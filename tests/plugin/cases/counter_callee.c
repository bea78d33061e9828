/* migrate_folio_done shape: the update in a static function that is not
 * inlined, two calls below the loop */
struct pglist_data { long x; };
struct folio { unsigned long flags; int nid; struct folio *next; };
enum node_stat_item { NR_ISOLATED_ANON = 4, NR_ISOLATED_FILE, NR_WRITTEN };
void mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
extern struct pglist_data *node_data[];

static __attribute__((noinline)) void folio_done(struct pglist_data *pgdat, struct folio *f)
{
	if (!(f->flags & 16))
		mod_node_page_state(pgdat, NR_WRITTEN, -1);
}

static __attribute__((noinline)) int move_one(struct pglist_data *pgdat, struct folio *f)
{
	if (f->flags & 32)
		return -1;
	folio_done(pgdat, f);
	return 0;
}

int move_all(struct pglist_data *pgdat, struct folio *list)
{
	int failed = 0;
	for (; list; list = list->next)
		failed += move_one(pgdat, list);
	return failed;
}

/*
 * expect:
 * 27:27: warning: statistics update 'mod_node_page_state' of NR_WRITTEN (tests/plugin/cases/counter_callee.c:12) runs once per element of the loop at tests/plugin/cases/counter_callee.c:26 in 'move_all' (through move_all -> move_one -> folio_done; 2 calls not inlined: move_one, folio_done) with a target and item that do not change in the loop: accumulate in a local and apply once after the loop [cachehot-counter-batch]
 * 26:16: note: the loop whose elements each update 'mod_node_page_state' [cachehot-counter-batch]
 */
