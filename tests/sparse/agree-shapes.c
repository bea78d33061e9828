/* Member shapes both engines must lay out and place alike (compared with the
 * plugin by tests/sparse/run.sh): bit-fields across bytes, several
 * declarators, pointer declarators, a leading attribute, anonymous and named
 * nested aggregates. */
#include "cachehot.h"
struct bf {
	unsigned int a : 12 __cacheline_hot;
	unsigned int b : 12 __cacheline_read_mostly;
	unsigned long long c : 40;
	unsigned long long d : 20 __cacheline_read_mostly;
	unsigned char e;
	int *p __cacheline_read_mostly, q __cacheline_hot;
	__cacheline_read_mostly unsigned long lead;
	union { int u1 __cacheline_read_mostly; long u2; };
	struct { char s1; int s2 __cacheline_hot; } named;
};
struct bf x;
