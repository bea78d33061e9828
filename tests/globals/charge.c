/* A memory-cgroup style charge counter (cf. 6.1 include/linux/page_counter.h,
 * reduced): the sidecar of tests/globals/run.sh means to mark the field
 * 'usage' hot but drops the dot ("page_counterusage hot"), which reads as a
 * variable entry; 'nr_charges' is defined here, 'nr_uncharges' only in
 * uncharge.c, so neither entry may be reported over both units. */
struct page_counter {
	long usage;
	union {
		unsigned long min;
		unsigned long low;
	};
	unsigned long max;
	struct page_counter *parent;
};

struct page_counter root_counter;
long nr_charges;

long charge(long n);
long charge(long n)
{
	static long calls;   /* function-static: matches 'calls' */
	calls++;
	nr_charges++;
	root_counter.usage += n;
	return root_counter.usage + calls;
}
