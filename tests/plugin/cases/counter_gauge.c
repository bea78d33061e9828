/* A gauge, silent: shrink_inactive_list() (6.1 mm/vmscan.c, inlined into
 * shrink_lruvec()'s loop over the LRU lists) raises NR_ISOLATED_* by the
 * pages it isolated and lowers it by the same after reclaiming them;
 * too_many_isolated() reads the level. */
struct pglist_data { long x; };
enum node_stat_item { NR_ISOLATED_ANON = 4, NR_ISOLATED_FILE };
void __mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
unsigned long reclaim(unsigned long n);

static inline unsigned long shrink_inactive(struct pglist_data *pgdat, int file, unsigned long n)
{
	unsigned long freed;
	__mod_node_page_state(pgdat, NR_ISOLATED_ANON + file, n);
	freed = reclaim(n);
	__mod_node_page_state(pgdat, NR_ISOLATED_ANON + file, -n);
	return freed;
}

unsigned long shrink_lruvec(struct pglist_data *pgdat, unsigned long *nr)
{
	unsigned long done = 0;
	for (int lru = 0; lru < 4; lru++)
		if (nr[lru])
			done += shrink_inactive(pgdat, lru & 1, nr[lru]);
	return done;
}

/*
 * expect-none
 */
