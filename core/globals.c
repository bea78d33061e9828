/* SPDX-License-Identifier: GPL-2.0 */
/*
 * globals.c -- [cachehot-global-sharing]: a global variable annotated hot
 * (or exclusive) that shares a cache line with other data.
 *
 * Where a variable lands is decided by the compiler (section), the linker
 * (order and start of each section) and alignment; a front-end reads it from
 * the ELF symbol table of the binary (cachehot-layout, layout/symbols.c) and
 * hands the data symbols to ch_check_globals(). Addresses are exact in a
 * linked executable or vmlinux (where neighbours across a section boundary
 * share lines too); in a relocatable object they are offsets within one
 * section, and line boundaries are exact only when the section is aligned
 * to a line (the message says so otherwise).
 *
 * Rule (docs/checks.rst): a hot global shares its lines with no other data
 * except hot globals of its own hot group; an exclusive one with none.
 * Unlike struct fields, an unannotated neighbour counts: neighbouring
 * globals are unrelated objects, used by other code.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAX_NAMED 8   /* neighbours named in one message; the rest counted */

static int is_hot(enum ch_class c)
{
	return c == CH_CLASS_HOT || c == CH_CLASS_EXCLUSIVE;
}

/* 1 if h may share a line with o: o is hot in h's own (named) hot group,
 * or o is h under another name (an alias: same address and size). */
static int may_share(const struct ch_global *h, const struct ch_global *o)
{
	if (o->addr == h->addr && o->size == h->size)
		return 1;
	return h->cls == CH_CLASS_HOT && o->cls == CH_CLASS_HOT && h->group && o->group &&
	       !strcmp(h->group, o->group);
}

/* A note about hot global h (L-byte lines); the caller sets the message. */
static void note_about(struct ch_finding *f, const struct ch_global *h, unsigned L)
{
	memset(f, 0, sizeof(*f));
	f->check = CH_CHECK_GLOBAL_SHARING;
	f->severity = CH_SEV_NOTE;
	f->field_a = h->name;
	f->size_a = h->size;
	f->line_size = L;
	f->loc = h->loc;
}

int ch_check_globals(ch_ctx *ctx, const struct ch_global *v, size_t n, int relocatable,
		     const struct ch_config *cfg, ch_emit_fn emit, void *arg)
{
	unsigned L = ch_config_line_size(cfg);
	uint64_t maxsize = 0;
	struct ch_global_nb nb[MAX_NAMED];
	size_t i, warnings = 0;

	if (!cfg->smp || !n)
		return 0;
	for (i = 0; i < n; i++)
		if (v[i].size > maxsize)
			maxsize = v[i].size;
	for (i = 0; i < n; i++) {
		const struct ch_global *h = &v[i], *next = NULL;
		uint64_t a = h->addr, lo, hi, lo_b, hi_b, base, pad;
		size_t k = 0, more = 0, j;
		int open_end;
		struct ch_finding f;

		if (!is_hot(h->cls) || !h->size)
			continue;
		if (h->read_only) {   /* a const: the annotation is wrong, not the layout */
			note_about(&f, h, L);
			f.message = ch_msg_global_read_only(ctx, h);
			if (emit)
				emit(&f, arg);
			continue;
		}
		lo = a / L;
		hi = (a + h->size - 1) / L;
		lo_b = lo * L;
		hi_b = (hi + 1) * L;
		base = h->section_addr / L;
		/* earlier symbols, nearest first: stop once none can reach lo's line */
		for (j = i; j-- > 0;) {
			const struct ch_global *o = &v[j];
			if (o->addr + maxsize <= lo_b)
				break;
			if (!o->size || o->addr + o->size <= lo_b || may_share(h, o))
				continue;
			if (k < MAX_NAMED) {
				nb[k].g = o;
				nb[k++].line = (o->addr / L > lo ? o->addr / L : lo) - base;
			} else
				more++;
		}
		for (j = 0; j < k / 2; j++) {   /* name them in address order */
			struct ch_global_nb t = nb[j];
			nb[j] = nb[k - 1 - j];
			nb[k - 1 - j] = t;
		}
		for (j = i + 1; j < n; j++) {
			const struct ch_global *o = &v[j];
			if (o->addr >= hi_b)
				break;
			if (!o->size || may_share(h, o))
				continue;
			if (!next && o->addr >= a + h->size)
				next = o;
			if (k < MAX_NAMED) {
				nb[k].g = o;
				nb[k++].line = (o->addr / L > lo ? o->addr / L : lo) - base;
			} else
				more++;
		}
		/* the end of the section is open to the link unless it is the
		 * kernel's .data..cacheline_aligned, where every variable starts
		 * a line and an aligned section follows (vmlinux.lds.h) */
		open_end = h->section_size < hi_b - h->section_addr && (a + h->size) % L &&
			   !(h->section && !strcmp(h->section, ".data..cacheline_aligned"));
		if (!k && relocatable && (h->section_align < L || open_end)) {
			/* clean in the object, but the link chooses what comes
			 * before the section (aligned to less than a line) or
			 * after its end (inside h's last line): -fdata-sections,
			 * or ____cacheline_aligned without a padded tail */
			note_about(&f, h, L);
			f.message = ch_msg_global_open(ctx, h, h->section_align < L, open_end, cfg);
			if (emit)
				emit(&f, arg);
			continue;
		}
		if (!k)
			continue;
		/* the userspace fix at this placement: h moved up to a line
		 * boundary, and the variable after it to the next one */
		pad = (L - a % L) % L;
		if (next)
			pad += (L - (a + pad + h->size) % L) % L;
		memset(&f, 0, sizeof(f));
		f.check = CH_CHECK_GLOBAL_SHARING;
		f.severity = cfg->severity;
		f.field_a = h->name;
		f.offset_a = h->addr - h->section_addr;
		f.size_a = h->size;
		f.field_b = nb[0].g->name;
		f.offset_b = nb[0].g->addr - nb[0].g->section_addr;
		f.size_b = nb[0].g->size;
		f.line_index = nb[0].line;
		f.line_size = L;
		f.loc = h->loc;
		f.message = ch_msg_global_sharing(ctx, h, relocatable, lo - base, hi - base, nb, k,
						  more, next, pad, cfg);
		if (emit)
			emit(&f, arg);
		if (f.severity >= CH_SEV_WARNING)
			warnings++;
	}
	return (int)warnings;
}
