/* Hand-sized padding through a typedef (GCC names the element type 'u8'),
 * multi-dimensional and enum arrays, a function pointer, a member declared
 * by a macro, and tabs inside a line. */
#include "cachehot.h"
typedef unsigned char u8;
enum mode { M_A, M_B };
#define FIELD(t, n) t n
struct padded {
	unsigned long head __cacheline_hot;
	u8 pad[56];
	unsigned long tail __cacheline_read_mostly;
	enum mode modes[2][3];
	int (*fn)(int)	__cacheline_read_mostly;
	FIELD(unsigned long, via_macro) __cacheline_hot;
	struct { int x; } anon_arr[2] __cacheline_read_mostly;
};
struct padded pd;
