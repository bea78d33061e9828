/* SPDX-License-Identifier: GPL-2.0 */
/* Reduced from linux-6.1 include/linux/cache.h: the unified padding. */
#ifndef __LINUX_CACHE_H
#define __LINUX_CACHE_H

#define L1_CACHE_BYTES 64
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define INTERNODE_CACHE_SHIFT 6

#ifdef CONFIG_SMP
#define ____cacheline_internodealigned_in_smp \
	__attribute__((__aligned__(1 << (INTERNODE_CACHE_SHIFT))))
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))
#else
#define ____cacheline_internodealigned_in_smp
#define ____cacheline_aligned_in_smp
#endif

#if defined(CONFIG_SMP)
struct cacheline_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name)		struct cacheline_padding name
#else
#define CACHELINE_PADDING(name)
#endif

#endif /* __LINUX_CACHE_H */
