/* __cachehot_addressable: on a redeclaration it silences inline-addr; in the
 * declaration specifiers it applies to the type (an error, as in GCC). */
#include "cachehot.h"
static inline int on_redecl(int a) __cachehot_addressable;
static inline int on_redecl(int a) { return a; }
static inline int __cachehot_addressable leading(int a) { return a + 1; }
static inline int unmarked(int a) { return a + 2; }
struct ops { int (*f[3])(int); };
static const struct ops o = { { on_redecl, leading, unmarked } };
int call(int x);
int call(int x) { return o.f[x & 1](x); }
