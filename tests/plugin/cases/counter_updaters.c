/* an updater the built-in list does not know, named with
 * counter-updaters=NAME:TARGET:ITEM (here target second, item first) */
struct stats { long v[8]; };
enum my_item { MY_HITS, MY_MISSES };
void my_stat_add(enum my_item, struct stats *, long);

void count_hits(struct stats *s, int *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (keys[i] > 0)
			my_stat_add(MY_HITS, s, 1);
}

/*
 * cachehot-args: counter-updaters=my_stat_add:1:0
 * expect:
 * 11:25: warning: statistics update 'my_stat_add' of MY_HITS runs once per element of the loop at tests/plugin/cases/counter_updaters.c:9 in 'count_hits' with a target and item that do not change in the loop: accumulate in a local and apply once after the loop [cachehot-counter-batch]
 * 9:27: note: the loop whose elements each update 'my_stat_add' [cachehot-counter-batch]
 */
