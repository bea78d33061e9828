/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter-batch.h -- what the files of the [cachehot-counter-batch] check
 * share: the pass (counter-batch.c), its value tracing (counter-values.c),
 * a loop's facts (counter-loops.c), the unit's findings and summaries
 * (counter-judge.c), what stays silent (counter-silent.c). C++ only; GCC
 * headers first.
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

#define MAX_ENTRIES   8    /* updates kept in one function's summary */
#define MAX_CALL_DEPTH 4   /* calls not inlined followed from a loop */

/* ---- a loop and a statement in it (counter-loops.c) ---- */
/* A lock released in the loop, an early exit: what batching must respect. */
struct loop_facts {
	location_t loc;
	const char *unlock;
	unsigned unlock_line;
	unsigned extra_exits;
	bool retry;            /* retry_loop() */
};

/* The name as written ("move_one" for the clone "move_one.isra"). */
const char *cb_fn_name(tree fndecl);
/* A location as the user wrote it (a macro's use, not its definition). */
location_t cb_user_loc(location_t loc);
/* The chain "this -> inlined -> ... -> innermost" of the statement's blocks
 * (NULL when nothing is inlined), and in *outer the location, in the
 * function being compiled, of the outermost inlined call. */
const char *cb_inline_chain(gimple *stmt, location_t *outer);
/* A loop over elements carries a value around: a PHI in its header that
 * is not the memory state, or a list it pops (memoized per function:
 * cb_loops_reset at the start of each). */
bool cb_has_cursor(class loop *l);
void cb_loops_reset(void);
/* The loop's facts; computes dominators when missing and sets
 * cb_dom_computed (the pass frees them when the function is done). */
loop_facts cb_facts_of(class loop *l);
extern bool cb_dom_computed;

/* ---- summaries and the unit's findings (counter-judge.c) ---- */
struct entry {                /* one update a function makes per call */
	const char *updater, *item_txt, *file;
	const char *tail;         /* "g -> h": what lies between the function and the update */
	const char *calls;        /* "g": the functions of tail that are called, not inlined */
	unsigned line;
	bool rare;                /* on a rare path of the function (rare_path) */
	bool count;               /* the delta is a count made elsewhere */
	tree delta_field;         /* the field the delta is loaded from, or NULL */
	int delta_param;          /* the parameter the delta is made of, or -1 */
	bool gauge;               /* the function adds to and takes from the item */
	item it;                  /* relative to the function: IT_PARAM k possible */
	origin tgt;               /* relative to the function */
	bool has_target;
	unsigned depth;
};
struct edge_rec {             /* a call not inlined, to a function of this unit */
	int callee_uid;
	const char *callee;
	unsigned nargs;
	origin arg_o[MAX_ARGS];   /* function mode */
	item arg_i[MAX_ARGS];
	bool arg_count[MAX_ARGS]; /* the argument is a count (delta_is_count) */
	tree arg_field[MAX_ARGS];
	int arg_param[MAX_ARGS];
	bool rare;                /* the call is on a rare path of the caller */
};
struct fn_rec {
	const char *name;
	vec<entry> entries;       /* its own updates (after inlining) */
	vec<edge_rec> edges;
	vec<entry> summary;       /* composed */
	int state;                /* 0 not composed, 1 composing, 2 done */
};
struct pending {              /* a loop calling a function of this unit */
	const char *function;
	location_t call_loc, loop_loc;
	loop_facts facts;
	const char *chain;
	bool rare;                /* the call is on a rare path of the loop */
	bool retry, once;         /* a retry loop; the call leaves the loop after it */
	int callee_uid;           /* -1: indirect */
	vec<int> targets;         /* indirect: possible callees */
	const char *targets_txt;
	unsigned nargs;
	origin arg_o[MAX_ARGS];   /* loop mode */
	item arg_i[MAX_ARGS];
	bool arg_count[MAX_ARGS];
	tree arg_field[MAX_ARGS];
	int arg_param[MAX_ARGS];
};
/* The record of function uid (made on first use). */
fn_rec *cb_rec_of(int uid, const char *name);
/* A loop call judged at the end of the unit (p: xmalloc'd, kept). */
void cb_pend(pending *p);
/* Report f (update at at, its loop at loop_loc) once per loop, updater and
 * item: a warning at the configured severity, or a note for a looked-up
 * target and indirect calls, and a note at the loop. */
void cb_emit(ch_counter_finding *f, location_t at, location_t loop_loc);
/* Target class in the loop: 0 invariant, 1 looked up, 2 varying. */
int cb_tclass(const origin &o);
/* f->kind (and keys) from a target class and an item; false: silent. */
bool cb_decide(int tc, bool has_target, const item &it, ch_counter_finding *f);
/* PLUGIN_FINISH_UNIT: every pending loop call judged. */
void cb_finish_unit(void *, void *);
void cb_judge_init(void);

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
/* Must be called before repeats_after() looks at a new function (its
 * per-block memos are kept for one function): forgets what it
 * learnt of the last one's blocks. */
void repeats_after_new_function(void);
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
