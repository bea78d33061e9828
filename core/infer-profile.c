// SPDX-License-Identifier: GPL-2.0
/*
 * infer-profile.c -- `cachehot annotate` with a recorded run (--profile):
 * one evidence model. The static facts say which functions touch a field;
 * the run says how often, from how many threads, and whether threads
 * really pass a struct's objects between them (docs/annotate.md, "With a
 * recorded run"):
 *  - a struct the run never touched (not exercised by the workload, or not
 *    instrumented): its lines are written commented out;
 *  - a struct of which the run sampled too few accesses to see min_share
 *    per mille of them in min_samples sampled transfers (a short run, or
 *    1 in 1024 of a struct touched rarely): not judged, lines commented out;
 *  - a struct whose objects moved between threads in fewer than
 *    min_share per mille of its accesses (transfers inside one object, false
 *    and true sharing at 64-byte lines; at least min_transfers): each
 *    object is handled by one thread at a time (a stream, an applet, a
 *    connection on its fd's thread): owned at run time, lines commented out;
 *  - a struct the threads share: each field is classed by its counts, as
 *    `annotate --profile` classes them (core/profile.c): hot with >=
 *    hot_writes writes and RMWs by >= 2 threads (fewer than rm_ratio reads
 *    per write), read_mostly with >= rm_reads reads and rm_ratio times its
 *    writes, and only when the run saw its reads
 *    disturbed by a hot field's writes: false sharing between the two of
 *    at least min_share per mille of the struct's accesses (below); a field the run did not
 *    touch gets no line.
 *    Groups still come from the static writer sets (core/infer.c);
 *  - a shared struct none of whose fields is written atomically or under a
 *    lock, in the code or in the run: handed over between threads, not
 *    shared (below): classed, but its lines are written commented out.
 */
#include <stdio.h>
#include <string.h>
#include "infer-internal.h"

/* The member path a line names: "out_rate.curr_ctr" for the per-member-path
 * line global.out_rate.curr_ctr, "a" for a direct member a. */
static void member_path(const struct member *m, char *buf, size_t n)
{
	snprintf(buf, n, "%s%.*s", m->prefix ? m->prefix : "", (int)strcspn(m->name, "."), m->name);
}

/* Its top-level field, the name the run's pairs use: "out_rate" for
 * global.out_rate.curr_ctr. */
static void top_field(const struct member *m, char *buf, size_t n)
{
	const char *f = m->prefix ? m->prefix : m->name;
	snprintf(buf, n, "%.*s", (int)strcspn(f, "."), f);
}

