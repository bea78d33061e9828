/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fix-cache.c -- a struct's fix searched once per build, not once per unit.
 *
 * The layout search of ch_struct_fix_idiom (core/fix.c) depends only on the
 * struct's layout, the classes and groups of its flattened fields, the line
 * size and the kind of break; for 6.1's struct pglist_data it is about
 * 120 searches (4.6 M instructions) in every unit that includes mmzone.h.
 * Once enabled (ch_fix_cache_enable: the GCC plugin does), the answer of a
 * struct whose search is big enough to pay for a file (CH_FIX_CACHE_MIN) is
 * kept in
 *
 *   DIR/fix-HASH.cfx   (DIR: the sidecar index's directory, core/sidecar-
 *                       index.c; HASH: of the struct's name, size, member
 *                       count, line size and kind of break, so a file per
 *                       struct and configuration, rewritten when it changes)
 *
 * holding the whole key, byte for byte: the code that searched (cachehot's
 * version and the identity of the binary it runs in: its device, inode,
 * size and mtime to the nanosecond, so a rebuilt plugin never trusts an old
 * answer), the line size, the kind of break (insert, separator bytes), the
 * reference-search switch, the struct's size, alignment, and per member its
 * offset, size, bit-field, alignment, flexibility and kernel group (as the
 * index of the first member of that group), per flattened field its offset,
 * size, class, group name, top-level member and data flag. A file is used
 * only when its key equals the unit's exactly, its answer passes its check
 * (answer_check, in the header) and is well formed (a permutation of the
 * members, 0/1 flags; fix.c then checks the size it lays out); anything else (garbage, truncated, another struct's or another
 * build's) is ignored, the search runs, and the file is rewritten. Files
 * are written whole or not at all (ch_atomic_open): concurrent units never
 * see half a file. Diagnostics are byte-identical with and without the
 * cache: only the search's result (order, breaks, moves) is kept; the
 * texts are made from it as before. The directory may be removed any time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* dladdr */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#define CFX_MAGIC "chfixc2\n"   /* 2: the answer's check */
/* members x fields below this: the search costs less than the file */
#define CH_FIX_CACHE_MIN 2048

struct cfx_header {
	char magic[8];
	uint64_t key_len;        /* bytes of key after the header */
	uint64_t nmembers;
	uint64_t size;           /* bytes: the fixed layout's struct size */
	uint32_t found;          /* 1: a fix (order, breaks, moves follow the key) */
	uint32_t check;          /* answer_check() of size, found and the answer */
};

/* The check of an answer: the fixed size, found and the nm * 6 bytes after
 * the key (a damaged file whose answer is still well formed, e.g. a move
 * flag or two members of the order swapped, printed a wrong fix; found by
 * fuzzing the cache directory). */
static uint32_t answer_check(uint64_t size, uint32_t found, const unsigned char *ans, size_t n)
{
	uint64_t h = ch_hash_bytes(ans, n) ^ (size * 0x9E3779B97F4A7C15ull) ^ found;
	h = ch_hash_bytes(&h, sizeof(h));
	return (uint32_t)(h ^ (h >> 32));
}

/* The binary this code runs in (the plugin's .so, or the tool), once per
 * process: 0 if it cannot be named (then nothing is cached). Also the key
 * of core/manifest-cache.c's record texts. */
int ch_code_identity(uint64_t id[4])
{
	static int done, ok;   /* &done: an address inside this binary */
	static uint64_t v[4];
	if (!done) {
		Dl_info di;
		struct stat st;
		const char *path = NULL;
		done = 1;
		memset(&di, 0, sizeof(di));
		if (dladdr((void *)&done, &di) && di.dli_fname && *di.dli_fname)
			path = di.dli_fname;
		if (!path || stat(path, &st))
			path = "/proc/self/exe";
		if (stat(path, &st) == 0) {
			v[0] = (uint64_t)st.st_dev ^ ((uint64_t)st.st_ino << 20);
			v[1] = (uint64_t)st.st_size;
			v[2] = (uint64_t)st.st_mtim.tv_sec;
			v[3] = (uint64_t)st.st_mtim.tv_nsec | ((uint64_t)st.st_ino << 32);
			ok = 1;
		}
	}
	memcpy(id, v, sizeof(v));
	return ok;
}

int ch_fix_cache_enable(ch_ctx *ctx, const char *dir)
{
	char buf[4096];
	uint64_t id[4];
	const char *d = ch_cache_dir_of(dir, buf, sizeof(buf));
	ctx->fix_cache_dir = NULL;
	if (!d || !ch_code_identity(id))
		return -1;
	ctx->fix_cache_dir = ch_strdup(ctx, d);
	return 0;
}

/* ---- the key ------------------------------------------------------------ */
/* most of the key: one store while the buffer has room (a struct of a
 * few hundred members puts a thousand of them) */
static inline void k64(struct ch_grow *b, uint64_t x)
{
	if (b->len + sizeof(x) <= b->cap) {
		memcpy(b->p + b->len, &x, sizeof(x));
		b->len += sizeof(x);
	} else
		ch_grow_put(b, &x, sizeof(x));
}

static void kstr(struct ch_grow *b, const char *s)
{
	if (!s) {
		k64(b, ~(uint64_t)0);
		return;
	}
	k64(b, strlen(s));
	ch_grow_put(b, s, strlen(s));
}

void ch_fix_memo_free(struct ch_fix_memo *m)
{
	free(m->key);
	m->key = NULL;
	m->active = 0;
}

int ch_fix_memo_get(ch_ctx *ctx, struct ch_fix_memo *m, const struct ch_type *t,
		    const struct ch_fix_leaf *v, size_t n, unsigned L, int ins, unsigned sep,
		    int search, size_t *order, int *pad, int *moved, uint64_t *size)
{
	struct ch_grow b = { NULL, 0, 0 };
	uint64_t id[4], name[2];
	size_t i, j, nm = t->nmembers, want, flen = 0;
	struct cfx_header h;
	unsigned char *file = NULL, *ans;
	int rc = -1;
	char *seen;

	memset(m, 0, sizeof(*m));
	if (!ctx->fix_cache_dir || nm * (n ? n : 1) < CH_FIX_CACHE_MIN || nm >= 0xffffffffu ||
	    !ch_code_identity(id))
		return -1;
	ch_grow_put(&b, CFX_MAGIC, 8);
	kstr(&b, CH_VERSION);
	for (i = 0; i < 4; i++)
		k64(&b, id[i]);
	k64(&b, L);
	k64(&b, (uint64_t)ins);
	k64(&b, sep);
	k64(&b, (uint64_t)search);
	kstr(&b, t->name);
	k64(&b, t->size);
	k64(&b, t->align);
	k64(&b, (uint64_t)t->is_union | (uint64_t)t->packed << 1);
	k64(&b, nm);
	k64(&b, n);
	for (i = 0; i < nm; i++) {
		const struct ch_member *me = &t->members[i];
		uint64_t g = 0;
		k64(&b, me->offset);
		k64(&b, me->size);
		k64(&b, (uint64_t)me->bit_offset | (uint64_t)me->bit_size << 32);
		k64(&b, (uint64_t)me->align | (uint64_t)(me->flexible != 0) << 32 |
			   (uint64_t)(me->user_align != 0) << 33);
		/* a kernel group by its first member: what the search compares */
		if (me->kgroup)
			for (j = 0; j <= i; j++)
				if (t->members[j].kgroup == me->kgroup) {
					g = j + 1;
					break;
				}
		k64(&b, g);
	}
	for (i = 0; i < n; i++) {
		k64(&b, v[i].offset);
		k64(&b, v[i].size);
		k64(&b, (uint64_t)v[i].cls | (uint64_t)(v[i].data != 0) << 32);
		k64(&b, v[i].top);
		kstr(&b, v[i].group);
	}
	/* the file: one per struct name and shape, its key checked whole */
	{
		uint64_t shape[5] = { t->size, nm, L, (uint64_t)ins, sep };
		name[0] = ch_hash_bytes(t->name ? t->name : "", t->name ? strlen(t->name) : 0);
		name[1] = ch_hash_bytes(shape, sizeof(shape));
	}
	snprintf(m->path, sizeof(m->path), "%s/fix-%016llx%08llx.cfx", ctx->fix_cache_dir,
		 (unsigned long long)name[0], (unsigned long long)(name[1] & 0xffffffffu));
	m->key = (char *)b.p;
	m->key_len = b.len;
	m->nmembers = nm;
	m->active = 1;

	want = sizeof(h) + b.len;
	file = ch_cache_get(m->path, want, want + nm * 6, &flen);
	if (!file)
		return -1;
	memcpy(&h, file, sizeof(h));
	if (memcmp(h.magic, CFX_MAGIC, 8) || h.key_len != b.len || h.nmembers != nm ||
	    memcmp(file + sizeof(h), b.p, b.len) || h.found > 1 ||
	    flen != want + (h.found ? nm * 6 : 0) ||
	    answer_check(h.size, h.found, file + want, h.found ? nm * 6 : 0) != h.check)
		goto out;
	if (!h.found) {
		rc = 0;
		goto out;
	}
	/* order as uint32 per member, then a break byte and a move byte each */
	ans = file + want;
	seen = (char *)calloc(nm, 1);
	if (!seen)
		abort();
	for (i = 0; i < nm; i++) {
		uint32_t o;
		memcpy(&o, ans + 4 * i, 4);
		if (o >= nm || seen[o] || ans[4 * nm + i] > 1 || ans[5 * nm + i] > 1)
			break;
		seen[o] = 1;
	}
	free(seen);
	if (i < nm)
		goto out;
	for (i = 0; i < nm; i++) {
		uint32_t o;
		memcpy(&o, ans + 4 * i, 4);
		order[i] = o;
		pad[i] = ans[4 * nm + i];
		moved[i] = ans[5 * nm + i];
	}
	*size = h.size;
	rc = 1;
out:
	free(file);
	return rc;
}

void ch_fix_memo_put(struct ch_fix_memo *m, int found, const size_t *order, const int *pad,
		     const int *moved, uint64_t size)
{
	struct cfx_header h;
	unsigned char *buf;
	size_t nm = m->nmembers, len, i;

	if (!m->active)
		return;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CFX_MAGIC, 8);
	h.key_len = m->key_len;
	h.nmembers = nm;
	h.size = found ? size : 0;
	h.found = found ? 1 : 0;
	len = sizeof(h) + m->key_len + (found ? nm * 6 : 0);
	buf = (unsigned char *)malloc(len);
	if (!buf)
		abort();
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), m->key, m->key_len);
	if (found) {
		unsigned char *ans = buf + sizeof(h) + m->key_len;
		for (i = 0; i < nm; i++) {
			uint32_t o = (uint32_t)order[i];
			memcpy(ans + 4 * i, &o, 4);
			ans[4 * nm + i] = pad[i] ? 1 : 0;
			ans[5 * nm + i] = moved[i] ? 1 : 0;
		}
	}
	h.check = answer_check(h.size, h.found, buf + sizeof(h) + m->key_len, found ? nm * 6 : 0);
	memcpy(buf, &h, sizeof(h));
	ch_cache_put(m->path, buf, len);
	free(buf);
}

unsigned char *ch_cache_get(const char *path, size_t min, size_t max, size_t *len)
{
	struct stat st;
	unsigned char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= min &&
	    (uint64_t)st.st_size <= max && (buf = (unsigned char *)malloc((size_t)st.st_size + 1)) &&
	    read(fd, buf, (size_t)st.st_size) == st.st_size) {
		buf[st.st_size] = 0;
		*len = (size_t)st.st_size;
	} else {
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

void ch_cache_put(char *path, const void *buf, size_t len)
{
	struct ch_atomic at;
	char *slash = strrchr(path, '/');
	/* the directory and its parents ($HOME/.cache may not exist yet) */
	if (slash && slash != path) {
		char *p;
		*slash = 0;
		if (mkdir(path, 0777) && errno == ENOENT) {
			for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
				*p = 0;
				mkdir(path, 0777);
				*p = '/';
			}
			mkdir(path, 0777);
		}
		*slash = '/';
	}
	if (ch_atomic_open(&at, path) == 0) {
		if (write(at.fd, buf, len) == (ssize_t)len)
			ch_atomic_commit(&at);
		else
			ch_atomic_abort(&at);
	}
}
