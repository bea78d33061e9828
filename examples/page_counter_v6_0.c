/* page_counter after "mm: page_counter: rearrange struct page_counter
 * fields" (v6.0), with the unified CACHELINE_PADDING of 6.1: 'usage' alone
 * on line 0, the read-mostly fields on their own line. Clean. */
#include "cachehot.h"
#define __KERNEL__ 1 /* kernel code: fixes in the kernel vocabulary */
#define CONFIG_SMP 1
#include "kernel-cache.h"

struct page_counter_v60 {
	atomic_long_t usage __cacheline_exclusive;
	CACHELINE_PADDING(_pad1_);

	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;
	unsigned long elow;
	atomic_long_t low_usage;
	atomic_long_t children_low_usage;
	unsigned long watermark;
	unsigned long failcnt __cacheline_hot_group(charge);

	CACHELINE_PADDING(_pad2_);
	unsigned long min __cacheline_read_mostly;
	unsigned long low __cacheline_read_mostly;
	unsigned long high __cacheline_read_mostly;
	unsigned long max __cacheline_read_mostly;
	struct page_counter_v60 *parent __cacheline_read_mostly;
};

struct page_counter_v60 root;
/* expect-none */
