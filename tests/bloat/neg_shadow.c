// SPDX-License-Identifier: GPL-2.0
/* Must not report: the selected names are a parameter and a local variable
 * that shadow inline functions of the same name. */
static inline int fast(int x)
{
	return x + 1;
}

static inline int slow(int x)
{
	return x * 3;
}

int fast_user(int v)
{
	return fast(v) + slow(v);
}

int run(int (*fast)(int), int (*other)(int), int c, int v)
{
	int (*slow)(int) = other;
	int (*op)(int);

	op = c ? fast : slow;
	return op(v) + op(v + 1);
}
