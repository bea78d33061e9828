/* A header in the manner of 6.12 include/linux/btf.h: an inline helper
 * passes another inline function to an out-of-line search. */
void *bsearch(const void *key, const void *base, unsigned long num, unsigned long size,
	      int (*cmp)(const void *, const void *));
static inline int id_cmp(const void *a, const void *b)
{
	const int *pa = a, *pb = b;
	return *pa - *pb;
}
static inline int *id_set_contains(int *ids, unsigned n, int id)
{
	return bsearch(&id, ids, n, sizeof(int), id_cmp);
}
