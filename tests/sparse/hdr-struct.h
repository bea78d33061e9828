/* -include'd header with an annotated struct (parsed in sparse's builtin scope) */
#include "cachehot.h"
struct incl {
	unsigned long count __cacheline_hot;
	unsigned long limit __cacheline_read_mostly;
};
