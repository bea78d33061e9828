/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reorg.c -- cachehot-layout --reorganize STRUCT: the core's plan
 * (core/reorg-plan.c, ch_reorganize_mode: the fix's layout, or the
 * regrouping by class where that is better; verified by the core's own
 * check) printed as a struct ready to paste, each member with its
 * declaration from the debug information, its new offset, size and class,
 * under a header measuring both plans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

#define TABS "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

/* Natural alignment of a member's type (without attributes on the member). */
static unsigned natural_align(const struct ch_member *m)
{
	unsigned a = 1;
	if (m->type)
		return m->type->align ? m->type->align : 1;
	while (a < m->elem_size && a < 16)
		a <<= 1;
	while (a > 1 && m->elem_size % a)
		a >>= 1;
	return a;
}

static const char *class_word(const struct ch_member *m, ch_ctx *ctx, const char *sname,
			      const char **group)
{
	enum ch_class c = m->cls;
	*group = m->group;
	if (c == CH_CLASS_NONE && m->name)
		c = ch_sidecar_class(ctx, sname, m->name, group);
	return c == CH_CLASS_NONE ? NULL : ch_class_name(c);
}

static const char *macro_for(ch_ctx *ctx, const struct ch_member *m, const char *sname)
{
	const char *g;
	const char *w = class_word(m, ctx, sname, &g);
	if (!w)
		return NULL;
	if (!strcmp(w, "hot"))
		return g ? ch_printf(ctx, "__cacheline_hot_group(%s)", g) : "__cacheline_hot";
	if (!strcmp(w, "exclusive"))
		return "__cacheline_exclusive";
	return "__cacheline_read_mostly";
}

/* The conflicts the core still finds on the proposal, under its header. */
static void still_emit(const struct ch_finding *f, void *arg)
{
	if (f->severity >= CH_SEV_WARNING)
		fprintf((FILE *)arg, " * still: %s\n", f->message);
}

static void print_member(FILE *out, struct lt_set *s, const struct ch_member *m,
			 const char *sname, uint64_t new_off, unsigned extra_align,
			 const struct lt_opts *o, int indent);

/* An anonymous struct/union member: its body, recursively. */
static void print_anon(FILE *out, struct lt_set *s, const struct ch_member *m,
		       const char *sname, uint64_t base, const struct lt_opts *o, int indent)
{
	size_t i;
	const struct ch_type *t = m->type;
	fprintf(out, "%.*s%s {\n", indent, TABS, t->is_union ? "union" : "struct");
	for (i = 0; i < t->nmembers; i++)
		print_member(out, s, &t->members[i], sname, base + t->members[i].offset, 0, o,
			     indent + 1);
	fprintf(out, "%.*s}", indent, TABS);
}

static void print_member(FILE *out, struct lt_set *s, const struct ch_member *m,
			 const char *sname, uint64_t new_off, unsigned extra_align,
			 const struct lt_opts *o, int indent)
{
	char head[1024];
	const char *g, *cw = class_word(m, s->ctx, sname, &g);
	unsigned nat = natural_align(m);
	int w;
	head[0] = 0;
	if (!m->name && m->type) {
		print_anon(out, s, m, sname, new_off, o, indent);
		w = 8 * indent + 1;
	} else {
		w = 8 * indent + fprintf(out, "%.*s%s", indent, TABS, lt_member_decl(s, m, NULL)) - indent;
	}
	if (extra_align && extra_align > m->align)
		w += fprintf(out, " __aligned(%u)", extra_align);
	else if (m->user_align && m->align > nat)
		w += fprintf(out, " __aligned(%u)", m->align);
	if (o->macros && cw)
		w += fprintf(out, " %s", macro_for(s->ctx, m, sname));
	w += fprintf(out, ";");
	fprintf(out, "%*s/* %5llu %5llu%s%s%s%s */\n", w < 56 ? 56 - w : 1, "",
		(unsigned long long)new_off,
		(unsigned long long)(m->bit_size ? m->bit_size : m->size),
		m->bit_size ? " bits" : "", cw ? " " : "", cw ? cw : "",
		cw && g ? ch_printf(s->ctx, ":%s", g) : "");
	(void)head;
}

