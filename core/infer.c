/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer.c -- from merged access facts (core/access.c) to a sidecar
 * suggestion (docs/annotations.rst syntax), the rules of `cachehot annotate`.
 *
 * Rules (thresholds in struct ch_infer_opts; docs/annotate.md is
 * the reference, this list a summary):
 *  - A function is on a slow path when it lies in .init.text/.exit.text, is
 *    cold, or is static and every caller known in the build is on a slow
 *    path or calls it only on paths marked unlikely (least fixpoint over
 *    the merged call edges).
 *  - Accesses on paths marked unlikely (core/summary.c, plugin/access.c) are
 *    rare: a function that writes a member only there is evidence, never a
 *    writer; rare reads are not reads.
 *  - A direct member collects the accesses of every path under it, except a
 *    tagged struct/union member whose own fields are touched apart (more
 *    than one distinct nested field) and whose struct has both hot and
 *    read-mostly fields: that struct is judged under its own name
 *    (mem_cgroup.memory -> page_counter.usage).
 *  - hot: atomic RMWs in >= hot_rmw_fns functions, or writes (stores, marked
 *    stores, RMWs) in >= hot_write_fns functions, off slow paths.
 *  - read_mostly: no RMW off slow paths, read in >= rm_read_fns functions,
 *    written in <= rm_max_write_fns, and readers >= rm_ratio * writers.
 *  - hot groups: hot members whose writer sets overlap by >= group_overlap
 *    percent (Jaccard), joined transitively, named after the member with
 *    the lowest offset.
 *  - A struct is printed only with >= min_fields lines, one of them hot:
 *    anything less gives the checks nothing to judge.
 *  - Initializers (slow for the struct): >= init_fields fields stored, no
 *    RMW, nothing loaded that is stored; or >= 4 * init_fields stored, no
 *    RMW or update, at most half of them loaded (a constructor testing
 *    what it allocated).
 *  - A hot line on thin evidence (ch_infer_thin_hot()) is written commented out.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"
#include "infer-internal.h"

void ch_infer_defaults(struct ch_infer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->hot_rmw_fns = 2;
	o->hot_write_fns = 4;
	o->rm_read_fns = 3;
	o->rm_max_write_fns = 3;
	o->rm_ratio = 3;
	o->min_fields = 2;
	o->group_overlap = 50;
	o->init_fields = 2;
	o->hot_update_fns = 1;
}

struct judged {
	struct member *m;
	size_t n;
	int hot, rm;               /* members classified so, deferred ones aside */
};

/* ---- per-member paths of small embedded types ----------------------------- */

/* All accesses recorded under st's paths "name." + ... (name = NULL: every
 * path), every function and kind, owned ones too. */
static json_int_t raw_accesses(json_t *st, const char *name, size_t len)
{
	json_int_t n = 0;
	const char *p, *fk, *kk;
	json_t *f, *c, *v;
	json_object_foreach(st, p, f) {
		if (name && (strncmp(p, name, len) || p[len] != '.'))
			continue;
		json_object_foreach(json_object_get(f, "functions"), fk, c)
			json_object_foreach(c, kk, v)
				if (json_is_integer(v))
					n += json_integer_value(v);
	}
	return n;
}

/* Types judged per containing member: tag -> number of containers. A type
 * qualifies when it is a member whose fields are touched apart in at least
 * two structs, and every access to it was made through one of those
 * containers (none through a bare pointer to it, as page_counter_charge()
 * does: such a type has a life of its own and is judged by type). */
static json_t *per_member_types(json_t *sts, const char **names, struct judged *js, size_t ns)
{
	json_t *via = json_object(), *cont = json_object(), *out = json_object(), *v;
	const char *t;
	size_t s, i;
	for (s = 0; s < ns; s++)
		for (i = 0; i < js[s].n; i++) {
			struct member *m = &js[s].m[i];
			json_t *c;
			if (!m->composite || !m->deferred)
				continue;
			c = json_object_get(cont, m->composite);
			if (!c) {
				c = json_object();
				json_object_set_new(cont, m->composite, c);
			}
			json_object_set_new(c, names[s], json_true());
			json_object_set_new(via, m->composite, json_integer(
				json_integer_value(json_object_get(via, m->composite)) +
				raw_accesses(json_object_get(sts, names[s]), m->name, ch_infer_name_len(m))));
		}
	json_object_foreach(cont, t, v) {
		json_t *own = json_object_get(sts, t);
		if (json_object_size(v) >= 2 && own &&
		    raw_accesses(own, NULL, 0) <= json_integer_value(json_object_get(via, t)))
			json_object_set_new(out, t, json_integer((json_int_t)json_object_size(v)));
	}
	json_decref(via);
	json_decref(cont);
	return out;
}

