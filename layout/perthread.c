/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perthread.c -- [cachehot-array-sharing] in cachehot-layout: arrays of
 * per-thread elements read from DWARF or BTF, judged by the core's rule
 * (core/array.c, ch_check_array) as the GCC plugin judges them
 * (plugin/per-thread.c), so that the engines print the same findings.
 *
 * DWARF and BTF carry no attributes: the marks come from the sidecar
 * ("NAME[] per_thread", "NAME[N] per_thread", "STRUCT.FIELD[] per_thread")
 * and from the manifest's "per_thread" names (what the plugin saw marked
 * __cacheline_per_thread). Judged, as in the plugin:
 *   - a marked variable of static storage that is an array of aggregates
 *     (count and declared alignment from the debug information), or a
 *     pointer to one (a heap array: count from the sidecar, start aligned
 *     as its type);
 *   - a marked member that is such an array (offset within the struct; the
 *     struct assumed to start on a line when it is aligned to one) or a
 *     pointer;
 *   - a marked struct type: "arrays of 'struct x'" (count unknown), at its
 *     definition.
 * The alignment of a variable is the one its declaration asks for (its
 * type's, or an alignment attribute), in every engine: a compiler may place
 * a large array on a line boundary on its own (GCC on x86-64 aligns static
 * objects of 64 bytes or more to 64), but nothing promises it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"

int lt_pt_any(struct lt_set *s)
{
	return ch_sidecar_per_thread_count(s->ctx) || (s->mf && lt_manifest_any_per_thread(s->mf));
}

int lt_pt_marked(struct lt_set *s, const char *name, uint64_t *count)
{
	uint64_t c = 0;
	int m = 0;
	if (!name)
		return 0;
	/* both looked up, as in the plugin: the sidecar may give the count of
	 * an attribute-marked heap array */
	if (ch_sidecar_per_thread_count(s->ctx) && ch_sidecar_per_thread(s->ctx, name, &c))
		m = 1;
	if (s->mf && lt_manifest_per_thread(s->mf, name))
		m = 1;
	if (count)
		*count = m ? c : 0;
	return m;
}

void lt_pt_add_var(struct lt_set *s, const struct lt_var *v)
{
	CH_GROW(s->vars, s->nvars, s->capvars, 16);
	s->vars[s->nvars] = *v;
	s->vars[s->nvars].name = ch_strdup(s->ctx, v->name);
	s->nvars++;
}

void lt_pt_add_ptr(struct lt_set *s, const struct lt_ptr_member *p)
{
	CH_GROW(s->ptrs, s->nptrs, s->capptrs, 16);
	s->ptrs[s->nptrs] = *p;
	if (p->pointee_name)
		s->ptrs[s->nptrs].pointee_name = ch_strdup(s->ctx, p->pointee_name);
	s->nptrs++;
}

struct pt_out {
	FILE *out;
	const char *input;
	const char *name;          /* what the location belongs to (display column) */
	int warnings;
};

static void pt_emit(const struct ch_finding *f, void *arg)
{
	struct pt_out *po = arg;
	if (lt_records) {
		struct ch_record r;
		ch_record_from_finding(&r, f);
		lt_record(&r, &f->loc, po->name, po->input);
	}
	lt_print_loc(po->out, &f->loc, po->name, po->input);
	fprintf(po->out, "%s: %s\n", f->severity == CH_SEV_ERROR ? "error" :
		f->severity == CH_SEV_WARNING ? "warning" : "note", f->message);
	if (f->severity >= CH_SEV_WARNING)
		po->warnings++;
}

static int listed(char **only, size_t nonly, const char *name)
{
	size_t i;
	for (i = 0; i < nonly; i++)
		if (name && !strcmp(only[i], name))
			return 1;
	return !nonly;
}

/* Judge the elements et (esize bytes) of the marked array site (where it
 * lies and its name: ch_per_thread_site). */
static void judge(struct lt_set *s, const struct ch_config *cfg, struct pt_out *po,
		  const struct ch_type *et, uint64_t esize, const struct ch_pt_site *site,
		  struct ch_loc loc)
{
	struct ch_pt_judgement j;
	if (!et || !esize)
		return;
	ch_per_thread_site(s->ctx, site, ch_config_line_size(cfg), &j);
	ch_check_array(s->ctx, (struct ch_type *)et, esize, j.nelems, j.base_off, j.base_known,
		       j.what, loc, cfg, pt_emit, po);
}

/* A site of kind named name (the marks were read before: by the readers,
 * lt_pt_marked). */
static struct ch_pt_site site_of(enum ch_pt_kind kind, const char *name)
{
	struct ch_pt_site site;
	memset(&site, 0, sizeof(site));
	site.kind = kind;
	site.name = name;
	return site;
}

int lt_pt_run(struct lt_set *s, FILE *out, const struct ch_config *cfg, char **only,
	      size_t nonly)
{
	struct pt_out po = { out, NULL, NULL, 0 };
	size_t i, k;

	if (!lt_pt_any(s))
		return 0;
	/* variables (recorded by the readers only when marked) */
	for (i = 0; i < s->nvars && !nonly; i++) {
		const struct lt_var *v = &s->vars[i];
		struct ch_pt_site site = site_of(CH_PT_VARIABLE, v->name);
		po.input = v->input;
		po.name = v->name;
		site.heap = v->heap;
		site.nelems = v->nelems;
		site.elem_align = v->elem->align;
		site.decl_align = v->heap ? 0 : v->align;
		judge(s, cfg, &po, v->elem, v->elem_size, &site, v->loc);
	}
	for (i = 0; i < s->n; i++) {
		struct lt_struct *st = &s->structs[i];
		const struct ch_type *t = st->t;
		if (!listed(only, nonly, st->name) || t->randomized)
			continue;
		po.input = st->input;
		/* members that are arrays of aggregates */
		for (k = 0; k < t->nmembers; k++) {
			const struct ch_member *m = &t->members[k];
			char key[512];
			if (!m->name || !m->type || (m->nelems == 1 && !m->flexible) ||
			    (size_t)snprintf(key, sizeof(key), "%s.%s", st->name, m->name) >= sizeof(key) ||
			    !lt_pt_marked(s, key, NULL))
				continue;
			po.name = m->name;
			{
				struct ch_pt_site site = site_of(CH_PT_MEMBER, key);
				site.nelems = m->flexible ? 0 : m->nelems;
				site.offset = m->offset;
				site.decl_align = t->align;
				judge(s, cfg, &po, m->type, m->elem_size, &site, m->loc);
			}
		}
		/* a marked element type: every array of it */
		if (!t->name_is_typedef && lt_pt_marked(s, st->name, NULL)) {
			struct ch_pt_site site = site_of(CH_PT_TYPE, st->name);
			site.is_union = t->is_union;
			site.elem_align = t->align;
			po.name = st->name;
			judge(s, cfg, &po, t, t->size, &site, t->loc);
		}
	}
	/* pointer members (recorded only when marked): heap arrays */
	for (i = 0; i < s->nptrs; i++) {
		const struct lt_ptr_member *p = &s->ptrs[i];
		const struct ch_member *m = &p->owner->members[p->member];
		struct lt_struct *st = p->owner->name ? lt_set_find(s, p->owner->name) : NULL;
		const struct ch_type *pt = p->pointee_key ? ch_type_lookup(s->ctx, p->pointee_key) : NULL;
		const char *key;
		uint64_t cnt = 0;
		if (!st || st->t != p->owner || !listed(only, nonly, st->name) || st->t->randomized)
			continue;   /* another unit's copy of the struct, or not asked for */
		if (!pt && p->pointee_name) {
			struct lt_struct *ps = lt_set_find(s, p->pointee_name);
			pt = ps ? ps->t : NULL;
		}
		key = ch_printf(s->ctx, "%s.%s", st->name, m->name);
		lt_pt_marked(s, key, &cnt);
		if (!pt)
			continue;
		po.input = st->input;
		po.name = m->name;
		{
			struct ch_pt_site site = site_of(CH_PT_MEMBER, key);
			site.heap = 1;
			site.nelems = cnt;
			site.elem_align = pt->align;
			judge(s, cfg, &po, pt, pt->size, &site, m->loc);
		}
	}
	return po.warnings;
}
