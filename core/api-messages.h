/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api-messages.h -- part of cachehot-core.h: the message catalogue: texts every engine prints alike.
 * Included by cachehot-core.h only, at its place there (it uses the types
 * declared before it); include cachehot-core.h.
 */
#ifndef CACHEHOT_API_MESSAGES_H
#define CACHEHOT_API_MESSAGES_H
#ifndef CACHEHOT_CORE_H
#error "include cachehot-core.h, not api-messages.h"
#endif

/* ---- message catalogue: texts every engine prints alike ------------------ */
/* How the address of an inline function is used ([cachehot-inline-addr]). */
enum ch_inline_use {
	CH_USE_OTHER = 0,   /* address taken some other way */
	CH_USE_SELECTOR,    /* local pointer only ever called through: fixable */
	CH_USE_LOCAL_ARG,   /* local pointer then passed to a function */
	CH_USE_LOCAL,       /* assigned to a local pointer (escapes or unused) */
	CH_USE_TABLE,       /* stored in an initializer: ops table */
	CH_USE_FIELD,       /* stored through a pointer or field: callback registration */
	CH_USE_ARG,         /* passed as an argument */
	CH_USE_GLOBAL,      /* stored in a global */
	CH_USE_RETURN,      /* returned */
	CH_USE_COMPARE,     /* compared */
	CH_USE_ASM,         /* asm operand */
	CH_USE_VALUE,       /* used as a value; whether a copy is emitted is unknown */
};
struct ch_inline_finding {
	const char *function;      /* the inline function */
	const char *def_file;      /* where it is defined, or NULL */
	unsigned def_line;
	enum ch_inline_use use;
	const char *var;           /* the pointer, table or variable holding it, or NULL */
	const char *callee;        /* CH_USE_ARG/LOCAL_ARG: the function it is passed to */
	int argno;                 /* ... as argument argno (1-based) */
	const char *alternatives;  /* CH_USE_SELECTOR: "f/g", every function the pointer takes */
	const char *engine;        /* CH_USE_VALUE: who cannot tell ("sparse") */
	int extern_def;            /* a non-static inline definition (external
				    * linkage): its body is emitted whatever the
				    * use; the message says that instead */
};
/* The complete message, ending in "[cachehot-inline-addr]". Source: the
 * out-of-line copies of "mm: memcontrol: ..." numa_stat accessors. */
const char *ch_inline_addr_message(ch_ctx *ctx, const struct ch_inline_finding *f);
/* The same message once the object is built: the pointer to cachehot-bloat
 * replaced by the copy's size from the symbol table ("its out-of-line copy
 * is 41 bytes in seed.o"). message as ch_inline_addr_message() made it, with
 * or without its trailing check id. bytes from the ELF symbol (st_size). */
const char *ch_inline_addr_sized(ch_ctx *ctx, const char *message,
				 unsigned long long bytes, const char *object);
/* 1 when the use is fixable by calling directly (a warning); else a note. */
int ch_inline_use_fixable(enum ch_inline_use use);

/* Misused annotations and sidecar entries (errors and notes, check id
 * "[cachehot]" or "[cachehot-inline-addr]"). attr is the attribute's name. */
const char *ch_msg_attr_not_member(ch_ctx *ctx, const char *attr);
/* __cacheline_per_thread on something else than a variable, member or struct. */
const char *ch_msg_attr_per_thread(ch_ctx *ctx, const char *attr);
const char *ch_msg_attr_group_not_string(ch_ctx *ctx, const char *attr);
const char *ch_msg_attr_group_empty(ch_ctx *ctx, const char *attr);
const char *ch_msg_attr_conflict(ch_ctx *ctx, const char *attr, const char *other);
/* Two annotations on one member that differ (another class, or the same
 * class with another group: both groups named; a group may be NULL). An
 * identical repeat ("hot, hot") is no conflict: front-ends ignore it, as the
 * sidecar does. */
const char *ch_msg_attr_conflict_groups(ch_ctx *ctx, const char *attr, const char *group,
				       const char *other, const char *other_group);
/* 1 if the len bytes at s are a C identifier (no NUL, newline, space...):
 * group names, in attributes as in sidecars. */
int ch_group_name_valid(const char *s, size_t len);
/* The group name (len bytes, maybe with NULs) is not an identifier; the
 * name is shown escaped and cut at 64 bytes. */
