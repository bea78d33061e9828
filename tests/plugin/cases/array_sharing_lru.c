/* [cachehot-array-sharing] on element types the user cannot align where
 * they are declared, in the shapes of a cache server's LRU tables (memcached
 * 1.6.18 items.c and thread.c; docs/userspace.md): one list head, one item
 * count and one lock per LRU, each element written under its own lock by
 * whichever worker holds it. A pointer, an integer and pthread_mutex_t (a
 * system header's type) are wrapped in an aligned struct by the fix; a
 * typedef of an anonymous struct is named by its typedef; a heap array of
 * striped locks takes its count from the sidecar. */
#include <pthread.h>
#include "cachehot.h"

typedef struct lru_item lru_item;
struct lru_item { lru_item *next, *prev; unsigned int size; };

lru_item *lru_heads[64];
unsigned int lru_items[64];
pthread_mutex_t lru_locks[64];
pthread_mutex_t *bucket_locks;   /* calloc(1024, sizeof(pthread_mutex_t)) */

typedef struct {
	unsigned long evicted;
	unsigned long reclaimed;
	unsigned long moves;
} lru_stats_t;
lru_stats_t lru_stats[64];

unsigned long touched[64] __cacheline_per_thread;   /* the attribute too */
/* cachehot-args: annotations=tests/plugin/cases/array_sharing_lru.ann
 * expect:
 * 15:11: warning: array 'lru_heads' of per-thread 8-byte elements: element 0 (byte 0 of the array) shares cache line 0 of the array (64-byte lines) with element 1 (byte 8), written by another thread; wrap each element in 'struct { _Alignas(64) lru_item * v; }' ('lru_item *' cannot be aligned where it is declared); this costs element 8 -> 64 bytes: 56 bytes per element, 3584 bytes for the 64 elements [cachehot-array-sharing]
 * 16:14: warning: array 'lru_items' of per-thread 4-byte elements: element 0 (byte 0 of the array) shares cache line 0 of the array (64-byte lines) with element 1 (byte 4), written by another thread; wrap each element in 'struct { _Alignas(64) unsigned int v; }' ('unsigned int' cannot be aligned where it is declared); this costs element 4 -> 64 bytes: 60 bytes per element, 3840 bytes for the 64 elements [cachehot-array-sharing]
 * 17:17: warning: array 'lru_locks' of per-thread 40-byte elements: field '__data' of element 0 (offset 0 in the element, byte 0 of the array) shares cache line 0 of the array (64-byte lines) with '__data' of element 1 (byte 40), written by another thread; wrap each element in 'struct { _Alignas(64) pthread_mutex_t v; }' ('pthread_mutex_t' cannot be aligned where it is declared); this costs element 40 -> 64 bytes: 24 bytes per element, 1536 bytes for the 64 elements [cachehot-array-sharing]
 * 18:18: warning: heap array 'bucket_locks' of per-thread 40-byte elements: field '__data' of element 0 (offset 0 in the element, byte 0 of the array) shares cache line 0 of the array (64-byte lines) with '__data' of element 1 (byte 40), written by another thread; wrap each element in 'struct { _Alignas(64) pthread_mutex_t v; }' ('pthread_mutex_t' cannot be aligned where it is declared); this costs element 40 -> 64 bytes: 24 bytes per element, 24576 bytes for the 1024 elements [cachehot-array-sharing]
 * 25:13: warning: array 'lru_stats' of per-thread 24-byte elements: field 'evicted' of element 0 (offset 0 in the element, byte 0 of the array) shares cache line 0 of the array (64-byte lines) with 'evicted' of element 1 (byte 24), written by another thread; declare the first member of 'lru_stats_t' _Alignas(64); this costs element 24 -> 64 bytes: 40 bytes per element, 2560 bytes for the 64 elements [cachehot-array-sharing]
 * 27:15: warning: array 'touched' of per-thread 8-byte elements: element 0 (byte 0 of the array) shares cache line 0 of the array (64-byte lines) with element 1 (byte 8), written by another thread; wrap each element in 'struct { _Alignas(64) long unsigned int v; }' ('long unsigned int' cannot be aligned where it is declared); this costs element 8 -> 64 bytes: 56 bytes per element, 3584 bytes for the 64 elements [cachehot-array-sharing]
 */
