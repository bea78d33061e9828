/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-profile.h -- profiles of recording builds (libcachehot-rt's JSON,
 * docs/record.md) in the core: merged, turned into a sidecar
 * (`cachehot annotate --profile`), and the verdict on a finding
 * (`cachehot check --profile`). The texts come from here, as every message.
 *
 * Counts are estimates: a profile's sampled counts times its "sample".
 * Members are named by their top-level field: "u.f" of struct holder counts
 * for holder.u (the field the sidecar and the layout checks name).
 * Ownership: a ch_profile owns every string it returns; errors: -1 and
 * ch_profile_error().
 */
#ifndef CACHEHOT_PROFILE_H
#define CACHEHOT_PROFILE_H
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ch_profile ch_profile;

ch_profile *ch_profile_new(void);
void ch_profile_free(ch_profile *p);
/* Add one profile file (several processes, several runs: counts add up,
 * thread counts take the largest, seconds add up). */
int ch_profile_merge_file(ch_profile *p, const char *path);
const char *ch_profile_error(const ch_profile *p);
unsigned ch_profile_count(const ch_profile *p);     /* files merged */
double ch_profile_seconds(const ch_profile *p);

/* Transfers between top-level fields a and b of one object of struct s
 * (both directions; a == b: inside the field, between elements of a member
 * array) at line_size bytes (64 or 128). */
void ch_profile_pair(const ch_profile *p, const char *s, const char *a, const char *b,
		     unsigned line_size, uint64_t *false_sharing, uint64_t *true_sharing);
/* The same, and the false-sharing transfers as sampled (the count the
 * estimate was made from; sampled_false may be NULL). */
void ch_profile_pair_sampled(const ch_profile *p, const char *s, const char *a, const char *b,
			     unsigned line_size, uint64_t *false_sharing, uint64_t *true_sharing,
			     uint64_t *sampled_false);

/* False-sharing transfers between two objects of struct s (elements of an
 * array: any fields) at line_size bytes. */
uint64_t ch_profile_objects(const ch_profile *p, const char *s, unsigned line_size);

/* One top-level field's counts (estimated) and threads (largest seen). */
struct ch_profile_field {
	uint64_t reads, writes, rmws;
	unsigned reader_threads, writer_threads, rmw_threads;
};
/* 0 and *out filled when the profile has s.field, else -1. */
int ch_profile_field(const ch_profile *p, const char *s, const char *field,
		     struct ch_profile_field *out);

/* What the run saw of struct s as a whole, estimated, at 64-byte lines:
 * accesses (reads + writes + RMWs of its members), transfers between two
 * threads inside one object (false and true sharing) and false sharing
 * between two of its objects; and the counts as sampled, that the
 * estimates were made from (equal at CACHEHOT_RT_SAMPLE=1). 0 and *out
 * filled when the profile has an access to s, else -1 (not exercised, or
 * not instrumented). The table is built once per profile (linear in its
 * fields and pairs). */
struct ch_profile_struct {
	uint64_t accesses, false_sharing, true_sharing, objects;
	uint64_t sampled_accesses, sampled_moved, sampled_objects;   /* sampled_moved: false +
								      * true sharing inside objects */
};
int ch_profile_struct(ch_profile *p, const char *s, struct ch_profile_struct *out);


/* The counts of a member path of s ("be_counters.cum_conn": that field
 * and every field under it), as ch_profile_field(); -1 when the run
 * recorded no access under it. */
int ch_profile_path(const ch_profile *p, const char *s, const char *path,
		    struct ch_profile_field *out);

/* The verdict a false-sharing finding between s.a and s.b carries (when
 * the profile has no access to struct s at all: "not recorded in this run:
 * no access to 'struct s'"):
 * "confirmed: N false-sharing transfers between 'a' and 'b' in T s" or
 * "not observed in this run"; *cost gets N (0 when not observed). With a
 * and b NULL, between objects of s (an array-sharing finding): "confirmed:
 * N false-sharing transfers between objects of 'struct s' in T s". Text
 * owned by p, valid until the next call. */
const char *ch_profile_verdict(ch_profile *p, const char *s, const char *a, const char *b,
			       unsigned line_size, uint64_t *cost);

/* Thresholds of the sidecar made from counts (docs/record.md). */
struct ch_profile_opts {
	uint64_t hot_writes;     /* hot: >= this many writes+RMWs, by >= 2 threads or
				  * in false sharing with another field (1000) */
	uint64_t rm_reads;       /* read_mostly: >= this many reads, by >= 2 threads or
				  * in false sharing with another field (1000) */
	unsigned rm_ratio;       /* read_mostly: reads >= ratio x writes (10) */
	uint64_t min_transfers;  /* a struct is annotated when this many false-sharing
				  * transfers were seen in it (100) */
	unsigned fs_ratio;       /* ... and at least fs_ratio x its true-sharing
				  * transfers (4) */
	unsigned min_share;      /* ... and at least min_share per mille of the
				  * struct's accesses (10: 1 %; a transfer costs about
				  * a hundred accesses, so fewer is noise) */
	unsigned min_samples;    /* ... and at least this many of them sampled (10): at
				  * 1 in 1024 one sampled transfer is an estimate of 1024,
				  * and a handful is noise at any rate. A struct with too
				  * few sampled accesses to see min_share per mille at all
				  * is not judged (ch_profile_decidable) */
	int all_structs;         /* annotate every struct with counts */
	const char *only;        /* one struct, or NULL */
};
void ch_profile_defaults(struct ch_profile_opts *o);
/* n transfers (estimated; sampled of them as recorded) in struct st are
 * worth a layout change: at least o->min_transfers, o->min_samples sampled,
 * and o->min_share per mille of st's accesses (a transfer costs about as
 * much as a hundred cached accesses). The one measure of annotate --profile
 * and of annotate with a recorded run. */
int ch_profile_worth(const struct ch_profile_struct *st, uint64_t n, uint64_t sampled,
		     const struct ch_profile_opts *o);
/* The run sampled enough of st's accesses to see a share of min_share per
 * mille in min_samples sampled transfers (sampled accesses x min_share >=
 * min_samples x 1000): below that, "few transfers" says nothing about
 * ownership. */
int ch_profile_decidable(const struct ch_profile_struct *st, const struct ch_profile_opts *o);
/* Writes the sidecar; returns the number of annotation lines. */
size_t ch_profile_sidecar(ch_profile *p, const struct ch_profile_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
