/* kernel-cache.h -- the few lines of <linux/cache.h> (6.1) the fixtures need:
 * CACHELINE_PADDING is a zero-size member aligned to the line, so the next
 * field starts on a new line. SMP_CACHE_BYTES is written the x86 way, so the
 * plugin has to evaluate (1 << L1_CACHE_SHIFT). */
#define CONFIG_X86_L1_CACHE_SHIFT 6
#define L1_CACHE_SHIFT (CONFIG_X86_L1_CACHE_SHIFT)
#define L1_CACHE_BYTES (1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_internodealigned_in_smp __attribute__((__aligned__(1 << (6))))
struct cacheline_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define CACHELINE_PADDING(name) struct cacheline_padding name
typedef struct { long counter; } atomic_long_t;
/* 6.12 <linux/cache.h>: the cacheline group markers */
#define __cacheline_group_begin(GROUP) unsigned char __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) unsigned char __cacheline_group_end__##GROUP[0]
#define __cacheline_group_begin_aligned(GROUP, ...) \
	__cacheline_group_begin(GROUP) __attribute__((__aligned__((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)))
#define __cacheline_group_end_aligned(GROUP, ...) \
	__cacheline_group_end(GROUP) __attribute__((__aligned__(sizeof(long)))); \
	struct { } __cacheline_group_pad__##GROUP \
	__attribute__((__aligned__((__VA_ARGS__ + 0) ? : SMP_CACHE_BYTES)))
