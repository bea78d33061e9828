/* One fix per struct: three hot fields, two of one group
 * with a read-mostly field between them, and two more read-mostly fields.
 * Pair by pair, the padding before 'flags' would split group 'io'. */
#include "cachehot.h"

struct conn {
	unsigned long id __cacheline_read_mostly;
	unsigned long rx __cacheline_hot_group(io);
	unsigned long flags __cacheline_read_mostly;
	unsigned long tx __cacheline_hot_group(io);
	unsigned long limit __cacheline_read_mostly;
	unsigned long drops __cacheline_hot;
} __attribute__((aligned(64)));

struct conn c;
