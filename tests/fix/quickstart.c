/* The five-minute start of docs/cachehot.rst (userspace C): compiles as
 * written with gcc -std=c11 -Wall -Werror -pedantic, with or without the
 * plugin's attributes (tests/fix/run.sh checks both, and the fix). */
#include <cachehot.h>

struct stats {
	unsigned long hits __cacheline_hot;           /* written by every thread */
	unsigned long limit __cacheline_read_mostly;  /* read on the fast path */
};

struct stats global_stats;
