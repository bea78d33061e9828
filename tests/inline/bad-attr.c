/* The attribute in the wrong place or with arguments: a clear error. */
int counter __attribute__((cachehot_addressable));
static inline int f(int x) __attribute__((cachehot_addressable(1)));
static inline int f(int x) { return x + 1; }
struct s { int m __attribute__((cachehot_addressable)); };
typedef int (*fp_t)(int) __attribute__((cachehot_addressable));
int use(int x) { return f(x); }
/* cachehot-args:
 * expect:
 * 2:5: error: attribute 'cachehot_addressable' applies only to functions, not to 'counter' [cachehot-inline-addr]
 * 3:19: error: attribute 'cachehot_addressable' takes no arguments [cachehot-inline-addr]
 * 5:16: error: attribute 'cachehot_addressable' applies only to functions, not to 'm' [cachehot-inline-addr]
 * 6:15: error: attribute 'cachehot_addressable' applies only to functions, not to 'fp_t' [cachehot-inline-addr]
 */
