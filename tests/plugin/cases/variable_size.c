/* A struct with a variable-length member has no fixed layout: not judged,
 * and said so, instead of silence. */
#include "cachehot.h"

void fill(int n)
{
	struct scratch {
		char buf[n];
		long head __cacheline_hot;
		long limit __cacheline_read_mostly;
	} s;
	(void)s;
}
/* expect:
 * 7:16: note: 'struct scratch' has annotated fields but no fixed layout (a variable-length member or a C++ template): it is not judged [cachehot-false-sharing]
 */
