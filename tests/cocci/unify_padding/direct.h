/* SPDX-License-Identifier: GPL-2.0 */
/* unify_padding.cocci fixture: members declared with a private padding
 * type directly, without a wrapper macro. */
#ifndef DIRECT_H
#define DIRECT_H

#include <linux/types.h>

#ifdef CONFIG_SMP
struct lru_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;

struct lru_stats {
	long nr_pages;
	struct lru_padding _pad;
	long nr_scanned;
};
#endif

/* Aligned to SMP_CACHE_BYTES, not the internode line: reported only. */
struct smp_padding {
	char x[0];
} ____cacheline_aligned_in_smp;

struct smp_stats {
	long hits;
	struct smp_padding _pad;
	long misses;
};

/* Not a padding type: no alignment attribute. */
struct empty_tag {
	char x[0];
};

#endif