/* "annotated fields on 3 lines, 112 bytes, 24 in holes[, 1 conflict]". */
static const char *eval_text(ch_ctx *ctx, const struct ch_layout_eval *e, int conflicts)
{
	return ch_printf(ctx, "annotated fields on %llu line%s, %llu bytes, %llu in holes%s",
			 (unsigned long long)e->key_lines, e->key_lines == 1 ? "" : "s",
			 (unsigned long long)e->size, (unsigned long long)e->holes,
			 conflicts ? ch_printf(ctx, ", %d conflict%s", conflicts,
					       conflicts == 1 ? "" : "s") : "");
}

int lt_reorganize(struct lt_set *s, struct lt_struct *st, const struct lt_opts *o,
		  FILE *out, char *err, size_t errsz)
{
	ch_ctx *ctx = s->ctx;
	const struct ch_type *t = st->t;
	const struct ch_reorg *r = ch_reorganize_mode(ctx, st->t, st->name, &o->cfg,
						      o->regroup ? CH_REORG_REGROUP : CH_REORG_BEST,
						      err, errsz);
	unsigned L;
	size_t j, k = 0;

	if (!r)
		return -1;
	L = r->line_size;
	fprintf(out, "/* cachehot-layout --reorganize %s: %llu cache line%s, %llu bytes "
		"(was %llu, %llu bytes) at %u-byte lines%s; ",
		st->name, (unsigned long long)r->lines, r->lines == 1 ? "" : "s",
		(unsigned long long)r->size, (unsigned long long)r->old_lines,
		(unsigned long long)t->size, L,
		r->seg_align > L ? ch_printf(ctx, ", segments on %u-byte boundaries", r->seg_align)
				 : "");
	if (r->conflicts)
		fprintf(out, "the core still finds %d conflict%s no member order removes "
			"(inside an embedded type, which keeps its own layout)\n", r->conflicts,
			r->conflicts == 1 ? "" : "s");
	else
		fprintf(out, "checked by the core: no conflict\n");
	if (r->conflicts)
		ch_check_type(ctx, r->proposal, &o->cfg, still_emit, out);
	fprintf(out, " * plan: %s: %s",
		r->from_fix ? (r->fix_edits ? ch_printf(ctx, "the fix's layout (%zu edit%s)",
							r->fix_edits, r->fix_edits == 1 ? "" : "s")
					    : "the declared order")
			    : "regrouped by class",
		eval_text(ctx, &r->eval, r->conflicts));
	if (r->have_other)
		fprintf(out, "; %s: %s",
			r->from_fix ? "regrouped by class"
				    : (r->fix_edits ? ch_printf(ctx, "the fix's layout (%zu edit%s)",
								r->fix_edits,
								r->fix_edits == 1 ? "" : "s")
						    : "the declared order"),
			eval_text(ctx, &r->other, r->other_conflicts));
	fprintf(out, "\n");
	for (j = 0; j < r->nsegs; j++) {
		const struct ch_reorg_seg *g = &r->segs[j];
		fprintf(out, " * lines %llu-%llu: %s\n", (unsigned long long)(g->start / L),
			(unsigned long long)((g->end > g->start ? g->end - 1 : g->start) / L),
			g->what);
	}
	fprintf(out, " */\n");
	if (t->name_is_typedef)
		fprintf(out, "typedef struct {\n");
	else
		fprintf(out, "struct %s {\n", st->name);
	for (j = 0; j < r->nsegs; j++) {
		if (j > 0) {
			int w = 7 + fprintf(out, "\t%s;", r->segs[j].pad);
			fprintf(out, "%*s/* %5llu     0 */\n", w < 56 ? 56 - w : 1, "",
				(unsigned long long)r->segs[j].start);
		}
		for (; k < r->nmembers && r->members[k].seg == j; k++)
			print_member(out, s, r->members[k].m, st->name, r->members[k].offset, 0, o, 1);
	}
	for (; k < r->nmembers; k++)   /* a flexible array member, last */
		print_member(out, s, r->members[k].m, st->name, r->members[k].offset, 0, o, 1);
	if (t->name_is_typedef)
		fprintf(out, "} %s;\n", st->name);
	else
		fprintf(out, "};\n");
	return 0;
}
