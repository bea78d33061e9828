/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-plugin.h -- what the plugin's parts share (C++ only; GCC headers).
 *
 * plugin/cachehot.c owns plugin_init, argument parsing and the layout check's
 * events (its other parts: plugin/layout-check.h); plugin/inline-addr.c and
 * plugin/inline-addr-ipa.c own the [cachehot-inline-addr] check.
 */
#ifndef CACHEHOT_PLUGIN_H
#define CACHEHOT_PLUGIN_H

#include "../core/cachehot-core.h"

/* Parsed -fplugin-arg-cachehot-* options, filled before any hook runs. */
struct cachehot_opts {
	unsigned line_size;        /* bytes; 0 = from SMP_CACHE_BYTES / 64 */
	unsigned predict;          /* bytes; 0 = off */
	enum ch_severity severity; /* for warnings */
	const char *manifest;      /* JSON manifest path, "object", or NULL */
	const char *manifest_file; /* the file to merge into (not "object"), or NULL */
	int inline_addr;           /* 1 = run the inline-addr check (default 1) */
	int inline_notes;          /* 1 = print ops-table/callback findings as notes (default 1) */
	int counter_batch;         /* 1 = run the counter-batch check (default 1) */
	int werror;                /* 0 = cachehot's warnings stay warnings under -Werror (default 1) */
	const char *findings;      /* findings=PATH: the unit's findings as records, or NULL */
};

extern struct cachehot_opts cachehot_opts;
/* plugin/options.c: every -fplugin-arg-cachehot-KEY, the one list. */
extern const struct ch_option cachehot_plugin_options[];
/* The one core context of this compilation (sidecar loaded into it). */
extern ch_ctx *cachehot_ctx;

/* plugin/inline-addr.c: register the attributes it owns (called from the
 * PLUGIN_ATTRIBUTES callback) and its callbacks/passes (from plugin_init). */
void cachehot_inline_attributes(void);
void cachehot_inline_init(const char *plugin_name);
/* PLUGIN_FINISH_DECL for inline-addr, called from the plugin's one
 * FINISH_DECL callback (one callback per declaration instead of two) when
 * inline-addr is on. */
void cachehot_inline_finish_decl(union tree_node *decl);
/* Print a finding at sev (note, warning or error) at loc (a rich_location*
 * or location_t through the two overloads). A warning is left a warning
 * under -Werror when werror=0, or when not_fatal is set (stale sidecar
 * entries: a sidecar written for another tree never breaks a build). */
class rich_location;
void cachehot_diag(rich_location *rich, enum ch_severity sev, const char *msg, bool not_fatal = false);
void cachehot_diag(unsigned loc, enum ch_severity sev, const char *msg, bool not_fatal = false);
/* The same for a diagnostic with its record (core/findings.c): r->severity
 * and r->message are printed at loc; r is recorded (findings=PATH) at loc's
 * spelling point and GCC's printed column unless r->file is set. Every
 * finding the plugin prints goes through here or cachehot_emit. */
void cachehot_report(unsigned loc, struct ch_record *r, bool not_fatal = false);
/* The location a finding at loc is reported at (every engine the same):
 * the expansion point for a token from a macro's body, else loc. */
unsigned cachehot_where(unsigned loc);
/* A cachehot error of check at loc (a misused attribute): printed and
 * recorded. */
void cachehot_error(enum ch_check check, unsigned loc, const char *msg);


/* plugin/counter-batch.c: the [cachehot-counter-batch] pass. updaters()
 * loads the built-in list and adds "NAME[:TARGET:ITEM],..." (spec may be
 * NULL); init() registers the pass and its end-of-unit judgement. */
void cachehot_counter_updaters(const char *spec, const char *plugin_name);
void cachehot_counter_init(const char *plugin_name);
/* counter-batch is on: cachehot.c's PLUGIN_FINISH_TYPE callback passes
 * each enum type to cachehot_counter_enum (one callback for the event's
 * 2 330 calls on mm/page_counter.c, not two: 23 k instructions) */
extern bool cachehot_counter_enums;
void cachehot_counter_enum(union tree_node *type);
/* A sidecar line was added while parsing (#pragma cachehot, build.c):
 * answers kept about the unit's types may change. */
void cachehot_sidecar_changed(void);
/* For the other parts: the core type of a laid-out struct (NULL if it has
 * no fixed layout; plugin/cachehot.c), the unit's configuration
 * (plugin/config.c), and the printer of findings (plugin/diag.c). */
union tree_node;
struct ch_type *cachehot_convert(union tree_node *type);
void cachehot_config(struct ch_config *cfg);
void cachehot_emit(const struct ch_finding *f, void *arg);
/* plugin/cachehot.c: a cachehot attribute was written in this unit (until
 * then the layout hooks skip every type and declaration). */
