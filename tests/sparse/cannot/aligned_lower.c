/* GCC's aligned(N) only raises alignment (on a member, and on a struct over
 * its members' alignment); sparse lets it lower both, and so a packed
 * struct's aligned member is honoured by GCC and not by sparse. */
#include "cachehot.h"
struct lowered {
	unsigned short flags __cacheline_hot;
	void *owner __attribute__((aligned(2))) __cacheline_read_mostly;
};
struct under_aligned {
	long a __attribute__((aligned(64))) __cacheline_hot;
	long b __cacheline_read_mostly;
} __attribute__((aligned(16)));
struct __attribute__((packed)) packed_aligned {
	char tag;
	long stamp __attribute__((aligned(8))) __cacheline_hot;
	long seen __cacheline_read_mostly;
};
struct holder {
	struct lowered l;
	long x __cacheline_hot;
};
struct lowered l;
struct under_aligned u;
struct packed_aligned p;
struct holder h;
/* expect:
 * 5:8: note: 'struct lowered' has annotated fields, but sparse lays it out unlike GCC (an aligned attribute below a member's natural alignment): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 * 9:8: note: 'struct under_aligned' has annotated fields, but sparse lays it out unlike GCC (an aligned attribute on the struct below a member's alignment): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 * 13:32: note: 'struct packed_aligned' has annotated fields, but sparse lays it out unlike GCC (an aligned member in a packed struct): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 * 18:8: note: 'struct holder' has annotated fields, but sparse lays it out unlike GCC (it contains 'struct lowered', which sparse lays out unlike GCC): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 */
