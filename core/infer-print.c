/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer-print.c -- the lines `cachehot annotate` writes for one struct
 * (core/infer.c decides what to print): a member's sidecar line with its
 * evidence as a comment, the note of a member the recorded run classed,
 * and an "owned" struct with its evidence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"
#include "infer-internal.h"

/* "a, b, c +2" from a set of function keys ("name@unit" printed as name) */
static void print_fns(FILE *out, const struct fnset *s)
{
	size_t i, shown = s->n > 4 ? 4 : s->n;
	for (i = 0; i < shown; i++) {
		const char *k = s->v[i], *at = strchr(k, '@');
		fprintf(out, "%s%.*s", i ? ", " : "", (int)(at ? (size_t)(at - k) : strlen(k)), k);
	}
	if (s->n > shown)
		fprintf(out, " +%zu", s->n - shown);
}

static void print_set(FILE *out, const char *what, const struct fnset *s, unsigned long long count)
{
	fprintf(out, "%s %zu fn", what, s->n);
	if (count)
		fprintf(out, " (%llu)", count);
	if (s->n) {
		fputs(": ", out);
		print_fns(out, s);
	}
}

/* Thin evidence for hot: only the update rule holds (no RMW or write
 * count reaches its threshold), from one function, the field is read in
 * fewer functions than a read-mostly line needs, and no other field is
 * written with it (no group): nothing says the one writer runs often or
 * that other code reads the line. (6.1: pglist_data.totalreserve_pages,
 * recomputed by calculate_totalreserve_pages() on watermark changes.) */
int ch_infer_thin_hot(const struct member *m, const struct ch_infer_opts *o)
{
	return m->cls == CH_CLASS_HOT && !m->has_run && !m->grouped && !m->together &&
	       m->upd.n == 1 && m->rmw.n < o->hot_rmw_fns && m->wr.n < o->hot_write_fns &&
	       m->rd.n < o->rm_read_fns;
}

/* low: 0, 1 (the struct shows no sign of sharing) or 2 (thin_hot) */
void ch_infer_print_line(FILE *out, const char *st, const struct member *m, const struct member *all,
			 int low)
{
	char cls[300];
	if (m->cls == CH_CLASS_HOT && m->grouped) {
		/* a group is a C identifier: "out_rate.curr" names it out_rate_curr */
		const struct member *r = &all[m->group];
		char *c;
		snprintf(cls, sizeof(cls), "hot:%s%.*s", r->prefix ? r->prefix : "", (int)ch_infer_name_len(r), r->name);
		for (c = cls; *c; c++)
			if (*c == '.')
				*c = '_';
	} else {
		snprintf(cls, sizeof(cls), "%s", ch_class_name(m->cls));
	}
	fprintf(out, "%s%s.%s%.*s %s\t# ", low ? "#" : "", st, m->prefix ? m->prefix : "",
		(int)ch_infer_name_len(m), m->name, cls);
	if (m->cls == CH_CLASS_HOT) {
		print_set(out, "rmw", &m->rmw, m->nrmw);
		fputs("; ", out);
		print_set(out, "writes", &m->wr, m->nwr);
		if (m->upd.n) {
			fputs("; ", out);
			print_set(out, "updates from own value", &m->upd, 0);
		}
		if (m->own_wr.n) {
			fputs("; ", out);
			print_set(out, "of them by the owning CPU or thread of data others read", &m->own_wr, 0);
		}
		if (m->together)
			fprintf(out, "; written with %s%.*s", all[m->with].prefix ? all[m->with].prefix : "",
				(int)ch_infer_name_len(&all[m->with]), all[m->with].name);
		fprintf(out, "; reads %zu fn", m->rd.n);
	} else {
		print_set(out, "reads", &m->rd, m->nrd);
		fputs("; ", out);
		print_set(out, "writes", &m->wr, m->nwr);
	}
	fprintf(out, "; init/slow-path writes %zu fn", m->slow_wr.n);
	if (m->slow_wr.n) {
		fputs(": ", out);
		print_fns(out, &m->slow_wr);
	}
	if (m->has_run)
		fprintf(out, "; run: reads %llu by %u threads, writes %llu by %u, rmws %llu by %u",
			(unsigned long long)m->run.reads, m->run.reader_threads,
			(unsigned long long)m->run.writes, m->run.writer_threads,
			(unsigned long long)m->run.rmws, m->run.rmw_threads);
	fprintf(out, "; confidence %s\n", low == 2 ? "low (thin evidence: one function updates it, "
		"fewer readers than a read-mostly field needs, no field written with it)"
		: low ? "low" : m->conf_high ? "high" : "medium");
}

/* A member the run took its read-mostly class from (read_with): why, as a
 * comment line. */
void ch_infer_print_run_note(FILE *out, const char *st, const struct member *m, size_t i)
{
	const struct member *h = &m[m[i].beside];
	if (m[i].read_with == 1)
		fprintf(out, "# %s.%s%.*s read_mostly by its counts, but no hot field to be kept from: no "
			"line\n", st, m[i].prefix ? m[i].prefix : "", (int)ch_infer_name_len(&m[i]), m[i].name);
	else if (m[i].read_with)
		fprintf(out, "# %s.%s%.*s read_mostly by its counts, but its reads were not disturbed in "
			"the run (at most %llu false-sharing transfers, with hot '%s%.*s'; it was read %llu "
			"times): no line\n", st, m[i].prefix ? m[i].prefix : "", (int)ch_infer_name_len(&m[i]), m[i].name,
			(unsigned long long)m[i].beside_fs, h->prefix ? h->prefix : "", (int)ch_infer_name_len(h),
			h->name, (unsigned long long)m[i].run.reads);
}

/* A struct whose fields are touched only through objects one thread or CPU
 * owns (and on slow paths): "owned", with its evidence, and no line. */
void ch_infer_print_owned(FILE *out, const char *st, const struct member *m, size_t n,
			  const struct ch_infer_opts *o)
{
	json_t *why = json_object(), *c;
	unsigned long long owned = 0;
	(void)c;
	size_t i, touched = 0;
	const char *k;
	int first = 1;
	for (i = 0; i < n; i++) {
		if (m[i].rmw.n || m[i].wr.n || m[i].rd.n) {
			json_decref(why);
			return;   /* shared evidence too: not owned */
		}
		if (!m[i].nowned)
			continue;
		touched++;
		owned += m[i].nowned;
		json_object_foreach(m[i].owned_via, k, c)
			json_object_set_new(why, k, json_integer(json_integer_value(json_object_get(why, k)) +
								json_integer_value(c)));
	}
	if (touched >= o->min_fields && (!o->only || !strcmp(o->only, st))) {
		/* a sidecar line every engine reads: no false sharing is
		 * reported inside an object of the struct (core/rules.c) */
		fprintf(out, "\n# struct %s\n%s owned\t# owned by one thread or CPU (%llu accesses in "
			"%zu fields: ", st, st, owned, touched);
		size_t nk, q;
		const char **keys = ch_infer_sorted_keys(why, &nk);
		for (q = 0; q < nk; q++) {
			fprintf(out, "%s%s %lld", first ? "" : ", ", keys[q],
				(long long)json_integer_value(json_object_get(why, keys[q])));
			first = 0;
		}
		free(keys);
		fputs("): no hot field suggested, no false sharing inside it\n", out);
	}
	json_decref(why);
}
