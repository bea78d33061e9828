/* The other unit of tests/globals/charge.c: defines 'nr_uncharges' (and
 * sees no 'struct page_counter', so it gives no hint). */
long nr_uncharges;

long uncharge(long n);
long uncharge(long n)
{
	nr_uncharges++;
	return -n;
}
