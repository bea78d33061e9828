/* An attribute error does not stop the layout check: the other members'
 * findings are printed by both engines. */
#include "cachehot.h"
struct errs {
	unsigned long a __attribute__((cacheline_hot(1)));
	unsigned long b __cacheline_hot;
	unsigned long c __cacheline_read_mostly;
};
struct errs e;
