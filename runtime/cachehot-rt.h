/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-rt.h -- libcachehot-rt, the runtime of a recording build
 * (-fplugin-arg-cachehot-record; docs/record.md).
 *
 * A recording build calls one of the three entry points below for every
 * load, store and atomic read-modify-write of a struct member it
 * instruments. The runtime models, per cache line touched (64 bytes, and
 * 128 bytes as a prediction), which threads hold a copy of the line and
 * which bytes each touched since, and counts a transfer whenever a thread
 * writes a line another thread holds: false sharing when the bytes the
 * other thread touched are disjoint from the written ones, true sharing
 * when they overlap. Per member it counts reads, writes and RMWs and the
 * threads doing each. At exit (and on demand) it writes one JSON profile
 * per process (docs/record.md: "The profile").
 *
 * Environment (read once, at load):
 *   CACHEHOT_RT_OUT     profile path; "%p" is replaced by the pid; an
 *                       existing directory gets cachehot-rt.PROG.PID.json;
 *                       default cachehot-rt.PID.json in the working directory
 *   CACHEHOT_RT_SAMPLE  record 1 access in N per thread, on average (default
 *                       1024; 1 = all); the gaps are pseudo-random, seeded by
 *                       the thread's number (the same run samples the same)
 *   CACHEHOT_RT_SIGNAL  a signal (USR1, USR2, or a number) that requests a
 *                       dump; it is written at the next recorded access
 *   CACHEHOT_RT_QUIET   1: no "cachehot-rt: wrote ..." line on stderr
 */
#ifndef CACHEHOT_RT_H
#define CACHEHOT_RT_H

#ifdef __cplusplus
extern "C" {
#endif

/* The instrumentation ABI (used by code the plugin generates).
 *
 * The fast path: accesses to the next sample less one, per thread
 * (initial-exec TLS, starts at 0). The recording build decrements it inline
 * by the number of accesses of a batch (the recorded accesses of one basic
 * block up to the next call) and calls the entry points below only when it
 * goes below 0: then it puts back the value it read and calls them once per
 * access of the batch, in order; each decrements it by one and samples when
 * it goes below 0 (it resets it: 0 with CACHEHOT_RT_SAMPLE=1, which records
 * every access). A build of an earlier plugin calls in when it reaches 0 or
 * less: the same samples, one call more now and then. */
extern __thread int __cachehot_rt_countdown __attribute__((tls_model("initial-exec")));

/* The entry points (called by the fast path's cold branch; a build of the
 * plugin before the fast path calls them on every access).
 * addr: first byte accessed. site: a static string made by the plugin,
 * "1\tSTRUCT\tPATH\tMEMBER_OFFSET\tMEMBER_SIZE\tSTRUCT_SIZE\tACCESS_SIZE[\tt]":
 * the outermost named struct or union of the reference, the member path
 * from it ("memory.usage.counter"), the byte offset and size of the first
 * named member of that path, the struct's size and the bytes accessed
 * (a bit-field: the bytes that hold its bits); "t" when STRUCT is the
 * typedef of a struct without a tag. Its address identifies the
 * site; its text is parsed once. */
void __cachehot_rt_load(const void *addr, const char *site);
void __cachehot_rt_store(const void *addr, const char *site);
void __cachehot_rt_rmw(const void *addr, const char *site);
/* On x86-64 the fast path's cold branch calls, from an asm, their twins
 * __cachehot_rt_load_allregs, __cachehot_rt_store_allregs and
 * __cachehot_rt_rmw_allregs (not callable from C: addr in rdi, site in
 * rsi, any stack alignment, every general register preserved; see
 * runtime/allregs.h), so that the code around the branch keeps its values
 * in any register. A build of an older plugin calls the three above. */

/* Write the profile now (to CACHEHOT_RT_OUT, or to path when not NULL).
 * Returns 0, or -1 with errno set. Not async-signal-safe: from a signal
 * handler, use CACHEHOT_RT_SIGNAL. */
int cachehot_rt_dump(const char *path);

#ifdef __cplusplus
}
#endif
#endif
