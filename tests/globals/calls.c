/* A function's static annotated hot (the symbol is 'calls.0', GCC's name
 * for it): the fix names the variable as the source declares it, 'calls'. */
#include <cachehot.h>

static unsigned long tally;

unsigned long count_call(void)
{
	static unsigned long calls __cacheline_hot;
	tally++;
	return ++calls;
}
