// SPDX-License-Identifier: GPL-2.0
/* A non-static inline function with an extern declaration (as
 * mm/page_alloc.c post_alloc_hook() with mm/internal.h): the one external
 * definition is emitted; it is listed as a global copy. */
extern int gl_hook(int x);

inline int gl_hook(int x)
{
	return x * 7 + 1;
}

int gl_user(int x)
{
	return gl_hook(x) + 1;
}
