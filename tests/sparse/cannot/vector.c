/* vector_size: sparse drops the attribute and sizes the member as one
 * element (4 bytes for 16), so every later offset would be wrong. Written on
 * the member or through a typedef, the struct is not judged by sparse. */
#include "cachehot.h"
typedef int v4si __attribute__((vector_size(16)));
struct simd_acc {
	int __attribute__((vector_size(16))) sum __cacheline_hot;
	long count __cacheline_read_mostly;
};
struct simd_acc2 {
	v4si sum __cacheline_hot;
	long count __cacheline_read_mostly;
};
struct simd_acc a;
struct simd_acc2 b;
/* expect:
 * 6:8: note: 'struct simd_acc' has annotated fields, but sparse lays it out unlike GCC (a vector_size member): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 * 10:8: note: 'struct simd_acc2' has annotated fields, but sparse lays it out unlike GCC (a vector_size member): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 */
