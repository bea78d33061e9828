/* A member of 256 MiB or more: sparse counts sizes in an int of bits, which
 * overflows (2^28 bytes = 2^31 bits); sparse itself then calls the array a
 * flexible array that is not last. The checker does not judge the struct
 * (it used to, with offsets near 0). */
#include "cachehot.h"
struct big_table {
	char slots[1 << 28];
	unsigned long head __cacheline_hot;
	unsigned long mask __cacheline_read_mostly;
};
struct big_table *t;
/* expect:
 * 7:14: error: flexible array member 'slots' is not last
 * 7:14: error: flexible array member 'slots' is not last
 * 6:8: note: 'struct big_table' has annotated fields, but sparse lays it out unlike GCC (a member of 256 MiB or more: sparse counts sizes in an int of bits): the sparse checker does not judge it; the GCC plugin and cachehot-layout do [cachehot-false-sharing]
 */
