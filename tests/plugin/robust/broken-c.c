/* Robustness: error recovery, VLA members, bit-field errors, nested anonymous
 * arrays. The plugin must never crash cc1; errors are the C front end's. */
#include "cachehot.h"
struct a { unsigned long x __cacheline_hot; undefined_t y __cacheline_read_mostly; int z; };
struct b { struct nope n __cacheline_hot; unsigned long m __cacheline_read_mostly; };
void f(int n) { struct v { int k __cacheline_hot; char buf[n]; int r __cacheline_read_mostly; } v; (void)v; }
struct c { int q __cacheline_hot int w; };
struct d { struct d *self __cacheline_hot; struct d inner; };
union u { int a __cacheline_hot; long b __cacheline_read_mostly; } uu;
struct e { int x : 0; int y : 3 __cacheline_hot; int : 5; int z : 2 __cacheline_read_mostly; };
struct g { char c[0] __cacheline_exclusive; int i; };
struct h { struct { struct { long deep __cacheline_hot; }; long rm __cacheline_read_mostly; } in[100]; };
struct h hh;
