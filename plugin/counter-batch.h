/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-batch.h -- what the counter-batch pass (counter-batch.c) and its
 * value tracing (counter-values.c) share. C++ only; GCC headers first.
 */
#ifndef CACHEHOT_COUNTER_BATCH_H
#define CACHEHOT_COUNTER_BATCH_H

#define MAX_DEPTH     12   /* SSA definitions followed per question */
#define MAX_KEYS      32   /* more item values than this: not "a small set" */
#define MAX_ARGS      8    /* arguments of a call followed */

/* A target (pointer) relative to a loop, or, with loop NULL, to the function
 * (then parameters are tracked). */
struct origin {
	bool vary;            /* changes per element (per call) other than by a lookup */
	bool iv;              /* an index that is the loop's counter: each target once */
	bool lookup;          /* changes only through an array index */
	unsigned ptr_params;  /* function mode: parameters the pointer is made of */
	unsigned idx_params;  /* function mode: parameters an index is made of */
	const char *from;     /* the array indexed, for messages */
};

enum item_kind { IT_CONST, IT_SET, IT_INV, IT_PARAM, IT_VARY };
struct item {
	item_kind kind;
	HOST_WIDE_INT lo, hi;   /* IT_CONST (lo == hi), IT_SET */
	int param;              /* IT_PARAM */
};

/* The loop values are judged against; NULL: the whole function, where
 * parameters are tracked (summaries). */
extern class loop *cur_loop;

/* Where pointer v comes from, merged into *o. index: v is an array index. */
void trace(tree v, bool index, int depth, origin *o);
void merge(origin *o, const origin &a);
/* Forget what was cached about the previous function's loops (call at
 * the start of each function). */
void counter_values_reset(void);
/* The loop pops a linked list (loads and stores list_head.prev/next). */
bool loop_pops_list(class loop *l);
/* The values integer v takes. */
item eval_item(tree v, int depth);
item item_vary();
/* "NR_FREE_CMA_PAGES", "NR_ISOLATED_ANON..NR_ISOLATED_FILE" from the
 * enumeration of argument argno of fndecl; NULL when not a constant/set. */
const char *item_text(tree fndecl, int argno, const item &it);
/* Remember an enumeration of the unit by its tag (PLUGIN_FINISH_TYPE). */
void counter_note_enum(tree type);

/* ---- what is not once per element (counter-silent.c) ---- */
/* A branch taken at most this often is a rare path (GCC's static profile:
 * an unlikely() branch is taken 10% of the time, builtin-expect-probability;
 * a plain if 50%). */
#define RARE_BRANCH 0.11
/* Print a silenced update and why on stderr when CACHEHOT_COUNTER_EXPLAIN
 * is set (not 0) in the environment. */
void explain(const char *why, const char *updater, const char *item, location_t at,
	     location_t loop_loc, const char *function);
/* bb on a rare path below top (the loop's head or the function's entry);
 * needs CDI_DOMINATORS. */
bool rare_path(basic_block bb, basic_block top);
/* A loop that repeats one attempt (goto retry, a failed cmpxchg or trylock,
 * a back edge GCC expects in fewer than RARE_BRANCH of the runs). */
bool retry_loop(class loop *l);
/* Does l go round again after bb other than because an attempt failed? */
bool repeats_after(class loop *l, basic_block from);
/* Fields the unit adds to; every function of the unit scanned once. */
void note_unit_accumulators(void);
/* Fields one function adds to (its body after inlining). */
void note_accumulators(function *fun);
bool accumulator_field(tree f);
/* The delta v is a count made elsewhere (relative to loop l, or the whole
 * function when l is NULL); *field: a field it is loaded from, *param: the
 * parameter it is made of (function mode), either may be NULL. */
bool delta_is_count(tree v, class loop *l, int depth, tree *field, int *param);
/* Gauges: every update of the function being compiled, then the question. */
void gauge_reset(void);
void gauge_add(gimple *s, const char *item, tree target, const char *updater, int delta_arg);
bool gauge(gimple *s);

#endif
