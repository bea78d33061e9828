// SPDX-License-Identifier: GPL-2.0
/* One object of each struct so that "gcc -g" emits DWARF for pahole. */
#include <linux/memcontrol.h>
#include <linux/mmzone.h>

struct page_counter pc;
struct mem_cgroup memcg;
struct zone zone;
