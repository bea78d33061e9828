/* array_sharing_lru.c with every fix applied as its messages say (each
 * element wrapped in 'struct { _Alignas(64) T v; }', the typedef'd struct's
 * first member _Alignas(64)): clean, and it compiles with -Wall -Werror
 * -pedantic (tests/plugin/run.sh). */
#include <pthread.h>
#include "cachehot.h"

typedef struct lru_item lru_item;
struct lru_item { lru_item *next, *prev; unsigned int size; };

struct { _Alignas(64) lru_item * v; } lru_heads[64];
struct { _Alignas(64) unsigned int v; } lru_items[64];
struct { _Alignas(64) pthread_mutex_t v; } lru_locks[64];
struct { _Alignas(64) pthread_mutex_t v; } *bucket_locks;

typedef struct {
	_Alignas(64) unsigned long evicted;
	unsigned long reclaimed;
	unsigned long moves;
} lru_stats_t;
lru_stats_t lru_stats[64];

struct { _Alignas(64) long unsigned int v; } touched[64] __cacheline_per_thread;
/* cachehot-args: annotations=tests/plugin/cases/array_sharing_lru.ann
 * expect-none
 */
