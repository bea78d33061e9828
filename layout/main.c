/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.c -- bin/cachehot-layout: judge the cache-line layout of structs as
 * the compiler actually laid them out, from DWARF or BTF.
 *
 * Exit status: 0 nothing to report, 1 warnings (or, with --diff, a new
 * conflict; with --manifest, a binary/source difference), 2 bad usage or
 * unreadable input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"
#include "../core/cachehot-netcl.h"
#include "../core/cachehot-groupassert.h"

static const char usage[] =
"usage: cachehot-layout [OPTIONS] FILE...            check annotated structs\n"
"       cachehot-layout [OPTIONS] --show STRUCT FILE...\n"
"       cachehot-layout [OPTIONS] --reorganize STRUCT FILE...\n"
"       cachehot-layout [OPTIONS] --diff OLD NEW\n"
"       cachehot-layout [OPTIONS] --asserts STRUCT FILE...  CACHELINE_ASSERT_GROUP_* block\n"
"       cachehot-layout [OPTIONS] --groups [--json] FILE...\n"
"FILE: an object or vmlinux with DWARF (-g), an ELF file with .BTF, or raw BTF\n"
"(/sys/kernel/btf/vmlinux).\n"
"  --annotations FILE   sidecar annotations (STRUCT.FIELD CLASS[:GROUP]); repeatable\n"
"  --manifest FILE      the plugin's JSON manifest (or objects, archives or a build\n"
"                       tree carrying its records): annotations as compiled, and\n"
"                       a report of fields whose offset/size differ in the binary\n"
"  --line-size N        cache line size in bytes (default 64)\n"
"  --predict N          also check at N-byte lines (adjacent-line prefetch)\n"
"  --severity S         note | warning | error (default warning)\n"
"  --struct NAME        only judge NAME (repeatable)\n"
"  --macros             --reorganize: write cachehot.h annotation macros\n"
"  --groups             list the kernel's cacheline groups of every struct with\n"
"                       __cacheline_group_begin/end markers (or of --struct NAME)\n"
"  --json               --groups: as JSON\n"
"  --unmatched S        note | ignore: sidecar entries matching no struct\n"
"  --net-cachelines P   the kernel's net_cachelines tables: a directory of .rst,\n"
"                       one .rst, or a sidecar (docs/net-cachelines.md); repeatable:\n"
"                       drift and cross-path false sharing on the structs they cover\n"
"  --locality FMT       with --net-cachelines: print the locality table (text|json)\n"
"  --group-asserts FILE a file preprocessed with include/cachehot-asserts.h: check\n"
"                       its CACHELINE_ASSERT_GROUP_* against the groups; repeatable\n"
"  --inline-addr 0|1    accepted for the plugin's argument (no effect here)\n"
"  -q, --quiet          no summary line on stderr\n"
"  --findings PATH      also write the findings as records (JSON lines) to PATH,\n"
"                       a file or a directory (docs/findings.md)\n"
"  --version, --help\n";

static void die_usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "cachehot-layout: %s\n", msg);
	fputs(usage, stderr);
	exit(2);
}

static unsigned parse_uint(const char *opt, const char *s)
{
	char *end;
	unsigned long v;
	unsigned out;
	(void)end; (void)v;
	if (ch_line_size_parse(s, &out)) {   /* the range every engine takes */
		fprintf(stderr, "cachehot-layout: %s: '%s' is not a power of two from 8 to "
			"4096 bytes\n", opt, s);
		exit(2);
	}
	return out;
}

static const char *sev_str(enum ch_severity s)
{
	return s == CH_SEV_ERROR ? "error" : s == CH_SEV_WARNING ? "warning" : "note";
}

/* The member name a flattened path ends in: "memory.usage" -> "usage",
 * "slots[1].hits" -> "hits", "zones[1]" -> "zones". */
static const char *leaf_name(const char *path, char *buf, size_t n)
{
	const char *p = path ? strrchr(path, '.') : NULL;
	size_t k;
	if (!path)
		return NULL;
	p = p ? p + 1 : path;
	k = strcspn(p, "[");
	if (k >= n)
		k = n - 1;
	memcpy(buf, p, k);
	buf[k] = 0;
	return buf;
}

