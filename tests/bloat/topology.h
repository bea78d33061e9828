/* Reduced from the shape of 6.1's include/linux/sched/topology.h, as
 * kernel/sched/build_utility.o compiles it: two static inline
 * flag functions with the same body, both stored in a table. GCC's
 * identical-code folding keeps one copy per symbol, but the DWARF of the
 * second (cpu_core_flags) is a bare subprogram: no low_pc, no ranges, no
 * DW_AT_inline and no concrete instance. */
#define SD_SHARE_PKG_RESOURCES 0x0200

static inline int cpu_cluster_flags(void)
{
	return SD_SHARE_PKG_RESOURCES;
}

static inline int cpu_core_flags(void)
{
	return SD_SHARE_PKG_RESOURCES;
}
