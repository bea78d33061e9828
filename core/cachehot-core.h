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
 * the checks of an index image (len bytes, as on disk, modified in place)
 * match its content, as a forger would. */
void ch_sidecar_index_reseal(void *img, size_t len);
/* For fuzzing only: 1 if a part of img (len bytes) passes its check but
 * differs from good (the index as written): a forged part. */
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

/* ---- the kernel's cacheline groups (core/groups.c) ------------------------
 * Since 6.8, include/linux/cache.h marks groups of fields with zero-size
 * members (6.12 net_device, tcp_sock, sock, netns_ipv4,
 * page_pool):
 *   __cacheline_group_begin(G)          __u8 __cacheline_group_begin__G[0]
 *   __cacheline_group_end(G)            __u8 __cacheline_group_end__G[0]
 *   __cacheline_group_begin_aligned(G)  the same, __aligned(N ?: SMP_CACHE_BYTES)
 *   __cacheline_group_end_aligned(G)    end marker __aligned(sizeof(long)) plus
 *                                       struct { } __cacheline_group_pad__G (aligned)
 * Front-ends only add these members as they see them (size 0, not
 * flexible); the core recognises them by name and computes the groups. */
enum ch_marker {
	CH_MARKER_NONE = 0,
	CH_MARKER_BEGIN,         /* __cacheline_group_begin__G */
	CH_MARKER_END,           /* __cacheline_group_end__G */
	CH_MARKER_PAD,           /* __cacheline_group_pad__G (end_aligned) */
};
/* Which marker a member name is; *group (may be NULL) points into name at
 * G. NONE for any other name, and for an empty G. */
enum ch_marker ch_marker_kind(const char *name, const char **group);

/* The fast path a group name names: its '_'-separated words tx, rx, and
 * txrx/rxtx (both). Source: the group names of 6.12 net_device, tcp_sock,
 * sock, netns_ipv4 and Documentation/networking/net_cachelines/. */
enum ch_path { CH_PATH_NONE = 0, CH_PATH_TX, CH_PATH_RX, CH_PATH_TXRX };
enum ch_path ch_group_path_of(const char *group);
const char *ch_path_name(enum ch_path p);   /* "tx", "rx", "txrx", "no" */
/* The class a group name gives (docs/annotations.rst "Kernel cacheline
 * groups"): contains "write" or the word "rw" -> CH_CLASS_HOT (written);
 * else contains "read" -> CH_CLASS_READ_MOSTLY; else CH_CLASS_NONE. */
enum ch_class ch_group_class_of(const char *group);

struct ch_group {
	const char *name;          /* G (ctx-owned) */
	uint64_t begin;            /* bytes: offset of __cacheline_group_begin__G */
	uint64_t end;              /* bytes: offset of __cacheline_group_end__G;
				    * end - begin is the group's size, the measure
				    * of CACHELINE_ASSERT_GROUP_SIZE */
	unsigned begin_align;      /* bytes: alignment attribute of the begin
				    * marker (the _aligned variant), else 0 */
	const struct ch_member *begin_m, *end_m;  /* the markers (in the ch_type) */
	const struct ch_member *pad_m;            /* __cacheline_group_pad__G or NULL */
	const struct ch_member **members;  /* members strictly between the
				    * markers, markers excluded, declaration order;
				    * nested structs and anonymous unions whole */
	size_t nmembers;
	enum ch_class cls;         /* from the name, or the sidecar's STRUCT.@G */
	int cls_from_sidecar;      /* 1 if a sidecar line set cls */
	enum ch_path path;         /* from the name */
};

/* A marker problem: a begin without its end (or the reverse), a group that
 * begins inside another one, a group that begins twice. 'message' is
 * complete (ends in "[cachehot-group-markers]"), reported at loc. */
struct ch_group_problem {
	const char *message;
	struct ch_loc loc;
	const char *group;         /* G of the marker reported at loc */
};

struct ch_groups {
	struct ch_group *v;        /* balanced groups, in order of begin */
	size_t n;
	struct ch_group_problem *problems;
	size_t nproblems;
};

