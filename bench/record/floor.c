/* floor.c -- stand-ins for libcachehot-rt that bench/record/run.sh links a
 * recording build with, to measure what recording every access costs at
 * the least (docs/record.md, "Recording overhead"). The countdown stays 0,
 * so every batch takes the cold branch and every access calls in:
 *   -DFLOOR_EMPTY   the entry points return at once: the cost of the
 *                   instrumentation's countdown and one call per access;
 *   -DFLOOR_APPEND  they save the registers (as the runtime's do) and append
 *                   the address to a thread-local buffer (64 Ki addresses,
 *                   reused round): the least a runtime that looks at every
 *                   access does (a trace to model later, off the thread).
 * Not a runtime: no profile is written. x86-64 only (the allregs entries). */
#include <stdint.h>
#include "../../runtime/allregs.h"

__thread int __cachehot_rt_countdown __attribute__((tls_model("initial-exec")));

#if defined(FLOOR_EMPTY)
#define RET(name) __asm__(".text\n\t.globl " name "\n\t.type " name ", @function\n" name ":\n\tendbr64\n\tret\n\t.size " name ", .-" name)
RET("__cachehot_rt_load_allregs");
RET("__cachehot_rt_store_allregs");
RET("__cachehot_rt_rmw_allregs");
void __cachehot_rt_load(const void *a, const char *s) { (void)a; (void)s; }
void __cachehot_rt_store(const void *a, const char *s) { (void)a; (void)s; }
void __cachehot_rt_rmw(const void *a, const char *s) { (void)a; (void)s; }
#elif defined(FLOOR_APPEND)
#define NBUF (1u << 16)
static __thread uintptr_t buf[NBUF];
static __thread unsigned nbuf;
__attribute__((used)) void floor_append(const void *a, const char *s)
{
	(void)s;
	buf[nbuf++ & (NBUF - 1)] = (uintptr_t)a;
}
void __cachehot_rt_load(const void *a, const char *s) { floor_append(a, s); }
void __cachehot_rt_store(const void *a, const char *s) { floor_append(a, s); }
void __cachehot_rt_rmw(const void *a, const char *s) { floor_append(a, s); }
ALLREGS_ENTRY("__cachehot_rt_load_allregs", "floor_append");
ALLREGS_ENTRY("__cachehot_rt_store_allregs", "floor_append");
ALLREGS_ENTRY("__cachehot_rt_rmw_allregs", "floor_append");
#else
#error "FLOOR_EMPTY or FLOOR_APPEND"
#endif
