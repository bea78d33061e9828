/* #pragma pack: sparse keeps no trace of it (its preprocessor turns the
 * pragma into an ignored token), so it would place 'seq' at offset 8 where
 * GCC packs it at 1. The checker reads the directives of the file and does
 * not judge a struct defined under one. Reduced from a wire-format header. */
#include "cachehot.h"
#pragma pack(push, 1)
struct wire_hdr {
	unsigned char tag;
	unsigned long seq __cacheline_hot;
	unsigned long len __cacheline_read_mostly;
};
#pragma pack(pop)
struct wire_hdr w;
/* expect:
 * 7:8: note: 'struct wire_hdr' has annotated fields, but sparse lays it out unlike GCC (#pragma pack in effect): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 */