/* Replace container member x (of type tag, judged per member) by one
 * member per field path under it, judged on the container's own evidence;
 * appended to *m. */
static void expand_member(struct judged *j, size_t xi, json_t *st, json_t *type_st, json_t *fns,
			  json_t *inits, const struct ch_infer_opts *o)
{
	json_t *sub = json_object(), *f;
	const char *p;
	struct member *sm = NULL;
	size_t sn = 0, len = ch_infer_name_len(&j->m[xi]), k;
	char *prefix;
	json_object_foreach(st, p, f)
		if (!strncmp(p, j->m[xi].name, len) && p[len] == '.')
			json_object_set(sub, p + len + 1, f);
	ch_infer_collect_members(sub, fns, &sm, &sn);
	prefix = (char *)malloc(len + 2);
	memcpy(prefix, j->m[xi].name, len);
	prefix[len] = '.';
	prefix[len + 1] = 0;
	j->m = (struct member *)realloc(j->m, (j->n + sn + 1) * sizeof(*j->m));
	j->m[xi].expanded = 1;
	for (k = 0; k < sn; k++) {
		struct member *y = &j->m[j->n];
		json_t *tf = NULL;
		*y = sm[k];
		/* the field's place: its offset in its own type, after the member */
		{
			const char *tp;
			json_t *tv;
			json_object_foreach(type_st, tp, tv)
				if (!strncmp(tp, y->name, ch_infer_name_len(y)) &&
				    (tp[ch_infer_name_len(y)] == '.' || !tp[ch_infer_name_len(y)])) {
					tf = tv;
					break;
				}
		}
		y->offset = j->m[xi].offset + (tf ? (uint64_t)json_integer_value(json_object_get(tf, "offset")) : 0);
		y->prefix = strdup(prefix);
		y->holder = k ? NULL : json_incref(sub);
		y->group = (int)j->n;
		y->deferred = 0;
		ch_infer_classify(y, fns, inits, o);
		j->hot += y->cls == CH_CLASS_HOT;
		j->rm += y->cls == CH_CLASS_READ_MOSTLY;
		j->n++;
	}
	free(sm);
	free(prefix);
	json_decref(sub);
}

