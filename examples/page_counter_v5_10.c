/* page_counter as in v5.10 (include/linux/page_counter.h): 'usage' is
 * written on every charge from every CPU; min/low/high/max/parent are only
 * read on that path, and all of them sit on cache line 0 with 'usage'.
 * perf c2c found it; "mm: page_counter: relayout structure to reduce false
 * sharing" (v5.11) moved 'parent' away. */
#include "cachehot.h"
typedef struct { long counter; } atomic_long_t;

struct page_counter {
	atomic_long_t usage __cacheline_hot;
	unsigned long min __cacheline_read_mostly;
	unsigned long low __cacheline_read_mostly;
	unsigned long high __cacheline_read_mostly;
	unsigned long max __cacheline_read_mostly;
	struct page_counter *parent __cacheline_read_mostly;

	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;

	unsigned long elow;
	atomic_long_t low_usage;
	atomic_long_t children_low_usage;

	unsigned long watermark;
	unsigned long failcnt;
};

struct page_counter root;
/* expect:
 * 9:8: note: 'struct page_counter' is aligned to 8 bytes, less than the 64-byte cache line: line indexes assume it starts on a line boundary, so isolation depends on where it is placed (declare its first member _Alignas(64); a heap object or array then needs aligned_alloc(64, size) or posix_memalign instead of malloc or calloc, a static one follows the type; or separate its fields with 63-byte pads, which isolate wherever it starts) [cachehot-false-sharing]
 * 11:23: warning: read-mostly field 'min' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'min' _Alignas(64); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 12:23: warning: read-mostly field 'low' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'min' _Alignas(64); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 13:23: warning: read-mostly field 'high' (offset 24, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'min' _Alignas(64); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 14:23: warning: read-mostly field 'max' (offset 32, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'min' _Alignas(64); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 * 15:30: warning: read-mostly field 'parent' (offset 40, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'min' _Alignas(64); this costs 80 bytes per object (112 -> 192 bytes; an array of n grows by 80*n bytes) [cachehot-false-sharing]
 */
