/* SPDX-License-Identifier: GPL-2.0 */
/* Reduced from include/linux/memcontrol.h (6.1): two lruvec accessors. */
struct lruvec {
	long state[8];
	long state_local[8];
};

static inline unsigned long lruvec_page_state(struct lruvec *lruvec, int idx)
{
	long x = lruvec->state[idx];

	return x < 0 ? 0 : x;
}

static inline unsigned long lruvec_page_state_local(struct lruvec *lruvec,
						    int idx)
{
	long x = lruvec->state_local[idx];

	return x < 0 ? 0 : x;
}
