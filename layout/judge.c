/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.c -- cachehot-layout's default mode: every struct of the set judged
 * by the core (ch_check_type) at the line size in effect where it is
 * defined, the sidecar's entries that name no member, the manifest
 * compared with the binary, adjacent global variables (symbols.c), arrays
 * of per-thread elements (perthread.c), the kernel's net_cachelines tables
 * and group asserts (netcl.c), then the summary line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

struct emit_arg {
	const char *input;
	int warnings;
};

static void emit(const struct ch_finding *f, void *arg)
{
	struct emit_arg *ea = arg;
	lt_print_finding(stdout, f, ea->input);
	if (f->severity >= CH_SEV_WARNING)
		ea->warnings++;
}

/* Sidecar diagnostics, worded as the plugin words them. */
struct side_arg {
	const struct lt_struct *st;
	ch_ctx *ctx;
	int warnings;
};

/* Look up every member the sidecar may name for 'name': the direct ones and
 * those of anonymous members (named directly, docs/annotations.rst), so the
 * lookup marks their entries as used. */
static void mark_sidecar_used(ch_ctx *ctx, const char *name, const struct ch_type *t, int depth)
{
	size_t k;
	const char *g;
	for (k = 0; t && k < t->nmembers && depth < 64; k++) {
		const struct ch_member *m = &t->members[k];
		if (m->name)
			ch_sidecar_class(ctx, name, m->name, &g);
		else if (m->type && !m->type->name)
			mark_sidecar_used(ctx, name, m->type, depth + 1);
	}
}

static void side_missing(const char *file, unsigned line, const char *entry, void *arg)
{
	struct side_arg *a = arg;
	lt_side_report_at(stdout, CH_SEV_WARNING,
		    ch_msg_sidecar_no_member(a->ctx, entry, file, line, a->st->name),
		    &a->st->t->loc, a->st->input, a->st->name, entry, "no-member");
	a->warnings++;
}

struct td_arg { const struct lt_typedef *td; ch_ctx *ctx; int warnings; };
static void side_typedef(const char *file, unsigned line, const char *entry, void *arg)
{
	struct td_arg *a = arg;
	lt_side_report_at(stdout, CH_SEV_WARNING,
		    ch_msg_sidecar_typedef(a->ctx, entry, file, line, a->td->name, a->td->tag,
					   a->td->is_union),
		    &a->td->loc, a->td->input, a->td->tag, entry, "typedef-entry");
	a->warnings++;
}

static void side_unmatched(const char *file, unsigned line, const char *entry, void *arg)
{
	size_t l = strlen(entry);
	/* FUNCTION() addressable: [cachehot-inline-addr] is not judged here
	 * (--inline-addr has no effect), so no entry of it can match */
	if (l > 2 && !strcmp(entry + l - 2, "()"))
		return;
	lt_side_report(stdout, CH_SEV_NOTE, ch_msg_sidecar_unmatched_input(arg, entry, file, line),
		       entry, "unmatched-input", file, line, NULL);
}

