/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.c -- cachehot-layout --diff OLD NEW: for each struct defined in both
 * inputs, the fields that moved, appeared or went away, the change of size
 * and cache-line count, and the conflicts between annotated fields that NEW
 * has and OLD had not (judged by the core on both sides). A new conflict
 * makes the exit status 1: the CI gate against a patch that spoils a layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

struct flist {
	struct ch_finding *v;
	size_t n, cap;
};

static void collect(const struct ch_finding *f, void *arg)
{
	struct flist *l = arg;
	if (f->check != CH_CHECK_FALSE_SHARING || f->severity < CH_SEV_WARNING || !f->field_a)
		return;
	CH_GROW(l->v, l->n, l->cap, 16);
	l->v[l->n++] = *f;
}

/* A conflict's key: line size and the two fields in name order; two
 * findings name the same pair when their keys are equal (either order). */
struct pkey {
	unsigned line_size;
	const char *lo, *hi;
};

static struct pkey pair_key(const struct ch_finding *f)
{
	struct pkey k;
	const char *a = f->field_a, *b = f->field_b ? f->field_b : "";
	k.line_size = f->line_size;
	k.lo = strcmp(a, b) <= 0 ? a : b;
	k.hi = k.lo == a ? b : a;
	return k;
}

static int pkey_cmp(const void *pa, const void *pb)
{
	const struct pkey *a = pa, *b = pb;
	int c;
	if (a->line_size != b->line_size)
		return a->line_size < b->line_size ? -1 : 1;
	c = strcmp(a->lo, b->lo);
	return c ? c : strcmp(a->hi, b->hi);
}

/* The keys of a list's findings, sorted: membership by binary search. */
static struct pkey *pair_keys(const struct flist *l)
{
	struct pkey *k = malloc((l->n + 1) * sizeof(*k));
	size_t i;
	if (!k)
		abort();
	for (i = 0; i < l->n; i++)
		k[i] = pair_key(&l->v[i]);
	if (l->n > 1)
		qsort(k, l->n, sizeof(*k), pkey_cmp);
	return k;
}

static int has_pair(const struct pkey *keys, size_t n, const struct ch_finding *f)
{
	struct pkey k = pair_key(f);
	return n && bsearch(&k, keys, n, sizeof(k), pkey_cmp) != NULL;
}

/* Leaves by (path, index): the first leaf of a path by binary search, as a
 * scan from the start would find it. */
static const struct ch_leaf *sort_leaves;
static int by_path(const void *pa, const void *pb)
{
	size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
	int c = strcmp(sort_leaves[x].path, sort_leaves[y].path);
	return c ? c : (x < y ? -1 : x > y);
}

static size_t *leaf_index(const struct ch_leaf *v, size_t n)
{
	size_t *ix = malloc((n + 1) * sizeof(size_t)), i;
	if (!ix)
		abort();
	for (i = 0; i < n; i++)
		ix[i] = i;
	sort_leaves = v;
	if (n > 1)
		qsort(ix, n, sizeof(size_t), by_path);
	return ix;
}

static const struct ch_leaf *find_leaf(const struct ch_leaf *v, const size_t *ix, size_t n,
				       const char *path)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (strcmp(v[ix[m]].path, path) < 0)
			a = m + 1;
		else
			b = m;
	}
	return a < n && !strcmp(v[ix[a]].path, path) ? &v[ix[a]] : NULL;
}

