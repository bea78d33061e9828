/* A struct laid out by randstruct (__randomize_layout with RANDSTRUCT): sparse
 * only knows declaration order, so the struct is not judged. */
#include "cachehot.h"
struct rnd {
	unsigned long a __cacheline_hot;
	unsigned long b __cacheline_read_mostly;
} __attribute__((randomize_layout));
struct rnd r;