const char *ch_msg_attr_group_not_identifier(ch_ctx *ctx, const char *attr, const char *name,
					     size_t len);
const char *ch_msg_addressable_not_function(ch_ctx *ctx, const char *what);
const char *ch_msg_addressable_args(ch_ctx *ctx);
const char *ch_msg_sidecar_no_member(ch_ctx *ctx, const char *entry, const char *file,
				     unsigned line, const char *type_name);
/* An entry no struct (a per_thread entry "NAME[]", "STRUCT.FIELD[]": no
 * array; "FUNCTION()": no inline function whose address is taken) of this
 * translation unit matched: "... matched no struct in this translation
 * unit" (CH_MSG_UNMATCHED_TAIL), "... matched no array in this translation
 * unit: ..." (CH_MSG_UNMATCHED_ARRAY_TAIL, then what such an entry names)
 * or CH_MSG_UNMATCHED_FUNC_TAIL. */
const char *ch_msg_sidecar_unmatched(ch_ctx *ctx, const char *entry, const char *file,
				     unsigned line);
/* The same for cachehot-layout, over all its input files ("... in the
 * input"). */
const char *ch_msg_sidecar_unmatched_input(ch_ctx *ctx, const char *entry, const char *file,
					   unsigned line);
/* The entry names typedef_name, a typedef of the tagged struct (or union)
 * 'tag' ("typedef struct conn_queue CQ;"): sidecar entries name the tag, so
 * the entry would match nothing. A warning at the typedef (at most a
 * warning, never an error under -Werror, as ch_msg_sidecar_no_member);
 * the fix names the entry spelt with the tag. entry is "TYPEDEF.FIELD" or
 * "TYPEDEF.@GROUP". */
const char *ch_msg_sidecar_typedef(ch_ctx *ctx, const char *entry, const char *file,
				   unsigned line, const char *typedef_name, const char *tag,
				   int is_union);
/* The driver's verdict over a whole compile database: the entry matched no
 * struct in any of its units (the tree no longer has it, or it names a
 * typedef instead of the tag). units: how many units were checked. */
const char *ch_msg_sidecar_stale(ch_ctx *ctx, const char *entry, const char *file,
				 unsigned line, unsigned long units);
/* cachehot-layout judged no struct and had neither manifest nor sidecar
 * (the binary carries no attributes). */
const char *ch_msg_nothing_judged(ch_ctx *ctx);
/* Prefix every ch_msg_sidecar_unmatched message starts with (for readers of
 * engine output: "sidecar entry '"). */
#define CH_MSG_SIDECAR_ENTRY "sidecar entry '"
#define CH_MSG_UNMATCHED_TAIL "matched no struct in this translation unit"
#define CH_MSG_UNMATCHED_ARRAY_TAIL "matched no array in this translation unit"
#define CH_MSG_UNMATCHED_FUNC_TAIL "matched no inline function whose address is taken in this " \
	"translation unit"
/* A struct with annotations but no fixed layout (a variable-length member,
 * a C++ template pattern): not judged, and said so. */
const char *ch_msg_no_layout(ch_ctx *ctx, const char *type_name, int is_union);
/* A struct with annotations that the sparse checker cannot lay out as GCC
 * does ('why': "a vector_size member", ...; docs/sparse.rst lists them):
 * sparse does not judge it, and says so (a note) instead of judging wrong
 * offsets. */
const char *ch_msg_sparse_no_layout(ch_ctx *ctx, const char *type_name, int is_union,
				    int name_is_typedef, const char *why);
/* NULL when cfg is consistent, else the problem ("predict=64 must be larger
 * than the line size (64 bytes)"). Front-ends refuse such arguments. */
const char *ch_config_problem(ch_ctx *ctx, const struct ch_config *cfg);
/* The same from option values (bytes; line_size 0 = the default 64), for
 * front-ends checking their arguments. */
const char *ch_predict_problem(ch_ctx *ctx, unsigned line_size, unsigned predict);
/* 1 if a sidecar entry names struct type_name (a front-end's cheap test
 * before it converts a struct). */
int ch_sidecar_names_type(const ch_ctx *ctx, const char *type_name);

#endif /* CACHEHOT_API_MESSAGES_H */
