/* Kernel-style globals, reduced from kernel/fork.c (6.1): the fork counter
 * copy_process() bumps on every fork, beside the thread counts read on the
 * same path. Annotated by tests/globals/kstats.ann (a plain object, no
 * attributes); built with -D__KERNEL__ -DCONFIG_SMP -g3 so that the macro
 * table says kernel. With -DFIXED it carries the suggested fix. */
#ifdef FIXED
#define __cacheline_aligned_in_smp \
	__attribute__((__aligned__(64), __section__(".data..cacheline_aligned")))
#else
#define __cacheline_aligned_in_smp
#endif

unsigned long total_forks __cacheline_aligned_in_smp;
int nr_threads;
int max_threads;

int fork_one(void);
int fork_one(void)
{
	if (nr_threads >= max_threads)
		return -1;
	nr_threads++;
	total_forks++;
	return 0;
}