/* The kernel cacheline groups among t's members as C names them: its direct
 * members and the members of its anonymous struct/union members, at any
 * depth (markers inside a named nested struct belong to that struct's own
 * ch_type). When an anonymous member holds markers, the groups' begin_m,
 * end_m, pad_m and members point into a ctx-owned copy of that flat member
 * list whose offsets are t's (not into t->members); kgroup is set on the
 * real members too. A group whose markers sit directly in a union (where
 * every member starts at one offset) is a problem, not a group.
 * Computed once and cached on t; each member between a group's markers gets
 * m->kgroup. A group with a marker problem is left out of v (its members get
 * no group) and described in problems. Never NULL; ctx-owned. Call it after
 * the sidecar is loaded (a STRUCT.@G line overrides the class). */
const struct ch_groups *ch_type_groups(ch_ctx *ctx, struct ch_type *t);
/* 1 if t has any group marker among its direct members or inside its
 * anonymous members (no allocation). */
int ch_type_has_groups(const struct ch_type *t);

/* Cache lines touched by bytes [off, off+size) at line size L (0 for size
 * 0), and the fewest lines 'size' bytes can take (ceil(size / L)). */
uint64_t ch_lines_touched(uint64_t off, uint64_t size, unsigned L);
uint64_t ch_lines_min(uint64_t size, unsigned L);

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

/* ---- output files ------------------------------------------------------- */
/* Where an atomic write to path (temporary file + rename) must go: the file
 * a symlink chain ends at, so that the link stays a link. *direct is set to
 * 1 when that is not a regular file (a device such as /dev/stdout, a FIFO):
 * write it in place, never rename over it. Returns a malloc'd path (caller
 * frees), or NULL with errno (EISDIR for a directory, ELOOP). */
char *ch_output_target(const char *path, int *direct);
/* Writing a file whole or not at all: ch_atomic_open() opens an unnamed
 * file (O_TMPFILE) in the folder of target (a regular file's path, as
 * ch_output_target gives it), so that a process killed while writing (even
 * by SIGKILL) leaves nothing behind; ch_atomic_commit() gives it a name and
 * renames it over target (catchable signals blocked meanwhile, so an
 * interrupted commit leaves either the old or the new file). Where the file
 * system has no O_TMPFILE, a named "TARGET.tmp.XXXXXX" is used, and
 * ch_atomic_cleanup() (async-signal-safe, for signal handlers) removes it.
 * Both return 0, or -1 with errno set; commit and abort close the file. */
struct ch_atomic {
	char *target;            /* owned */
	char *tmp;               /* named temporary, or NULL (owned) */
	int fd;
	unsigned mode;           /* permissions of the new file (after umask) */
};
/* Standard output that could not be written whole (a full disk, /dev/full,
 * a closed pipe) is an error, not exit 0 with a truncated file: registered
 * once at the start of main(), an atexit() handler flushes and closes stdout
 * and, on failure, prints "PROG: cannot write the output: REASON" and ends
 * the process with exit status 2. */
void ch_check_stdout_at_exit(const char *prog);
int ch_atomic_open(struct ch_atomic *a, const char *target);
int ch_atomic_commit(struct ch_atomic *a);
void ch_atomic_abort(struct ch_atomic *a);
void ch_atomic_cleanup(void);

/* ---- records carried in the object file ----------------------------------- */
/* A compile's per-unit records (access facts, the manifest's records) are
 * also written into its object, in this non-loaded, excluded section
 * (core/objsec-emit.c says why the links drop it): they come back with the
 * object from a ccache hit or a compile farm. One record = one JSON text
 * and a NUL byte. */
#define CH_OBJ_SECTION ".discard.cachehot"
/* Append text (a JSON text: no NUL) as one record, as assembler directives
 * on out (GCC's asm_out_file). 0, or -1 on a write error. */
int ch_objsec_emit_asm(FILE *out, const char *text);
/* What path is (its first 8 bytes; a regular file only). */
enum { CH_OBJ_NONE = 0, CH_OBJ_ELF, CH_OBJ_ARCHIVE, CH_OBJ_THIN };
int ch_objsec_kind(const char *path);
/* fn(text, len, origin, arg) for each record of the object or archive at
 * path ("lib.a(member.o)" as origin); fn returns nonzero to stop (then -1).
 * A thin archive gives none (its members are files of the tree). Returns
 * the number of records, or -1 with err. Tools only (libelf): not in the
 * plugin. */
typedef int (*ch_objsec_fn)(const char *text, size_t len, const char *origin, void *arg);
int ch_objsec_read(const char *path, ch_objsec_fn fn, void *arg, char *err, size_t errsz);
/* The regular files under dir (not following links) whose names end in
 * one of suffixes (NULL-terminated), sorted by strcmp; *out and its strings
 * are malloc'd (caller frees). Returns the count. */
