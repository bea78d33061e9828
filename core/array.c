/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array.c -- [cachehot-array-sharing]: false sharing between neighbouring
 * elements of an array of per-thread (per-CPU, per-worker) structs.
 *
 * Each element is written by its own thread; when the element size is not a
 * multiple of the line size (or the array does not start on a line), a hot
 * field of element i and data of element i+1 land on one line and two
 * threads write it. Source: the per-thread statistics arrays of userspace
 * servers and the kernel's ____cacheline_aligned_in_smp per-CPU
 * structs (e.g. "struct rq" in kernel/sched/sched.h).
 *
 * The element positions repeat every L / gcd(E, L) elements, so at most that
 * many neighbour pairs are judged (<= 64 at 64-byte lines).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

struct span {
	uint64_t off, size;   /* bytes within the element */
	const char *name;
	int hot;
};

/* Lines [first, last] of bytes [at, at + size) at line size L. */
static int share(uint64_t a, uint64_t as, uint64_t b, uint64_t bs, unsigned L, uint64_t *line)
{
	uint64_t a0 = a / L, a1 = (a + as - 1) / L, b0 = b / L, b1 = (b + bs - 1) / L;
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
	if (lo > hi)
		return 0;
	*line = lo;
	return 1;
}

static const char *elem_type_phrase(ch_ctx *ctx, const struct ch_type *t)
{
	if (!t->name)
		return "the element type";
	return t->name_is_typedef ? ch_printf(ctx, "'%s'", t->name)
				  : ch_printf(ctx, "'%s %s'", t->is_union ? "union" : "struct", t->name);
}

int ch_is_system_header(const char *path)
{
	return path && (!strncmp(path, "/usr/include/", 13) ||
			!strncmp(path, "/usr/local/include/", 19) ||
			!strncmp(path, "/usr/lib/gcc/", 13));
}

/* The fix: align the element type to the line; or, when that type cannot be
 * changed where it is declared (et->wrap), wrap each element in a struct
 * aligned to the line. */
static const char *align_fix(ch_ctx *ctx, const struct ch_type *et, const char *tp,
			     const struct ch_config *cfg, unsigned L)
{
	if (et->wrap) {
		const char *T = et->wrap == CH_WRAP_SYSTEM && et->name
			? (et->name_is_typedef ? et->name
			   : ch_printf(ctx, "%s %s", et->is_union ? "union" : "struct", et->name))
			: "T";
		const char *why = et->wrap == CH_WRAP_SYSTEM && et->name
			? ch_printf(ctx, "%s is declared in a system header", tp)
			: et->wrap == CH_WRAP_SYSTEM
			? "T, the element type, is declared in a system header"
			: "T, the element type, is a scalar";
		return cfg->kernel == 1
			? ch_printf(ctx, "wrap each element in 'struct { %s v; } "
				    "____cacheline_aligned_in_smp' (%s)", T, why)
			: ch_printf(ctx, "wrap each element in 'struct { %s(%u) %s v; }' (%s)",
				    CH_ALIGNAS(cfg->kernel), L, T, why);
	}
	return cfg->kernel == 1
		? ch_printf(ctx, "mark %s ____cacheline_aligned_in_smp", tp)
		: ch_printf(ctx, "declare the first member of %s %s(%u)", tp,
			    CH_ALIGNAS(cfg->kernel), L);
}

