/* SPDX-License-Identifier: GPL-2.0 */
/* Reduced from include/net/udplite.h (6.1). */
static __inline__ int udplite_getfrag(void *from, char *to, int offset,
				      int len, int odd)
{
	int i;

	for (i = 0; i < len; i++)
		to[i] = ((char *)from)[offset + i] ^ (char)odd;
	return 0;
}
