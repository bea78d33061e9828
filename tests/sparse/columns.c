/* member columns: GCC reports at the name, sparse at the declarator */
#include "cachehot.h"
struct cols {
	unsigned long hot __cacheline_hot;
	unsigned long *ptr __cacheline_read_mostly;
	unsigned long  **pp __cacheline_read_mostly;
	int (*fn)(int);	unsigned long	*tabbed __cacheline_read_mostly;
};
struct cols c;
