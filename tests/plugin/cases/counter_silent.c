/* Silent: a target per element that is no lookup (another owner each
 * time); an update already applied once after its loop; a retry loop with no
 * element cursor (the page cache's do { } while (xas_nomem()) shape); a
 * target indexed by the loop counter (update_lru_sizes: each zone once). */
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

struct xa_state { int err; };
int try_store(struct xa_state *xas, struct folio *f);
int retry_nomem(struct xa_state *xas);
void add_one(struct pglist_data *pgdat, struct folio *f)
{
	struct xa_state xas = { 0 };
	do {
		if (try_store(&xas, f))
			continue;
		mod_node_page_state(pgdat, NR_WRITTEN, 1);
	} while (retry_nomem(&xas));
}

struct node { struct pglist_data zones[4]; };
void per_zone(struct node *n, long *taken)
{
	for (int z = 0; z < 4; z++)
		if (taken[z])
			mod_node_page_state(&n->zones[z], NR_WRITTEN, -taken[z]);
}

/*
 * expect-none
 */
