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
"  --regroup            --reorganize: the regrouping by class even where the\n"
"                       fix's layout is as good or better\n"
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
"                       a file, a directory, or - for stderr (docs/findings.md)\n"
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




enum { OPT_ANN = 256, OPT_MANIFEST, OPT_LINE, OPT_PREDICT, OPT_SEV, OPT_STRUCT,
       OPT_SHOW, OPT_REORG, OPT_DIFF, OPT_MACROS, OPT_REGROUP, OPT_VERSION, OPT_FINDINGS, OPT_UNMATCHED, OPT_INLINE,
       OPT_NETCL, OPT_LOCALITY, OPT_GASSERT, OPT_ASSERTS, OPT_GROUPS, OPT_JSON };



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
		{ "regroup", no_argument, NULL, OPT_REGROUP },
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
		case OPT_REGROUP: o.regroup = 1; break;
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
		old = lt_load_set(argv + optind, 1, sides, nsides, mf, 0);
		new_ = lt_load_set(argv + optind + 1, 1, sides, nsides, mf, 0);
		rc = lt_diff(old, new_, &o, stdout);
		lt_set_free(old);
		lt_set_free(new_);
		lt_manifest_free(mf);
		return rc < 0 ? 2 : rc;
	}

	s = lt_load_set(argv + optind, argc - optind, sides, nsides, mf, show || reorg);
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
		struct lt_judge_args ja = { argv + optind, argc - optind, only, nonly, mf, nsides,
					    line_given, unmatched, quiet, tab, asserts };
		rc = lt_judge(s, &o, &ja);
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
