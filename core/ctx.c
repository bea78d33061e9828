/* SPDX-License-Identifier: GPL-2.0 */
/* ctx.c -- the core context: ownership of strings, types and the type map. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"

/* Context allocations come from chunks (CH_ARENA_CHUNK bytes, larger
 * requests get a chunk of their own): nothing is freed before the context,
 * so one allocation per chunk instead of per string (a whole kernel's BTF
 * makes ~10^6 small ones). Aligned for any type. */
#define CH_ARENA_CHUNK ((size_t)1024 * 1024)
#define CH_ARENA_ALIGN ((size_t)16)

char *ch_read_stream(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = (char *)ch_xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		free(buf);
		if (!errno)
			errno = EIO;
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

char *ch_read_text_file(ch_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	if (!f) {
		ch_set_error(ctx, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = ch_read_stream(f, &n);
	if (!buf) {
		ch_set_error(ctx, "%s: %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	fclose(f);
	if (strlen(buf) != n) {
		ch_set_error(ctx, "%s: binary file (NUL byte)", path);
		free(buf);
		return NULL;
	}
	return buf;
}

ch_ctx *ch_ctx_new(void)
{
	ch_ctx *ctx = (ch_ctx *)calloc(1, sizeof(*ctx));
	if (!ctx)
		abort();
	return ctx;
}

void ch_ctx_free(ch_ctx *ctx)
{
	size_t i;
	if (!ctx)
		return;
	if (ctx->manifest_free)
		ctx->manifest_free(ctx);
	for (i = 0; i < ctx->ntypes; i++)
		free(ctx->types[i]->members);
	for (i = 0; i < ctx->nallocs; i++)
		free(ctx->allocs[i]);
	free(ctx->allocs);
	free(ctx->flat_insts);
	free(ctx->flat_leaves);
	for (i = 0; i < ctx->nchunks; i++)
		munmap(ctx->chunks[i], CH_ARENA_CHUNK);
	free(ctx->chunks);
	free(ctx->keys);
	free(ctx->vals);
	ch_index_free(&ctx->keyidx);
	free(ctx->types);
	if (ctx->side_lazy_ops)
		ctx->side_lazy_ops->free(ctx);
	free(ctx->side);
	free(ctx->side_types);
	ch_index_free(&ctx->side_idx);
	ch_index_free(&ctx->side_type_idx);
	free(ctx->side_prefixes);
	ch_index_free(&ctx->side_prefix_idx);
	free(ctx->records);
	free(ctx);
}

const char *ch_ctx_error(const ch_ctx *ctx)
{
	return ctx->err;
}

void ch_set_error(ch_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
}

/* A chunk of zeroed memory of its own, freed with the context. */
static void *own_chunk(ch_ctx *ctx, size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p)
		abort();
	CH_GROW(ctx->allocs, ctx->nallocs, ctx->capallocs, 64);
	ctx->allocs[ctx->nallocs++] = p;
	return p;
}

/* A chunk of the arena: mapped from the kernel, which hands it out
 * zeroed (calloc cleared each one with memset: 30 M instructions for the
 * 29 MB a kernel's every struct takes, once glibc's mmap threshold had
 * risen past the chunk size); calloc'd when mapping fails. */
static void *arena_chunk(ch_ctx *ctx)
{
	void *p = mmap(NULL, CH_ARENA_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return own_chunk(ctx, CH_ARENA_CHUNK);
	if (ctx->nchunks == ctx->capchunks) {
		ctx->capchunks = ctx->capchunks ? 2 * ctx->capchunks : 16;
		ctx->chunks = (void **)ch_xrealloc(ctx->chunks, ctx->capchunks * sizeof(void *));
	}
	ctx->chunks[ctx->nchunks++] = p;
	return p;
}

void *ch_alloc(ch_ctx *ctx, size_t n)
{
	void *p;
	n = n ? (n + CH_ARENA_ALIGN - 1) & ~(CH_ARENA_ALIGN - 1) : CH_ARENA_ALIGN;
	if (n > CH_ARENA_CHUNK / 4)
		return own_chunk(ctx, n);
	if (n > ctx->arena_left) {
		ctx->arena = (char *)arena_chunk(ctx);
		ctx->arena_left = CH_ARENA_CHUNK;
	}
	p = ctx->arena;
	ctx->arena += n;
	ctx->arena_left -= n;
	return p;
}

const char *ch_strdup(ch_ctx *ctx, const char *s)
{
	char *d;
	size_t n;
	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = (char *)ch_alloc(ctx, n);
	memcpy(d, s, n);
	return d;
}

void ch_buf_vappend(char **buf, size_t *n, size_t *cap, const char *fmt, va_list ap)
{
	va_list aq;
	int k;
	/* room for the usual piece first: one formatting pass, not a
	 * measuring one and then another */
	if (*cap - *n < 256) {
		*cap = *cap < *n + 256 ? 2 * (*n + 256) : 2 * *cap;
		*buf = (char *)ch_xrealloc(*buf, *cap);
	}
	va_copy(aq, ap);
	k = ch_vformat(*buf + *n, *cap - *n, fmt, aq);
	va_end(aq);
	if (k < 0) {
		(*buf)[*n] = 0;
		return;
	}
	if ((size_t)k >= *cap - *n) {   /* longer: the whole length is known now */
		*cap = 2 * (*n + (size_t)k + 1);
		*buf = (char *)ch_xrealloc(*buf, *cap);
		ch_vformat(*buf + *n, *cap - *n, fmt, ap);
	}
	*n += (size_t)k;
}

const char *ch_printf(ch_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *d, small[4096];
	/* one formatting pass for the usual text (a finding's message is
	 * 300-700 bytes), two for a longer one: a text past the buffer costs
	 * glibc's snprintf a call per byte beyond it, then a second pass */
	va_start(ap, fmt);
	n = ch_vformat(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	d = (char *)ch_alloc(ctx, (size_t)n + 1);
	if ((size_t)n < sizeof(small)) {
		memcpy(d, small, (size_t)n + 1);
		return d;
	}
	va_start(ap, fmt);
	ch_vformat(d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return d;
}

/* front-end keys -> types: keys[i] -> vals[i], found through ctx->keyidx */
static int key_eq(size_t item, const void *key, const void *arg)
{
	return ((const ch_ctx *)arg)->keys[item] == key;
}

static uint64_t key_hash(size_t item, const void *arg)
{
	return ch_hash_ptr(((const ch_ctx *)arg)->keys[item]);
}

struct ch_type *ch_type_lookup(ch_ctx *ctx, const void *key)
{
	size_t i;
	if (!key)
		return NULL;
	i = ch_index_find(&ctx->keyidx, ch_hash_ptr(key), key_eq, key, ctx);
	return i == CH_INDEX_NONE ? NULL : ctx->vals[i];
}

static void key_insert(ch_ctx *ctx, const void *key, struct ch_type *t)
{
	size_t i = ch_index_find(&ctx->keyidx, ch_hash_ptr(key), key_eq, key, ctx), cap;
	if (i != CH_INDEX_NONE) {
		ctx->vals[i] = t;
		return;
	}
	cap = ctx->capkeys;
	CH_GROW(ctx->keys, ctx->nkeys, ctx->capkeys, 64);
	if (cap != ctx->capkeys)
		ctx->vals = (struct ch_type **)ch_xrealloc(ctx->vals, ctx->capkeys * sizeof(*ctx->vals));
	ctx->keys[ctx->nkeys] = key;
	ctx->vals[ctx->nkeys] = t;
	ch_index_add(&ctx->keyidx, ctx->nkeys, ch_hash_ptr(key), key_hash, ctx);
	ctx->nkeys++;
}

struct ch_type *ch_type_new(ch_ctx *ctx, const void *key, const char *name,
			    int is_union, uint64_t size, unsigned align)
{
	struct ch_type *t = (struct ch_type *)ch_alloc(ctx, sizeof(*t));
	t->name = ch_strdup(ctx, name);
	t->is_union = is_union;
	t->size = size;
	t->align = align ? align : 1;
	CH_GROW(ctx->types, ctx->ntypes, ctx->captypes, 64);
	ctx->types[ctx->ntypes++] = t;
	if (key)
		key_insert(ctx, key, t);
	return t;
}

struct ch_member *ch_type_add_member(ch_ctx *ctx, struct ch_type *t, const char *name)
{
	struct ch_member *m;
	CH_GROW(t->members, t->nmembers, t->cap, 8);
	m = &t->members[t->nmembers++];
	memset(m, 0, sizeof(*m));
	m->name = ch_strdup(ctx, name);
	m->nelems = 1;
	t->annot_state = 0;
	return m;
}

static const char *const class_names[] = { "none", "hot", "exclusive", "read_mostly" };

int ch_class_parse(const char *s, enum ch_class *out)
{
	if (!strcmp(s, "hot"))
		*out = CH_CLASS_HOT;
	else if (!strcmp(s, "exclusive"))
		*out = CH_CLASS_EXCLUSIVE;
	else if (!strcmp(s, "read_mostly") || !strcmp(s, "read-mostly"))
		*out = CH_CLASS_READ_MOSTLY;
	else
		return -1;
	return 0;
}

const char *ch_class_name(enum ch_class c)
{
	return (unsigned)c < 4 ? class_names[c] : "?";
}

unsigned ch_config_line_size(const struct ch_config *cfg)
{
	return cfg && cfg->line_size ? cfg->line_size : CH_DEFAULT_LINE_SIZE;
}
