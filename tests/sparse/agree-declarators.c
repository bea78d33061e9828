/* Annotations before the type apply to every declarator of the declaration
 * ("T a, b"), as in GCC; after a declarator, to that one only. */
#include "cachehot.h"
struct md {
	__cacheline_hot unsigned long a, b;
	unsigned long c __cacheline_read_mostly, d;
	__cacheline_read_mostly unsigned long e;
	unsigned long f;
};
struct md x;
