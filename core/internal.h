/* SPDX-License-Identifier: GPL-2.0 */
/* internal.h -- what the core sources share; not part of the public API. */
#ifndef CACHEHOT_CORE_INTERNAL_H
#define CACHEHOT_CORE_INTERNAL_H
#include <string.h>
#include "cachehot-core.h"

struct ch_sidecar_entry {
	const char *type;       /* STRUCT, or function name for addressable */
	const char *field;      /* FIELD, or NULL for "FUNC() addressable" */
	enum ch_class cls;
	const char *group;
	const char *file;
	unsigned line;
	int matched;
	size_t next_of_type;    /* index + 1 of the next entry of this STRUCT, 0: none */
	uint64_t count;         /* NAME[N] per_thread: N elements; 0 unknown */
	int global;             /* "NAME CLASS[:GROUP]": a global variable; type
				 * is "NAME=" (a key no other entry has) */
	const char *hint;       /* global: "TAG.MEMBER" when NAME is TAG and
				 * MEMBER run together (ch_sidecar_hint_member) */
	const char *pt_struct;  /* "STRUCT." of "STRUCT.FIELD[] per_thread", else NULL */
	int inferred;           /* written by cachehot annotate (after a line
				 * "# cachehot annotate: ..." in its file) */
	int owned;              /* "STRUCT owned": field is "" (no member has
				 * that name), in STRUCT's chain */
	size_t seq;             /* load order: files in order, lines within one */
	uint64_t key_hash;      /* of (type, field) in the index (sidecar.c) */
};

/* One STRUCT named by field entries: its entries form a chain through
 * next_of_type (indices + 1, file order). */
struct ch_side_type {
	const char *name;
	uint64_t hash;          /* of name, in the index (sidecar.c) */
	size_t first, last;
	size_t n;               /* entries in the chain first .. last */
};

/* The sidecar's entries of one struct, found once (ch_sidecar_chain) and
 * asked about each of its members (ch_sidecar_class_chain): a struct's
 * members cost a walk of its few entries, not two string hashes each. */
struct ch_side_chain {
	const char *type;       /* the struct's name */
	size_t first;           /* its first entry + 1, 0 when it has none */
	size_t n;               /* how many it had when found */
};
/* 1 and *c filled when the sidecar names type (NULL: 0, *c empty). */
int ch_sidecar_chain(ch_ctx *ctx, const char *type, struct ch_side_chain *c);
/* ch_sidecar_chain(ctx, t->name, c), remembered in t for as long as the
 * sidecar does not change (a struct type met again and again, nested in
 * others, is looked up once). t->name must not be NULL. */
void ch_type_chain(ch_ctx *ctx, struct ch_type *t, struct ch_side_chain *c);
/* ch_sidecar_class_inferred(ctx, c->type, field, group, inferred), the
 * same answer and the same entry marked matched. */
enum ch_class ch_sidecar_class_chain(ch_ctx *ctx, const struct ch_side_chain *c,
				     const char *field, const char **group, int *inferred);

/* core/sidecar.c, for sidecar-query.c: the entry for (type, field),
 * field NULL for "FUNCTION() addressable", or NULL; the chain of STRUCT
 * type, or NULL (the pointer holds until the next struct is added). Both
 * O(1) expected, loading type's pending entries first (sidecar-index.c). */
struct ch_sidecar_entry *ch_sidecar_find_entry(const ch_ctx *ctx, const char *type,
					       const char *field);
struct ch_side_type *ch_sidecar_find_type(const ch_ctx *ctx, const char *type);
/* the first len bytes of s (ch_sidecar_hint_tag) */
struct ch_name_prefix {
	const char *s;
	size_t len;
};

struct ch_side_lazy_ops {
	void (*need)(ch_ctx *ctx, const char *type);
	void (*all)(ch_ctx *ctx);
	void (*free)(ch_ctx *ctx);
};