size_t ch_infer_sidecar(ch_access_facts *a, const struct ch_infer_opts *o, FILE *out)
{
	json_t *fns = json_object_get(a->root, "functions");
	json_t *sts = json_object_get(a->root, "structs");
	json_t *index = json_object();   /* struct name -> position in js */
	json_t *pm;                      /* types judged per containing member */
	size_t ns, s, total = 0, dropped;
	const char **names;
	char dropped_example[128];
	struct judged *js;

	ch_infer_mark_slow(a, fns, o);
	ch_summary_resolve(fns);   /* what a passed address stands for */
	dropped = ch_infer_drop_unnamable(sts, dropped_example, sizeof(dropped_example));
	names = ch_infer_sorted_keys(sts, &ns);
	js = (struct judged *)calloc(ns + 1, sizeof(*js));
	fprintf(out, "# cachehot annotate: %zu translation unit%s; thresholds: hot-rmw-fns=%u "
		"hot-write-fns=%u hot-update-fns=%u rm-read-fns=%u rm-max-write-fns=%u rm-ratio=%u "
		"min-fields=%u group-overlap=%u init-fields=%u%s (docs/annotate.md)\n", a->nunits,
		a->nunits == 1 ? "" : "s", o->hot_rmw_fns, o->hot_write_fns, o->hot_update_fns,
		o->rm_read_fns, o->rm_max_write_fns, o->rm_ratio, o->min_fields, o->group_overlap,
		o->init_fields, a->nskipped ? "; units of other programs left out" : "");
	if (o->profile && o->profile_opts)
		fprintf(out, "# with a recorded run: %u profile%s, %.2f s; a struct is shared when transfers "
			"between threads inside its objects are >= %llu (>= %llu sampled) and >= %u per mille "
			"of its accesses; then hot-writes=%llu rm-reads=%llu rm-ratio=%u (counts)\n", ch_profile_count(o->profile),
			ch_profile_count(o->profile) == 1 ? "" : "s", ch_profile_seconds(o->profile),
			(unsigned long long)o->profile_opts->min_transfers,
			(unsigned long long)o->profile_opts->min_samples, o->profile_opts->min_share,
			(unsigned long long)o->profile_opts->hot_writes,
			(unsigned long long)o->profile_opts->rm_reads, o->profile_opts->rm_ratio);
	if (dropped)
		fprintf(out, "# left out %zu struct%s or member%s whose name is no C identifier%s%s%s "
			"(no sidecar line can name %s)\n", dropped, dropped == 1 ? "" : "s",
			dropped == 1 ? "" : "s", *dropped_example ? " ('" : "",
			dropped_example, *dropped_example ? "')" : "", dropped == 1 ? "it" : "them");
	/* every struct first: a composite member waits for its own struct */
	for (s = 0; s < ns; s++) {
		struct judged *j = &js[s];
		json_t *inits;
		size_t i;
		json_object_set_new(index, names[s], json_integer((json_int_t)s));
		ch_infer_collect_members(json_object_get(sts, names[s]), fns, &j->m, &j->n);
		qsort(j->m, j->n, sizeof(*j->m), ch_infer_cmp_member);
		inits = ch_infer_initializers(j->m, j->n, o);
		for (i = 0; i < j->n; i++) {
			struct member *m = &j->m[i];
			m->group = (int)i;
			if (m->composite && json_object_size(m->subs) > 1) {
				m->deferred = 1;
				continue;
			}
			ch_infer_classify(m, fns, inits, o);
			j->hot += m->cls == CH_CLASS_HOT;
			j->rm += m->cls == CH_CLASS_READ_MOSTLY;
		}
		json_decref(inits);
	}
	/* a small type embedded in several structs and touched only through
	 * them is judged per containing member: its fields' lines are written
	 * under each container (global.out_rate.curr_ctr), on that
	 * container's evidence; the type gets none of its own */
	pm = per_member_types(sts, names, js, ns);
	/* a composite member whose struct mixes hot and read-mostly fields is
	 * judged there (mem_cgroup.memory is a page_counter); one whose fields
	 * are all of one kind (zone.free_area) is judged as a whole here */
	for (s = 0; s < ns; s++) {
		struct judged *j = &js[s];
		json_t *inits = NULL;
		size_t i, n0 = j->n;
		for (i = 0; i < n0; i++) {
			struct member *m = &j->m[i];
			json_t *pos;
			if (!m->deferred)
				continue;
			if (json_object_get(pm, m->composite)) {
				if (!inits)
					inits = ch_infer_initializers(j->m, j->n, o);
				expand_member(j, i, json_object_get(sts, names[s]),
					      json_object_get(sts, m->composite), fns, inits, o);
				continue;
			}
			pos = json_object_get(index, m->composite);
			if (pos && js[json_integer_value(pos)].hot && js[json_integer_value(pos)].rm)
				continue;
			if (!inits)
				inits = ch_infer_initializers(j->m, j->n, o);
			ch_infer_classify(m, fns, inits, o);
		}
		json_decref(inits);
		if (j->n != n0) {   /* per-member lines: in offset order */
			qsort(j->m, j->n, sizeof(*j->m), ch_infer_cmp_member);
			for (i = 0; i < j->n; i++)
				j->m[i].group = (int)i;
		}
	}
	for (s = 0; s < ns; s++) {
		struct member *m = js[s].m;
		size_t n = js[s].n, i, j, lines = 0, hot = 0;
		int sync;
		enum ch_run run;
		char runwhy[1024];
		json_t *by_wr;
		if (o->only && strcmp(o->only, names[s]))
			continue;
		if (strchr(names[s], '@')) {
			/* another definition of a tag (another program of the
			 * tree): a sidecar names tags, so none of its lines */
			fprintf(out, "\n# struct %.*s defined again at %s (another program of the tree?): "
				"judged apart, no line (cachehot annotate --program=BINARY, or "
				"--units/--exclude-units, for one program)\n", (int)(strchr(names[s], '@') - names[s]), names[s],
				strchr(names[s], '@') + 1);
			continue;
		}
		if (json_object_get(pm, names[s])) {
			fprintf(out, "\n# struct %s: embedded in %lld structs and touched only through them: "
				"judged per containing member (STRUCT.MEMBER.FIELD lines there)\n", names[s],
				(long long)json_integer_value(json_object_get(pm, names[s])));
			continue;
		}
		/* a recorded run: its counts class the fields of a struct its
		 * threads share (core/infer-profile.c) */
		run = ch_infer_profile_apply(o, names[s], m, n, runwhy, sizeof(runwhy));
		for (i = 0; i < n; i++) {
			lines += m[i].cls != CH_CLASS_NONE;
			hot += m[i].cls == CH_CLASS_HOT;
		}
		if (lines < o->min_fields || !hot) {
			if (run == CH_RUN_SHARED || run == CH_RUN_HANDED) {
				if (!o->only || !strcmp(o->only, names[s]))
					fprintf(out, "\n# struct %s: %s; the run leaves %zu line%s, %zu hot (a "
						"struct needs %u, one hot): no line\n", names[s], runwhy, lines,
						lines == 1 ? "" : "s", hot, o->min_fields);
				for (i = 0; i < n && (!o->only || !strcmp(o->only, names[s])); i++)
					ch_infer_print_run_note(out, names[s], m, i);
			} else {
				ch_infer_print_owned(out, names[s], m, n, o);
			}
			continue;
		}
		/* fields written by exactly the functions that write a hot field
		 * (off slow paths, writes on unlikely paths included: the same
		 * code dirties both) are written together with it: hot, in its
		 * group (a suggestion never splits fields always written together);
		 * with a recorded run the counts say what is written, not the
		 * writer sets */
		/* (the first hot field of each writer set, by a hash of the set:
		 * linear in the fields, a struct of 40k fields is no slower per
		 * field than one of 40) */
		by_wr = json_object();
		for (j = 0; j < n; j++)
			if (m[j].cls == CH_CLASS_HOT) {
				char *k = ch_infer_fnset_key(&m[j].all_wr);
				if (!json_object_get(by_wr, k))
					json_object_set_new(by_wr, k, json_integer((json_int_t)j));
				free(k);
			}
		for (i = 0; i < n && run != CH_RUN_SHARED && run != CH_RUN_HANDED; i++) {
			char *k;
			json_t *hit;
			if (m[i].cls == CH_CLASS_HOT || m[i].deferred || !m[i].wr.n)
				continue;
			k = ch_infer_fnset_key(&m[i].all_wr);
			hit = json_object_get(by_wr, k);
			free(k);
			if (hit) {
				j = (size_t)json_integer_value(hit);
				m[i].cls = CH_CLASS_HOT;
				m[i].together = 1;
				m[i].with = j;
				m[i].conf_high = m[j].conf_high;
			}
		}
		json_decref(by_wr);
		/* hot groups: union by writer-set overlap, root = lowest index.
		 * Fields with one writer set overlap 100%: joined at once, and
		 * only the first of each set is compared with the others */
		by_wr = json_object();
		for (i = 0; i < n; i++) {
			char *k;
			json_t *first;
			m[i].wr_dup = 0;
			if (m[i].cls != CH_CLASS_HOT || !m[i].wr.n || o->group_overlap > 100)
				continue;
			k = ch_infer_fnset_key(&m[i].wr);
			first = json_object_get(by_wr, k);
			if (first) {
				m[i].group = ch_infer_find(m, (int)json_integer_value(first));
				m[i].wr_dup = 1;
			} else
				json_object_set_new(by_wr, k, json_integer((json_int_t)i));
			free(k);
		}
		json_decref(by_wr);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n && m[i].cls == CH_CLASS_HOT && !m[i].wr_dup; j++) {
				size_t common, uni;
				int ri, rj;
				if (m[j].cls != CH_CLASS_HOT || m[j].wr_dup)
					continue;
				common = ch_infer_fnset_common(&m[i].wr, &m[j].wr);
				uni = m[i].wr.n + m[j].wr.n - common;
				if (!uni || common * 100 < (size_t)o->group_overlap * uni)
					continue;
				ri = ch_infer_find(m, (int)i);
				rj = ch_infer_find(m, (int)j);
				if (ri != rj) {
					if (ri < rj)
						m[rj].group = ri;
					else
						m[ri].group = rj;
				}
			}
		for (i = 0; i < n; i++)
			m[i].group = ch_infer_find(m, (int)i);
		for (i = 0; i < n; i++)
			if (m[i].group != (int)i)
				m[i].grouped = m[m[i].group].grouped = 1;
		/* no field written atomically or locked off slow paths: no
		 * sign that threads share the struct at all (an object one thread
		 * handles at a time, or one the facts cannot tell); its plain
		 * writes are low-confidence evidence: lines written commented out */
		for (i = 0, sync = 0; i < n; i++)
			sync |= m[i].rmw.n > 0 || m[i].nlocked > 0;
		if (run != CH_RUN_NONE) {
			/* the run, not the code's locks, says whether threads share it */
			sync = run == CH_RUN_SHARED;
			fprintf(out, "\n# struct %s: %s%s\n", names[s], runwhy,
				run == CH_RUN_HANDED ? ", lines commented out" : "");
			if (run == CH_RUN_OWNED)   /* check reports no false sharing inside it */
				fprintf(out, "%s owned\t# owned at run time (the recorded run)\n", names[s]);
		} else {
			fprintf(out, "\n# struct %s%s\n", names[s], sync ? "" :
				": low confidence, no field is written atomically or under a lock off slow "
				"paths (no sign that threads share it): lines commented out");
		}
		for (i = 0; i < n; i++)
			if (m[i].cls != CH_CLASS_NONE) {
				int thin = sync && ch_infer_thin_hot(&m[i], o);
				ch_infer_print_line(out, names[s], &m[i], m, thin ? 2 : !sync);
				total += sync && !thin;
			} else {
				ch_infer_print_run_note(out, names[s], m, i);
			}
	}
	for (s = 0; s < ns; s++)
		ch_infer_free_members(js[s].m, js[s].n);
	free(js);
	json_decref(pm);
	json_decref(index);
	free(names);
	return total;
}