int ch_check_array(ch_ctx *ctx, struct ch_type *et, uint64_t E, uint64_t N, uint64_t base_off,
		   int base_known, const char *what, struct ch_loc loc,
		   const struct ch_config *cfg, ch_emit_fn emit, void *arg)
{
	unsigned L = ch_config_line_size(cfg);
	struct ch_leaf *lv;
	size_t nl = 0, i, ns = 0, a, b;
	struct span *sp;
	int nhot = 0, whole = 0;
	uint64_t period, k, newE, line = 0;
	struct ch_finding f;
	const char *fix, *cost, *tp, *starts_inside;

	if (!et || !E || !cfg->smp || (N && N < 2))
		return 0;
	base_off = base_known ? base_off % L : 0;
	if (E % L == 0 && base_off == 0 && (base_known || et->align >= L))
		return 0;   /* every element on lines of its own */
	ch_flatten(ctx, et, &lv, &nl);
	sp = (struct span *)calloc(nl + 1, sizeof(*sp));
	if (!sp)
		abort();
	for (i = 0; i < nl; i++) {
		if (!lv[i].size || (lv[i].pad != CH_PAD_NONE && lv[i].pad != CH_PAD_ALIGNED))
			continue;
		sp[ns].off = lv[i].offset;
		sp[ns].size = lv[i].size;
		sp[ns].name = lv[i].path;
		sp[ns].hot = lv[i].cls == CH_CLASS_HOT || lv[i].cls == CH_CLASS_EXCLUSIVE;
		nhot += sp[ns].hot;
		ns++;
	}
	if (!nhot) {   /* nothing annotated: the whole element is its thread's */
		for (i = 0; i < ns; i++)
			sp[i].hot = 1;
		if (!ns) {   /* a scalar, or a struct without members */
			sp[0].off = 0;
			sp[0].size = E;
			sp[0].name = "<element>";
			sp[0].hot = 1;
			ns = 1;
			whole = 1;
		}
	}
	period = L / gcd64(E % L ? E % L : L, L);
	if (period < 1)
		period = 1;
	memset(&f, 0, sizeof(f));
	for (k = 0; k < period && (!N || k + 1 < N) && !f.message; k++) {
		uint64_t e0 = base_off + k * E, e1 = e0 + E;
		int pass;
		for (pass = 0; pass < 2 && !f.message; pass++)
		for (a = 0; a < ns && !f.message; a++)
			for (b = 0; b < ns && !f.message; b++) {
				/* pass 0: hot field of element k vs data of k+1; pass 1:
				 * data of k vs hot field of k+1 */
				const struct span *h = NULL, *d = NULL;
				uint64_t ho = 0, dof = 0, hk = 0, dk = 0;
				if (pass == 0 && sp[a].hot && share(e0 + sp[a].off, sp[a].size, e1 + sp[b].off,
						       sp[b].size, L, &line)) {
					h = &sp[a]; d = &sp[b]; ho = e0 + sp[a].off; dof = e1 + sp[b].off;
					hk = k; dk = k + 1;
				} else if (pass == 1 && sp[b].hot && share(e0 + sp[a].off, sp[a].size, e1 + sp[b].off,
							      sp[b].size, L, &line)) {
					h = &sp[b]; d = &sp[a]; ho = e1 + sp[b].off; dof = e0 + sp[a].off;
					hk = k + 1; dk = k;
				}
				if (!h)
					continue;
				f.check = CH_CHECK_ARRAY_SHARING;
				f.severity = cfg->severity;
				f.struct_name = et->name;
				f.field_a = h->name;
				f.offset_a = ho - base_off;
				f.size_a = h->size;
				f.field_b = d->name;
				f.offset_b = dof - base_off;
				f.size_b = d->size;
				f.line_index = line;
				f.line_size = L;
				f.loc = loc;
				tp = elem_type_phrase(ctx, et);
				newE = (E + L - 1) / L * L;
				fix = align_fix(ctx, et, tp, cfg, L);
				cost = N ? ch_printf(ctx, "element %llu -> %llu bytes: %llu bytes per element, "
						     "%llu bytes for the %llu elements",
						     (unsigned long long)E, (unsigned long long)newE,
						     (unsigned long long)(newE - E),
						     (unsigned long long)((newE - E) * N),
						     (unsigned long long)N)
					 : ch_printf(ctx, "element %llu -> %llu bytes: %llu bytes per element",
						     (unsigned long long)E, (unsigned long long)newE,
						     (unsigned long long)(newE - E));
				starts_inside = E % L == 0 ?
					ch_printf(ctx, " (the elements are %llu bytes, but the array "
						  "starts %llu bytes into a line)", (unsigned long long)E,
						  (unsigned long long)base_off) : "";
				if (whole)   /* no fields to name: the elements themselves */
					f.message = ch_printf(ctx,
					"%s of per-thread %llu-byte elements: element %llu (byte %llu of "
					"the array) shares cache line %llu of the array (%u-byte lines) "
					"with element %llu (byte %llu), written by another thread; %s%s; "
					"this costs %s [%s]",
					what, (unsigned long long)E, (unsigned long long)hk,
					(unsigned long long)(ho - base_off), (unsigned long long)line, L,
					(unsigned long long)dk, (unsigned long long)(dof - base_off), fix,
					starts_inside,
					cost, ch_check_id(CH_CHECK_ARRAY_SHARING));
				else
				f.message = ch_printf(ctx,
					"%s of per-thread %s-byte elements: %s '%s' of element %llu "
					"(offset %llu in the element, byte %llu of the array) shares cache "
					"line %llu of the array (%u-byte lines) with '%s' of element %llu "
					"(byte %llu), "
					"written by another thread; %s%s; this costs %s [%s]",
					what, ch_printf(ctx, "%llu", (unsigned long long)E),
					nhot ? "hot field" : "field", h->name, (unsigned long long)hk,
					(unsigned long long)h->off, (unsigned long long)(ho - base_off),
					(unsigned long long)line, L, d->name, (unsigned long long)dk,
					(unsigned long long)(dof - base_off), fix,
					starts_inside,
					cost, ch_check_id(CH_CHECK_ARRAY_SHARING));
			}
	}
	free(sp);
	if (!f.message && E % L == 0 && !base_known && et->align < L) {
		/* exact size, but the array may start anywhere in a line */
		tp = elem_type_phrase(ctx, et);
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_ARRAY_SHARING;
		f.severity = cfg->severity;
		f.struct_name = et->name;
		f.line_size = L;
		f.loc = loc;
		f.message = ch_printf(ctx, "%s of per-thread %llu-byte elements: %s is aligned to %u "
				      "bytes, so the array may start inside a line and each element "
				      "then shares lines with its neighbours; %s; this costs no bytes "
				      "per element [%s]", what, (unsigned long long)E, tp, et->align,
				      align_fix(ctx, et, tp, cfg, L),
				      ch_check_id(CH_CHECK_ARRAY_SHARING));
	}
	if (!f.message)
		return 0;
	if (emit)
		emit(&f, arg);
	return f.severity >= CH_SEV_WARNING;
}

