/* Structs defined inside function bodies (block scopes) are checked too. */
#include "cachehot.h"
int f(void)
{
	struct local {
		unsigned long a __cacheline_hot;
		unsigned long b __cacheline_read_mostly;
	} l = { 0, 0 };
	if (l.a) {
		struct inner { long x __cacheline_exclusive; long y; } i = { 1, 2 };
		return (int)i.y;
	}
	return (int)l.b;
}