/* ---- --explain STRUCT.FIELD ------------------------------------------------ */

int ch_infer_explain(ch_access_facts *a, const struct ch_infer_opts *o, const char *what, FILE *out)
{
	json_t *fns = json_object_get(a->root, "functions");
	json_t *sts = json_object_get(a->root, "structs"), *st, *inits, *sum;
	const char *dot = strchr(what, '.'), *fk;
	char sname[512];
	struct member *m = NULL, *x = NULL;
	size_t n = 0, i, nk, q;
	const char **keys;
	if (!dot || dot == what || !dot[1])
		return -1;
	snprintf(sname, sizeof(sname), "%.*s", (int)(dot - what), what);
	st = json_object_get(sts, sname);
	if (!st) {
		fprintf(out, "%s: no access to struct %s in the facts (%zu units)\n", what, sname, a->nunits);
		return 1;
	}
	ch_infer_mark_slow(a, fns, o);
	ch_summary_resolve(fns);   /* passed addresses count as in the sidecar */
	ch_infer_collect_members(st, fns, &m, &n);
	for (i = 0; i < n && !x; i++)
		if (ch_infer_name_len(&m[i]) == strlen(dot + 1) && !strncmp(m[i].name, dot + 1, ch_infer_name_len(&m[i])))
			x = &m[i];
	if (!x) {
		fprintf(out, "%s: no access to member %s of struct %s in the facts\n", what, dot + 1, sname);
		ch_infer_free_members(m, n);
		return 1;
	}
	inits = ch_infer_initializers(m, n, o);
	ch_infer_classify(x, fns, inits, o);
	fprintf(out, "%s (offset %llu): %s", what, (unsigned long long)x->offset,
		x->cls == CH_CLASS_NONE ? "no suggestion" : ch_class_name(x->cls));
	if (x->cls != CH_CLASS_NONE)
		fprintf(out, ", confidence %s", x->conf_high ? "high" : "medium");
	fprintf(out, "\n  counted: rmw %zu fn, writes %zu fn, reads %zu fn; not counted: slow-path or "
		"initializer writes %zu fn, %llu accesses through owned objects\n",
		x->rmw.n, x->wr.n, x->rd.n, x->slow_wr.n, x->nowned);
	fprintf(out, "  rules: hot needs rmw >= %u fn or writes >= %u fn; read_mostly needs reads >= %u fn, "
		"writes <= %u fn, reads >= %u x writes\n", o->hot_rmw_fns, o->hot_write_fns,
		o->rm_read_fns, o->rm_max_write_fns, o->rm_ratio);
	if (o->profile) {   /* the recorded run's judgement of the struct and the member */
		char why[1024];
		enum ch_run run;
		for (i = 0; i < n; i++)
			if (&m[i] != x)
				ch_infer_classify(&m[i], fns, inits, o);
		run = ch_infer_profile_apply(o, sname, m, n, why, sizeof(why));
		fprintf(out, "  run: struct %s %s\n", sname, why);
		if ((run == CH_RUN_SHARED || run == CH_RUN_HANDED) && x->has_run)
			fprintf(out, "  run: reads %llu by %u threads, writes %llu by %u, rmws %llu by %u: %s\n",
				(unsigned long long)x->run.reads, x->run.reader_threads,
				(unsigned long long)x->run.writes, x->run.writer_threads,
				(unsigned long long)x->run.rmws, x->run.rmw_threads,
				x->read_with ? "read_mostly by its counts, but its reads not disturbed by a hot "
					       "field: no suggestion" :
				x->cls == CH_CLASS_NONE ? "no suggestion" : ch_class_name(x->cls));
		else if (run == CH_RUN_SHARED || run == CH_RUN_HANDED)
			fputs("  run: no access to it in the run: no suggestion\n", out);
	}
	keys = ch_infer_sorted_keys(x->owned_via, &nk);
	for (q = 0; q < nk; q++)
		fprintf(out, "  owned object: %s, %lld accesses\n", keys[q],
			(long long)json_integer_value(json_object_get(x->owned_via, keys[q])));
	free(keys);
	keys = ch_infer_sorted_keys(x->fns, &nk);
	for (q = 0; q < nk; q++) {
		json_t *f = json_object_get(fns, keys[q]);
		const char *why = json_string_value(json_object_get(f, "slow_why"));
		int k;
		char name[512];
		fk = keys[q];
		sum = json_object_get(x->fns, fk);
		ch_infer_plain_name(fk, name, sizeof(name));
		fprintf(out, "  %s", name);
		if (json_is_string(json_object_get(f, "file")))
			fprintf(out, " (%s:%lld)", json_string_value(json_object_get(f, "file")),
				(long long)json_integer_value(json_object_get(f, "line")));
		for (k = 0; k < CH_ACC__COUNT; k++) {
			json_int_t c = json_integer_value(json_array_get(sum, k));
			if (c)
				fprintf(out, " %s %lld", ch_access_kind_name((enum ch_access_kind)k), (long long)c);
		}
		if (json_is_true(json_object_get(f, "inlined_away")))
			fputs(" [inlined into its callers: counted there]", out);
		else if (json_is_true(json_object_get(f, "slow")))
			fprintf(out, " [slow: %s]", why ? why : "slow path");
		else if (json_object_get(inits, fk))
			fputs(" [initializer of the struct]", out);
		fputc('\n', out);
	}
	free(keys);
	json_decref(inits);
	ch_infer_free_members(m, n);
	return 0;
}
