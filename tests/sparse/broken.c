/* Broken C: sparse's own errors, then a clean exit (no crash). */
#include "cachehot.h"
struct half {
	unsigned long a __cacheline_hot;
	unsigned long b __cacheline_read_mostly
	int c
};
struct half h = { .a = ;
