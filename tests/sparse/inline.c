/* inline-addr under sparse: static inline functions used as values. */
static inline int called_only(int a) { return a + 1; }
static inline int used_as_value(int a) { return a + 2; }
static inline int allowed(int a) { return a + 3; }
static inline int in_table(int a) { return a + 4; }
int not_inline(int a) { return a; }
struct ops { int (*fn)(int); };
static const struct ops table = { .fn = in_table };
int use(int x)
{
	int (*p)(int) = x ? used_as_value : not_inline;
	int (*q)(int) = allowed;
	return called_only(x) + p(x) + q(x) + table.fn(x);
}
