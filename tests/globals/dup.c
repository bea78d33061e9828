/* Three function statics named 'calls' (symbols 'calls.0' .. 'calls.2'):
 * only f's is hot, g's is plain, h's read-mostly. The manifest keeps all
 * three apart by declaration line, and cachehot-layout matches each symbol
 * to its own through DWARF: one warning, f's. */
#include <cachehot.h>
long f(void);
long g(void);
long *h(void);
long f(void) { static long calls __cacheline_hot; return ++calls; }
long g(void) { static long calls; return ++calls; }
long *h(void) { static long calls __cacheline_read_mostly = 3; return &calls; }
