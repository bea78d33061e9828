/* SPDX-License-Identifier: GPL-2.0 */
/* Old style: private MEMCG_PADDING. */
#ifndef _LINUX_MEMCONTROL_H
#define _LINUX_MEMCONTROL_H

#include <linux/page_counter.h>

/*
 * Padding to keep the hot fields of struct mem_cgroup apart.
 */
#if defined(CONFIG_SMP)
struct memcg_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define MEMCG_PADDING(name)      struct memcg_padding name
#else
#define MEMCG_PADDING(name)
#endif

struct mem_cgroup {
	unsigned long id;
	struct page_counter memory;
	struct page_counter swap;
	unsigned long high_events;
	MEMCG_PADDING(_pad1_);
	atomic_long_t moving_account;
	spinlock_t move_lock;
	unsigned long move_lock_flags;
	MEMCG_PADDING(_pad2_);
	unsigned long *vmstats_percpu;
	struct list_head objcg_list;
};

#endif /* _LINUX_MEMCONTROL_H */
