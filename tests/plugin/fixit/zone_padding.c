/* A ZONE_PADDING-style private macro that carries its own ';' (used without
 * one), in a kernel translation unit: the fix-it replaces the macro, adds the
 * ';' and includes <linux/cache.h>. */
#define __KERNEL__ 1
#define CONFIG_SMP 1
#include "cachehot.h"
#include "kernel-cache.h"
struct zone_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define ZONE_PADDING(name)	struct zone_padding name;

struct zone_old {
	unsigned long wmark __cacheline_read_mostly;
	ZONE_PADDING(_pad1_)
	unsigned long lock __cacheline_hot;
};
struct zone_old z;
