/* SPDX-License-Identifier: GPL-2.0 */
/*
 * show.c -- cachehot-layout --show STRUCT: a pahole-like listing of the
 * flattened layout (core's ch_flatten) with cache-line boundaries, holes,
 * each field's class, and the core's findings marked on the fields they
 * are about.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

struct fcoll {
	const struct ch_finding **v;
	size_t n, cap;
};

static void collect(const struct ch_finding *f, void *arg)
{
	struct fcoll *c = arg;
	struct ch_finding *copy;
	CH_GROW(c->v, c->n, c->cap, 16);
	/* findings are only valid during the callback: keep a copy (strings
	 * are ctx-owned and stay) */
	copy = malloc(sizeof(*copy));
	if (!copy)
		abort();
	*copy = *f;
	c->v[c->n++] = copy;
}

static const char *class_label(char *buf, size_t n, const struct ch_leaf *l)
{
	const char *pad = NULL;
	switch (l->pad) {
	case CH_PAD_UNIFIED: pad = "padding: CACHELINE_PADDING"; break;
	case CH_PAD_PRIVATE: pad = "padding: private type"; break;
	case CH_PAD_BYTES: pad = "padding: hand-sized bytes"; break;
	default: break;
	}
	if (pad) {
		snprintf(buf, n, "%s", pad);
		return buf;
	}
	switch (l->cls) {
	case CH_CLASS_HOT:
		if (l->group)
			snprintf(buf, n, "hot (group %s)", l->group);
		else
			snprintf(buf, n, "hot");
		break;
	case CH_CLASS_EXCLUSIVE: snprintf(buf, n, "exclusive"); break;
	case CH_CLASS_READ_MOSTLY: snprintf(buf, n, "read-mostly"); break;
	default: buf[0] = 0; break;
	}
	if (l->pad == CH_PAD_ALIGNED && l->member)
		snprintf(buf + strlen(buf), n - strlen(buf), "%saligned(%u)", *buf ? ", " : "",
			 l->member->align);
	return buf;
}

static const char *check_short(enum ch_check c)
{
	return ch_check_id(c);
}

/* Findings by the field they sit on, leaves by path: each sorted by
 * (name, index), so that a leaf finds its findings, and a finding its other
 * field, by binary search in the order a scan would have met them. */
static const struct ch_finding *const *sort_fv;
static const struct ch_leaf *sort_lv;
static int by_field_a(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_fv[x]->field_a, sort_fv[y]->field_a);
	return c ? c : (x < y ? -1 : x > y);
}
static int by_path(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_lv[x].path, sort_lv[y].path);
	return c ? c : (x < y ? -1 : x > y);
}
/* First position in idx[0..n) whose name is key (names from name(i)). */
static size_t first_named(const size_t *idx, size_t n, const char *key,
			  const char *(*name)(size_t))
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (strcmp(name(idx[m]), key) < 0)
			a = m + 1;
		else
			b = m;
	}
	return a;
}
static const char *fa_name(size_t i) { return sort_fv[i]->field_a; }
static const char *lp_name(size_t i) { return sort_lv[i].path; }

