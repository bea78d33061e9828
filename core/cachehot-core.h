/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachehot-core.h -- the one layout model and rule engine behind every
 * cachehot front-end (GCC plugin, sparse checker, DWARF/pahole reader).
 *
 * A front-end turns each aggregate type it meets into a ch_type: its direct
 * members only, each with byte offset/size inside the type, bit-field
 * position, alignment, annotation class and group, and, for members that are
 * themselves structs/unions (or arrays of them), a pointer to that member's
 * ch_type. The core walks nesting itself (absolute offsets), applies sidecar
 * annotations, judges the layout and formats every message. Front-ends only
 * print what the core hands them, through their own diagnostic machinery.
 *
 * Units: offsets and sizes are BYTES unless the name says bits. Alignments
 * are bytes. Line indexes count cache lines from the start of the struct.
 *
 * Ownership: everything a ch_ctx hands out (types, members, strings,
 * findings) belongs to that ctx and is freed by ch_ctx_free(). Strings
 * passed in are copied.
 *
 * Errors: functions returning int return 0 on success, -1 on error with a
 * message available from ch_ctx_error(). Allocation failure aborts (the
 * front-ends are compiler passes and short-lived tools).
 *
 * Plain C99 that both gcc and g++ compile: no GCC, sparse or libdw types.
 *
 * This header includes, each at its place, the parts split out of it by
 * what they declare: api-sidecar.h (sidecar annotations), api-groups.h (the
 * kernel's cacheline groups), api-messages.h (the message catalogue),
 * api-output.h (output files, records, the manifest), api-counter.h
 * ([cachehot-counter-batch]) and api-access.h (access facts and
 * inference). Include this one.
 */
#ifndef CACHEHOT_CORE_H
#define CACHEHOT_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CH_VERSION "0.1.0"
#define CH_DEFAULT_LINE_SIZE 64u

/* Annotation class of a member (include/cachehot.h, docs/annotations.rst). */
enum ch_class {
	CH_CLASS_NONE = 0,
	CH_CLASS_HOT,          /* __cacheline_hot / __cacheline_hot_group(g) */
	CH_CLASS_EXCLUSIVE,    /* __cacheline_exclusive: hot and alone on its lines */
	CH_CLASS_READ_MOSTLY,  /* __cacheline_read_mostly */
};

/* How a member isolates what follows it (the padding-macro check). */
enum ch_pad_kind {
	CH_PAD_NONE = 0,
	CH_PAD_UNIFIED,   /* struct cacheline_padding (CACHELINE_PADDING, linux/cache.h) */
	CH_PAD_PRIVATE,   /* another aligned zero-size struct: PC_PADDING, MEMCG_PADDING, ZONE_PADDING */
	CH_PAD_BYTES,     /* hand-sized byte array, e.g. char pad[56] */
	CH_PAD_ALIGNED,   /* a data member with an explicit alignment attribute
			   * (____cacheline_aligned_in_smp, __aligned(N)) */
};

/* Check ids: printed as "[cachehot-<id>]" (public interface). */
enum ch_check {
	CH_CHECK_FALSE_SHARING = 0, /* cachehot-false-sharing */
	CH_CHECK_PADDING_MACRO,     /* cachehot-padding-macro */
	CH_CHECK_INLINE_ADDR,       /* cachehot-inline-addr */
	CH_CHECK_COUNTER_BATCH,     /* cachehot-counter-batch */
	CH_CHECK_GROUP_SPAN,        /* cachehot-group-span */
	CH_CHECK_GROUP_MARKERS,     /* cachehot-group-markers */
	CH_CHECK_NET_CACHELINES,    /* cachehot-net-cachelines (core/cachehot-netcl.h) */
	CH_CHECK_GROUP_ASSERT,      /* cachehot-group-assert */
	CH_CHECK_ARRAY_SHARING,     /* cachehot-array-sharing */
	CH_CHECK_GLOBAL_SHARING,    /* cachehot-global-sharing (core/globals.c) */
	CH_CHECK__COUNT,
	/* "[cachehot]": an annotation that cannot be applied (a sidecar entry
	 * or an attribute that names nothing, a misused attribute); not a
	 * layout check, but a row of the registry like the checks */
	CH_CHECK_ANNOTATION = CH_CHECK__COUNT,
	CH_CHECK__ROWS               /* rows of the registry (core/registry.c) */
};

enum ch_severity { CH_SEV_NOTE = 0, CH_SEV_WARNING, CH_SEV_ERROR };

/* Source position; file is a ctx-owned string or NULL when unknown.
 * line and col are 1-based; 0 means unknown. */
struct ch_loc {
	const char *file;
	unsigned line;
	unsigned col;
	uint64_t fe_loc;          /* the front-end's own location (GCC location_t,
				   * sparse position), carried to findings as is */
};

struct ch_type;
struct ch_group;

/* One direct member of a struct or union. */
struct ch_member {
	const char *name;         /* NULL for an anonymous struct/union member */
	uint64_t offset;          /* bytes from the start of the enclosing type */
	uint64_t size;            /* bytes; for a bit-field: bytes its bits touch */
	unsigned bit_offset;      /* bit-field: first bit, counted from 'offset' */
	unsigned bit_size;        /* bit-field width in bits; 0 if not a bit-field */
	unsigned align;           /* bytes: the member's alignment in the layout */
	int user_align;           /* 1 if an alignment attribute raised 'align' */
	const struct ch_type *type; /* aggregate (or array-of-aggregate element) type, else NULL */
	uint64_t nelems;          /* array: element count (1 for a non-array) */
	uint64_t elem_size;       /* bytes of one element (== size for a non-array) */
	int flexible;             /* flexible array member (no size of its own) */
	int is_integer;           /* scalar integer (or array of them) */
	const char *type_name;    /* for messages: "struct cacheline_padding", "char[56]" */
	enum ch_class cls;        /* from the member's attribute; NONE if none */
	const char *group;        /* hot group name, or NULL */
	struct ch_loc loc;
	/* set by the core (ch_type_groups), never by a front-end: the kernel
	 * cacheline group this member lies in, or NULL */
	const struct ch_group *kgroup;
};

/* One struct or union, direct members in declaration order. */
struct ch_type {
	const char *name;         /* tag, or typedef name of an anonymous struct; NULL */
	int name_is_typedef;      /* 1: 'name' is a typedef name (printed without "struct") */
	int is_union;
	uint64_t size;            /* bytes */
	unsigned align;           /* bytes, attributes included */
	int packed;
	int randomized;           /* laid out by randstruct: not judged */
	/* [cachehot-array-sharing] only: the element type of a per-thread array
	 * cannot be aligned where it is declared, so the fix wraps each element
	 * in an aligned struct: CH_WRAP_SCALAR (an integer, pointer or enum:
	 * 'item *heads[N]') or CH_WRAP_SYSTEM (declared in a system header,
	 * ch_is_system_header(): 'pthread_mutex_t locks[N]'; named by 'name').
	 * 0 for the user's own struct types. */
	int wrap;
	struct ch_loc loc;
	struct ch_member *members;
	size_t nmembers;
	/* private to the core */
	size_t cap;
	int annot_state;          /* 0 unknown, 1 has annotations, 2 none */
	struct ch_groups *groups; /* ch_type_groups() result, computed once */
	/* the sidecar's entries of side_name (ch_type_chain), valid while
	 * name is side_name and the sidecar's generation + 1 is side_gen
	 * (0: not looked up) */
	const char *side_name;
	size_t side_first, side_n;
	unsigned long side_gen;
};

/* Configuration of one check run. */
struct ch_config {
	unsigned line_size;       /* bytes; 0 means CH_DEFAULT_LINE_SIZE */
	unsigned predict;         /* bytes; also check at this larger line size; 0 off */
	int smp;                  /* 0: uniprocessor kernel, no false sharing exists */
	enum ch_severity severity;/* severity of warnings (note|warning|error) */
	int kernel;               /* vocabulary of fixes (docs/checks.rst):
				   * 1: kernel code (__KERNEL__ defined): CACHELINE_PADDING,
				   * ____cacheline_aligned_in_smp; 0: standard C (_Alignas);
				   * 2: C++ (alignas) */
};

/* ---- per-thread arrays (core/array.c) ------------------------------------ */
/* [cachehot-array-sharing]: an array whose elements are written each by its
 * own thread/CPU (__cacheline_per_thread, sidecar "NAME[] per_thread"),
 * where a hot field of element i shares a line with data of element i+-1.
 * et: the element type; elem_size: bytes; nelems: 0 when unknown (heap);
 * base_off: bytes from a line boundary to element 0 when base_known, else
 * assumed 0 (an array aligned to less than a line: said in the message);
 * what: "array 'stats'" etc. Hot fields are et's hot/exclusive ones, or the
 * whole element when none is annotated. Emits at most one finding at loc.
 * Returns the number of findings of severity >= warning. */
struct ch_ctx;
struct ch_finding;
int ch_check_array(struct ch_ctx *ctx, struct ch_type *et, uint64_t elem_size,
		   uint64_t nelems, uint64_t base_off, int base_known, const char *what,
		   struct ch_loc loc, const struct ch_config *cfg,
		   void (*emit)(const struct ch_finding *f, void *arg), void *arg);
/* Which arrays are per-thread and how they are judged, the same in every
 * engine (array.c, ch_per_thread_site): the front end says what it sees at
 * a declaration, the core decides. */
enum ch_pt_kind {
	CH_PT_VARIABLE,            /* a variable of static storage: an array, or a
				    * pointer to one (a heap array) */
	CH_PT_MEMBER,              /* a struct member: an array, or a pointer */
	CH_PT_TYPE                 /* a struct or union type: every array of it */
};
struct ch_pt_site {
	enum ch_pt_kind kind;
	const char *name;          /* the variable; the member as "STRUCT.FIELD";
				    * the type's tag (NULL: anonymous) */
	int heap;                  /* a pointer: the elements are on the heap */
	int is_union;              /* CH_PT_TYPE: a union */
	uint64_t nelems;           /* an array's element count, a heap array's
				    * from its sidecar line (0: unknown, flexible) */
	uint64_t offset;           /* bytes: a member's offset in its struct */
	unsigned elem_align;       /* bytes: the element type's alignment */
	unsigned decl_align;       /* bytes: a variable's declared alignment (an
				    * attribute; 0: none), a member's struct's */
};
struct ch_pt_judgement {
	uint64_t nelems;           /* elements (0 unknown) */
	uint64_t base_off;         /* bytes from a line to element 0, when known */
	int base_known;
	const char *what;          /* "array 'x'", "heap array 'S.f'", "arrays of
				    * 'struct x'" (ctx-owned) */
};
/* 1 when name is marked per-thread: attr (the attribute
 * cacheline_per_thread, or in cachehot-layout the manifest's mark), or a
 * sidecar line "NAME[] per_thread" / "NAME[N] per_thread" (looked up when
 * sidecar is 1; 0: the front end knows none can name it). Both are looked
 * up: a line's N, the count of a heap array the attribute marks, goes to
 * *count (left alone otherwise). NAME: a variable, "STRUCT.FIELD", a tag. */
int ch_per_thread_marked(struct ch_ctx *ctx, const char *name, int attr, int sidecar,
			 uint64_t *count);
/* The arguments of ch_check_array for a marked site: where element 0 lies
 * and what the array is called. A variable's array starts where the
 * alignment its declaration asks for (its type's, or an attribute's; never
 * what a compiler adds to large objects) puts it, a heap array where its
 * type's alignment does, a member's array at its offset in a struct assumed
 * to start on a line when the struct is aligned to one; known only at line
 * alignment L or more. */
void ch_per_thread_site(struct ch_ctx *ctx, const struct ch_pt_site *site, unsigned L,
			struct ch_pt_judgement *j);

/* ---- adjacent global variables (core/globals.c) --------------------------- */
/* [cachehot-global-sharing]: a global variable annotated hot or exclusive
 * (the class attributes on a variable, sidecar "VARIABLE CLASS[:GROUP]")
 * that shares a cache line with other data. Placement is only known in the
 * binary: cachehot-layout reads it from the ELF symbol table (st_value,
 * st_size, the section's address and alignment). Source: real userspace servers (a hot
 * global counter beside read-mostly configuration or a queue's indices);
 * the kernel's __cacheline_aligned_in_smp / __read_mostly placement
 * (include/linux/cache.h). */
struct ch_global {
	const char *name;         /* symbol name */
	const char *section;      /* its section: ".bss", ".data..cacheline_aligned" */
	uint64_t addr;            /* bytes: st_value of a linked file (the address);
				   * in a relocatable object, the offset in the section */
	uint64_t section_addr;    /* bytes: the section's sh_addr (0 in an object) */
	uint64_t section_align;   /* bytes: the section's sh_addralign */
	uint64_t section_size;    /* bytes: the section's sh_size */
	uint64_t size;            /* bytes (st_size); 0-size symbols are no data */
	enum ch_class cls;        /* from the attribute (manifest) or the sidecar */
	const char *group;        /* hot group, or NULL */
	struct ch_loc loc;        /* the definition, when known (DWARF, manifest) */
	int read_only;            /* its section is not writable (no SHF_WRITE:
				   * .rodata): a const, never written */
};
/* Judge n data symbols, v sorted by addr then size (not modified): one
 * finding per hot/exclusive symbol that shares a line with any other symbol
 * of v, except hot ones of its own hot group; it names every neighbour
 * with its line index (counted from the first line of the hot symbol's
 * section), position and size, and the fix in cfg->kernel's vocabulary.
 * relocatable: v are the symbols of ONE section of an ET_REL object (the
 * link places each section: no other section may be compared), and lines
 * are exact only when the section is aligned to a line (the message says
 * so); else v may span sections (a linked file: neighbours across a
 * section boundary share lines too). O(n + k), k the neighbours named.
 * A hot/exclusive symbol of a read-only section gets a note instead (the
 * annotation is wrong: nothing writes it, so it takes no line from anyone).
 * Returns the number of findings of severity >= warning. */
/* The name a global variable is declared with in its source, from its
 * symbol or demangled name: "calls" of GCC's "calls.0" (a function's
 * static) and of LTO's "calls.lto_priv.0", "nshot" of C++ "ns::nshot",
 * "calls" of "f(int)::calls". Returns sym itself or a ctx-owned string. */
const char *ch_declared_name(struct ch_ctx *ctx, const char *sym);

int ch_check_globals(struct ch_ctx *ctx, const struct ch_global *v, size_t n, int relocatable,
		     const struct ch_config *cfg,
		     void (*emit)(const struct ch_finding *f, void *arg), void *arg);
/* A hot global that is a common symbol (-fcommon) in a relocatable object:
 * its place is chosen by the link; a note. */
const char *ch_msg_global_common(struct ch_ctx *ctx, const char *name, const char *input);
/* A sidecar "VARIABLE CLASS" entry (name: "VARIABLE CLASS[:GROUP]", as
 * ch_sidecar_global_entry gives it) that names no variable of the whole
 * input: cachehot-layout's verdict on its ELF files, the driver's on the
 * units of a run (every unit reported ch_msg_sidecar_no_variable_unit).
 * hint: "STRUCT.FIELD" when the name is a struct tag and one of its members
 * run together (ch_sidecar_variable_hint), or NULL. Same text everywhere. */
/* A manifest "globals" entry (name, defined at file:line; file may be
 * NULL) that no data symbol of the inputs matched, by name or demangled
 * name (cachehot-layout): the variable was not judged. */
const char *ch_msg_manifest_global_no_symbol(struct ch_ctx *ctx, const char *name,
					     const char *file, unsigned line);
const char *ch_msg_sidecar_no_symbol(struct ch_ctx *ctx, const char *name, const char *file,
				     unsigned line, const char *hint);
/* A compiler's per-unit note: the entry named no variable (file-scope,
 * function-static or extern declaration) of this unit; the variable may be
 * defined in another unit, so only the driver decides (docs/cachehot.rst). */
const char *ch_msg_sidecar_no_variable_unit(struct ch_ctx *ctx, const char *name,
					    const char *file, unsigned line, const char *hint);
#define CH_MSG_UNMATCHED_VAR_TAIL "matched no variable in this translation unit"
/* The hint's lead-in in both messages above, followed by 'STRUCT.FIELD'. */
#define CH_MSG_VARIABLE_HINT "; did you mean '"

enum { CH_WRAP_NONE = 0, CH_WRAP_SCALAR = 1, CH_WRAP_SYSTEM = 2 };
/* 1 if path is in a system include directory (/usr/include/, /usr/local/include/,
 * GCC's own /usr/lib/gcc/): the same answer in every engine, from the file
 * each reports (not GCC's -isystem notion, which DWARF does not record). */
int ch_is_system_header(const char *path);

/* ---- one fix per struct (core/fix.c) -------------------------------------- */
/* The alignment specifier of a userspace vocabulary (ch_config.kernel). */
#define CH_ALIGNAS(vocab) ((vocab) == 2 ? "alignas" : "_Alignas")
struct ch_ctx;
/* One edit of a struct fix, on a top-level member of the struct judged. */
struct ch_fix_edit {
	const struct ch_member *member;
	/* insertion: 'text' goes before member's declaration
	 * ("CACHELINE_PADDING(_pad1_);" on a line of its own, or "_Alignas(64)"
	 * in front of it); move: after != NULL, member goes after 'after' */
	const char *text;
	const struct ch_member *after;
	/* a break on a member declared with others ("int cps_lim, cps_max;"):
	 * the declaration's first and last members, split into one declaration
	 * per field before the edit (an alignment specifier would align every
	 * declarator); NULL when the member is declared alone */
	const struct ch_member *decl_first, *decl_last;
};
struct ch_fix {
	const char *text;         /* "one fix for all of 'struct x': ...; this costs ..." */
	const char *brief;        /* NULL, or (more than 8 edits) the same naming the
				   * first 8 and counting the rest: the text of every
				   * warning but the first (fix_first) that carries it */
	uint64_t old_size, new_size;  /* bytes per object before and after */
	unsigned line_size;       /* bytes */
	int kernel;               /* vocabulary of the edits */
	int insert;               /* 1: a break inserts 'text' as a member line of its
				   * own before the member (CACHELINE_PADDING, the
				   * tree's alignment or pad macro, a separator);
				   * 0: 'text' is an alignment specifier before it */
	int suffix;               /* 1: 'text' is the tree's alignment attribute macro,
				   * written after the member's declarator
				   * ("declare 'x' __rte_cache_aligned") */
	unsigned sep;             /* bytes: breaks are separators of this size (the
				   * separator idiom), not alignment; 0 otherwise */
	const struct ch_type *type; /* the struct fixed */
	const size_t *order;      /* its members' indexes in the fixed layout's order
				   * (type->nmembers of them) */
	size_t nedits;
	struct ch_fix_edit *edits;
};
/* What the struct fix needs of each flattened field. */
struct ch_fix_leaf {
	uint64_t offset, size;    /* bytes from the start of the struct */
	enum ch_class cls;
	const char *group;
	size_t top;               /* index of the top-level member holding it */
	int data;                 /* 1: data (not padding) */
};
/* The fewest breaks/moves resolving every conflict between top-level members
 * of t at line size L (bytes), never splitting a hot group; NULL when there
 * is no conflict, the struct is a union or packed, or no such fix exists.
 * Padding names start at _pad<first_pad>_; predicted: L is a predicted line
 * size, said in the cost ("with 128-byte lines costs ..."). ctx-owned. */
const struct ch_fix *ch_struct_fix(struct ch_ctx *ctx, const struct ch_type *t,
				   const struct ch_fix_leaf *v, size_t n, unsigned L, int kernel,
				   unsigned first_pad, int predicted);
/* A struct's own padding and alignment vocabulary (core/idiom.c), read from
 * the source lines of its direct members. */
struct ch_idiom {
	const char *pad_macro;     /* "THREAD_PAD": "NAME(N);" declares a hand-sized
				    * byte array of N bytes, or NULL */
	const char *align_macro;   /* "THREAD_ALIGN": "NAME(N);" declares a zero-size
				    * member aligned to N bytes, or NULL */
	const char *attr_macro;    /* "THREAD_ALIGNED", "____cacheline_aligned": an
				    * alignment attribute macro after a declarator */
	int attr_arg;              /* 1: attr_macro takes the alignment "(N)" */
	const struct ch_member *separator; /* the first hand-sized byte array of at
				    * least L - 1 bytes: it isolates at any placement */
	unsigned nseparators;      /* how many such arrays */
};
/* t's idiom at line size L (bytes); strings ctx-owned. */
void ch_idiom_of(struct ch_ctx *ctx, const struct ch_type *t, unsigned L, struct ch_idiom *out);
/* Members *first..*last of t are the declarators of member i's declaration
 * ("int cps_lim, cps_max;": same source line, ',' between the names);
 * *first == *last == i when it is declared alone. */
void ch_decl_group(const struct ch_type *t, size_t i, size_t *first, size_t *last);
/* ch_struct_fix in the struct's own vocabulary: in userspace (kernel != 1),
 * a struct aligned to less than L that has separators (id->separator) gets
 * breaks as separators of L - 1 bytes, written id->pad_macro(L-1) or as a
 * char array, since it may be placed anywhere; else a struct with an
 * alignment macro gets "id->align_macro(L);" lines; else one with an
 * alignment attribute macro gets it after the declarator; else _Alignas.
 * id may be NULL (_Alignas). */
const struct ch_fix *ch_struct_fix_idiom(struct ch_ctx *ctx, const struct ch_type *t,
					 const struct ch_fix_leaf *v, size_t n, unsigned L,
					 int kernel, unsigned first_pad, int predicted,
					 const struct ch_idiom *id);
/* "costs 64 bytes per object (96 -> 160 bytes; ...)": sizes in bytes
 * (core/fix-text.c). */
const char *ch_fix_cost(struct ch_ctx *ctx, uint64_t old_size, uint64_t new_size);

/* A finding. All strings are ctx-owned. 'message' is complete and ends in
 * "[cachehot-<id>]"; front-ends print it verbatim at 'loc'. */
struct ch_finding {
	enum ch_check check;
	enum ch_severity severity;
	const char *struct_name;
	const char *field_a;      /* the field the diagnostic sits on */
	uint64_t offset_a, size_a;
	const char *field_b;      /* the other field, or NULL */
	uint64_t offset_b, size_b;
	uint64_t line_index;      /* cache line index (from struct start), at line_size */
	unsigned line_size;       /* bytes: the line size the finding is for */
	struct ch_loc loc;
	const char *message;
	/* machine-applicable fix: when loc lies in the expansion of a padding
	 * macro (PC_PADDING(_pad1_)), replace that macro's name with this one
	 * ("CACHELINE_PADDING"); NULL when there is none */
	const char *fix_macro;
	/* the struct's one fix (same for every finding of the struct it
	 * resolves), or NULL; fix_first is 1 on the first finding carrying it
	 * (front-ends that print fix-its attach them there only) */
	const struct ch_fix *fix;
	int fix_first;
	/* identity beyond check, struct, fields and line size, for findings
	 * whose fields do not say what they are about (a group-assert's
	 * "SIZE(group)", "MEMBER(group,member)"): part of the record's key
	 * (ch_record), never shown; NULL when the fields say it all */
	const char *ident;
	int predicted;            /* 1: line_size is the predicted one (predict=N) */
};

typedef struct ch_ctx ch_ctx;

/* Called for each finding, in order of offset within a struct. */
typedef void (*ch_emit_fn)(const struct ch_finding *f, void *arg);

/* ---- context ---------------------------------------------------------- */
ch_ctx *ch_ctx_new(void);
void ch_ctx_free(ch_ctx *ctx);
const char *ch_ctx_error(const ch_ctx *ctx);
/* Copy a string into the ctx (NULL stays NULL). */
const char *ch_strdup(ch_ctx *ctx, const char *s);
/* Append vprintf(fmt, ap) to the growable malloc'd text *buf (*n bytes
 * used, *cap allocated; both 0 and *buf NULL to start): *buf stays
 * NUL-terminated and the caller's to free. Aborts when out of memory. */
void ch_buf_vappend(char **buf, size_t *n, size_t *cap, const char *fmt, va_list ap);
/* printf into a ctx-owned string. */
const char *ch_printf(ch_ctx *ctx, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* ---- small helpers every folder uses ----------------------------------- */
/* realloc that never returns NULL: "cachehot: out of memory" and abort
 * (helpers.c). n 0 is taken as 1. */
void *ch_xrealloc(void *p, size_t n);
/* Room for one more element at v[n] in the growable array v of cap
 * elements (doubled; first elements at first; malloc'd, the caller frees
 * v). */
#define CH_GROW(v, n, cap, first)                                               \
	do {                                                                    \
		if ((n) >= (cap)) {                                             \
			(cap) = (cap) ? 2 * (cap) : (first);                    \
			(v) = (__typeof__(v))ch_xrealloc((v), (cap) * sizeof(*(v))); \
		}                                                               \
	} while (0)
/* The one hash index (helpers.c): finds items the caller keeps in an array
 * of its own by their number, with the caller's hash and equality; open
 * addressing, grown at half full, O(1) expected. Zero-initialize; free with
 * ch_index_free. The index never calls eq or hash on an item not added. */
struct ch_index {
	size_t *slot;              /* item + 1; 0 empty (malloc'd) */
	size_t cap, n;             /* slots (a power of two, or 0), items */
};
#define CH_INDEX_NONE ((size_t)-1)
typedef int (*ch_index_eq_fn)(size_t item, const void *key, const void *arg);
typedef uint64_t (*ch_index_hash_fn)(size_t item, const void *arg);
/* The item equal to key (eq(item, key, arg)) among those of hash h, or
 * CH_INDEX_NONE. */
size_t ch_index_find(const struct ch_index *ix, uint64_t h, ch_index_eq_fn eq, const void *key,
		     const void *arg);
/* Add item (hash h; not in the index yet); growing rehashes the others
 * with hash(item, arg). */
void ch_index_add(struct ch_index *ix, size_t item, uint64_t h, ch_index_hash_fn hash,
		  const void *arg);
void ch_index_free(struct ch_index *ix);
/* A 64-bit hash of n bytes (eight a step, and n), of a string (the same
 * as of its bytes); a mix of a pointer's bits. In-memory tables only:
 * never written to a file (the values may change between versions). */
uint64_t ch_hash_bytes(const void *p, size_t n);
uint64_t ch_hash_str(const char *s);
uint64_t ch_hash_ptr(const void *p);

/* ---- building the model ----------------------------------------------- */
/* The type recorded for a front-end key (a tree, a sparse symbol, a DWARF
 * offset cast to a pointer), or NULL. */
struct ch_type *ch_type_lookup(ch_ctx *ctx, const void *key);
/* New empty type, recorded under key (key may be NULL: not recorded). */
struct ch_type *ch_type_new(ch_ctx *ctx, const void *key, const char *name,
			    int is_union, uint64_t size, unsigned align);
/* Append a zeroed member (nelems=1) and return it; the caller fills it in.
 * name is copied. The pointer stays valid until the next add on that type. */
struct ch_member *ch_type_add_member(ch_ctx *ctx, struct ch_type *t, const char *name);
/* Parse a class name: "hot", "exclusive", "read_mostly" (also
 * "read-mostly"). Returns -1 for anything else. */
int ch_class_parse(const char *s, enum ch_class *out);
const char *ch_class_name(enum ch_class c);
/* ---- the registry of checks (core/registry.c) ----------------------------
 * One row per check (and one for the "[cachehot]" annotation problems):
 * every list of checks is made from it or checked against it by
 * tests/registry (docs/checks.rst, the man pages, SARIF rules). */
struct ch_check_info {
	enum ch_check check;
	const char *id;           /* "cachehot-false-sharing": printed as [id] (public) */
	const char *sarif_name;   /* SARIF rule name: "FalseSharing" */
	enum ch_severity severity;/* default severity of its findings */
	int sarif_listed;         /* 1: a SARIF log lists the rule even when unused */
	const char *summary;      /* one line (SARIF shortDescription) */
	const char *help;         /* what it means and what to do (SARIF help) */
	const char *doc;          /* "docs/checks.rst#cachehot-false-sharing" */
};
/* The row of c, NULL for no such check. */
const struct ch_check_info *ch_check_info(enum ch_check c);
/* The row whose id is id ("cachehot-inline-addr", "cachehot"), or NULL. */
const struct ch_check_info *ch_check_info_by_id(const char *id);
/* "cachehot-false-sharing" etc.; "cachehot" for CH_CHECK_ANNOTATION. */
const char *ch_check_id(enum ch_check c);

/* An engine's options: each engine keeps one table of them (the plugin's
 * plugin/options.c, the sparse checker's in sparse-checks/main.c), its
 * --help and its unknown-option error are made from it, and tests/registry
 * checks its docs and man page against the --help. A table ends with a
 * row whose key is NULL. */
struct ch_option {
	const char *key;          /* "line-size" */
	const char *value;        /* "N", "note|warning|error"; NULL: takes none */
	const char *help;         /* one line */
};
/* The row of key, or NULL. */
const struct ch_option *ch_option_find(const struct ch_option *t, const char *key);
/* One line a row, "  PREFIXKEY[=VALUE]  HELP\n", the help starting at
 * column width (at least two blanks after a longer key). ctx-owned. */
const char *ch_options_help(ch_ctx *ctx, const struct ch_option *t, const char *prefix,
			    unsigned width);
/* "key, key, ..." in table order, for an unknown-option error. ctx-owned. */
const char *ch_options_known(ch_ctx *ctx, const struct ch_option *t);

/* Classify a member's padding kind from what the front-end filled in (type,
 * elem_size, is_integer, user_align, name). Front-ends call it once per member
 * after filling it; rules: docs/checks.rst "padding-macro". */
enum ch_pad_kind ch_member_pad_kind(const struct ch_member *m);
/* A private padding type: zero size, alignment > 1, a single zero-length
 * array member, and not 'cacheline_padding'. */
int ch_type_is_padding(const struct ch_type *t);

#include "api-sidecar.h"

#include "api-groups.h"

/* ---- judging ------------------------------------------------------------ */
/* 1 if t, any nested type, or the sidecar annotates a member. */
int ch_type_is_annotated(ch_ctx *ctx, struct ch_type *t);

/* Run every layout rule on t (once per struct definition: the caller
 * de-duplicates). Calls emit for each finding. Returns the number of
 * findings of severity >= warning. */
int ch_check_type(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
		  ch_emit_fn emit, void *arg);

/* The reorganization of a struct (reorg.c; cachehot-layout --reorganize):
 * a member order with CACHELINE_PADDING between segments that satisfies
 * every annotation with the fewest lines, then bytes. All ctx-owned. */
struct ch_reorg_seg {
	uint64_t start, end;       /* bytes: the segment's first and past-last byte */
	const char *pad;           /* what starts it on a fresh line
				    * ("CACHELINE_PADDING(_pad2_)"), NULL for the
				    * first */
	const char *what;          /* its class key: "hot usage", "read-mostly",
				    * "written groups", "unannotated", "embedded
				    * 'x' with its own layout" */
};
struct ch_reorg_member {
	const struct ch_member *m; /* a member of the struct, as declared */
	uint64_t offset;           /* bytes: its new offset (a bit-field: the byte
				    * holding its first bit) */
	size_t seg;                /* its segment; (size_t)-1: a flexible array
				    * member, after every segment */
};
/* One model of a laid-out struct, the measure both plans are judged by
 * (core/layout-eval.c). */
struct ch_layout_eval {
	uint64_t size;             /* bytes */
	uint64_t lines;            /* cache lines the struct spans: size / line */
	uint64_t key_lines;        /* lines touched by annotated fields, summed
				    * over class keys (each hot group, each
				    * ungrouped hot or exclusive field,
				    * read-mostly): a line holding two keys
				    * counts twice */
	uint64_t holes;            /* bytes no member covers, tail included */
};
/* t as laid out (its members' offsets and size) at line size L (bytes). */
void ch_layout_eval(ch_ctx *ctx, struct ch_type *t, unsigned L, struct ch_layout_eval *out);

struct ch_reorg {
	unsigned line_size;        /* bytes */
	unsigned seg_align;        /* bytes: segments start on these boundaries */
	uint64_t size;             /* bytes, the proposal's */
	uint64_t lines, old_lines; /* cache lines of the proposal, of the struct */
	struct ch_reorg_seg *segs; /* in order; CACHELINE_PADDING before each but
				    * the first */
	size_t nsegs;
	struct ch_reorg_member *members; /* every member but the old padding, in
					  * the new order */
	size_t nmembers;
	struct ch_type *proposal;  /* the proposed layout as a type */
	int conflicts;             /* warnings ch_check_type still finds on it
				    * (inside embedded types, which keep their
				    * own layout) */
	int from_fix;              /* 1: the fix's layout (core/fix.c: its breaks
				    * and moves, the declared order when the
				    * struct is clean); 0: regrouped by class */
	size_t fix_edits;          /* from_fix: the fix's edits (0: as declared) */
	struct ch_layout_eval eval;  /* the proposal's */
	int have_other;            /* 1: the other plan was made (other, other_conflicts) */
	struct ch_layout_eval other; /* the plan not taken */
	int other_conflicts;
};
/* Plan the reorganization of t (named name in messages) at cfg's line
 * size: the fix's layout (its breaks and moves; the declared order when
 * there is nothing to fix) unless the regrouping by class is better, in
 * this order: fewer warnings on the proposal; then fewer lines touched by
 * annotated fields at no more bytes; then as many such lines and fewer
 * bytes (core/reorg-plan.c). NULL with a message in err (errsz bytes) for
 * a union, a struct laid out by randstruct, one without members or whose
 * flexible array member is not last. */
const struct ch_reorg *ch_reorganize(ch_ctx *ctx, struct ch_type *t, const char *name,
				     const struct ch_config *cfg, char *err, size_t errsz);
enum ch_reorg_mode {
	CH_REORG_BEST,             /* ch_reorganize's choice */
	CH_REORG_REGROUP,          /* the regrouping by class, whatever the fix's
				    * layout gives (still measured: other) */
};
const struct ch_reorg *ch_reorganize_mode(ch_ctx *ctx, struct ch_type *t, const char *name,
					  const struct ch_config *cfg, enum ch_reorg_mode mode,
					  char *err, size_t errsz);

/* The false-sharing rule on two classes (and hot groups, NULL = ungrouped):
 * 1 if fields of these classes must not share a cache line. exclusive vs
 * anything; hot vs read-mostly; hot vs hot of another group. A class NONE
 * field conflicts only with an exclusive one. */
int ch_classes_conflict(enum ch_class a, const char *group_a, enum ch_class b,
			const char *group_b);

/* Effective config values. */
unsigned ch_config_line_size(const struct ch_config *cfg);

/* ---- flattened view (for --show, manifests, reorganize) ----------------- */
struct ch_leaf {
	const char *path;          /* "usage", "memory.usage", "zones[1].lock" */
	uint64_t offset;           /* bytes from the start of the outermost struct */
	uint64_t size;             /* bytes */
	unsigned bit_offset, bit_size;
	enum ch_class cls;
	const char *group;
	enum ch_pad_kind pad;
	const struct ch_member *member;
	int depth;                 /* 0 = direct member of the outermost struct */
	int embedded;              /* 1: inside a named struct embedded in the
				    * outermost one (or an element of an array of
				    * them): judged at that struct's definition */
	const struct ch_group *kgroup; /* kernel cacheline group of its top-level
				    * member in the outermost struct (or of the
				    * member inside anonymous members that holds
				    * it: ch_type_groups), or NULL */
	int inferred;              /* its class is an inferred sidecar line
				    * (ch_sidecar_inferred) */
};
/* Flatten t into ctx-owned leaves. Annotated aggregate members and
 * aggregates with nothing annotated inside are single leaves. */
int ch_flatten(ch_ctx *ctx, struct ch_type *t, struct ch_leaf **out, size_t *n);

/* ---- constant macro values ---------------------------------------------- */
/* Evaluate an integer constant expression from a macro body, e.g.
 * "(1 << L1_CACHE_SHIFT)". Identifiers are resolved through lookup, which
 * returns the body of an object-like macro or NULL. Handles numbers with
 * U/L suffixes, ( ), + - * / << >> and the kernel's _AC(x, y)/_UL(x).
 * Returns 0 and *out on success, -1 otherwise. */
typedef const char *(*ch_macro_lookup_fn)(const char *name, void *arg);
int ch_eval_macro(const char *body, ch_macro_lookup_fn lookup, void *arg,
		  long long *out);
/* The same, total: overflow, division by zero, a shift count negative or
 * >= 63, macros nested more than 16 deep, operators or parentheses nested
 * more than 64 deep, more than 100000 operands over all expansions, and
 * names that are not constant macros all return -1, never trap; why (whysz
 * bytes, may be NULL) then says which ("division by zero"). */
int ch_eval_macro_why(const char *body, ch_macro_lookup_fn lookup, void *arg,
		      long long *out, char *why, size_t whysz);

#include "api-messages.h"

/* ---- source text (core/srcline.c) --------------------------------------- */
/* Text of line 'line' (1-based) of file 'path', without the newline, and its
 * length in bytes; NULL if the file cannot be read or has fewer lines. Each
 * file is read once and indexed (O(1) per line); the text stays valid until
 * 16 other files have been asked for. Not thread-safe. */
const char *ch_source_line(const char *path, unsigned line, size_t *len);
/* Files that input names (a line marker, a finding's path) are read only
 * when they are regular files of at most CH_INPUT_MAX_BYTES: a device such
 * as /dev/zero would exhaust memory, a FIFO would block forever. The file is
 * opened non-blocking and checked with fstat() on the open descriptor (no
 * race with a rename). Returns a stream (caller fcloses), or NULL with errno
 * set: ENODEV for "not a regular file", EFBIG for "too large", or open()'s
 * error. ch_input_strerror(errno) says which in words. */
#define CH_INPUT_MAX_BYTES ((long long)1 << 30)   /* 1 GiB */
FILE *ch_open_input(const char *path);
const char *ch_input_strerror(int err);
/* The whole file at path through ch_open_input(), malloc'd and NUL-terminated
 * (caller frees), *len = bytes (may be NULL); NULL with errno as above. */
char *ch_read_input(const char *path, size_t *len);

/* ---- options shared by every front-end ---------------------------------- */
/* "note" | "warning" | "error". Returns -1 for anything else. */
int ch_severity_parse(const char *s, enum ch_severity *out);
/* A line size in bytes: a power of two from 8 to 4096. -1 otherwise. */
int ch_line_size_parse(const char *s, unsigned *out);
/* The translation unit's line size: SMP_CACHE_BYTES, else L1_CACHE_BYTES,
 * evaluated through lookup (object-like macro bodies); 0 when neither is
 * defined or evaluates to a valid line size. */
unsigned ch_line_size_from_macros(ch_macro_lookup_fn lookup, void *arg);
/* The same with the note front-ends print (once per translation unit) when
 * the first of the two that is defined cannot be evaluated or is no line
 * size: returns 0 and *note (ctx-owned) names the macro and why, e.g.
 * "cannot take the cache line size from 'SMP_CACHE_BYTES' (division by
 * zero): using the default, 64 bytes; ... [cachehot]". *note is NULL
 * otherwise; *macro (may be NULL) the macro's name, for the location.
 * Every front-end reads the line size through this one function so that
 * they agree on every body. */
unsigned ch_line_size_eval(ch_ctx *ctx, ch_macro_lookup_fn lookup, void *arg,
			   const char **note, const char **macro);
const char *ch_msg_line_size_fallback(ch_ctx *ctx, const char *macro, const char *why);
/* 0 for a uniprocessor kernel translation unit (__KERNEL__ defined and
 * CONFIG_SMP not), 1 otherwise. defined(name) says whether a macro exists. */
int ch_smp_from_macros(int (*defined)(const char *name, void *arg), void *arg);
/* 1 for kernel code (__KERNEL__ defined): fixes in the kernel's vocabulary
 * (ch_config.kernel). */
int ch_kernel_from_macros(int (*defined)(const char *name, void *arg), void *arg);

#include "api-output.h"

#include "api-counter.h"

#include "api-access.h"

#ifdef __cplusplus
}
#endif
#endif /* CACHEHOT_CORE_H */
