// SPDX-License-Identifier: GPL-2.0
/* Must not report: an __always_inline callee used only in calls, also
 * through an __always_inline helper that takes it as a pointer (the call
 * folds back into a direct call once the helper is inlined). */
#define __always_inline inline __attribute__((__always_inline__))

static __always_inline int twice(int x)
{
	return 2 * x + 1;
}

static __always_inline int apply(int (*fn)(int), int x)
{
	return fn(x);
}

int use_twice(int a)
{
	return twice(a) + apply(twice, a + 1);
}
