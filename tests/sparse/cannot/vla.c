/* A variable-length array as the last member (a GNU extension, inside a
 * function): no fixed layout. The plugin says so; sparse used to judge it as
 * if it were a flexible array. Now both print the same note. */
#include "cachehot.h"
int frame_len(int n)
{
	struct frame {
		unsigned long seq __cacheline_hot;
		unsigned long len __cacheline_read_mostly;
		char payload[n];
	} *f = (void *)0;
	return sizeof(*f);
}
/* expect:
 * 7:16: note: 'struct frame' has annotated fields but no fixed layout (a variable-length member or a C++ template): it is not judged [cachehot-false-sharing]
 */