size_t ch_find_files(const char *dir, const char *const *suffixes, char ***out);

/* ---- manifest (JSON, jansson) ------------------------------------------- */
/* Add t with its leaves and findings to the manifest kept in ctx. */
void ch_manifest_add(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
		     const char *tool);
/* ch_check_type(ctx, t, cfg, emit, arg) followed by ch_manifest_add(ctx, t,
 * cfg, tool), with the rules run once: each finding goes to emit and into
 * the record (ch_manifest_add alone runs them again for the record: a
 * second fix search per annotated struct). Returns what ch_check_type does. */
int ch_check_type_manifest(ch_ctx *ctx, struct ch_type *t, const struct ch_config *cfg,
			   ch_emit_fn emit, void *arg, const char *tool);
/* Record global variable name (the symbol name) annotated cls/group (an
 * attribute or a sidecar line) defined or declared at loc, under the
 * manifest's "globals": compilers cannot judge where it is placed,
 * cachehot-layout --manifest does ([cachehot-global-sharing]). */
void ch_manifest_add_global(ch_ctx *ctx, const char *name, enum ch_class cls,
			    const char *group, struct ch_loc loc, const char *tool);
/* Record that the compiler saw name marked __cacheline_per_thread (a
 * variable, "STRUCT.FIELD" or a struct tag, as in the sidecar's "NAME[]
 * per_thread"): the manifest's "per_thread" object, which cachehot-layout
 * reads because DWARF and BTF carry no attributes. name is copied. */
void ch_manifest_per_thread(ch_ctx *ctx, const char *name);
/* The manifest file this unit's records will merge into (path borrowed,
 * must outlive ctx). Then a record whose "digest" (a 64-bit hash of
 * everything the record is made of) the file already holds is not built
 * again: every unit of a kernel build judges the same header structs, and
 * building and printing their records cost each unit up to 0.6% of cc1
 * (bench/plugin-overhead, mm/mmzone.c). Without it, every record is built. */
void ch_manifest_use(ch_ctx *ctx, const char *path);
/* Merge the ctx's manifest into path under an flock, written atomically
 * (temporary file + rename). Structs already present are replaced.
 * Returns 0, or -1 with ch_ctx_error(). */
int ch_manifest_write(ch_ctx *ctx, const char *path);

/* ---- records: findings for the driver (core/findings.c) ---------------------
 * Beside its text diagnostics, every engine writes each diagnostic it
 * prints as one JSON object per line (JSON lines), schema version
 * CH_RECORD_VERSION, documented in docs/findings.md. The driver reads these
 * only, never the text: rewording a message changes no baseline and no
 * SARIF fingerprint, which are keyed on the record's fields. A unit's
 * records are one per-unit output written whole or not at all (like the
 * manifest and the access facts), so a build cache can carry them with
 * the object. */
#define CH_RECORD_VERSION 1
struct ch_record {
	enum ch_check check;
	enum ch_severity severity;
	const char *file;         /* where it is reported, the path as the engine names
				   * it (ch_record_add normalizes it: ch_path_normalize) */
	unsigned line, col;       /* 1-based, 0 unknown; col is the column the engine
				   * prints (GCC's: tabs to 8) */
	const char *message;      /* the text printed; a trailing " [id]" is dropped */
	const char *scope;        /* the struct/union (tag or typedef name) it is about */
	const char *function;     /* code checks: the function it is in; NULL */
	const char *field;        /* the field (function, variable, sidecar entry) it is on */
	const char *other;        /* the partner of a conflict (or a sidecar hint); NULL */
	int has_offsets;          /* 1: offset/size (and other_*) are known, bytes */
	uint64_t offset, size, other_offset, other_size;
	uint64_t line_index;      /* cache line index from the struct's start */
	unsigned line_size;       /* bytes: the line size judged at; 0 none */
	int predicted;            /* 1: line_size is the predicted size (predict=N) */
	const struct ch_fix *fix; /* the struct's one fix, or NULL (writing only) */
	const char *fix_text;     /* reading: the fix's text; NULL none */
	uint64_t fix_old_size, fix_new_size;   /* bytes per object, 0 unknown */
	const char *ident;        /* more identity (ch_finding.ident, a sidecar report's
				   * kind: "unmatched-struct", "unmatched-variable" ...) */
	const char *confidence;   /* "exact" (the compiler's layout), "inferred" (from
				   * code, after inlining), "possible" (a source-level
				   * guess); NULL unknown */
	const char *evidence;     /* what the confidence rests on, or NULL */
	const char *check_id;     /* reading: the record's "check" as written: the
				   * registry's id of check, or a Coccinelle rule's
				   * own ("cachehot-counter_batch": engine "cocci",
				   * whose rule set is open; check is then
				   * CH_CHECK__ROWS) */
};
/* Zero r and set what every record has: check, severity, message. */
void ch_record_init(struct ch_record *r, enum ch_check check, enum ch_severity severity,
		    const char *message);
