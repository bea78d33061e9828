// SPDX-License-Identifier: GPL-2.0
/*
 * netcl.c -- "cachehot annotate --net-cachelines DIR": the kernel's
 * net_cachelines tables as a path-aware sidecar (docs/net-cachelines.md),
 * and "cachehot asserts STRUCT FILE" (runs cachehot-layout --asserts).
 * The parsing is the core's (core/netcl.c); this file is the command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"
#include "../core/cachehot-netcl.h"

static int write_cb(FILE *f, void *arg)
{
	return ch_netcl_write((const ch_netcl *)arg, f);
}

static void usage_netcl(FILE *f)
{
	fputs("usage: cachehot annotate --net-cachelines PATH... [-o FILE]\n"
	      "  PATH: Documentation/networking/net_cachelines (every .rst but index.rst),\n"
	      "        one .rst table, or a sidecar; the rows of all are written, one line each:\n"
	      "        STRUCT.FIELD tx=ACCESS rx=ACCESS type=CTYPE from=FILE:LINE\n"
	      "  -o, --output=FILE  write the sidecar to FILE (atomically; default stdout)\n"
	      "Use it with: cachehot-layout --net-cachelines FILE [--locality text|json] OBJ|BTF\n"
	      "exit status: 0 written, 2 unreadable or malformed table\n", f);
}

/* argv[0] is "annotate"; the caller has seen --net-cachelines in argv. */
int cmd_annotate_net_cachelines(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "net-cachelines", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL;
	ch_ctx *ctx = ch_ctx_new();
	ch_netcl *t = ch_netcl_new(ctx);
	size_t empty = 0, enums = 0, i, ntypes;
	int c, rc = EXIT_CLEAN, npaths = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			npaths++;
			if (ch_netcl_read_path(t, optarg)) {
				fprintf(stderr, "cachehot: annotate: %s\n", ch_ctx_error(ctx));
				rc = EXIT_TROUBLE;
				goto done;
			}
			break;
		case 'o': out = optarg; break;
		case 'h': usage_netcl(stdout); goto done;
		default: usage_netcl(stderr); rc = EXIT_TROUBLE; goto done;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cachehot: annotate: unexpected argument '%s'\n", argv[optind]);
		usage_netcl(stderr);
		rc = EXIT_TROUBLE;
		goto done;
	}
	for (i = 0; i < ch_netcl_count(t); i++) {
		const struct ch_netcl_row *r = ch_netcl_row(t, i);
		empty += r->acc[0] == CH_ACC_EMPTY || r->acc[1] == CH_ACC_EMPTY;
		enums += !strcmp(r->type_name, "enum");
	}
	if (out) {
		if (write_atomic(out, write_cb, t) < 0) {
			rc = EXIT_TROUBLE;
			goto done;
		}
	} else if (ch_netcl_write(t, stdout) || fflush(stdout)) {
		fprintf(stderr, "cachehot: annotate: cannot write: %s\n", strerror(errno));
		rc = EXIT_TROUBLE;
		goto done;
	}
	ch_netcl_types(t, &ntypes);
	fprintf(stderr, "cachehot: annotate: %zu rows (%zu structs, %zu enum rows, %zu rows "
		"with an empty access cell) from %d path%s\n", ch_netcl_count(t), ntypes, enums,
		empty, npaths, npaths == 1 ? "" : "s");
done:
	ch_netcl_free(t);
	ch_ctx_free(ctx);
	return rc;
}
