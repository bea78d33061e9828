// SPDX-License-Identifier: GPL-2.0
/* The seed shape, reduced from mm/memcontrol.c memcg_numa_stat_show():
 * two inline accessors chosen through a pointer, called in a loop. */
#include "memcg.h"

unsigned long numa_stat_sum(struct lruvec **lruvecs, int nr_nodes, int item,
			    _Bool tree)
{
	unsigned long (*page_state)(struct lruvec *lruvec, int idx);
	unsigned long nr = 0;
	int nid;

	page_state = tree ? lruvec_page_state : lruvec_page_state_local;
	for (nid = 0; nid < nr_nodes; nid++)
		nr += page_state(lruvecs[nid], item);
	return nr;
}

unsigned long node_stat(struct lruvec *lruvec, int item)
{
	return lruvec_page_state(lruvec, item);
}