static int in_list(char **v, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* The config to judge st with: the line size in effect where it is defined
 * (docs/checks.rst, "Line size"), from its unit's -g3 macro table, else the
 * one the plugin's manifest recorded for it, else cfg's. A body that cannot
 * be evaluated gives the default and its note, once per definition, when an
 * annotated struct is judged with it (as the plugin says it). */
static const struct ch_config *struct_config(const struct ch_config *cfg, const struct lt_struct *st,
					     int line_given, struct lt_manifest *mf, int annotated)
{
	static struct ch_config c;
	static const char *noted;
	unsigned ls;
	c = *cfg;
	if (line_given)
		return &c;
	if (st->macros && (st->macro_line_size || st->macro_note)) {
		c.line_size = st->macro_line_size;
		if (st->macro_note && st->macro_note != noted && annotated) {
			noted = st->macro_note;
			lt_record_macro_note(st->macro_note);
			printf("%s\n", st->macro_note);
		}
	} else if (st->macros && !(mf && lt_manifest_struct_line_size(mf, st->name))) {
		c.line_size = 0;   /* no macro where it is defined: the default */
	} else if (mf && (ls = lt_manifest_struct_line_size(mf, st->name))) {
		c.line_size = ls;  /* as the compiler judged it */
	}
	return &c;
}

int lt_judge(struct lt_set *s, const struct lt_opts *o, const struct lt_judge_args *a)
{
	char **files = a->files, **only = a->only;
	int nfiles = a->nfiles, line_given = a->line_given, unmatched = a->unmatched;
	int quiet = a->quiet, rc = 0;
	size_t nonly = a->nonly, nsides = a->nsides, i;
	struct lt_manifest *mf = a->mf;
	const struct ch_netcl *tab = a->tab;
	const struct ch_asserts *asserts = a->asserts;
	char err[1024];
	struct emit_arg ea = { NULL, 0 };
	int diffs = 0, refused = 0;
	struct side_arg sa = { NULL, NULL, 0 };
	size_t judged = 0;
	if (mf)
		diffs = lt_manifest_compare(mf, s, stdout, &refused);
	for (i = 0; i < s->n; i++) {
		struct lt_struct *st = &s->structs[i];
		if (nonly && !in_list(only, nonly, st->name))
			continue;
		if (st->t->randomized && mf && lt_manifest_randomized(mf, st->name))
			continue; /* refused above, with the reason */
		ea.input = st->input;
		if (ch_type_is_annotated(s->ctx, st->t))
			judged++;
		ch_check_type(s->ctx, st->t, struct_config(&o->cfg, st, line_given, mf,
							   ch_type_is_annotated(s->ctx, st->t)),
			      emit, &ea);
		sa.st = st;
		sa.ctx = s->ctx;
		if (mf && ch_sidecar_count(s->ctx)) {
			/* classes set from the manifest bypass the sidecar
			 * lookup that marks entries as used */
			mark_sidecar_used(s->ctx, st->name, st->t, 0);
		}
		if (ch_sidecar_count(s->ctx))
			ch_sidecar_missing_fields(s->ctx, st->name, side_missing, &sa);
	}
	/* entries naming a typedef of a tagged struct (after the
	 * structs: a struct really called so takes them) */
	for (i = 0; i < s->ntds && !nonly; i++) {
		struct td_arg ta = { &s->tds[i], s->ctx, 0 };
		ch_sidecar_missing_fields(s->ctx, s->tds[i].name, side_typedef, &ta);
		sa.warnings += ta.warnings;
	}
	if (!nonly) {   /* [cachehot-global-sharing]: layout/symbols.c */
		size_t hot = 0;
		int w = lt_globals_run(s, files, nfiles, mf, o, stdout,
				       unmatched, &hot, err, sizeof(err));
		if (w < 0) {
			fprintf(stderr, "cachehot-layout: %s\n", err);
			rc = 2;
		} else
			ea.warnings += w;
		judged += hot;
	}
	ea.warnings += lt_pt_run(s, stdout, &o->cfg, only, nonly);
	if (tab)
		ea.warnings += lt_netcl_run(s, tab, o, only, nonly, NULL, stdout);
	if (asserts)
		ea.warnings += lt_asserts_run(s, asserts, o, only, nonly);
	for (i = 0; i < nonly; i++)
		if (!lt_set_find(s, only[i])) {
			fprintf(stderr, "cachehot-layout: struct %s is not defined in the input\n",
				only[i]);
			rc = 2;
		}
	if (!nonly && unmatched && ch_sidecar_count(s->ctx))
		ch_sidecar_unmatched(s->ctx, side_unmatched, s->ctx);
	if (!quiet)
		for (i = 0; i < s->n; i++)
			if (s->structs[i].layouts_differ &&
			    ch_type_is_annotated(s->ctx, s->structs[i].t))
				fprintf(stderr, "cachehot-layout: struct %s has definitions of "
					"different sizes in the inputs; judged the one from %s\n",
					s->structs[i].name, s->structs[i].input);
	/* DWARF and BTF carry no attributes: an attribute-annotated object
	 * read without its manifest looks clean. Said even with -q; not
	 * when the kernel's own words (tables, asserts) were given. */
	if (!judged && !mf && !nsides && !nonly && !tab && !asserts)
		fprintf(stderr, "cachehot-layout: warning: %s\n", ch_msg_nothing_judged(s->ctx));
	if (!quiet)
		fprintf(stderr, "cachehot-layout: %zu structs read, %zu annotated judged, "
			"%d warnings%s\n", s->n, judged, ea.warnings + sa.warnings,
			mf ? (diffs || refused ? ", binary differs from the manifest"
			      : s->globals_unmatched ? ", binary matches the manifest's structs, "
						       "not all of its annotated variables"
				 : ", binary matches the manifest") : "");
	if (!rc && (ea.warnings || diffs || refused || sa.warnings))
		rc = 1;
	return rc;
}
