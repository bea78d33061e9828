/* SPDX-License-Identifier: GPL-2.0 */
/* infer-internal.h -- what the files of `cachehot annotate`'s inference
 * share (private): one member of a struct as it is judged (infer.c: the
 * rules and the sidecar; infer-slow.c, infer-member.c, infer-print.c,
 * infer-profile.c). */
#ifndef CACHEHOT_INFER_INTERNAL_H
#define CACHEHOT_INFER_INTERNAL_H
#include <stdint.h>
#include <jansson.h>
#include "cachehot-core.h"
#include "cachehot-profile.h"

struct fnset {
	const char **v;   /* function keys, sorted */
	size_t n, cap;
};

struct member {
	const char *name;          /* direct member (owned by the JSON) */
	uint64_t offset;
	const char *composite;     /* the member's struct tag, or NULL */
	int deferred;              /* composite, its fields touched apart */
	json_t *subs;              /* distinct nested first fields */
	json_t *fns;               /* function key -> summed counts[CH_ACC__COUNT] */
	struct fnset rmw, wr, rd, slow_wr, upd;
	struct fnset all_wr;       /* writers off slow paths, rare writes included */
	unsigned long long nrmw, nwr, nrd;   /* access counts off slow paths */
	const char *prefix;        /* "member." of a per-member-path line, or NULL */
	json_t *holder;            /* keeps name alive for a per-member-path line */
	int expanded;              /* judged by its fields' paths: no line itself */
	unsigned long long nowned; /* accesses through an owned object (not evidence) */
	unsigned long long nlocked; /* its address handed to a lock function, off slow paths */
	json_t *owned_via;         /* why owned -> count */
	json_t *owned_wr;          /* function -> [owned_write, owned_update] counts */
	struct fnset own_wr;       /* of wr: the owner's writes, counted (classify) */
	enum ch_class cls;
	int group;                 /* union-find parent, then root index */
	int grouped;               /* hot and in a group of two or more */
	int conf_high;
	int has_run;               /* run: the profile's counts of its top-level field */
	struct ch_profile_field run;
	int read_with;             /* run: read-mostly by its counts, but its reads
				    * not disturbed by a hot field (1: none in the
				    * struct; 2: the nearest is beside): no class */
	size_t beside;             /* ... the hot field it shares most transfers with
				    * (beside_fs false, beside_ts true sharing) */
	uint64_t beside_fs, beside_ts;
	int together;              /* hot because a hot field has its writers */
	size_t with;               /* ... that field's index */
	int wr_dup;                /* an earlier hot field has the same writers */
};


/* What a recorded run says of a struct (ch_infer_profile_apply). */
enum ch_run {
	CH_RUN_NONE,     /* no profile given */
	CH_RUN_UNSEEN,   /* no access to it in the run: not exercised */
	CH_RUN_OWNED,    /* accessed, but its objects moved between threads too
			  * rarely: each handled by one thread at a time */
	CH_RUN_SHARED,   /* threads share its objects: the counts class it */
	CH_RUN_HANDED,   /* classed as SHARED, but nothing is written atomically or
			  * under a lock: objects handed over whole between
			  * threads; its lines are low confidence */
};

/* With o->profile: judge struct st by the run. For CH_RUN_SHARED and
 * CH_RUN_HANDED every
 * member's class is replaced by the class of its counts (hot, read_mostly
 * or none; o->profile_opts' thresholds), and has_run/run are set; the other
 * results change no class. why (size n) gets the struct's summary line.
 * Without a profile: CH_RUN_NONE. */
enum ch_run ch_infer_profile_apply(const struct ch_infer_opts *o, const char *st, struct member *m,
				   size_t n, char *why, size_t whylen);
/* ---- the parts of the inference (core/infer*.c) ---- */

/* infer-slow.c. The functions of fns on a slow path get "slow" (and why),
 * by the rules in core/infer.c's header. */
void ch_infer_mark_slow(ch_access_facts *a, json_t *fns, const struct ch_infer_opts *o);
/* The functions an access in function key is counted in: the function
 * itself, or, for a function declared inline that has callers, those
 * callers' own attribution (what inlining would make of it; depth 4).
 * Remembered in fns ("attr"); borrowed. */
json_t *ch_infer_attribution(json_t *fns, const char *key, int depth);
/* The function's name without "@FILE:LINE", into buf (n bytes). */
void ch_infer_plain_name(const char *key, char *buf, size_t n);

/* infer-member.c. Sorted keys of a JSON object (pointers into it; the
 * array malloc'd). */
const char **ch_infer_sorted_keys(json_t *obj, size_t *n);
/* Functions two sorted sets share. */
size_t ch_infer_fnset_common(const struct fnset *a, const struct fnset *b);
/* The set as one string (keys joined by '\n', which no key holds): equal
 * sets, equal strings. malloc'd. Lets a hash map find equal sets. */
char *ch_infer_fnset_key(const struct fnset *s);
/* qsort order of members: by offset, then name. */
int ch_infer_cmp_member(const void *a, const void *b);
/* Length of m's name up to its first '.' (its direct member's). */
size_t ch_infer_name_len(const struct member *m);
/* The direct members of struct st with the accesses of every path under
 * them (fnsall: the merged functions); *out malloc'd, ch_infer_free_members. */
void ch_infer_collect_members(json_t *st, json_t *fnsall, struct member **out, size_t *nout);
/* m's sets, counts and class (hot, read_mostly or none) off slow paths and
 * initializers inits. */
void ch_infer_classify(struct member *m, json_t *fns, json_t *inits, const struct ch_infer_opts *o);
/* Functions that initialize the struct (see init_fields): a set (object). */
json_t *ch_infer_initializers(struct member *m, size_t n, const struct ch_infer_opts *o);
/* The root of member i's hot group (union-find over m[].group). */
int ch_infer_find(struct member *m, int i);
void ch_infer_free_members(struct member *m, size_t n);

/* infer-print.c. A hot line on thin evidence (written commented out). */
int ch_infer_thin_hot(const struct member *m, const struct ch_infer_opts *o);
/* m's sidecar line of struct st, its evidence as a comment; all: the
 * struct's members; low: 0, 1 (the struct shows no sign of sharing) or 2
 * (thin_hot). */
void ch_infer_print_line(FILE *out, const char *st, const struct member *m,
			 const struct member *all, int low);
/* A member the run took its read-mostly class from (read_with): why, as a
 * comment line. */
void ch_infer_print_run_note(FILE *out, const char *st, const struct member *m, size_t i);
/* A struct whose fields are touched only through objects one thread or CPU
 * owns (and on slow paths): "owned", with its evidence, and no line. */
void ch_infer_print_owned(FILE *out, const char *st, const struct member *m, size_t n,
			  const struct ch_infer_opts *o);
#endif
