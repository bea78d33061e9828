/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-batch.h -- what the counter-batch pass (counter-batch.c) and its
 * value tracing (counter-values.c) share. C++ only; GCC headers first.
 */
#ifndef CACHEHOT_COUNTER_BATCH_H
#define CACHEHOT_COUNTER_BATCH_H

#define MAX_DEPTH     12   /* SSA definitions followed per question */
#define MAX_KEYS      32   /* more item values than this: not "a small set" */

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

#endif
