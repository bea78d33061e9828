/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-access.h -- part of cachehot-core.h: access facts (the plugin access mode) and their inference (cachehot annotate).
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_ACCESS_H
#define CACHEHOT_API_ACCESS_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-access.h"
#endif

/* ---- access facts (plugin access mode) and inference (cachehot annotate) -- */
/* Per struct field and per function: how the code touches the field.
 * Source of the model: docs/annotate.md. A "marked" access is
 * a volatile one (READ_ONCE/WRITE_ONCE); an RMW is an atomic
 * read-modify-write (a locking or exchanging inline asm on the field, an
 * __atomic_* or __sync_* builtin). A plain x++ is one load and one store. */
enum ch_access_kind {
	CH_ACC_LOAD = 0, CH_ACC_STORE, CH_ACC_RMW, CH_ACC_MLOAD, CH_ACC_MSTORE,
	CH_ACC_UPDATE,      /* a store whose value is computed from a load of the
			     * same field (x->n++, x->clock += d, x->v = max(x->v, y)):
			     * counted besides its store */
	CH_ACC_RARE_WRITE,  /* a write of any kind on a path the code marks
			     * unlikely (under unlikely()): counted instead of it */
	CH_ACC_RARE_READ,   /* a load of either kind on such a path: instead of it */
	CH_ACC__COUNT
};
typedef struct ch_access_facts ch_access_facts;
/* What a unit knows of one function it defines. */
struct ch_access_fn_info {
	const char *file;          /* definition, or NULL */
	unsigned line;
	int is_static;             /* internal linkage */
	int exported;              /* EXPORT_SYMBOL*() in this unit */
	int init, exit;            /* in .init.text / .exit.text (__init, __exit) */
	int cold;                  /* cold attribute (__cold; __init implies it) */
	int is_inline;             /* declared inline (a helper; counted at its callers) */
};
/* New empty set of facts; unit (copied) names the translation unit, or NULL
 * for a merged set. Owned by the caller: ch_access_free(). */
ch_access_facts *ch_access_new(const char *unit);
void ch_access_free(ch_access_facts *a);
const char *ch_access_error(const ch_access_facts *a);
const char *ch_access_kind_name(enum ch_access_kind k);  /* "load", "rmw", ... */
/* One access to struct_name's member path ("usage.counter": direct member
 * first) in function. offset: the direct member's offset in BYTES;
 * composite: the tag of the direct member's struct/union type when it has
 * one (its fields are recorded under that tag too), else NULL. */
void ch_access_field(ch_access_facts *a, const char *struct_name, const char *path,
		     uint64_t offset, const char *composite, const char *function,
		     enum ch_access_kind kind);
/* The address of struct_name's member path (as for ch_access_field) passed
 * as argument arg (0-based) of a call in function to callee (NULL: an
 * indirect call); is_const: the parameter points to const. The write or read
 * it stands for is decided when the facts are merged: by callee's summary
 * (ch_access_param) when some unit defines callee, else written (read only
 * when is_const); unlikely: the call is on a path the code marks unlikely
 * (its writes are rare). docs/annotate.md, "Writes through an address". */
void ch_access_field_passed(ch_access_facts *a, const char *struct_name, const char *path,
			    uint64_t offset, const char *composite, const char *function,
			    const char *callee, unsigned arg, int is_const, int unlikely);
/* One access of kind through function's pointer parameter param (0-based),
 * or through an address derived from it (p->f, p[i], &p->f). */
void ch_access_param(ch_access_facts *a, const char *function, unsigned param,
		     enum ch_access_kind kind);
/* function's pointer parameter param (or an address derived from it) passed
 * as argument arg of a call to callee (NULL: indirect); is_const as above;
 * unlikely: the call is on a path the code marks unlikely. */
void ch_access_param_passed(ch_access_facts *a, const char *function, unsigned param,
			    const char *callee, unsigned arg, int is_const, int unlikely);
