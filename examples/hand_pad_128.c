/* A hand-sized 56-byte pad isolates 'head' at 64-byte lines only: on a 128-byte-line machine 'tail_limit' joins it. */
/* cachehot-args: line-size=128 */
#include "cachehot.h"

struct ring_head {
	unsigned long head __cacheline_hot;
	char pad[56];
	unsigned long tail_limit __cacheline_read_mostly;
} __attribute__((aligned(128)));

struct ring_head rh;
/* expect:
 * 7:14: warning: hand-sized padding 'pad' (char[56], offset 8, cache line 0) isolates hot field 'head' (offset 0, size 8) from 'tail_limit' (offset 64); it isolates at 32 and 64-byte lines but breaks at 128 and 256-byte lines; drop it and declare 'tail_limit' _Alignas(128) instead [cachehot-padding-macro]
 * 8:23: warning: read-mostly field 'tail_limit' (offset 64, size 8) shares cache line 0 (128-byte lines) of 'struct ring_head' with hot field 'head' (offset 0, size 8); one fix for all of 'struct ring_head': declare 'tail_limit' _Alignas(128); this costs 128 bytes per object (128 -> 256 bytes; an array of n grows by 128*n bytes) [cachehot-false-sharing]
 */