int lt_show(struct lt_set *s, struct lt_struct *st, const struct lt_opts *o, FILE *out)
{
	size_t *fa, nfa = 0, *lp, q;
	struct ch_leaf *lv;
	size_t n, i, j;
	unsigned L = ch_config_line_size(&o->cfg);
	struct fcoll fc = { NULL, 0, 0 };
	const struct ch_type *t = st->t;
	uint64_t cur_line = 0, prev_end = 0, lines;
	char cls[128];
	int warnings = 0;

	ch_check_type(s->ctx, st->t, &o->cfg, collect, &fc);
	ch_flatten(s->ctx, st->t, &lv, &n);
	lines = t->size ? (t->size + L - 1) / L : 0;
	fa = malloc((fc.n + 1) * sizeof(size_t));
	lp = malloc((n + 1) * sizeof(size_t));
	if (!fa || !lp)
		abort();
	for (j = 0; j < fc.n; j++)
		if (fc.v[j]->field_a)
			fa[nfa++] = j;
	for (i = 0; i < n; i++)
		lp[i] = i;
	sort_fv = fc.v;
	sort_lv = lv;
	qsort(fa, nfa, sizeof(size_t), by_field_a);
	qsort(lp, n, sizeof(size_t), by_path);

	fprintf(out, "%s %s {", t->is_union ? "union" : "struct", st->name);
	fprintf(out, "\t/* %s: %s%s */\n", st->kind == LT_KIND_BTF ? "BTF" : "DWARF", st->input,
		t->randomized ? ", randomized: not judged" : "");
	for (i = 0; i < n; i++) {
		const struct ch_leaf *l = &lv[i];
		const struct ch_member *m = l->member;
		uint64_t first = l->offset / L;
		uint64_t last = l->size ? (l->offset + l->size - 1) / L : first;
		char decl[512], pos[64];
		int w;

		if (!t->is_union && l->offset > prev_end && i > 0)
			fprintf(out, "\n\t/* XXX %llu byte%s hole */\n\n",
				(unsigned long long)(l->offset - prev_end),
				l->offset - prev_end == 1 ? "" : "s");
		/* every boundary up to this field, but one line for the
		 * boundaries inside a long hole: output stays linear in fields
		 * (an aligned(1 << 28) member printed 249 MB) */
		if (first > cur_line + 3) {
			fprintf(out, "\t/* --- cacheline %llu boundary (%llu bytes) --- */\n",
				(unsigned long long)(cur_line + 1),
				(unsigned long long)((cur_line + 1) * L));
			fprintf(out, "\t/* --- %llu more cacheline boundaries in the hole --- */\n",
				(unsigned long long)(first - cur_line - 2));
			cur_line = first - 1;
		}
		while (first > cur_line) {
			cur_line++;
			fprintf(out, "\t/* --- cacheline %llu boundary (%llu bytes) --- */\n",
				(unsigned long long)cur_line, (unsigned long long)(cur_line * L));
		}
		snprintf(decl, sizeof(decl), "%s", lt_member_decl(s, m, l->path));
		if (l->bit_size)
			snprintf(pos, sizeof(pos), "/* %5llu:%u %4llu */",
				 (unsigned long long)l->offset, l->bit_offset,
				 (unsigned long long)l->size);
		else
			snprintf(pos, sizeof(pos), "/* %5llu %5llu */",
				 (unsigned long long)l->offset, (unsigned long long)l->size);
		w = fprintf(out, "\t%*s%s;", 2 * l->depth, "", decl);
		fprintf(out, "%*s %s", w < 56 ? 56 - w : 1, "", pos);
		class_label(cls, sizeof(cls), l);
		if (*cls)
			fprintf(out, " %s", cls);
		sort_fv = fc.v;
		sort_lv = lv;
		for (q = first_named(fa, nfa, l->path, fa_name);
		     q < nfa && !strcmp(fc.v[fa[q]]->field_a, l->path); q++) {
			const struct ch_finding *f = fc.v[fa[q]];
			if (f->check == CH_CHECK_FALSE_SHARING && f->field_b) {
				const char *bcls = "field";
				size_t k = first_named(lp, n, f->field_b, lp_name);
				if (k < n && !strcmp(lv[lp[k]].path, f->field_b)) {
					class_label(cls, sizeof(cls), &lv[lp[k]]);
					bcls = cls;
				}
				fprintf(out, "  <-- shares line %llu%s with %s '%s' [%s]",
					(unsigned long long)f->line_index,
					f->line_size != L ? (f->line_size > L ? " (predicted)" : "") : "",
					bcls, f->field_b, check_short(f->check));
			} else
				fprintf(out, "  <-- %s", f->message);
		}
		fputc('\n', out);
		if (last > first && l->size)
			fprintf(out, "\t/* --- cacheline %llu boundary (%llu bytes) was %llu bytes "
				"ago --- */\n", (unsigned long long)last,
				(unsigned long long)(last * L),
				(unsigned long long)(l->offset + l->size - last * L));
		if (last > cur_line)
			cur_line = last;
		if (l->offset + l->size > prev_end)
			prev_end = l->offset + l->size;
	}
	if (!t->is_union && t->size > prev_end && n)
		fprintf(out, "\n\t/* XXX %llu byte%s padding */\n",
			(unsigned long long)(t->size - prev_end), t->size - prev_end == 1 ? "" : "s");
	fprintf(out, "\n\t/* size: %llu, align: %u, cachelines: %llu (%u-byte lines)",
		(unsigned long long)t->size, t->align, (unsigned long long)lines, L);
	if (t->size % L)
		fprintf(out, ", last cacheline: %llu bytes", (unsigned long long)(t->size % L));
	fprintf(out, " */\n");
	for (j = 0; j < fc.n; j++)
		if (fc.v[j]->severity >= CH_SEV_WARNING)
			warnings++;
	fprintf(out, "\t/* %d conflict%s */\n", warnings, warnings == 1 ? "" : "s");
	fprintf(out, "};\n");
	for (j = 0; j < fc.n; j++) {
		lt_print_finding(out, fc.v[j], st->input);
		free((void *)fc.v[j]);
	}
	free(fc.v);
	free(fa);
	free(lp);
	return 0;
}