struct ch_ctx {
	char err[512];
	/* every allocation (chunks of ch_alloc's arena), freed by ch_ctx_free */
	void **allocs;
	size_t nallocs, capallocs;
	void **chunks;          /* arena chunks mapped from the kernel (ctx.c) */
	size_t nchunks, capchunks;
	char *arena;            /* free part of the current chunk */
	size_t arena_left;      /* bytes */
	/* front-end key -> type: keys[i] -> vals[i], by keyidx (helpers.c) */
	const void **keys;
	struct ch_type **vals;
	size_t nkeys, capkeys;
	struct ch_index keyidx;
	/* all types, for freeing members */
	struct ch_type **types;
	size_t ntypes, captypes;
	struct ch_sidecar_entry *side;
	size_t nside, capside;
	size_t nside_per_thread;  /* of them "NAME[] per_thread" lines */
	size_t nside_global;      /* of them "VARIABLE CLASS" lines */
	/* every proper prefix of their names (ch_sidecar_hint_tag), each
	 * once, (start, length) of the names, found by side_prefix_idx;
	 * built for nside_prefixes_for variable lines */
	struct ch_name_prefix *side_prefixes;
	size_t nside_prefixes, cap_side_prefixes, nside_prefixes_for;
	struct ch_index side_prefix_idx;
	/* sidecar indices (struct ch_index): (STRUCT, member key) -> entry
	 * index, and STRUCT -> its chain in side_types; rebuilt whole when a
	 * failed load is undone. Member keys are opaque strings. */
	struct ch_index side_idx;
	struct ch_side_type *side_types;
	size_t nside_types, cap_side_types;
	struct ch_index side_type_idx;
	/* one bit per side_types name (side_type_bit, sidecar.c): a struct
	 * name whose bit is clear is not there, without hashing the name
	 * (a unit asks for each of its hundreds of structs; a sidecar
	 * names a few) */
	uint64_t side_type_bloom[2];
	/* the bits (ch_side_type_bit) of the structs whose lines an index
	 * still holds unparsed: a lookup of a name without its bit needs
	 * no ch_sidecar_pending_need() (core/sidecar-index.c) */
	uint64_t side_pending_bloom[2];
	/* side_types also holds "STRUCT." (no identifier ends in '.') for
	 * each STRUCT with a "STRUCT.FIELD[] per_thread" entry, so that a
	 * struct without one costs one lookup, not one per member */
	size_t nside_glob;      /* global-variable entries (counted by index_entry) */
	size_t nside_owned;     /* "STRUCT owned" entries (counted by index_entry) */
	unsigned long side_gen; /* bumped whenever entries or their index change */
	/* the arrays of the last struct flattened (model.c), kept for the
	 * next: judging every struct of a kernel grew them from nothing
	 * 9 000 times (malloc'd; NULL while a flattening holds them) */
	void *flat_insts, *flat_leaves;
	size_t flat_capinsts, flat_capleaves;
	/* a sidecar loaded through its index (sidecar-index.c): struct
	 * lines not parsed yet, and the sequence numbers of entries */
	void *side_lazy;
	size_t nside_pending;
	/* what the index does with its pending lines (parse those of one
	 * struct, parse all, free the mappings): set with side_lazy, so
	 * that sidecar.c and ctx.c call up into sidecar-index.c without
	 * depending on it */
	const struct ch_side_lazy_ops *side_lazy_ops;
	size_t side_seq, side_seq_next;
	void *manifest;         /* json_t * (manifest.c) */
	/* frees what manifest.c attached (ch_manifest_free), set when it
	 * attaches something: ctx.c calls it without depending on it */
	void (*manifest_free)(ch_ctx *ctx);
	/* ch_manifest_use(): the file this unit's records merge into, and
	 * the record digests it held when first needed (sorted; malloc) */
	const char *manifest_path;
	unsigned long long *manifest_known;
	size_t nmanifest_known;
	int manifest_known_read;
	/* records skipped because the file held their digest: checked again
	 * under the lock when the manifest is written, built if gone
	 * (struct ch_skipped_record, manifest.c; malloc) */
	void *manifest_skipped;
	size_t nmanifest_skipped, cap_manifest_skipped;
	/* ch_records_begin(): the unit's records as JSON lines (malloc) */
	int records_on;
	char records_engine[16];
	char *records;
	size_t records_len, records_cap, nrecords;
	/* ch_fix_cache_enable(): where struct fixes (fix-cache.c) and
	 * manifest record texts (manifest-cache.c) are kept across units,
	 * ctx-owned; NULL: not kept */
	const char *fix_cache_dir;
};

/* The cache directory: dir if given, else $CACHEHOT_CACHE_DIR, else
 * $XDG_CACHE_HOME/cachehot, else $HOME/.cache/cachehot (written into buf,
 * size bytes); NULL if none can be named (sidecar-index.c). */
