// SPDX-License-Identifier: GPL-2.0
/* How the declaration text is read for functions never inlined (no
 * DW_AT_inline): kernel style across lines counts; comments and noinline
 * do not. */
#define __always_inline inline __attribute__((__always_inline__))

typedef int (*op_t)(int);

static inline
int style_split(int x)		/* "static inline" on the line before */
{
	return x * 5 + 1;
}

// an inline-looking comment: not a declaration
static int style_comment(int x)
{
	return x * 7 + 2;
}

/* inline */ static int style_block(int x)
{
	return x * 9 + 3;
}

static __always_inline __attribute__((unused)) int style_attr(int x)
{
	return x * 11 + 4;
}

op_t style_pick(int c)
{
	return c == 0 ? style_split : c == 1 ? style_comment :
	       c == 2 ? style_block : style_attr;
}

#define noinline __attribute__((__noinline__))

static noinline int style_noinline(int x)
{
	return x * 13 + 5;
}

op_t style_pick2(int c)
{
	return c ? style_noinline : style_split;
}
