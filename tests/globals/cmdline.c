/* Kernel vocabulary and the line size from the command line (-D__KERNEL__,
 * -DSMP_CACHE_BYTES=128) in a -g3 macro table: GCC puts them in an
 * imported unit (DW_MACRO_import), followed in a linked file. */
#include <cachehot.h>
unsigned long nr_forks;
unsigned long total_forks __cacheline_hot;
int main(void) { return (int)(++total_forks + ++nr_forks); }
