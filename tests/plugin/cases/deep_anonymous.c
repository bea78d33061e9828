/* 40 levels of anonymous structs: beyond the relevance walk (32) and the
 * core walk (16): the walk-limit note, never silence. */
#include "cachehot.h"
struct deep {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	struct {
	long a __cacheline_hot;
	long b __cacheline_read_mostly;
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
	};
} __attribute__((aligned(64)));
struct deep dv;
/* expect:
 * 4:8: note: 'struct deep' is too large to walk whole: only the first 64 elements of each array, 16 levels of nesting and 4096 fields were checked [cachehot-false-sharing]
 */
