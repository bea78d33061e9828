// SPDX-License-Identifier: GPL-2.0
/* Must not report: inline functions passed as macro arguments that expand
 * to direct calls. */
#include "memcg.h"

#define PAGE_STATE(tree, fa, fb, l, i)	((tree) ? fa(l, i) : fb(l, i))
#define APPLY(fn, l, i)			fn(l, i)

unsigned long numa_stat_sum(struct lruvec **lruvecs, int nr_nodes, int item,
			    _Bool tree)
{
	unsigned long nr = 0;
	int nid;

	for (nid = 0; nid < nr_nodes; nid++)
		nr += PAGE_STATE(tree, lruvec_page_state,
				 lruvec_page_state_local, lruvecs[nid], item);
	return nr + APPLY(lruvec_page_state, lruvecs[0], item);
}