ch_ctx *lt_records;
static void record_macro_note(const char *note);

void lt_print_loc(FILE *out, const struct ch_loc *l, const char *field, const char *input)
{
	char nb[256];
	if (l->file && l->line)
		fprintf(out, "%s:%u:%u: ", l->file, l->line,
			lt_display_col(l->file, l->line, l->col, leaf_name(field, nb, sizeof(nb))));
	else
		fprintf(out, "%s: ", l->file ? l->file : input);
}

void lt_record(struct ch_record *r, const struct ch_loc *l, const char *field, const char *input)
{
	char nb[256];
	if (!lt_records)
		return;
	if (!r->file && l && l->file && l->line) {
		r->file = l->file;
		r->line = l->line;
		r->col = lt_display_col(l->file, l->line, l->col, leaf_name(field, nb, sizeof(nb)));
	} else if (!r->file) {
		r->file = l && l->file ? l->file : input;   /* a binary without DWARF: line 0 */
	}
	ch_record_add(lt_records, r);
}

void lt_print_finding(FILE *out, const struct ch_finding *f, const char *input)
{
	const char *field = f->field_a && f->check != CH_CHECK__COUNT ? f->field_a : NULL;
	if (lt_records) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		lt_record(&r, &f->loc, field, input);
	}
	if (f->loc.file && f->loc.line)
		lt_print_loc(out, &f->loc, field, input);
	else
		fprintf(out, "%s: ", f->loc.file ? f->loc.file : input);
	fprintf(out, "%s: %s\n", sev_str(f->severity), f->message);
}

/* A [cachehot] diagnostic (sidecar) of severity sev at loc (or, loc NULL,
 * at the entry file:line), recorded and printed: entry, in struct scope,
 * ident the kind (docs/findings.md). */
static void side_report(FILE *out, enum ch_severity sev, const char *msg, const struct ch_loc *loc,
			const char *input, const char *scope, const char *entry, const char *ident,
			const char *file, unsigned line, const char *hint)
{
	struct ch_record r;
	ch_record_init(&r, CH_CHECK_ANNOTATION, sev, msg);
	ch_record_entry(&r, loc ? NULL : file, loc ? 0 : line, entry, ident, hint);
	r.scope = scope;
	lt_record(&r, loc, NULL, input);
	if (loc)
		lt_print_loc(out, loc, NULL, input);
	else
		fputs("cachehot-layout: ", out);
	fprintf(out, "%s: %s\n", sev_str(sev), msg);
}

void lt_side_report(FILE *out, enum ch_severity sev, const char *msg, const char *entry,
		    const char *ident, const char *file, unsigned line, const char *hint)
{
	side_report(out, sev, msg, NULL, NULL, NULL, entry, ident, file, line, hint);
}

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
	side_report(stdout, CH_SEV_WARNING,
		    ch_msg_sidecar_no_member(a->ctx, entry, file, line, a->st->name),
		    &a->st->t->loc, a->st->input, a->st->name, entry, "no-member", NULL, 0, NULL);
	a->warnings++;
}

struct td_arg { const struct lt_typedef *td; ch_ctx *ctx; int warnings; };
static void side_typedef(const char *file, unsigned line, const char *entry, void *arg)
{
	struct td_arg *a = arg;
	side_report(stdout, CH_SEV_WARNING,
		    ch_msg_sidecar_typedef(a->ctx, entry, file, line, a->td->name, a->td->tag,
					   a->td->is_union),
		    &a->td->loc, a->td->input, a->td->tag, entry, "typedef-entry", NULL, 0, NULL);
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

/* Build a set from files, with sidecars and manifest applied. */
static int want_decls;
/* annotated global variables are only judged from the symbol table: an
 * object without debug information is read for them alone */
static int globals_only;

static struct lt_set *load_set(char **files, int nfiles, char **sides, size_t nsides,
			       struct lt_manifest *mf)
{
	struct lt_set *s = lt_set_new();
	s->want_decls = want_decls;
	s->mf = mf;   /* its per-thread marks, while reading */
	char err[1024];
	size_t i;
	for (i = 0; i < nsides; i++)
		if (ch_sidecar_load(s->ctx, sides[i])) {
			fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(s->ctx));
			exit(2);
		}
	globals_only = ch_sidecar_globals(s->ctx, NULL, NULL) || lt_manifest_nglobals(mf);
	for (i = 0; i < (size_t)nfiles; i++)
		if (!(globals_only && lt_elf_has_section(files[i], ".debug_info") == 0 &&
		      lt_elf_has_section(files[i], ".BTF") == 0) &&   /* symbols only */
		    lt_set_read(s, files[i], err, sizeof(err))) {
			fprintf(stderr, "cachehot-layout: %s\n", err);
			exit(2);
		}
	for (i = 0; i < s->n; i++)
		if (s->structs[i].nonmonotonic)
			s->structs[i].t->randomized = 1;
	if (mf)
		lt_manifest_apply(mf, s);
	return s;
}

