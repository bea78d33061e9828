// SPDX-License-Identifier: GPL-2.0
/*
 * perthread.c -- [cachehot-array-sharing] in cachehot-sparse: arrays of
 * per-thread elements, judged by the core's rule (core/array.c,
 * ch_check_array) exactly as the GCC plugin judges them
 * (plugin/per-thread.c), so that the engines print the same findings:
 *   - a marked variable of static storage (file scope, or a function's
 *     static) that is an array of aggregates or of scalars (count and
 *     declared alignment from the declaration), or a pointer to one (a heap
 *     array: count from the sidecar, start aligned
 *     as its type);
 *   - a marked member that is such an array (offset within the struct; the
 *     struct assumed to start on a line when it is aligned to one) or a
 *     pointer;
 *   - a marked struct type: "arrays of 'struct x'" (count unknown), at its
 *     tag.
 * Marks: the attribute cacheline_per_thread (attrs-marks.c) or a sidecar line
 * "NAME[] per_thread", "NAME[N] per_thread", "STRUCT.FIELD[] per_thread";
 * attribute marks go to the manifest (-fcachehot-manifest) as the plugin's.
 * Function-scope static arrays count too (saved when their block ends).
 */
#include <stdint.h>
#include <string.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "scope.h"

#include "cachehot-sparse.h"

/* An attribute mark, for cachehot-layout (DWARF/BTF carry no attributes):
 * the manifest's "per_thread" names, as the plugin records them. */
static void to_manifest(const char *name)
{
	if (ch_opts.manifest)
		ch_manifest_per_thread(ch_sparse_ctx, name);
}

static int is_agg(const struct symbol *s)
{
	return s && (s->type == SYM_STRUCT || s->type == SYM_UNION);
}

/* Element of an array (all dimensions; *n their product, 0 when one has no
 * bound) or the pointee of a pointer (*heap); NULL for anything else. */
static struct symbol *element_of(struct symbol *type, uint64_t *n, int *heap)
{
	struct symbol *t = ch_sparse_base(type);
	*n = 1;
	*heap = 0;
	if (t && t->type == SYM_PTR) {
		*heap = 1;
		*n = 0;
		return ch_sparse_base(t->ctype.base_type);
	}
	if (!t || t->type != SYM_ARRAY)
		return NULL;
	while (t && t->type == SYM_ARRAY) {
		struct symbol *e = ch_sparse_base(t->ctype.base_type);
		examine_symbol_type(t);
		if (e)
			examine_symbol_type(e);
		if (t->bit_size < 0 || !e || e->bit_size <= 0)
			*n = 0;
		else
			*n *= (uint64_t)(t->bit_size / e->bit_size);
		t = e;
	}
	return t;
}

/* An integer, pointer or enum element (a variable's array of them is
 * judged whole, as the plugin does). */
static int is_scalar(struct symbol *s)
{
	if (!s)
		return 0;
	examine_symbol_type(s);
	return (s->type == SYM_PTR || s->type == SYM_ENUM ||
		(s->type == SYM_BASETYPE && s != &void_ctype)) && s->bit_size > 0 &&
	       !(s->bit_size % 8);
}

/* The element's model: a scalar gets an empty type of its size; a struct
 * declared in a system header is marked to be wrapped (core/array.c). */
static struct ch_type *elem_type(struct symbol *elem)
{
	struct ch_type *et;
	if (is_scalar(elem)) {
		et = ch_type_new(ch_sparse_ctx, NULL, NULL, 0, (uint64_t)elem->bit_size / 8,
				 (unsigned)(elem->ctype.alignment ? elem->ctype.alignment
						    : (unsigned long)elem->bit_size / 8));
		et->wrap = CH_WRAP_SCALAR;
		return et;
	}
	et = ch_sparse_type(elem);
	if (et && ch_is_system_header(stream_name(elem->pos.stream)))
		et->wrap = CH_WRAP_SYSTEM;
	return et;
}

/* Judge the elements elem of the marked array site (where it lies and its
 * name: ch_per_thread_site). */
