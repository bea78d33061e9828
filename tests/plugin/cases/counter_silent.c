/* per element, no lookup (another owner each time), and an update already
 * applied once after its loop: both silent */
struct pglist_data { long x; };
struct folio { unsigned long flags; int nid; struct folio *next; };
enum node_stat_item { NR_ISOLATED_ANON = 4, NR_ISOLATED_FILE, NR_WRITTEN };
void mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
extern struct pglist_data *node_data[];

struct item { struct pglist_data *owner; struct item *next; };
void drain(struct item *it)
{
	for (; it; it = it->next)
		mod_node_page_state(it->owner, NR_WRITTEN, 1);
}

void batched(struct pglist_data *pgdat, struct folio *list)
{
	long nr = 0;
	for (; list; list = list->next)
		nr++;
	mod_node_page_state(pgdat, NR_WRITTEN, nr);
}

/*
 * expect-none
 */
