/* SPDX-License-Identifier: GPL-2.0 */
/*
 * allregs.c -- libcachehot-rt's register-preserving entry points on x86-64
 * (allregs.h): __cachehot_rt_load_allregs, __cachehot_rt_store_allregs,
 * __cachehot_rt_rmw_allregs, what a recording build's cold block calls
 * there (plugin/record.c). Each saves the general registers the ABI lets
 * C clobber and calls the plain entry point (rt.c) through a hidden alias
 * (no PLT, no interposition). On other targets the plugin emits plain
 * calls to __cachehot_rt_load/store/rmw and nothing here is built.
 */
#include "rt-private.h"
#include "allregs.h"

#ifdef ALLREGS_ENTRY
ALLREGS_ENTRY("__cachehot_rt_load_allregs", "rt_load_hidden");
ALLREGS_ENTRY("__cachehot_rt_store_allregs", "rt_store_hidden");
ALLREGS_ENTRY("__cachehot_rt_rmw_allregs", "rt_rmw_hidden");
#endif
