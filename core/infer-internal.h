/* SPDX-License-Identifier: GPL-2.0 */
/* infer-internal.h -- what core/infer.c and core/infer-profile.c share
 * (private): one member of a struct as the inference judges it. */
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
#endif
