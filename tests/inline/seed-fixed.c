/* The seed shape fixed by hand: direct calls, no function pointer. */
struct lruvec { long state[8]; long local[8]; };
static inline unsigned long lruvec_page_state(struct lruvec *l, int idx)
{
	long x = 0; int i;
	for (i = 0; i < 4; i++) x += l[i].state[idx];
	return x < 0 ? 0 : x;
}
static inline unsigned long lruvec_page_state_local(struct lruvec *l, int idx)
{
	long x = l->local[idx];
	return x < 0 ? 0 : x;
}
unsigned long numa_stat(struct lruvec *lruvec, int tree, int n)
{
	unsigned long nr = 0;
	int idx;

	for (idx = 0; idx < n; idx++) {
		if (tree)
			nr += lruvec_page_state(lruvec, idx);
		else
			nr += lruvec_page_state_local(lruvec, idx);
	}
	return nr;
}
/* cachehot-args:
 * expect-none
 */
