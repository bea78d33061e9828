// SPDX-License-Identifier: GPL-2.0
/* Must not report: the fixed form, direct calls only. */
#include "memcg.h"

unsigned long numa_stat_sum(struct lruvec **lruvecs, int nr_nodes, int item,
			    _Bool tree)
{
	unsigned long nr = 0;
	int nid;

	for (nid = 0; nid < nr_nodes; nid++) {
		if (tree)
			nr += lruvec_page_state(lruvecs[nid], item);
		else
			nr += lruvec_page_state_local(lruvecs[nid], item);
	}
	return nr;
}
