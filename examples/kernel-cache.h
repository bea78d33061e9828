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
