/* SPDX-License-Identifier: GPL-2.0 */
/*
 * groups.c -- cachehot-layout --groups [--json]: every struct that has the
 * kernel's cacheline group markers, with its groups (core/groups.c): each
 * group's offsets and size in bytes, class and fast path, the cache lines it
 * spans at the line size in force and the fewest its bytes need, and its
 * members; marker problems too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "lt.h"

static const char *class_str(enum ch_class c)
{
	switch (c) {
	case CH_CLASS_HOT: return "written";
	case CH_CLASS_EXCLUSIVE: return "exclusive";
	case CH_CLASS_READ_MOSTLY: return "read_mostly";
	default: return "none";
	}
}

static int wanted(char **only, size_t nonly, const char *name)
{
	size_t i;
	if (!nonly)
		return 1;
	for (i = 0; i < nonly; i++)
		if (name && !strcmp(only[i], name))
			return 1;
	return 0;
}

static json_t *group_json(const struct ch_group *g, unsigned L)
{
	json_t *o = json_object(), *mem = json_array();
	uint64_t bytes = g->end - g->begin;
	size_t k;
	json_object_set_new(o, "name", json_string(g->name));
	json_object_set_new(o, "class", json_string(class_str(g->cls)));
	json_object_set_new(o, "class_from", json_string(g->cls_from_sidecar ? "sidecar" : "name"));
	json_object_set_new(o, "path", json_string(g->path == CH_PATH_NONE ? "none"
						   : ch_path_name(g->path)));
	json_object_set_new(o, "begin", json_integer((json_int_t)g->begin));
	json_object_set_new(o, "end", json_integer((json_int_t)g->end));
	json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(o, "first_line", json_integer((json_int_t)(g->begin / L)));
	json_object_set_new(o, "last_line", bytes ? json_integer((json_int_t)((g->end - 1) / L))
						  : json_null());
	json_object_set_new(o, "lines", json_integer((json_int_t)ch_lines_touched(g->begin, bytes, L)));
	json_object_set_new(o, "min_lines", json_integer((json_int_t)ch_lines_min(bytes, L)));
	if (g->begin_align)
		json_object_set_new(o, "begin_align", json_integer(g->begin_align));
	for (k = 0; k < g->nmembers; k++)
		json_array_append_new(mem, g->members[k]->name ? json_string(g->members[k]->name)
							      : json_null());
	json_object_set_new(o, "members", mem);
	return o;
}

int lt_groups(struct lt_set *s, char **only, size_t nonly, const struct lt_opts *o,
	      int json, FILE *out)
{
	unsigned L = ch_config_line_size(&o->cfg);
	json_t *root = json ? json_array() : NULL;
	size_t i, listed = 0;

	for (i = 0; i < s->n; i++) {
		struct lt_struct *st = &s->structs[i];
		const struct ch_groups *gs;
		size_t k;
		if (!wanted(only, nonly, st->name) || !ch_type_has_groups(st->t))
			continue;
		gs = ch_type_groups(s->ctx, st->t);
		listed++;
		if (json) {
			json_t *so = json_object(), *ga = json_array(), *pa = json_array();
			json_object_set_new(so, "struct", json_string(st->name));
			json_object_set_new(so, "input", json_string(st->input));
			json_object_set_new(so, "size", json_integer((json_int_t)st->t->size));
			json_object_set_new(so, "line_size", json_integer(L));
			for (k = 0; k < gs->n; k++)
				json_array_append_new(ga, group_json(&gs->v[k], L));
			json_object_set_new(so, "groups", ga);
			for (k = 0; k < gs->nproblems; k++)
				json_array_append_new(pa, json_string(gs->problems[k].message));
			json_object_set_new(so, "problems", pa);
			json_array_append_new(root, so);
			continue;
		}
		fprintf(out, "struct %s: %llu bytes, %llu lines of %u bytes (%s)\n", st->name,
			(unsigned long long)st->t->size,
			(unsigned long long)ch_lines_min(st->t->size, L), L, st->input);
		fprintf(out, "  %-28s %-11s %-5s %11s %6s %8s %6s %4s %8s\n", "group", "class",
			"path", "offsets", "bytes", "lines", "spans", "min", "members");
		for (k = 0; k < gs->n; k++) {
			const struct ch_group *g = &gs->v[k];
			uint64_t bytes = g->end - g->begin, n = ch_lines_touched(g->begin, bytes, L);
			char off[48], ln[48];
			snprintf(off, sizeof(off), "%llu..%llu", (unsigned long long)g->begin,
				 (unsigned long long)g->end);
			if (bytes)
				snprintf(ln, sizeof(ln), "%llu..%llu", (unsigned long long)(g->begin / L),
					 (unsigned long long)((g->end - 1) / L));
			else
				snprintf(ln, sizeof(ln), "-");
			fprintf(out, "  %-28s %-11s %-5s %11s %6llu %8s %6llu %4llu %8zu%s%s\n",
				g->name, class_str(g->cls), g->path == CH_PATH_NONE ? "-" :
				ch_path_name(g->path), off, (unsigned long long)bytes, ln,
				(unsigned long long)n, (unsigned long long)ch_lines_min(bytes, L),
				g->nmembers, g->cls_from_sidecar ? "  (class from sidecar)" : "",
				n > ch_lines_min(bytes, L) ? "  (one line too many)" : "");
		}
		for (k = 0; k < gs->nproblems; k++)
			fprintf(out, "  problem: %s\n", gs->problems[k].message);
	}
	if (json) {
		char *txt = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
		if (txt) {
			fputs(txt, out);
			fputc('\n', out);
			free(txt);
		}
		json_decref(root);
	} else if (!listed)
		fprintf(out, "no struct with cacheline group markers in the input\n");
	return 0;
}
