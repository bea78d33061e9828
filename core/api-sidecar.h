/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-sidecar.h -- part of cachehot-core.h: sidecar annotations: loading (plain and through the index of a big sidecar), the lookups every engine makes, the unmatched and missing-field lists.
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_SIDECAR_H
#define CACHEHOT_API_SIDECAR_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-sidecar.h"
#endif

/* ---- sidecar annotations ------------------------------------------------ */
/* Load "STRUCT.FIELD CLASS[:GROUP]" lines ('#' comments) from path. Several
 * files may be loaded. Errors: -1 and ch_ctx_error() is
 * "FILE:LINE: message" for the first malformed line. */
int ch_sidecar_load(ch_ctx *ctx, const char *path);
/* Same, from a string (tests); 'name' is used in error messages. */
int ch_sidecar_load_string(ch_ctx *ctx, const char *name, const char *text);
/* One sidecar line (no newline) read at name:lineno (a "#pragma cachehot"
 * line of a header: plugin/build.c); name is borrowed. 0, or -1 with
 * ch_ctx_error() naming name:lineno. */
int ch_sidecar_load_line(ch_ctx *ctx, const char *name, unsigned lineno, const char *text);
/* The same entries and errors as ch_sidecar_load(), for a file of
 * CH_SIDECAR_INDEX_MIN bytes or more loaded first into ctx without parsing
 * it whole in every process: an index of that file as it is (keyed by its
 * device, inode, size, mtime and ctime) in cache_dir (NULL: $CACHEHOT_CACHE_DIR, else
 * $XDG_CACHE_HOME/cachehot, else $HOME/.cache/cachehot) says where each
 * struct's lines are; they are parsed when a lookup first names the struct.
 * The first process to load the file parses it whole and writes the index
 * (temporary name, then rename; not for a file changed in the last 2 s). Smaller files, later files, or no usable
 * directory: ch_sidecar_load(). sidecar-index.c. The bound: loading
 * through an index costs about 4 k instructions and parsing a line about
 * 1.5 k (the shipped 60-line 6.1 sidecar: 88 k parsed whole, 4 k plus the
 * 6 lines of page_counter through the index, on mm/page_counter.c;
 * callgrind), so every file of a few entries is cheaper through one. It
 * was 16 KiB. */
#define CH_SIDECAR_INDEX_MIN 256
int ch_sidecar_load_cached(ch_ctx *ctx, const char *path, const char *cache_dir);
/* For fuzzing only (fuzz/fuzz_sidecar_index.c; no engine calls it): make
 * the checks of an index image (len bytes, as on disk, modified in place;
 * 8-byte aligned) match its content, as a forger would. */
void ch_sidecar_index_reseal(void *img, size_t len);
/* For fuzzing only: 1 if img (len bytes) is an index the core would map and
 * a part of it passes its check but differs from good (the index as
 * written, good_len bytes): a forged part. Both 8-byte aligned. */
int ch_sidecar_index_forged(const void *img, size_t len, const void *good, size_t good_len);
/* Keep the answers of big struct fixes' layout searches (ch_struct_fix*)
 * across processes in cache_dir (NULL: the directory the sidecar index
 * uses, above), one file per struct, checked against the whole input before
 * use (core/fix-cache.c): a build's units search a struct such as 6.1's
 * pglist_data once. Output is the same with and without. 0, or -1 when no
 * directory or no identity of the running binary can be named (nothing is
 * kept then). */
int ch_fix_cache_enable(ch_ctx *ctx, const char *cache_dir);
/* Class for type_name.field from the sidecar (marks the entry matched).
 * Returns CH_CLASS_NONE when there is none. */
enum ch_class ch_sidecar_class(ch_ctx *ctx, const char *type_name,
			       const char *field, const char **group);
/* The same, and *inferred (when not NULL) as ch_sidecar_inferred() would
 * say for that entry: one lookup for both (0 when there is no entry). */
enum ch_class ch_sidecar_class_inferred(ch_ctx *ctx, const char *type_name,
					const char *field, const char **group, int *inferred);
/* 1 if the sidecar has a member-path entry "type_name.PREFIX.x..." (any
 * member path of type_name when prefix is NULL): the embedded struct at
 * PREFIX is annotated in this container even when its own type is not. */
int ch_sidecar_path_under(const ch_ctx *ctx, const char *type_name, const char *prefix);
/* 1 when type_name.field's class comes from an inferred sidecar (the lines
 * after "# cachehot annotate:" in its file): its false-sharing pairs are
 * reported once per struct, the other pairs as notes (docs/annotate.md). */
int ch_sidecar_inferred(ch_ctx *ctx, const char *type_name, const char *field);
/* Walk entries that never matched: fn(file, line, "STRUCT.FIELD", arg).
 * Returns how many. */
size_t ch_sidecar_unmatched(ch_ctx *ctx,
			    void (*fn)(const char *file, unsigned line,
				       const char *entry, void *arg),
			    void *arg);
/* Number of entries loaded. */
size_t ch_sidecar_count(const ch_ctx *ctx);
/* After a struct named type_name was judged: call fn for each sidecar entry
 * "type_name.FIELD" that named no member of it (a typo), and take those
 * entries out of the end-of-run unmatched list. Returns how many. */