const char *ch_cache_dir_of(const char *dir, char *buf, size_t size);

/* The identity of the binary this code runs in (device, inode, size,
 * mtime), once per process: 1, or 0 if it cannot be named (fix-cache.c). */
int ch_code_identity(uint64_t id[4]);
/* path (a file in the cache directory, its directories made as needed;
 * path is modified meanwhile and restored) := len bytes of buf, written
 * whole or not at all (ch_atomic_open); failures are silent: a cache. */
void ch_cache_put(char *path, const void *buf, size_t len);

/* A growing byte buffer: p (malloc'd, the owner's to free) holds len
 * bytes in cap. ch_grow_put appends n bytes of src (the room doubled, from
 * 4 kB; out of memory aborts, as ch_xrealloc). Used for the struct-fix
 * cache's keys and the manifest's unit text. */
struct ch_grow {
	unsigned char *p;
	size_t len, cap;
};
void ch_grow_put(struct ch_grow *b, const void *src, size_t n);
/* path's whole content when it is a regular file of min..max bytes: a
 * malloc'd buffer of *len bytes plus a NUL after them (the caller's), or
 * NULL (missing, another kind of file, another size, a short read). */
unsigned char *ch_cache_get(const char *path, size_t min, size_t max, size_t *len);

/* A struct's fix kept across units (fix-cache.c; fix.c's search only).
 * ch_fix_memo_get: 1 and the search's answer (order[k]: member at
 * position k; pad/moved per member; *size: bytes of the fixed layout) when
 * the cache holds it for exactly this input; 0 when it holds "no fix";
 * -1 when it has no answer (m->active then says whether ch_fix_memo_put
 * should store the one computed). ins, sep: the kind of break (fix.c);
 * search: which search ran (ch_fix_reference_search), part of the key.
 * ch_fix_memo_free always after get. */
struct ch_fix_memo {
	char *key;               /* malloc'd: the key, byte for byte */
	size_t key_len, nmembers;
	int active;
	char path[4200];
};
int ch_fix_memo_get(ch_ctx *ctx, struct ch_fix_memo *m, const struct ch_type *t,
		    const struct ch_fix_leaf *v, size_t n, unsigned L, int ins, unsigned sep,
		    int search, size_t *order, int *pad, int *moved, uint64_t *size);
void ch_fix_memo_put(struct ch_fix_memo *m, int found, const size_t *order, const int *pad,
		     const int *moved, uint64_t size);
void ch_fix_memo_free(struct ch_fix_memo *m);

/* vsnprintf(out, cap, fmt, ap), the same bytes and return value; the
 * conversions the core's messages use done without glibc (format.c). */
