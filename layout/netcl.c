/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netcl.c -- cachehot-layout's side of the net_cachelines tables
 * (--net-cachelines, --locality) and of the cacheline group asserts
 * (--group-asserts, --asserts): the core computes, this file picks the
 * structs of the set and prints (docs/net-cachelines.md,
 * docs/kernel-groups.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"
#include "../core/cachehot-netcl.h"
#include "../core/cachehot-groupassert.h"

struct nc_emit {
	const char *input;
	int warnings;
};

static void nc_emit(const struct ch_finding *f, void *arg)
{
	struct nc_emit *a = (struct nc_emit *)arg;
	lt_print_finding(stdout, f, a->input);
	if (f->severity >= CH_SEV_WARNING)
		a->warnings++;
}

static int wanted(char **only, size_t nonly, const char *name)
{
	size_t i;
	if (!nonly)
		return 1;
	for (i = 0; i < nonly; i++)
		if (!strcmp(only[i], name))
			return 1;
	return 0;
}

int lt_netcl_run(struct lt_set *s, const ch_netcl *tab, const struct lt_opts *o,
		 char **only, size_t nonly, const char *locality, FILE *out)
{
	size_t ntypes, i, nloc = 0;
	const char **types = ch_netcl_types(tab, &ntypes);
	struct ch_locality *loc = calloc(3 * ntypes + 1, sizeof(*loc));
	struct nc_emit ea = { NULL, 0 };
	if (!loc)
		abort();
	for (i = 0; i < ntypes; i++) {
		struct lt_struct *st;
		if (!wanted(only, nonly, types[i]))
			continue;
		st = lt_set_find(s, types[i]);
		if (!st) {
			if (!s->quiet)
				fprintf(stderr, "cachehot-layout: note: struct %s of the net_cachelines "
					"tables is not defined in the input\n", types[i]);
			continue;
		}
		if (locality) {
			ch_netcl_locality(tab, st->t, CH_NC_TX, &o->cfg, &loc[nloc++]);
			ch_netcl_locality(tab, st->t, CH_NC_RX, &o->cfg, &loc[nloc++]);
			ch_netcl_locality(tab, st->t, CH_NC_ANY, &o->cfg, &loc[nloc++]);
			continue;
		}
		ea.input = st->input;
		ch_netcl_check(s->ctx, tab, st->t, &o->cfg, nc_emit, &ea);
	}
	if (locality && ch_netcl_locality_print(loc, nloc, !strcmp(locality, "json"), out)) {
		free(loc);
		return -1;
	}
	free(loc);
	return ea.warnings;
}

int lt_asserts_run(struct lt_set *s, const struct ch_asserts *a, const struct lt_opts *o,
		   char **only, size_t nonly)
{
	size_t i, n = ch_asserts_count(a), j;
	struct nc_emit ea = { NULL, 0 };
	/* each struct the asserts name, once, in order of first assert */
	for (i = 0; i < n; i++) {
		const char *name = ch_asserts_get(a, i)->type_name;
		struct lt_struct *st;
		for (j = 0; j < i && strcmp(ch_asserts_get(a, j)->type_name, name); j++)
			;
		if (j < i || !wanted(only, nonly, name))
			continue;
		st = lt_set_find(s, name);
		if (!st) {
			if (!s->quiet)
				fprintf(stderr, "cachehot-layout: note: struct %s of the group asserts "
					"is not defined in the input\n", name);
			continue;
		}
		ea.input = st->input;
		ch_group_assert_check(s->ctx, a, st->t, &o->cfg, nc_emit, &ea);
	}
	return ea.warnings;
}

int lt_asserts_print(struct lt_set *s, struct lt_struct *st, FILE *out)
{
	const char *b = ch_group_asserts_block(s->ctx, st->t);
	if (!b) {
		fprintf(stderr, "cachehot-layout: %s\n", ch_ctx_error(s->ctx));
		return 2;
	}
	fprintf(out, "\t/* cachehot asserts %s (from %s) */\n%s", st->name, st->input, b);
	return ferror(out) ? 2 : 0;
}