/* Mark the entries naming members of t (and of its anonymous members) as
 * matched, attributes or not: call before ch_sidecar_missing_fields so that
 * an entry the source also annotates is not called stale. */
void ch_sidecar_mark_members(ch_ctx *ctx, const struct ch_type *t);
size_t ch_sidecar_missing_fields(ch_ctx *ctx, const char *type_name,
				 void (*fn)(const char *file, unsigned line,
					    const char *entry, void *arg),
				 void *arg);
/* A sidecar line "STRUCT owned" says every object of struct STRUCT is used
 * by one thread or CPU at a time (cachehot annotate writes it from ownership
 * evidence: thread-local, per-CPU, stack objects, docs/annotate.md): a pair
 * of fields inside one such object is no false sharing (core/rules.c).
 * 1 if type_name is so marked (marks the entry matched). */
int ch_sidecar_owned(ch_ctx *ctx, const char *type_name);
/* Sidecar lines of the form "FUNCTION() addressable" mark an inline function
 * whose address is meant to be taken (ops tables, callbacks): the
 * inline-addr check stays silent for it. 1 if func is so marked. */
int ch_sidecar_addressable(ch_ctx *ctx, const char *func);
/* Sidecar lines "NAME[] per_thread", "NAME[N] per_thread" and
 * "STRUCT.FIELD[] per_thread" mark an array (or a pointer to a heap array)
 * of per-thread elements ([cachehot-array-sharing]); NAME is a variable or
 * a struct tag. 1 if name ("stats", "pool.workers", "worker") is so marked;
 * *count gets N (elements; 0 when not given). */
int ch_sidecar_per_thread(ch_ctx *ctx, const char *name, uint64_t *count);
/* How many such per_thread lines are loaded (0: no lookup can match; the
 * engines skip the per-member lookups). */
size_t ch_sidecar_per_thread_count(const ch_ctx *ctx);
/* Sidecar lines "VARIABLE CLASS[:GROUP]" (a bare identifier: no '.', '()'
 * or '[]') annotate a global variable ([cachehot-global-sharing], judged by
 * cachehot-layout on the ELF symbol table). The class of the variable name
 * (marks its entry matched), CH_CLASS_NONE when the sidecar has none; *group
 * (may be NULL) gets its hot group or NULL. Compile engines never list these
 * entries as unmatched (ch_sidecar_unmatched): where a variable ends up is
 * only known in the linked binary. */
enum ch_class ch_sidecar_global_class(ch_ctx *ctx, const char *name, const char **group);
/* "NAME CLASS[:GROUP]": how messages show a global-variable entry. */
const char *ch_sidecar_global_entry(ch_ctx *ctx, const char *name, enum ch_class cls,
				    const char *group);
/* A sidecar variable entry that matches nothing may be STRUCT.FIELD with
 * the dot dropped ("page_counterusage" for "page_counter.usage"). Engines
 * tell the core every member name of every struct or union tag they see
 * (anonymous members' names count as the tag's own): when tag and member
 * run together are a variable entry's name, the entry remembers the hint
 * "TAG.MEMBER" (the longest tag wins). One hash lookup per call; nothing is
 * done when the sidecar has no variable lines (ch_sidecar_global_count). */
void ch_sidecar_hint_member(ch_ctx *ctx, const char *tag, const char *member);
/* 1 if some variable entry's name starts with tag and is longer: only then
 * can a member of tag give a hint (most tags of a unit cannot; engines ask
 * before walking the members). One hash lookup; the table of the names'
 * prefixes (linear in the sidecar's size) is built on the first call. */
int ch_sidecar_hint_tag(ch_ctx *ctx, const char *tag);
/* The same for every member of t (t->name is the tag). */
void ch_sidecar_hint_type(ch_ctx *ctx, const struct ch_type *t);
/* How many "VARIABLE CLASS" lines are loaded. O(1). */
size_t ch_sidecar_global_count(const ch_ctx *ctx);
/* The hint remembered for variable entry name ("TAG.MEMBER"), or NULL. */
const char *ch_sidecar_global_hint(ch_ctx *ctx, const char *name);
/* Call fn for every global-variable entry in file order (name without any
 * decoration; matched: 1 once ch_sidecar_global_class looked it up).
 * Returns how many there are. */
size_t ch_sidecar_globals(ch_ctx *ctx,
			  void (*fn)(const char *name, enum ch_class cls, const char *group,
				     const char *file, unsigned line, int matched, void *arg),
			  void *arg);
/* 1 if some "STRUCT.FIELD[] per_thread" line names a member of struct
 * type_name (one hash lookup: a front end asks before looking up each
 * member with ch_sidecar_per_thread). Marks nothing matched. */
int ch_sidecar_per_thread_members(const ch_ctx *ctx, const char *type_name);
/* Sidecar lines "STRUCT.@GROUP CLASS" set the class of a kernel cacheline
 * group (CLASS: hot|written, read_mostly, none), overriding the one its name
 * gives. Returns 1 and *out if such a line names type_name.@group (marks it
 * matched), else 0. */
int ch_sidecar_group_class(ch_ctx *ctx, const char *type_name, const char *group,
			   enum ch_class *out);

#endif /* CACHEHOT_API_SIDECAR_H */