int ch_vformat(char *out, size_t cap, const char *fmt, va_list ap);
/* snprintf through ch_vformat */
int ch_snprintf(char *out, size_t cap, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* ch_classes_conflict (rules.c), inline for the loops over pairs of
 * leaves (a million pairs over a kernel's every struct, rules.c, fix.c) */
static inline int ch_conflicting(enum ch_class ca, const char *ga, enum ch_class cb, const char *gb)
{
	if (ca == CH_CLASS_EXCLUSIVE || cb == CH_CLASS_EXCLUSIVE)
		return 1;
	if ((ca == CH_CLASS_HOT && cb == CH_CLASS_READ_MOSTLY) ||
	    (cb == CH_CLASS_HOT && ca == CH_CLASS_READ_MOSTLY))
		return 1;
	if (ca == CH_CLASS_HOT && cb == CH_CLASS_HOT) {
		if (!ga || !gb)
			return 1;
		return strcmp(ga, gb) != 0;
	}
	return 0;
}

void *ch_alloc(ch_ctx *ctx, size_t n);     /* zeroed, ctx-owned */
void ch_set_error(ch_ctx *ctx, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ch_manifest_free(ch_ctx *ctx);

/* Findings of one ch_check_type() run (rules.c), sorted before emission. */
struct ch_finding_list {
	struct ch_finding *v;
	size_t n, cap;
};
struct ch_finding *ch_finding_new(struct ch_finding_list *fl);   /* zeroed (findings.c) */
/* The group rules (grouprules.c): false sharing between kernel groups,
 * [cachehot-group-span] for kernel groups and hot groups, marker problems.
 * leaves: t's flattened leaves (ch_flatten order). */
/* placement_free: a userspace struct that isolates with separators and may
 * start anywhere (core/idiom.c): hot groups' line spans are not judged. */
void ch_judge_groups(ch_ctx *ctx, struct ch_type *t, const struct ch_leaf *leaves,
		     size_t nleaves, const struct ch_config *cfg, struct ch_finding_list *fl,
		     int placement_free);
/* 'struct foo', 'foo_t', anonymous struct (messages.c). */
const char *ch_type_phrase(ch_ctx *ctx, const struct ch_type *t);
/* How a member is named in a fix: 'name', or which anonymous aggregate (messages.c). */
const char *ch_member_ref(ch_ctx *ctx, const struct ch_member *m);
/* messages.c: how a leaf is named in a message: "hot field (group 'g')",
 * "read-mostly field", ...; "offset 8, size 8" (a bit-field, a flexible
 * array: their own words); "(64-byte lines)" or "(predicted at 128-byte
 * lines)". */
const char *ch_leaf_class_phrase(ch_ctx *ctx, const struct ch_leaf *l);
const char *ch_leaf_where_phrase(ch_ctx *ctx, const struct ch_leaf *l);
const char *ch_lines_phrase(ch_ctx *ctx, unsigned L, int predicted);
/* findings.c: a new finding in fl about leaf a (where it is reported) and
 * leaf b (the other) of struct t: check, severity, fields, offsets, line. */
struct ch_finding *ch_pair_finding(struct ch_finding_list *fl, enum ch_check check,
				   const struct ch_config *cfg, const struct ch_type *t,
				   const struct ch_leaf *a, const struct ch_leaf *b,
				   uint64_t line_index, unsigned L);
/* [cachehot-global-sharing] (globals.c -> messages.c): one neighbour of a
 * hot global and the line (index from the section's first line) they share. */
struct ch_global_nb {
	const struct ch_global *g;
	uint64_t line;
};
/* The whole message for hot global h sharing lines [first, last] (indexes
 * from the first line of h's section) with nb[0..n) (n >= 1; more than
 * shown are counted in 'more'); next: the first neighbour after h on its
 * last line, or NULL; pad: bytes the userspace fix costs at this placement. */
/* A hot global with its lines to itself in a relocatable object whose
 * section leaves them open to the link: the section is aligned to less
 * than a line (open_start: data before it may share the first line) or
 * ends inside the variable's last line (open_end). A note. */
/* A hot/exclusive global in a read-only section (a const): never written,
 * so the annotation is wrong. A note. */
const char *ch_msg_global_read_only(ch_ctx *ctx, const struct ch_global *h);
const char *ch_msg_global_open(ch_ctx *ctx, const struct ch_global *h, int open_start,
			       int open_end, const struct ch_config *cfg);
const char *ch_msg_global_sharing(ch_ctx *ctx, const struct ch_global *h, int relocatable,
				  uint64_t first, uint64_t last, const struct ch_global_nb *nb,
				  size_t n, size_t more, const struct ch_global *next, uint64_t pad,
				  const struct ch_config *cfg);
/* layout-eval.c: the one model of a struct laid out in an order, as GCC
 * lays it out (all offsets from the struct's start).
 * ch_bitfield_place: a bit-field of width bits whose storage type has
 * storage bytes, at the first free bit p: where it starts (the next storage
 * unit when it would straddle one). */
uint64_t ch_bitfield_place(uint64_t p, unsigned width, uint64_t storage);
/* The storage unit (bytes) bit-field m is packed in by the model: the
 * smallest power of two (1..16) whose aligned unit holds its bits where
 * they are declared; front ends agree on it (layout-eval.c says why). */
uint64_t ch_bitfield_storage(const struct ch_member *m);
/* The layout so far: ch_layout_start, then ch_layout_place for each member
 * in the new order, then ch_layout_size. */
struct ch_layout_cursor {
	uint64_t off;              /* bytes laid out (a partial byte counts) */
	uint64_t bitcur;           /* bits laid out */
	int prev_bits;             /* the last member placed is a bit-field */
	unsigned align;            /* bytes: the struct's alignment so far */
};
void ch_layout_start(const struct ch_type *t, struct ch_layout_cursor *c);
/* Member i of t next; brk: a break before it, which starts it on a fresh
 * L-byte line (CACHELINE_PADDING or _Alignas(L): raises the struct's
 * alignment to L) or, with sep > 0, after a separator of sep bytes (the
 * separator idiom, core/idiom.c). Returns its first bit (bits from the
 * start); the byte holding it is that / 8. */
uint64_t ch_layout_place(const struct ch_type *t, struct ch_layout_cursor *c, size_t i, int brk,
			 unsigned L, unsigned sep);
/* The struct's size in bytes (the end rounded up to its alignment). */
uint64_t ch_layout_size(const struct ch_layout_cursor *c);
/* t's members in order (member indexes, t->nmembers of them), brk[member]
 * = 1 (brk may be NULL) starting that member on a fresh L-byte line
 * (CACHELINE_PADDING before it); each member's first bit into
 * bitpos[member] (bits from the start); the struct's alignment into *align
 * (bytes); returns its size in bytes. */
uint64_t ch_layout_order(const struct ch_type *t, const size_t *order, const int *brk, unsigned L,
			 uint64_t *bitpos, unsigned *align);
/* 1 if the model reproduces t as declared (every member's first bit and
 * the size); 0 for what it does not know (zero-width bit-fields, packed
 * members): the fix and the planner then leave t as it is. */
int ch_layout_fits(const struct ch_type *t);
/* rules.c: the fix ch_check_type names on t's false sharing at line size L
 * in vocabulary kernel (ch_config.kernel), computed alone; NULL as
 * ch_struct_fix. ctx-owned. */
const struct ch_fix *ch_type_struct_fix(ch_ctx *ctx, struct ch_type *t, unsigned L, int kernel);
/* fix.c: 1 makes ch_struct_fix() use its reference search (rounds over
 * every pair) instead of the sweep; tests compare the two. */
extern int ch_fix_reference_search;
/* Read f to its end (pipes too: no size is asked for) into a malloc'd buffer
 * the caller frees, NUL-terminated; *len = bytes read (the text itself may
 * hold NUL bytes). NULL on a read error, with errno set (ctx.c). */
char *ch_read_stream(FILE *f, size_t *len);
/* The whole text file at path, malloc'd (caller frees); NULL with
 * ch_ctx_error() "PATH: reason" when it cannot be read or holds a NUL byte. */
char *ch_read_text_file(ch_ctx *ctx, const char *path);
/* sidecar.c: parse one sidecar line (NUL-terminated, comment cut) of
 * file at lineno into ctx; -1 and ch_ctx_error() on a malformed line. */
int ch_sidecar_parse_line(ch_ctx *ctx, const char *file, unsigned lineno, char *s);
/* sidecar.c: parse the pending lines of a sidecar loaded through its
 * index (sidecar-index.c, ctx->side_lazy_ops) for struct type (a lookup is
 * about to name it), or all of them; nothing when none is pending. */
void ch_sidecar_pending_need(ch_ctx *ctx, const char *type);
/* side_type_bloom: the bit of a struct name of n bytes (its length and
 * three of its bytes, without reading the whole name); set it for the name
 * of a chain or of a struct an index holds lines of (sidecar.c,
 * sidecar-index.c; with side_pending_bloom, the structs still pending). A
 * name whose bit is not set in side_type_bloom has no chain and no pending
 * line. Most names a unit asks about are in no sidecar: their bit settles
 * them. */
static inline unsigned ch_side_type_bit(const char *name, size_t n)
{
	unsigned char a = (unsigned char)name[0], b = n ? (unsigned char)name[n - 1] : 0,
		      c = (unsigned char)name[n / 2];
	return (unsigned)(n * 37u + a * 7u + b * 131u + c * 17u) & 127u;
}
void ch_side_type_mark(ch_ctx *ctx, const char *name, size_t n);
void ch_side_type_mark_all(ch_ctx *ctx);
static inline int ch_side_bit_in(const uint64_t bloom[2], unsigned bit)
{
	return (int)((bloom[bit >> 6] >> (bit & 63)) & 1);
}
static inline void ch_side_bit_set(uint64_t bloom[2], unsigned bit)
{
	bloom[bit >> 6] |= 1ULL << (bit & 63);
}
static inline void ch_side_bit_clear(uint64_t bloom[2], unsigned bit)
{
	bloom[bit >> 6] &= ~(1ULL << (bit & 63));
}
void ch_sidecar_pending_all(ch_ctx *ctx);
/* 1 if the n bytes at s are a C identifier (sidecar.c). */
int ch_is_ident(const char *s, size_t n);
#endif