int ch_per_thread_marked(ch_ctx *ctx, const char *name, int attr, int sidecar,
			 uint64_t *count)
{
	int side = sidecar && name && ch_sidecar_per_thread_count(ctx) &&
		   ch_sidecar_per_thread(ctx, name, count);
	return side || attr;
}

void ch_per_thread_site(ch_ctx *ctx, const struct ch_pt_site *site, unsigned L,
			struct ch_pt_judgement *j)
{
	unsigned al;
	memset(j, 0, sizeof(*j));
	switch (site->kind) {
	case CH_PT_TYPE:
		j->base_known = site->elem_align >= L;
		j->what = ch_printf(ctx, "arrays of '%s %s'", site->is_union ? "union" : "struct",
				    site->name ? site->name : "<anonymous>");
		return;
	case CH_PT_VARIABLE:
	case CH_PT_MEMBER:
		j->nelems = site->nelems;
		if (site->heap) {
			j->base_known = site->elem_align >= L;
			j->what = ch_printf(ctx, "heap array '%s'", site->name);
		} else if (site->kind == CH_PT_VARIABLE) {
			al = site->decl_align > site->elem_align ? site->decl_align : site->elem_align;
			j->base_known = al >= L;
			j->what = ch_printf(ctx, "array '%s'", site->name);
		} else {
			j->base_off = site->offset;
			j->base_known = site->decl_align >= L;
			j->what = ch_printf(ctx, "array '%s'", site->name);
		}
		return;
	}
}
