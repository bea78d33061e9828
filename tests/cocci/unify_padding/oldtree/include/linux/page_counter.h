/* SPDX-License-Identifier: GPL-2.0 */
/* Old style (before CACHELINE_PADDING replaced the private copies). */
#ifndef _LINUX_PAGE_COUNTER_H
#define _LINUX_PAGE_COUNTER_H

#include <linux/types.h>

#if defined(CONFIG_SMP)
struct pc_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define PC_PADDING(name)	struct pc_padding name
#else
#define PC_PADDING(name)
#endif

struct page_counter {
	/*
	 * Make sure 'usage' does not share cacheline with any other field. The
	 * memcg->memory.usage is a hot member of struct mem_cgroup.
	 */
	atomic_long_t usage;
	PC_PADDING(_pad1_);

	/* effective memory.min and memory.min usage tracking */
	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;

	/* legacy */
	unsigned long watermark;
	unsigned long failcnt;

	/* Keep all the read most fields in a separete cacheline. */
	PC_PADDING(_pad2_);

	unsigned long min;
	unsigned long max;
	struct page_counter *parent;
};

#endif /* _LINUX_PAGE_COUNTER_H */