enum ch_run ch_infer_profile_apply(const struct ch_infer_opts *o, const char *st, struct member *m,
				   size_t n, char *why, size_t whylen)
{
	const struct ch_profile_opts *po = o->profile_opts;
	struct ch_profile_struct run;
	uint64_t moved;
	size_t i;
	if (!o->profile || !po)
		return CH_RUN_NONE;
	if (ch_profile_struct(o->profile, st, &run)) {
		snprintf(why, whylen, "not exercised by the recorded run (no access to it in %.2f s): "
			 "lines commented out", ch_profile_seconds(o->profile));
		return CH_RUN_UNSEEN;
	}
	moved = run.false_sharing + run.true_sharing;
	if (!ch_profile_worth(&run, moved, run.sampled_moved, po) && !ch_profile_decidable(&run, po)) {
		snprintf(why, whylen, "too few samples to judge: the run sampled %llu of its accesses "
			 "(estimated %llu); seeing %llu per mille of them in at least %llu sampled "
			 "transfers needs %llu; lines commented out (record longer, or with a lower "
			 "CACHEHOT_RT_SAMPLE)", (unsigned long long)run.sampled_accesses,
			 (unsigned long long)run.accesses, (unsigned long long)po->min_share,
			 (unsigned long long)po->min_samples,
			 (unsigned long long)((po->min_samples * 1000 + po->min_share - 1) /
					      (po->min_share ? po->min_share : 1)));
		return CH_RUN_UNSEEN;
	}
	if (!ch_profile_worth(&run, moved, run.sampled_moved, po)) {
		snprintf(why, whylen, "owned at run time: %llu transfers between threads inside its objects "
			 "in %llu accesses (fewer than %u per mille): each object is handled by one thread "
			 "at a time; lines commented out", (unsigned long long)moved,
			 (unsigned long long)run.accesses, po->min_share);
		return CH_RUN_OWNED;
	}
	snprintf(why, whylen, "shared at run time: %llu transfers between threads inside its objects "
		 "(%llu false sharing) in %llu accesses; classes from the run's counts",
		 (unsigned long long)moved, (unsigned long long)run.false_sharing,
		 (unsigned long long)run.accesses);
	for (i = 0; i < n; i++) {
		struct ch_profile_field *c = &m[i].run;
		char path[512];
		uint64_t w;
		unsigned wt;
		if (m[i].expanded || (m[i].deferred && m[i].cls == CH_CLASS_NONE))
			continue;   /* judged by its paths or under its own struct */
		member_path(&m[i], path, sizeof(path));
		m[i].has_run = !ch_profile_path(o->profile, st, path, c);
		m[i].cls = CH_CLASS_NONE;
		m[i].conf_high = 0;
		if (!m[i].has_run)
			continue;   /* not touched in the run */
		w = c->writes + c->rmws;
		wt = c->writer_threads > c->rmw_threads ? c->writer_threads : c->rmw_threads;
		if (w >= po->hot_writes && wt >= 2 && (uint64_t)po->rm_ratio * w > c->reads) {
			m[i].cls = CH_CLASS_HOT;
			m[i].conf_high = 1;
		} else if (c->reads >= po->rm_reads && c->reads >= (uint64_t)po->rm_ratio * w) {
			/* one reader thread is enough: the check below wants
			 * its reads disturbed by another thread's writes */
			m[i].cls = CH_CLASS_READ_MOSTLY;
			m[i].conf_high = 1;
		}
	}
	/* a read-mostly field keeps its class only when the run saw its
	 * reads disturbed: false-sharing transfers with a hot field of at
	 * least min_transfers and min_share per mille of the struct's
	 * accesses (the measure of annotate --profile alone). Without
	 * that, the two are on different lines, or the code reads it with the
	 * hot field as one unit (a counter and its period tick, a queue's
	 * fields under its lock): moving them apart would not pay. Two fields
	 * under one top-level member (counters of one embedded struct): the
	 * run records that member's transfers as a whole, no evidence. */
	for (i = 0; i < n; i++) {
		size_t j, best = 0;
		uint64_t best_fs = 0, best_ts = 0, sf;
		int found = 0, worth = 0;
		char a[512], b[512];
		if (m[i].cls != CH_CLASS_READ_MOSTLY)
			continue;
		top_field(&m[i], a, sizeof(a));
		for (j = 0; j < n && !worth; j++) {
			uint64_t nf, nt;
			if (m[j].cls != CH_CLASS_HOT || j == i)
				continue;
			top_field(&m[j], b, sizeof(b));
			ch_profile_pair_sampled(o->profile, st, a, b, 64, &nf, &nt, &sf);
			/* under one top-level member the run's pairs are that
			 * member's as a whole: no evidence for these two */
			worth = strcmp(a, b) && ch_profile_worth(&run, nf, sf, po);
			if (!found || nf > best_fs) {
				found = 1;
				best = j;
				best_fs = nf;
				best_ts = nt;
			}
		}
		if (worth)
			continue;
		m[i].cls = CH_CLASS_NONE;
		m[i].read_with = 1 + found;
		m[i].beside = best;
		m[i].beside_fs = best_fs;
		m[i].beside_ts = best_ts;
	}
	/* the run's transfers are evidence of sharing only where two threads
	 * may write at once: a field written atomically or under a lock in
	 * the code, or an atomic read-modify-write in the run. Without any,
	 * two threads writing one field would race: they take turns, the
	 * object passed over whole (a queue under a mutex elsewhere, a pool
	 * or free list reusing its memory on another thread), and each
	 * handover shows as transfers (false sharing too, where the new
	 * holder writes bytes the old one left). Those moves come with the
	 * object, not with its layout. A lock the facts cannot see (a global
	 * mutex, one reached through a pointer member) looks the same: low
	 * confidence, lines commented out, never a confident line. */
	for (i = 0; i < n; i++)
		if (m[i].rmw.n || m[i].nlocked || (m[i].has_run && m[i].run.rmws))
			return CH_RUN_SHARED;
	snprintf(why + strlen(why), whylen - strlen(why), "; but no field is written atomically or "
		 "under a lock, in the code or in the run: threads take turns on its objects (handed over "
		 "whole through a queue, memory reused after free, or a lock the code reaches elsewhere) "
		 "and the run counts each turn as transfers: low confidence");
	return CH_RUN_HANDED;
}
