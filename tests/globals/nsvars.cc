// C++ globals annotated hot: their symbols are mangled ('_ZN2ns5nshotE',
// '_ZZ4mainE5calls'); the manifest records them as declared ('nshot',
// 'calls'). cachehot-layout demangles to match them and names them
// 'ns::nshot' / 'main::calls'; the fix names them as declared.
#include <cachehot.h>

namespace ns {
unsigned long nshot __cacheline_hot;
unsigned long other;
}

int main()
{
	static long calls __cacheline_hot;
	ns::other++;
	return (int)(++calls + ns::nshot);
}