enum { OPT_ANN = 256, OPT_MANIFEST, OPT_LINE, OPT_PREDICT, OPT_SEV, OPT_STRUCT,
       OPT_SHOW, OPT_REORG, OPT_DIFF, OPT_MACROS, OPT_VERSION, OPT_FINDINGS, OPT_UNMATCHED, OPT_INLINE,
       OPT_NETCL, OPT_LOCALITY, OPT_GASSERT, OPT_ASSERTS, OPT_GROUPS, OPT_JSON };

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
			record_macro_note(st->macro_note);
			printf("%s\n", st->macro_note);
		}
	} else if (st->macros && !(mf && lt_manifest_struct_line_size(mf, st->name))) {
		c.line_size = 0;   /* no macro where it is defined: the default */
	} else if (mf && (ls = lt_manifest_struct_line_size(mf, st->name))) {
		c.line_size = ls;  /* as the compiler judged it */
	}
	return &c;
}

/* The line-size note macros.c composed, "FILE:LINE: note: MESSAGE": its
 * record (the one place layout takes its own text apart). */
static void record_macro_note(const char *note)
{
	const char *sep = strstr(note, ": note: "), *colon;
	struct ch_record r;
	char *file;
	if (!lt_records || !sep)
		return;
	for (colon = sep - 1; colon > note && *colon != ':'; colon--)
		;
	if (colon <= note)
		return;
	file = strndup(note, (size_t)(colon - note));
	ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, NULL);
	r.file = file;
	r.line = (unsigned)strtoul(colon + 1, NULL, 10);
	r.message = sep + 8;
	r.ident = "line-size-macro";
	ch_record_add(lt_records, &r);
	free(file);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "annotations", required_argument, NULL, OPT_ANN },
		{ "manifest", required_argument, NULL, OPT_MANIFEST },
		{ "line-size", required_argument, NULL, OPT_LINE },
		{ "predict", required_argument, NULL, OPT_PREDICT },
		{ "severity", required_argument, NULL, OPT_SEV },
		{ "struct", required_argument, NULL, OPT_STRUCT },
		{ "show", required_argument, NULL, OPT_SHOW },
		{ "reorganize", required_argument, NULL, OPT_REORG },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "macros", no_argument, NULL, OPT_MACROS },
		{ "groups", no_argument, NULL, OPT_GROUPS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "unmatched", required_argument, NULL, OPT_UNMATCHED },
		{ "inline-addr", required_argument, NULL, OPT_INLINE },
		{ "net-cachelines", required_argument, NULL, OPT_NETCL },
		{ "locality", required_argument, NULL, OPT_LOCALITY },
		{ "group-asserts", required_argument, NULL, OPT_GASSERT },
		{ "asserts", required_argument, NULL, OPT_ASSERTS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "findings", required_argument, NULL, OPT_FINDINGS },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char **sides = NULL, **only = NULL;
	size_t nsides = 0, nonly = 0, i;
	const char *manifest = NULL, *show = NULL, *reorg = NULL, *locality = NULL;
	const char *records = NULL;
	char **netcl = NULL, **gasserts = NULL;
	size_t nnetcl = 0, ngasserts = 0;
	const char *asserts_of = NULL;
	ch_asserts *asserts = NULL;
	int groups = 0, json = 0;
	int diff = 0, quiet = 0, c, rc = 0, line_given = 0, unmatched = 1;
	struct lt_opts o;
	struct lt_manifest *mf = NULL;
	struct lt_set *s;
	ch_netcl *tab = NULL;
	char err[1024];

	memset(&o, 0, sizeof(o));
	o.cfg.line_size = CH_DEFAULT_LINE_SIZE;
	o.cfg.smp = 1;
	o.cfg.severity = CH_SEV_WARNING;
	sides = calloc(argc + 1, sizeof(char *));
	only = calloc(argc + 1, sizeof(char *));
	netcl = calloc(argc + 1, sizeof(char *));
	gasserts = calloc(argc + 1, sizeof(char *));
	if (!sides || !only || !netcl || !gasserts)
		abort();
	ch_check_stdout_at_exit("cachehot-layout");
	while ((c = getopt_long(argc, argv, "qh", lopts, NULL)) != -1) {
		switch (c) {
		case OPT_ANN: sides[nsides++] = optarg; break;
		case OPT_MANIFEST:
			if (manifest)
				die_usage("--manifest given twice");
			manifest = optarg;
			break;
		case OPT_LINE:
			o.cfg.line_size = parse_uint("--line-size", optarg);
			line_given = 1;
			break;
		case OPT_PREDICT: o.cfg.predict = parse_uint("--predict", optarg); break;
		case OPT_SEV:
			if (ch_severity_parse(optarg, &o.cfg.severity))
				die_usage("--severity takes note, warning or error");
			break;
		case OPT_STRUCT: only[nonly++] = optarg; break;
		case OPT_SHOW: show = optarg; break;
		case OPT_REORG: reorg = optarg; break;
		case OPT_DIFF: diff = 1; break;
		case OPT_MACROS: o.macros = 1; break;
		case OPT_GROUPS: groups = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_UNMATCHED:
			if (!strcmp(optarg, "note")) unmatched = 1;
			else if (!strcmp(optarg, "ignore")) unmatched = 0;
			else die_usage("--unmatched takes note or ignore");
			break;
		case OPT_INLINE:
			/* the plugin's inline-addr check has no binary side here
			 * (bin/cachehot-bloat has); accepted so that the driver can
			 * pass the plugin's arguments unchanged */
			if (strcmp(optarg, "0") && strcmp(optarg, "1"))
				die_usage("--inline-addr takes 0 or 1");
			break;
		case OPT_NETCL: netcl[nnetcl++] = optarg; break;
		case OPT_GASSERT: gasserts[ngasserts++] = optarg; break;
		case OPT_ASSERTS: asserts_of = optarg; break;
		case OPT_LOCALITY:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				die_usage("--locality takes text or json");
			locality = optarg;
			break;
		case 'q': quiet = 1; break;
		case OPT_FINDINGS: records = optarg; break;
		case OPT_VERSION: printf("cachehot-layout %s\n", CH_VERSION); return 0;
		case 'h': fputs(usage, stdout); return 0;
		default: die_usage(NULL);
		}
	}
	if (records) {
		lt_records = ch_ctx_new();
		ch_records_begin(lt_records, "layout");
	}
	if ((show != NULL) + (reorg != NULL) + diff + groups + (asserts_of != NULL) +
	    (locality != NULL) > 1)
		die_usage("--show, --reorganize, --diff, --groups, --asserts and --locality exclude "
			  "each other");
	if (json && !groups)
		die_usage("--json goes with --groups");
	if (optind >= argc)
		die_usage("no input file");
	if (locality && !nnetcl)
		die_usage("--locality needs --net-cachelines");
	if (manifest && !(mf = lt_manifest_load(manifest, err, sizeof(err)))) {
		fprintf(stderr, "cachehot-layout: %s\n", err);
		return 2;
	}

	if (diff) {
		struct lt_set *old, *new_;
		if (argc - optind != 2)
			die_usage("--diff takes exactly two files, OLD and NEW");
		old = load_set(argv + optind, 1, sides, nsides, mf);
		new_ = load_set(argv + optind + 1, 1, sides, nsides, mf);
		rc = lt_diff(old, new_, &o, stdout);
		lt_set_free(old);
		lt_set_free(new_);
		lt_manifest_free(mf);
		return rc < 0 ? 2 : rc;
	}

	want_decls = show || reorg;
	s = load_set(argv + optind, argc - optind, sides, nsides, mf);
	/* objects built with -g3 carry the macros the plugin reads */
	if (!line_given && s->macro_line_size)
		o.cfg.line_size = s->macro_line_size;
	else if (!line_given && mf && lt_manifest_line_size(mf))
		o.cfg.line_size = lt_manifest_line_size(mf);  /* as the compiler judged */
	if (s->macro_up)
		o.cfg.smp = 0;
	o.cfg.kernel = s->kernel;
	{
		const char *problem = ch_config_problem(s->ctx, &o.cfg);
		if (problem) {
			fprintf(stderr, "cachehot-layout: %s\n", problem);
			exit(2);
		}
	}
	if (nnetcl) {
		tab = ch_netcl_new(s->ctx);
		for (i = 0; i < nnetcl; i++)
			if (ch_netcl_read_path(tab, netcl[i])) {
				fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(s->ctx));
				rc = 2;
				goto out;
			}
		s->quiet = quiet;
	}
	if (ngasserts) {
		asserts = ch_asserts_new(s->ctx);
		for (i = 0; i < ngasserts; i++)
			if (ch_asserts_read(asserts, gasserts[i])) {
				fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(s->ctx));
				rc = 2;
				goto out;
			}
	}
	if (asserts_of) {
		struct lt_struct *st = lt_set_find(s, asserts_of);
		if (!st) {
			fprintf(stderr, "cachehot-layout: struct %s is not defined in the input\n",
				asserts_of);
			rc = 2;
		} else
			rc = lt_asserts_print(s, st, stdout);
		goto out;
	}
	if (locality) {
		if (lt_netcl_run(s, tab, &o, only, nonly, locality, stdout) < 0 || fflush(stdout)) {
			fprintf(stderr, "cachehot-layout: cannot write the table\n");
			rc = 2;
		}
		goto out;
	}
	if (groups) {
		rc = lt_groups(s, only, nonly, &o, json, stdout);
		for (i = 0; i < nonly; i++)
			if (!lt_set_find(s, only[i])) {
				fprintf(stderr, "cachehot-layout: struct %s is not defined in the input\n",
					only[i]);
				rc = 2;
			}
		goto out;
	}
	if (show || reorg) {
		const char *name = show ? show : reorg;
		struct lt_struct *st = lt_set_find(s, name);
		if (!st) {
			fprintf(stderr, "cachehot-layout: struct %s is not defined in the input\n", name);
			rc = 2;
		} else if (show)
			rc = lt_show(s, st, &o, stdout);
		else if (lt_reorganize(s, st, &o, stdout, err, sizeof(err))) {
			fprintf(stderr, "cachehot-layout: %s\n", err);
			rc = 2;
		}
		goto out;
	}

	{
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
			ch_check_type(s->ctx, st->t, struct_config(&o.cfg, st, line_given, mf,
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
			int w = lt_globals_run(s, argv + optind, argc - optind, mf, &o, stdout,
					       unmatched, &hot, err, sizeof(err));
			if (w < 0) {
				fprintf(stderr, "cachehot-layout: %s\n", err);
				rc = 2;
			} else
				ea.warnings += w;
			judged += hot;
		}
		ea.warnings += lt_pt_run(s, stdout, &o.cfg, only, nonly);
		if (tab)
			ea.warnings += lt_netcl_run(s, tab, &o, only, nonly, NULL, stdout);
		if (asserts)
			ea.warnings += lt_asserts_run(s, asserts, &o, only, nonly);
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
	}
out:
	if (lt_records) {
		if (ch_records_write(lt_records, records, argc > optind ? argv[optind] : NULL)) {
			fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(lt_records));
			rc = 2;
		}
		ch_ctx_free(lt_records);
	}
	ch_netcl_free(tab);
	ch_asserts_free(asserts);
	free(netcl);
	free(gasserts);
	lt_set_free(s);
	lt_manifest_free(mf);
	free(sides);
	free(only);
	return rc;
}
