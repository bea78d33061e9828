/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source.h -- the source-text check of bloat/ (BL_SOURCE in bloat.h).
 */
#ifndef CACHEHOT_BLOAT_SOURCE_H
#define CACHEHOT_BLOAT_SOURCE_H

#include "hmap.h"

/* 1 if the declaration text before the function name at path:line:col
 * (1-based; col 0: unknown) says inline, __inline, __inline__ or
 * __always_inline; 0 if it does not; -1 if the file cannot be read or has
 * no such line.  cache maps path -> the file's text (owned by the cache:
 * free it with bl_hmap_free(cache, bl_source_free)). */
int bl_source_says_inline(struct hmap *cache, const char *path,
			  unsigned line, unsigned col);
void bl_source_free(void *srcfile);

#endif
