/* SPDX-License-Identifier: GPL-2.0 */
/* Old style: private ZONE_PADDING; its uses carry no semicolon. */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H

#include <linux/types.h>
#include <linux/cache.h>

/*
 * zone->lock and the zone lru_lock are two of the hottest locks in the kernel.
 * So add a wild amount of padding here to ensure that they fall into separate
 * cachelines.
 */
#if defined(CONFIG_SMP)
struct zone_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define ZONE_PADDING(name)	struct zone_padding name;
#else
#define ZONE_PADDING(name)
#endif

struct free_area {
	struct list_head free_list[6];
	unsigned long nr_free;
};

struct zone {
	unsigned long _watermark[4];
	long lowmem_reserve[4];
	unsigned long zone_start_pfn;
	const char *name;

	/* Write-intensive fields used from the page allocator */
	ZONE_PADDING(_pad1_)

	struct free_area free_area[11];
	unsigned long flags;
	spinlock_t lock;

	/* Write-intensive fields used by compaction and vmstats. */
	ZONE_PADDING(_pad2_)

	unsigned long compact_cached_free_pfn;
	int compact_considered;

	ZONE_PADDING(_pad3_)
	atomic_long_t vm_stat[12];
} ____cacheline_internodealigned_in_smp;

#endif /* _LINUX_MMZONE_H */