/* As ch_access_field(), for an access through an object that one thread or
 * CPU owns (owner says why: "thread-local", "per-CPU", "on the thread's
 * stack", "indexed by the thread's id", "thread-context pointer"; NULL: an
 * ordinary access). Such accesses are counted apart ("owned") and are no
 * evidence of sharing (docs/annotate.md, "Ownership"). */
void ch_access_field_owned(ch_access_facts *a, const char *struct_name, const char *path,
			   uint64_t offset, const char *composite, const char *function,
			   enum ch_access_kind kind, const char *owner);
/* 1 if an object owned for this reason can also be reached by other threads
 * or CPUs (per-CPU data through per_cpu_ptr(p, cpu), another thread's
 * element of an array indexed by thread id): its owner's writes are then
 * recorded apart too ("owned_write", "owned_update"), and count when
 * other functions reach the same field (core/infer.c). */
int ch_access_owner_shared(const char *owner);
/* struct_name is defined in this unit with its first member at file:line,
 * size bytes, layout a hash of its members' names and bit positions:
 * merged facts keep different layouts of one tag apart ("TAG@FILE:LINE"),
 * as two programs of one tree may have. */
void ch_access_struct_def(ch_access_facts *a, const char *struct_name, const char *file,
			  unsigned line, uint64_t size, unsigned long layout);
int ch_access_has_struct_def(ch_access_facts *a, const char *struct_name);
/* Merge only units whose source path matches only (POSIX extended regex),
 * and none that match exclude (either may be NULL): one program of a tree
 * at a time. 0, or -1 for a bad expression. */
int ch_access_set_units(ch_access_facts *a, const char *only, const char *exclude);
/* Merge only the units named in units (n real source paths: the units of
 * one linked program, cachehot annotate --program); the others are counted
 * as left out, as with ch_access_set_units(). The names are copied. */
void ch_access_set_program_units(ch_access_facts *a, const char *const *units, size_t n);
/* The address of struct_name's member path is handed to a function whose
 * name says it locks (spin_lock, pthread_mutex_lock, HA_SPIN_LOCK's
 * pl_take_s, ...): evidence that threads share the struct, kept apart from
 * the access counts ("locked"). */
void ch_access_field_locked(ch_access_facts *a, const char *struct_name, const char *path,
			    uint64_t offset, const char *composite, const char *function);
/* function is a slow path by itself: why = "atexit" (an exit handler),
 * "signal" (a signal handler), "constructor" (constructor or destructor
 * attribute: runs before main() or at exit). */
void ch_access_slow_root(ch_access_facts *a, const char *function, const char *why);
/* function calls pthread_create()/thrd_create() (create 1) or
 * pthread_join()/thrd_join() (create 0). */
void ch_access_thread_call(ch_access_facts *a, const char *function, int create);
/* main() calls callee at this source line. */
void ch_access_main_call(ch_access_facts *a, const char *callee, unsigned line);
/* function's address is taken in the unit (it may be called through a
 * pointer); ignored for a function the unit has no facts for. */
void ch_access_address_taken(ch_access_facts *a, const char *function);
/* The unit is kernel code (__KERNEL__ defined): no userspace slow-path rule
 * applies to its functions. */
void ch_access_unit_kernel(ch_access_facts *a, int kernel);
void ch_access_function(ch_access_facts *a, const char *function,
			const struct ch_access_fn_info *info);
void ch_access_call(ch_access_facts *a, const char *caller, const char *callee);
/* A call made on a path the code marks unlikely (ch_access_call() wins when
 * the caller also calls it elsewhere). */
void ch_access_call_unlikely(ch_access_facts *a, const char *caller, const char *callee);
void ch_access_export(ch_access_facts *a, const char *function);
/* Write a unit's facts to path as JSON (temporary file + rename, like the
 * manifest; a device or FIFO is written in place). 0, or -1 with
 * ch_access_error(). */