/* A report about a sidecar (or manifest) entry: r placed at the entry's
 * file:line, field the entry, ident its kind, other a hint or NULL. */
void ch_record_entry(struct ch_record *r, const char *file, unsigned line, const char *entry,
		     const char *ident, const char *hint);
/* Fill r (zeroed first) from finding f: check, severity, message, struct,
 * fields, offsets, line, fix, ident; the location is the front-end's to set. */
void ch_record_from_finding(struct ch_record *r, const struct ch_finding *f);
/* Start collecting this unit's records in ctx; engine: "plugin", "sparse",
 * "layout" (copied). Until then ch_record_add does nothing. */
void ch_records_begin(ch_ctx *ctx, const char *engine);
int ch_records_on(const ch_ctx *ctx);
/* Append one record (its strings are copied into the JSON). */
void ch_record_add(ch_ctx *ctx, const struct ch_record *r);
/* Write the records collected (possibly none: an empty file says the
 * engine ran) to path: a file, or a directory, which gets one file a unit,
 * "UNIT-REAL-PATH.findings.jsonl" with '/' written ',' (unit: the main
 * source or input; NULL: "stdin"). Through ch_output_target and
 * ch_atomic_open: a device or FIFO is written in place. path "-": each
 * record to stderr (fd 2, after fflush(stderr)) as one line with one
 * write(2), so that in a build log the lines of parallel compiles do not
 * mix (a pipe keeps a write of up to PIPE_BUF bytes, 4096 on Linux, whole;
 * a longer record can be split by another process's output, and the
 * reader then reports a malformed record line). 0, or -1 with
 * ch_ctx_error(). The collection is emptied. */
int ch_records_write(ch_ctx *ctx, const char *path, const char *unit);
/* How ch_records_read_stream takes the lines that are not records. */
enum ch_records_input {
	CH_RECORDS_ONLY,   /* a records file: every non-blank line is a record */
	CH_RECORDS_IN_TEXT /* a build log or an engine's output: record lines
			    * (starting '{"cachehot_finding"') among other text */
};
/* What a CH_RECORDS_IN_TEXT read saw besides the records. */
struct ch_records_scan {
	unsigned long records;     /* record lines */
	unsigned long diagnostics; /* lines that look like cachehot's diagnostics
				    * for people: a " [cachehot-ID]" or " [cachehot]"
				    * tag, or spatch's report shape "F:L:C-C: " */
	unsigned long first_diagnostic;   /* its line number, 0 none */
	unsigned long tagged;      /* of these, the lines with a check tag (every
				    * engine writes a record for each such line it
				    * prints; spatch's shape alone is any rule's) */
};
/* Read the records of the stream f (named name in messages): fn(r, engine,
 * arg) for each, its strings valid during the call only; fn returns 0 to
 * go on. A line that is no record of this schema (CH_RECORDS_ONLY), or a
 * record line that does not parse (either mode: a half or garbled line, a
 * record with other text before it on its line), is an error: -1 and *err
 * (malloc'd, "NAME:LINE: why"; a record of another version says which).
 * Else the number of records. scan may be NULL. Linear in the input. */
long ch_records_read_stream(FILE *f, const char *name, enum ch_records_input input,
			    int (*fn)(const struct ch_record *r, const char *engine, void *arg),
			    void *arg, char **err, struct ch_records_scan *scan);
/* ch_records_read_stream of the file path (CH_RECORDS_ONLY). */
long ch_records_read(const char *path,
		     int (*fn)(const struct ch_record *r, const char *engine, void *arg),
		     void *arg, char **err);
/* A path written the same way whatever spelling reached it: "./a//b/./c.h"
 * -> "a/b/c.h" (lexical: "." parts and repeated '/' dropped, ".." kept).
 * ctx-owned; NULL stays NULL. */
