/* [cachehot-array-sharing] (issue 14 item 5): per-thread elements whose
 * neighbours share a line, in a global array, a struct member array and a
 * heap array described in the sidecar; an element type padded to the line
 * is clean. Shape reduced from a server's per-worker statistics. */
#include "cachehot.h"

struct thread_stats {
	unsigned long get_cmds;
	unsigned long set_cmds;
	unsigned long bytes_read __cacheline_hot;
};

struct thread_stats stats[8] __cacheline_per_thread;

struct worker {
	int fd;
	unsigned long handled;
	unsigned long spare[7];
};

struct pool {
	long generation;
	struct worker workers[4] __cacheline_per_thread;
};
struct pool the_pool;

struct worker *heap_workers;   /* calloc(nthreads, sizeof *heap_workers) */

struct padded {
	_Alignas(64) unsigned long count;
	unsigned long errors;
};
struct padded padded_stats[8] __cacheline_per_thread;
/* cachehot-args: annotations=tests/plugin/cases/array_sharing.ann
 * expect:
 * 7:8: note: 'struct thread_stats' is aligned to 8 bytes, less than the 64-byte cache line: line indexes assume it starts on a line boundary, so isolation depends on where it is placed (declare its first member _Alignas(64); a heap array then needs aligned_alloc(64, n * sizeof(...)) or posix_memalign, a static one follows the type) [cachehot-false-sharing]
 * 13:21: warning: array 'stats' of per-thread 24-byte elements: hot field 'bytes_read' of element 0 (offset 16 in the element, byte 16 of the array) shares cache line 0 of the array (64-byte lines) with 'get_cmds' of element 1 (byte 24), written by another thread; declare the first member of 'struct thread_stats' _Alignas(64); this costs element 24 -> 64 bytes: 40 bytes per element, 320 bytes for the 8 elements [cachehot-array-sharing]
 * 23:23: warning: array 'pool.workers' of per-thread 72-byte elements: field 'spare' of element 0 (offset 16 in the element, byte 16 of the array) shares cache line 1 of the array (64-byte lines) with 'fd' of element 1 (byte 72), written by another thread; declare the first member of 'struct worker' _Alignas(64); this costs element 72 -> 128 bytes: 56 bytes per element, 224 bytes for the 4 elements [cachehot-array-sharing]
 * 27:16: warning: heap array 'heap_workers' of per-thread 72-byte elements: field 'spare' of element 0 (offset 16 in the element, byte 16 of the array) shares cache line 1 of the array (64-byte lines) with 'fd' of element 1 (byte 72), written by another thread; declare the first member of 'struct worker' _Alignas(64); this costs element 72 -> 128 bytes: 56 bytes per element, 896 bytes for the 16 elements [cachehot-array-sharing]
 */