void cachehot_attribute_seen(void);
/* plugin/per-thread.c ([cachehot-array-sharing]) */
void cachehot_per_thread_attributes(void);
/* false while nothing in the unit or the sidecar is marked per-thread:
 * then none of the per-thread functions can report, and the plugin does
 * not call them for each struct. */
bool cachehot_per_thread_possible(void);
void cachehot_per_thread_type(union tree_node *type);
void cachehot_per_thread_var(union tree_node *decl);
void cachehot_per_thread_members(union tree_node *type, const char *sname);
bool cachehot_per_thread_any(union tree_node *type, const char *sname);
/* plugin/access.c: the access mode (access=PATH): registers its GIMPLE
 * pass and the unit's output; called from plugin_init only when asked. */
void cachehot_access_init(const char *plugin_name, const char *path);
/* plugin/access-calls.c: does an asm template lock or exchange (an atomic RMW)? */
bool cachehot_asm_is_atomic(const char *asm_template);
/* plugin/access-calls.c: an asm statement's memory operands, each once, with
 * what the asm does to it, as the access mode and the recording mode both
 * take them: an output is a store, an input a load, and either is a
 * read-modify-write when the template is atomic (cachehot_asm_is_atomic);
 * an input that repeats an output ("+m") is that output. IS_MEM says which
 * operands are memory; FN(op, kind, ctx) is called for each, outputs first. */
enum cachehot_asm_kind { CACHEHOT_ASM_LOAD, CACHEHOT_ASM_STORE, CACHEHOT_ASM_RMW };
void cachehot_asm_memory_operands(const struct gasm *stmt, bool (*is_mem)(union tree_node *),
				  void (*fn)(union tree_node *op, enum cachehot_asm_kind kind, void *ctx),
				  void *ctx);
/* plugin/access-ref.c: the tag of a struct or union type (of its main
 * variant: "struct page" -> "page"), else NULL (a struct without a tag, a
 * typedef of one, or not a struct). The string is GCC's identifier: do not
 * free it. */
const char *cachehot_struct_tag(union tree_node *type);
/* plugin/access-calls.c: GCC's internal forms of the __atomic_* builtins (a
 * compare-exchange whose expected value lives in a register, as
 * `while (!__atomic_compare_exchange_n(&r->tail, &pos, next, ...))` becomes
 * .ATOMIC_COMPARE_EXCHANGE once pos is an SSA name; bit test-and-set/
 * complement/reset; op-fetch compared with 0): the pointer to the object
 * they read-modify-write, else NULL. */
union tree_node *cachehot_internal_atomic_ptr(const struct gcall *stmt);
/* plugin/record.c: the recording mode (record[=SPEC]); returns an error
 * text for a bad SPEC, else NULL. Runs in cc1 and in lto1. */
const char *cachehot_record_init(const char *plugin_name, const char *spec);
/* The unit's access facts when the access mode is on, else NULL. */
ch_access_facts *cachehot_access_facts(void);
/* plugin/build.c: the build contract. build_init (from plugin_init):
 * annotations (the annotations= values, ':'-separated, or NULL) become
 * dependencies of the unit and "#pragma cachehot" is read; once: the once=
 * directory or NULL; records: write the unit's records into the object.
 * build_finish_init: called last, registers the object records' writer
 * after every other end-of-unit callback. */
void cachehot_build_init(const char *plugin_name, const char *annotations, const char *once,
			 bool records);
void cachehot_build_finish_init(const char *plugin_name);

/* plugin/dispatch.c: GCC's event dispatch off from the end of the parse to
 * the end of the regular IPA passes and from PLUGIN_ALL_IPA_PASSES_END to the
 * end of the unit's compilation, when cachehot is the compile's only plugin
 * and pass_events_wanted (the recording mode) is false. */
void cachehot_dispatch_init(const char *plugin_name, bool pass_events_wanted);
/* The unit's options as 16 hex digits (with its source, its identity). */
const char *cachehot_unit_flags(void);
/* A source file's name in the unit's records (malloc'd, or NULL: keep the
 * name as spelled): its real path, or on a farm node where the file does
 * not exist, the preprocessed text's working directory joined to it. */
char *cachehot_source_path(const char *file);
/* once=DIR: true when this finding (at loc, about a file other than the
 * main source) was already printed by a unit of this build. */
bool cachehot_once_printed(unsigned loc, const char *msg);
#ifdef GCC_TREE_H   /* units that include GCC's tree.h first */
/* The object an SSA pointer points to when it was made by &X (through at
 * most 8 copies and casts), else NULL_TREE (plugin/access-ref.c). */
tree cachehot_pointee(tree ptr);
#endif
/* mkdir -p; 0 when dir is a directory afterwards. */
int cachehot_mkdir_p(const char *dir);

#endif