const char *ch_path_normalize(ch_ctx *ctx, const char *path);

/* ---- [cachehot-counter-batch] (core/counter.c) -------------------------- */
/* A statistics counter updated once per element of a loop. Source: "mm,
 * lru_gen: batch update counters on aging" (per-folio memcg/node statistics
 * accumulated and applied once; +1.5% memcached), and 6.1 rmqueue_bulk(),
 * which batches NR_FREE_PAGES after its loop but not NR_FREE_CMA_PAGES. */
enum ch_counter_kind {
	CH_CB_INVARIANT = 0, /* target and item loop-invariant: one local */
	CH_CB_KEYED,         /* item one of a few values per element: keyed locals */
	CH_CB_PER_RUN,       /* target derived per element from one small-set value
			      * (node, zone id): a note, flush when it changes */
	CH_CB_INDIRECT,      /* an indirect call whose possible targets all update */
};
struct ch_counter_finding {
	enum ch_counter_kind kind;
	const char *function;      /* the function holding the loop */
	const char *updater;       /* "__mod_lruvec_state" */
	const char *item;          /* "NR_FREE_CMA_PAGES", "NR_LRU_BASE+0..4", or NULL */
	unsigned keys;             /* CH_CB_KEYED (and PER_RUN): number of item values */
	const char *target_from;   /* CH_CB_PER_RUN: what the target is looked up from */
	const char *chain;         /* "f -> g -> h" (inlined and called), or NULL */
	unsigned depth;            /* calls not inlined between the loop and the update */
	const char *not_inlined;   /* depth > 0: "g, h", the functions of the chain
				    * that are called, not inlined */
	const char *loop_file;     /* the loop's head */
	unsigned loop_line;
	const char *update_file;   /* the updater call itself (maybe in a header) */
	unsigned update_line;
	const char *unlock;        /* a lock release inside the loop, or NULL */
	unsigned unlock_line;
	unsigned extra_exits;      /* exits of the loop besides its normal end */
	const char *twin;          /* same updater already applied once after a loop */
	unsigned twin_line;
	const char *callees;       /* CH_CB_INDIRECT: "a/b/c", the possible targets */
};
/* The warning (or note) at the update; ends in "[cachehot-counter-batch]". */
const char *ch_counter_batch_message(ch_ctx *ctx, const struct ch_counter_finding *f);
/* The note at the loop's head. */
const char *ch_counter_batch_loop_note(ch_ctx *ctx, const struct ch_counter_finding *f);
/* 1 if name is a statistics updater of the built-in list (the names of
 * cocci/counter_batch.cocci, the folio variants, the memcg event counters
 * and the kernel's mod_*_state / count_*_event(s) family); *target_arg is
 * set to the index of the target argument (-1: per-cpu event, no target)
 * and *item_arg to the item's. */
int ch_counter_updater(const char *name, int *target_arg, int *item_arg);
/* The i-th name of that list (0-based), NULL past its end. */
const char *ch_counter_updater_name(unsigned i);
/* The i-th built-in updater (0-based) with its argument positions, as
 * ch_counter_updater gives them; NULL past the end. */
const char *ch_counter_updater_at(unsigned i, int *target_arg, int *item_arg);
/* The enumeration tags (space-separated, in the order to search) whose
 * enumerators name the item of updater `name` when its item parameter is a
 * plain int (6.1's __mod_memcg_state takes memcg_stat_item and
 * node_stat_item values as int); NULL when the parameter's own enumeration
 * type names it. */
const char *ch_counter_item_enums(const char *name);
/* The unit's records as one manifest text (compact, sorted keys), every
 * record (the skipped ones too: built, or their texts from the cache
 * directory, core/manifest-cache.c), for the object (core/objsec-emit.c);
 * malloc'd. */
char *ch_manifest_unit_text(ch_ctx *ctx);
/* Merge one manifest text (a unit's record from an object, or a whole
 * manifest) into ctx's manifest, as ch_manifest_write merges units into the
 * file: the same records in any order give the same result. 0, or -1 with
 * ch_ctx_error() (origin names the input). */
int ch_manifest_merge_text(ch_ctx *ctx, const char *text, const char *origin);
/* ctx's merged manifest as text (the file's format without the newline). */
char *ch_manifest_text(ch_ctx *ctx);

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

#ifdef __cplusplus
}
#endif
#endif /* CACHEHOT_CORE_H */