int lt_diff(struct lt_set *old, struct lt_set *nw, const struct lt_opts *o, FILE *out)
{
	unsigned L = ch_config_line_size(&o->cfg);
	size_t i, j, compared = 0, changed = 0;
	int new_conflicts = 0;

	for (i = 0; i < old->n; i++) {
		struct lt_struct *so = &old->structs[i], *sn = lt_set_find(nw, so->name);
		struct ch_leaf *lo, *ln;
		size_t no, nn, *ixo, *ixn;
		struct flist fo = { NULL, 0, 0 }, fnw = { NULL, 0, 0 };
		int header = 0;
		uint64_t lines_o, lines_n;

		if (!sn)
			continue;
		compared++;
		ch_flatten(old->ctx, so->t, &lo, &no);
		ch_flatten(nw->ctx, sn->t, &ln, &nn);
		ixo = leaf_index(lo, no);
		ixn = leaf_index(ln, nn);
		lines_o = (so->t->size + L - 1) / L;
		lines_n = (sn->t->size + L - 1) / L;
#define HEADER() do { if (!header) { header = 1; changed++; \
		fprintf(out, "%s %s:", so->t->is_union ? "union" : "struct", so->name); \
		if (so->t->size != sn->t->size || lines_o != lines_n) \
			fprintf(out, " size %llu -> %llu bytes, %llu -> %llu cache line%s", \
				(unsigned long long)so->t->size, (unsigned long long)sn->t->size, \
				(unsigned long long)lines_o, (unsigned long long)lines_n, \
				lines_n == 1 ? "" : "s"); \
		fputc('\n', out); } } while (0)

		if (so->t->size != sn->t->size || lines_o != lines_n)
			HEADER();
		for (j = 0; j < nn; j++) {
			const struct ch_leaf *a = find_leaf(lo, ixo, no, ln[j].path), *b = &ln[j];
			if (!a) {
				HEADER();
				fprintf(out, "  added: '%s' at offset %llu (size %llu, line %llu)\n",
					b->path, (unsigned long long)b->offset,
					(unsigned long long)b->size, (unsigned long long)(b->offset / L));
				continue;
			}
			if (a->offset != b->offset || a->size != b->size ||
			    a->bit_offset != b->bit_offset) {
				HEADER();
				fprintf(out, "  moved: '%s' offset %llu -> %llu", b->path,
					(unsigned long long)a->offset, (unsigned long long)b->offset);
				if (a->size != b->size)
					fprintf(out, ", size %llu -> %llu", (unsigned long long)a->size,
						(unsigned long long)b->size);
				fprintf(out, " (line %llu -> %llu)\n", (unsigned long long)(a->offset / L),
					(unsigned long long)(b->offset / L));
			}
		}
		for (j = 0; j < no; j++)
			if (!find_leaf(ln, ixn, nn, lo[j].path)) {
				HEADER();
				fprintf(out, "  removed: '%s' (was at offset %llu, size %llu)\n",
					lo[j].path, (unsigned long long)lo[j].offset,
					(unsigned long long)lo[j].size);
			}
		if (!so->t->randomized && !sn->t->randomized) {
			ch_check_type(old->ctx, so->t, &o->cfg, collect, &fo);
			ch_check_type(nw->ctx, sn->t, &o->cfg, collect, &fnw);
			struct pkey *ko = pair_keys(&fo), *kn = pair_keys(&fnw);
			for (j = 0; j < fnw.n; j++) {
				if (has_pair(ko, fo.n, &fnw.v[j]))
					continue;
				HEADER();
				fprintf(out, "  new conflict: ");
				lt_print_finding(out, &fnw.v[j], sn->input);
				new_conflicts++;
			}
			for (j = 0; j < fo.n; j++) {
				if (has_pair(kn, fnw.n, &fo.v[j]))
					continue;
				HEADER();
				fprintf(out, "  conflict gone: '%s' and '%s' no longer share line %llu "
					"(%u-byte lines)\n", fo.v[j].field_a,
					fo.v[j].field_b ? fo.v[j].field_b : "?",
					(unsigned long long)fo.v[j].line_index, fo.v[j].line_size);
			}
			free(ko);
			free(kn);
		} else if (so->t->randomized != sn->t->randomized || sn->t->randomized) {
			HEADER();
			fprintf(out, "  not judged: randomized by randstruct in %s\n",
				sn->t->randomized ? "NEW" : "OLD");
		}
		free(fo.v);
		free(fnw.v);
		free(ixo);
		free(ixn);
#undef HEADER
	}
	fprintf(out, "cachehot-layout: %zu struct%s in both, %zu changed, %d new conflict%s\n",
		compared, compared == 1 ? "" : "s", changed, new_conflicts,
		new_conflicts == 1 ? "" : "s");
	return new_conflicts ? 1 : 0;
}
