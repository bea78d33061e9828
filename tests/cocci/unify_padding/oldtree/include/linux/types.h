/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
#include <linux/cache.h>	/* indirect, as linux/kernel.h was */
typedef struct { long counter; } atomic_long_t;
typedef struct { int rlock; } spinlock_t;
struct list_head { struct list_head *next, *prev; };
#endif