static void judge(struct symbol *elem, const struct ch_pt_site *site, unsigned L,
		  struct ch_loc loc, const struct ch_config *cfg)
{
	struct ch_type *et = elem_type(elem);
	struct ch_pt_judgement j;
	if (!et || !et->size)
		return;
	ch_per_thread_site(ch_sparse_ctx, site, L, &j);
	ch_check_array(ch_sparse_ctx, et, et->size, j.nelems, j.base_off, j.base_known, j.what,
		       loc, cfg, ch_print_finding, NULL);
}

static const char *text(const struct ident *id)
{
	return ch_printf(ch_sparse_ctx, "%.*s", id->len, id->name);
}

/* A location at a symbol: the column is moved onto its name when printed. */
static struct ch_loc loc_at(struct symbol *sym)
{
	struct ch_loc l = ch_sparse_loc(sym->pos);
	l.fe_loc = (uint64_t)(uintptr_t)sym;
	return l;
}

/* The attribute on this declaration or an earlier one of the same variable
 * (GCC merges the attributes of redeclarations: "extern struct x a[8]
 * __cacheline_per_thread;" in a header marks the definition). */
static int var_marked(struct symbol *sym)
{
	int depth = 0;
	for (; sym && depth < 64; sym = sym->same_symbol, depth++)
		if (ch_attr_per_thread_var(sym))
			return 1;
	return 0;
}

static void check_var(struct symbol *sym, const struct ch_config *cfg, unsigned L)
{
	struct symbol *elem;
	uint64_t n, cnt = 0;
	int heap;
	const char *name;
	struct ch_type *et;
	struct ch_pt_site site;
	int attr;

	if (!sym->ident || (sym->ctype.modifiers & MOD_EXTERN))
		return;
	elem = element_of(sym->ctype.base_type, &n, &heap);
	if (!(is_agg(elem) && elem->symbol_list) && !is_scalar(elem))
		return;
	name = text(sym->ident);
	attr = var_marked(sym);
	if (attr)
		to_manifest(name);
	if (!ch_per_thread_marked(ch_sparse_ctx, name, attr, 1, &cnt))
		return;
	et = elem_type(elem);
	if (!et)
		return;
	examine_symbol_type(sym);
	memset(&site, 0, sizeof(site));
	site.kind = CH_PT_VARIABLE;
	site.name = name;
	site.heap = heap;
	site.nelems = heap ? cnt : n;
	site.elem_align = et->align;
	/* the declared alignment: an attribute's (sparse's symbol alignment) */
	site.decl_align = heap ? 0 : (unsigned)sym->ctype.alignment;
	judge(elem, &site, L, loc_at(sym), cfg);
}

static void check_members(struct symbol *s, const char *sname, const struct ch_config *cfg,
			  unsigned L)
{
	struct ch_type *ct = NULL;
	struct symbol *mem;
	size_t k;

	/* laid out by randstruct: sparse's offsets are not the compiler's */
	if (ch_attr_randomized(s))
		return;
	FOR_EACH_PTR(s->symbol_list, mem) {
		struct symbol *elem;
		const struct ch_member *m = NULL;
		const char *fname, *key;
		uint64_t n, cnt = 0;
		int heap, attr;
		struct ch_pt_site site;
		if (mem->type != SYM_NODE || !mem->ident)
			continue;
		elem = element_of(mem->ctype.base_type, &n, &heap);
		if (!is_agg(elem) || !elem->symbol_list)
			continue;
		fname = text(mem->ident);
		key = ch_printf(ch_sparse_ctx, "%s.%s", sname, fname);
		attr = ch_attr_per_thread_member(mem);
		if (attr)
			to_manifest(key);
		if (!ch_per_thread_marked(ch_sparse_ctx, key, attr, 1, &cnt))
			continue;
		memset(&site, 0, sizeof(site));
		site.kind = CH_PT_MEMBER;
		site.name = key;
		site.heap = heap;
		if (heap) {
			struct ch_type *et = ch_sparse_type(elem);
			site.nelems = cnt;
			if (et) {
				site.elem_align = et->align;
				judge(elem, &site, L, loc_at(mem), cfg);
			}
			continue;
		}
		/* the container's model, built only for a marked member */
		if (!ct && !(ct = ch_sparse_type(s)))
			return;
		for (k = 0; k < ct->nmembers && !m; k++)
			if (ct->members[k].name && !strcmp(ct->members[k].name, fname))
				m = &ct->members[k];
		if (m) {
			site.nelems = m->flexible ? 0 : n;
			site.offset = m->offset;
			site.decl_align = ct->align;
			judge(elem, &site, L, loc_at(mem), cfg);
		}
	} END_FOR_EACH_PTR(mem);
}

