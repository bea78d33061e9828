/* Selection: record=NAME,... and record=annotated (tests/record/run.sh). */
#include <cachehot.h>
struct plain { long a; };
struct marked { long hot __cacheline_hot; long other; };
struct named { long x; };
struct plain PL;
struct marked MK;
struct named NM;
int main(void)
{
	PL.a = 1;
	MK.hot = 2;
	NM.x = 3;
	return 0;
}
