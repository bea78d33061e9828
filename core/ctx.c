/* SPDX-License-Identifier: GPL-2.0 */
/* ctx.c -- the core context: ownership of strings, types and the type map. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

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

void *ch_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fputs("cachehot: out of memory\n", stderr);
		abort();
	}
	return q;
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
	free(ctx->keys);
	free(ctx->vals);
	free(ctx->types);
	if (ctx->side_lazy_ops)
		ctx->side_lazy_ops->free(ctx);
	free(ctx->side);
	free(ctx->side_types);
	free(ctx->side_idx);
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
	if (ctx->nallocs == ctx->capallocs) {
		ctx->capallocs = ctx->capallocs ? 2 * ctx->capallocs : 64;
		ctx->allocs = (void **)ch_xrealloc(ctx->allocs, ctx->capallocs * sizeof(void *));
	}
	ctx->allocs[ctx->nallocs++] = p;
	return p;
}

/* Context allocations come from chunks (CH_ARENA_CHUNK bytes, larger
 * requests get a chunk of their own): nothing is freed before the context,
 * so one calloc per chunk instead of per string (a whole kernel's BTF makes
 * ~10^6 small ones). Aligned for any type. */
#define CH_ARENA_CHUNK ((size_t)64 * 1024)
#define CH_ARENA_ALIGN ((size_t)16)
void *ch_alloc(ch_ctx *ctx, size_t n)
{
	void *p;
	n = n ? (n + CH_ARENA_ALIGN - 1) & ~(CH_ARENA_ALIGN - 1) : CH_ARENA_ALIGN;
	if (n > CH_ARENA_CHUNK / 4)
		return own_chunk(ctx, n);
	if (n > ctx->arena_left) {
		ctx->arena = (char *)own_chunk(ctx, CH_ARENA_CHUNK);
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
	va_copy(aq, ap);
	k = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (k < 0)
		return;
	if (*n + (size_t)k + 1 > *cap) {
		*cap = 2 * (*n + (size_t)k + 1);
		*buf = (char *)ch_xrealloc(*buf, *cap);
	}
	vsnprintf(*buf + *n, *cap - *n, fmt, ap);
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
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	d = (char *)ch_alloc(ctx, (size_t)n + 1);
	if ((size_t)n < sizeof(small)) {
		memcpy(d, small, (size_t)n + 1);
		return d;
	}
	va_start(ap, fmt);
	vsnprintf(d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return d;
}

static size_t key_hash(const void *key, size_t cap)
{
	uintptr_t k = (uintptr_t)key;
	k ^= k >> 17;
	k *= (uintptr_t)0x9E3779B97F4A7C15ull;
	return (size_t)(k >> 7) & (cap - 1);
}

struct ch_type *ch_type_lookup(ch_ctx *ctx, const void *key)
{
	size_t i;
	if (!key || !ctx->capkeys)
		return NULL;
	for (i = key_hash(key, ctx->capkeys); ctx->keys[i]; i = (i + 1) & (ctx->capkeys - 1))
		if (ctx->keys[i] == key)
			return ctx->vals[i];
	return NULL;
}

static void key_insert(ch_ctx *ctx, const void *key, struct ch_type *t)
{
	size_t i;
	if (2 * (ctx->nkeys + 1) > ctx->capkeys) {
		size_t oldcap = ctx->capkeys, j;
		const void **ok = ctx->keys;
		struct ch_type **ov = ctx->vals;
		ctx->capkeys = oldcap ? 2 * oldcap : 256;
		ctx->keys = (const void **)calloc(ctx->capkeys, sizeof(void *));
		ctx->vals = (struct ch_type **)calloc(ctx->capkeys, sizeof(void *));
		if (!ctx->keys || !ctx->vals)
			abort();
		ctx->nkeys = 0;
		for (j = 0; j < oldcap; j++)
			if (ok[j])
				key_insert(ctx, ok[j], ov[j]);
		free(ok);
		free(ov);
	}
	for (i = key_hash(key, ctx->capkeys); ctx->keys[i]; i = (i + 1) & (ctx->capkeys - 1))
		if (ctx->keys[i] == key) {
			ctx->vals[i] = t;
			return;
		}
	ctx->keys[i] = key;
	ctx->vals[i] = t;
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
	if (ctx->ntypes == ctx->captypes) {
		ctx->captypes = ctx->captypes ? 2 * ctx->captypes : 64;
		ctx->types = (struct ch_type **)ch_xrealloc(ctx->types, ctx->captypes * sizeof(void *));
	}
	ctx->types[ctx->ntypes++] = t;
	if (key)
		key_insert(ctx, key, t);
	return t;
}

struct ch_member *ch_type_add_member(ch_ctx *ctx, struct ch_type *t, const char *name)
{
	struct ch_member *m;
	if (t->nmembers == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->members = (struct ch_member *)ch_xrealloc(t->members, t->cap * sizeof(*m));
	}
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