/* Static variables of function bodies, saved before sparse ends their block
 * scopes (the plugin judges function-scope statics too); checked with the
 * file's declarations, then forgotten. */
static struct symbol_list *block_statics;

void ch_note_block_statics(struct scope *sc)
{
	struct symbol *sym;
	if (!sc || (!ch_attr_any_per_thread() && !ch_sidecar_per_thread_count(ch_sparse_ctx)))
		return;
	FOR_EACH_PTR(sc->symbols, sym) {
		if (sym->namespace == NS_SYMBOL && sym->type == SYM_NODE &&
		    (sym->ctype.modifiers & MOD_STATIC))
			add_symbol(&block_statics, sym);
	} END_FOR_EACH_PTR(sym);
}

void ch_check_per_thread(struct symbol_list *scope, struct symbol_list *decls,
			 const struct ch_config *cfg)
{
	unsigned L = ch_config_line_size(cfg);
	struct symbol *sym;

	if (!cfg->smp || (!ch_attr_any_per_thread() && !ch_sidecar_per_thread_count(ch_sparse_ctx))) {
		block_statics = NULL;
		return;
	}
	FOR_EACH_PTR(scope, sym) {
		if (sym->namespace == NS_STRUCT && is_agg(sym) && sym->symbol_list && sym->ident) {
			const char *tag = text(sym->ident);
			struct ch_type *ct;
			struct ch_pt_site site;
			struct ch_pt_judgement j;
			int attr;
			check_members(sym, tag, cfg, L);
			attr = ch_attr_per_thread_type(sym);
			if (attr)
				to_manifest(tag);
			if (!ch_per_thread_marked(ch_sparse_ctx, tag, attr, 1, NULL))
				continue;
			ct = ch_sparse_type(sym);
			if (!ct || ct->randomized)
				continue;
			memset(&site, 0, sizeof(site));
			site.kind = CH_PT_TYPE;
			site.name = tag;
			site.is_union = sym->type == SYM_UNION;
			site.elem_align = ct->align;
			ch_per_thread_site(ch_sparse_ctx, &site, L, &j);
			ch_check_array(ch_sparse_ctx, ct, ct->size, j.nelems, j.base_off, j.base_known,
				       j.what, ct->loc, cfg, ch_print_finding, NULL);
		} else if (sym->namespace == NS_TYPEDEF && sym->type == SYM_NODE && sym->ident &&
			   is_agg(sym->ctype.base_type) && sym->ctype.base_type->namespace != NS_STRUCT &&
			   sym->ctype.base_type->symbol_list &&
			   sym->ctype.base_type->ident == sym->ident) {
			/* typedef struct { ... } name_t: its members under the
			 * (first) typedef's name, which sparse gives the struct */
			check_members(sym->ctype.base_type, text(sym->ident), cfg, L);
		}
	} END_FOR_EACH_PTR(sym);
	FOR_EACH_PTR(decls, sym) {
		struct symbol *b;
		if (sym->namespace != NS_SYMBOL || sym->type != SYM_NODE)
			continue;
		b = ch_sparse_base(sym->ctype.base_type);
		if (b && b->type != SYM_FN)
			check_var(sym, cfg, L);
	} END_FOR_EACH_PTR(sym);
	FOR_EACH_PTR(block_statics, sym) {
		struct symbol *b = ch_sparse_base(sym->ctype.base_type);
		if (b && b->type != SYM_FN)
			check_var(sym, cfg, L);
	} END_FOR_EACH_PTR(sym);
	block_statics = NULL;   /* sparse's allocator owns the list nodes */
}
