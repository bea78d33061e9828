/* A private padding type, as mm/page_counter's PC_PADDING before the
 * unification into CACHELINE_PADDING of <linux/cache.h> (2022). */
#include "cachehot.h"
#define __KERNEL__ 1 /* kernel code: fixes in the kernel vocabulary */
#define CONFIG_SMP 1
#include "kernel-cache.h"

struct pc_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define PC_PADDING(name) struct pc_padding name

struct pc_old {
	atomic_long_t usage __cacheline_exclusive;
	PC_PADDING(_pad1_);
	unsigned long max __cacheline_read_mostly;
};

struct pc_old p;
/* expect:
 * 15:20: warning: '_pad1_' (private padding type 'struct pc_padding', offset 64, cache line 1) isolates exclusive field 'usage' (offset 0, size 8) from 'max' (offset 64); use CACHELINE_PADDING(_pad1_) from <linux/cache.h> instead [cachehot-padding-macro]
 */
