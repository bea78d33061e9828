/* SPDX-License-Identifier: GPL-2.0 */
/*
 * heap.c -- the plugin's own malloc, so that its allocations stay out of
 * cc1's heap.
 *
 * cc1 allocates and frees hundreds of thousands of blocks per unit through
 * glibc's malloc. A few hundred long-lived blocks of the plugin's among them
 * (the core context, the sidecar's tables, operator new of the static
 * libstdc++) change which free chunks cc1's own requests find: on
 * mm/page_counter.c cc1's unchanged malloc calls cost about 0.4 M
 * instructions more with the plugin loaded than with a plugin that
 * allocates nothing (callgrind, docs/performance.md "GCC plugin").
 *
 * malloc, calloc, realloc and free are defined here, and plugin/exports.map
 * exports nothing but plugin_init and plugin_is_GPL_compatible, so the plugin's
 * own calls to them -- core/, plugin/, and the static libstdc++'s operator
 * new and delete -- bind to these at link time; cc1, libc and libjansson
 * keep glibc's. Blocks come from one region mapped at the first call,
 * in power-of-two size classes (32 bytes to the region's size, a 16-byte
 * header holding the class), each class with its own free list; memory
 * mapped for the region is zero, so calloc of a block never used before
 * needs no memset. Single-threaded, as cc1 is.
 *
 * Pointers the plugin frees or reallocates that are not in the region came
 * from libc (strdup, asprintf, realpath, getline, libjansson's json_dumps)
 * or from cc1 (xstrdup, xcalloc of GCC's hash tables and vectors): they go
 * to glibc's __libc_free / __libc_realloc. When the region cannot be mapped
 * (an address-space limit) or is used up, blocks come from glibc as before.
 * Nothing the plugin allocates here may be freed by cc1: the plugin never
 * hands malloc'd memory over to GCC (GCC copies the strings it is given).
 *
 * Compiled as C++ (plugin/rules.mk), written C-style.
 *
 * Not in the AddressSanitizer build (make plugin-asan): there every block
 * must come from ASan's allocator, whose redzones are the point, and the
 * libc pointers freed here through __libc_free were ASan's (cc1 aborted,
 * "munmap_chunk(): invalid pointer").
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>

#ifndef __SANITIZE_ADDRESS__

extern "C" {
void *__libc_malloc(size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);
}

/* 1 GiB of address space, reserved and not committed: pages cost memory
 * only when a block on them is used. */
#define HEAP_REGION ((size_t)1 << 30)
#define HEAP_HDR 16
#define HEAP_CLASSES 31   /* 32 << 30 > HEAP_REGION */

struct heap_hdr {
	uint64_t cls;     /* block size 32 << cls */
	uint64_t pad;     /* keeps the payload 16-byte aligned */
};

static char *heap_base, *heap_top, *heap_end;
static int heap_state;   /* 0: not tried, 1: mapped, -1: glibc only */
static struct heap_hdr *heap_free_list[HEAP_CLASSES];

static bool heap_init(void)
{
	void *p;
	if (heap_state)
		return heap_state > 0;
	p = mmap(NULL, HEAP_REGION, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		heap_state = -1;
		return false;
	}
	heap_base = heap_top = (char *)p;
	heap_end = heap_base + HEAP_REGION;
	heap_state = 1;
	return true;
}

static inline bool heap_owns(const void *p)
{
	return (const char *)p >= heap_base && (const char *)p < heap_end;
}

/* The class of a payload of n bytes: the smallest 32 << c >= n + header. */
static inline unsigned heap_class(size_t n)
{
	size_t b = n + HEAP_HDR;
	return b <= 32 ? 0 : (unsigned)(64 - __builtin_clzll(b - 1)) - 5;
}

/* A block for n bytes, *fresh set when it was never handed out (zero);
 * NULL when the region cannot serve it. */
static void *heap_get(size_t n, bool *fresh)
{
	struct heap_hdr *h;
	unsigned c;
	size_t size;
	if (n > HEAP_REGION - HEAP_HDR || !heap_init())
		return NULL;
	c = heap_class(n);
	if ((h = heap_free_list[c])) {
		heap_free_list[c] = *(struct heap_hdr **)(h + 1);
		*fresh = false;
		return h + 1;
	}
	size = (size_t)32 << c;
	if (size > (size_t)(heap_end - heap_top))
		return NULL;
	h = (struct heap_hdr *)heap_top;
	heap_top += size;
	h->cls = c;
	*fresh = true;
	return h + 1;
}

void *malloc(size_t n)
{
	bool fresh;
	void *p = heap_get(n, &fresh);
	return p ? p : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	bool fresh;
	size_t total;
	void *p;
	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	p = heap_get(total, &fresh);
	if (!p) {
		p = __libc_malloc(total);
		fresh = false;
	}
	if (p && !fresh)
		memset(p, 0, total);
	return p;
}

void free(void *p)
{
	struct heap_hdr *h;
	if (!p)
		return;
	if (!heap_owns(p)) {
		__libc_free(p);
		return;
	}
	h = (struct heap_hdr *)p - 1;
	*(struct heap_hdr **)p = heap_free_list[h->cls];
	heap_free_list[h->cls] = h;
}

void *realloc(void *p, size_t n)
{
	struct heap_hdr *h;
	size_t cap;
	void *q;
	if (!p)
		return malloc(n);
	if (!heap_owns(p))
		return __libc_realloc(p, n);
	h = (struct heap_hdr *)p - 1;
	cap = ((size_t)32 << h->cls) - HEAP_HDR;
	if (n <= cap && n)
		return p;
	if (!n) {
		free(p);
		return NULL;
	}
	q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, cap);
	free(p);
	return q;
}

/* libiberty's allocators, as GCC's headers use them in code compiled into
 * the plugin (hash_table's xcallocator, vec's va_heap, XNEW, XRESIZEVEC) and
 * as the plugin calls them: the plugin's copies, so that GCC's hash tables
 * and vectors the plugin owns live here too. Out of memory ends cc1 as
 * libiberty's do. */
extern "C" {
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
}

static void *heap_checked(void *p, size_t n)
{
	if (!p && n) {
		fprintf(stderr, "cc1: out of memory allocating %zu bytes (cachehot plugin)\n", n);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return heap_checked(malloc(n ? n : 1), n ? n : 1);
}

void *xcalloc(size_t n, size_t size)
{
	if (!n || !size)
		n = size = 1;
	return heap_checked(calloc(n, size), n * size);
}

void *xrealloc(void *p, size_t n)
{
	return heap_checked(realloc(p, n ? n : 1), n ? n : 1);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return (char *)memcpy(xmalloc(n), s, n);
}

#endif /* !__SANITIZE_ADDRESS__ */
