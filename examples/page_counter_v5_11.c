/* page_counter after "mm: page_counter: relayout structure to reduce false
 * sharing" (v5.11): 'parent' moved to the end (line 1), but min..max still
 * share line 0 with 'usage'. */
#include "cachehot.h"
#define __KERNEL__ 1 /* kernel code: fixes in the kernel vocabulary */
#define CONFIG_SMP 1
#include "kernel-cache.h"

struct page_counter {
	atomic_long_t usage __cacheline_hot;
	unsigned long min __cacheline_read_mostly;
	unsigned long low __cacheline_read_mostly;
	unsigned long high __cacheline_read_mostly;
	unsigned long max __cacheline_read_mostly;

	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;

	unsigned long elow;
	atomic_long_t low_usage;
	atomic_long_t children_low_usage;

	unsigned long watermark;
	unsigned long failcnt;

	struct page_counter *parent __cacheline_read_mostly;
};

struct page_counter root;
/* expect:
 * 9:8: note: 'struct page_counter' is aligned to 8 bytes, less than the 64-byte cache line: line indexes assume it starts on a line boundary, so isolation depends on where it is placed (align it with ____cacheline_aligned_in_smp) [cachehot-false-sharing]
 * 11:23: warning: read-mostly field 'min' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': insert CACHELINE_PADDING(_pad1_) before 'min' (<linux/cache.h>); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 12:23: warning: read-mostly field 'low' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': insert CACHELINE_PADDING(_pad1_) before 'min' (<linux/cache.h>); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 13:23: warning: read-mostly field 'high' (offset 24, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': insert CACHELINE_PADDING(_pad1_) before 'min' (<linux/cache.h>); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 14:23: warning: read-mostly field 'max' (offset 32, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': insert CACHELINE_PADDING(_pad1_) before 'min' (<linux/cache.h>); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 */