int ch_access_write(ch_access_facts *a, const char *path);
/* Merge one unit's file into a (a merged set). 0, or -1 with the error
 * ("FILE:LINE: ..." for bad JSON). */
int ch_access_merge_file(ch_access_facts *a, const char *path);
/* The same for one record's text (from an object: core/objsec.c); origin
 * names it in errors. A unit already merged (same "unit" and "flags") is
 * skipped: ch_access_repeats() counts those, and the ones whose content
 * differed (*conflicts; the first read stays). */
int ch_access_merge_text(ch_access_facts *a, const char *text, const char *origin);
size_t ch_access_repeats(const ch_access_facts *a, size_t *conflicts);
/* Units merged into a (repeats not counted). */
size_t ch_access_units(const ch_access_facts *a);
/* The unit's compile options as a digest (16 hex digits; the plugin's
 * plugin/build.c): with "unit", the unit's identity. Copied. */
void ch_access_set_flags(ch_access_facts *a, const char *flags);
/* A unit's facts as one compact JSON text (sorted keys), as written into
 * the object; malloc'd, caller frees. */
char *ch_access_text(ch_access_facts *a);

/* Thresholds of the inference, counted in distinct functions outside slow
 * paths (init/exit sections, cold, or only called from those). Defaults:
 * ch_infer_defaults(); meaning in docs/annotate.md. */
struct ch_profile;
struct ch_profile_opts;
struct ch_infer_opts {
	unsigned hot_rmw_fns;      /* hot: atomic RMWs in at least this many functions (2) */
	unsigned hot_write_fns;    /* ... or writes of any kind in this many (4) */
	unsigned rm_read_fns;      /* read_mostly: read in at least this many (3) */
	unsigned rm_max_write_fns; /* ... written in at most this many (3) */
	unsigned rm_ratio;         /* ... and readers >= ratio * writers (3) */
	unsigned min_fields;       /* a struct is suggested with at least this many
				    * lines, one of them hot (2) */
	unsigned group_overlap;    /* percent: hot fields whose writer sets overlap
				    * this much (Jaccard) form a group (50) */
	unsigned init_fields;      /* a function storing >= this many fields of a
				    * struct, with no RMW on it and no load of what it
				    * stores, initializes it: its writes are not
				    * evidence (2; 0 = off) */
	unsigned hot_update_fns;   /* hot: updated from its own value (x->n++,
				    * x->clock += d) in this many functions (1;
				    * 0 = off); such a field is never read_mostly */
	const char *only;          /* only this struct, or NULL */
	const char *slow;          /* POSIX extended regex: matching functions are
				    * slow paths (--slow), or NULL */
	struct ch_profile *profile; /* a recorded run (cachehot-profile.h; not
				    * owned), or NULL: with it, the run's counts
				    * class each field of a struct its threads
				    * share, and a struct the run did not touch or
				    * did not share gets its lines commented out
				    * (docs/annotate.md, "With a recorded run") */
	const struct ch_profile_opts *profile_opts; /* its thresholds (not owned) */
};
void ch_infer_defaults(struct ch_infer_opts *o);
/* Write the sidecar suggestion for merged facts to out, sorted by struct
 * name then member offset, every line with its evidence and confidence.
 * Returns the number of suggested lines. */
size_t ch_infer_sidecar(ch_access_facts *a, const struct ch_infer_opts *o, FILE *out);
/* The evidence behind one member's suggestion (what: "STRUCT.FIELD"), one
 * function a line: its counts, and whether it is a slow path (and why) or
 * an initializer; the owned-object accesses left out. 0 done, 1 no such
 * struct or member in the facts (said on out), -1 what is not STRUCT.FIELD. */
int ch_infer_explain(ch_access_facts *a, const struct ch_infer_opts *o, const char *what, FILE *out);

#endif /* CACHEHOT_API_ACCESS_H */
