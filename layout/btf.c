/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf.c -- struct layouts from BTF through libbpf: raw BTF files such as the
 * running kernel's /sys/kernel/btf/vmlinux, and ELF files with a .BTF
 * section but no DWARF.
 *
 * Why libbpf and not pahole's text: libbpf parses every BTF kind of current
 * kernels (pahole 1.24 prints "Unknown kind 17" on 6.x BTF and loses the
 * decl/type tags), hands out offsets and bit-fields as data, and its
 * btf_dump__emit_type_decl() prints member declarations ready to paste.
 *
 * BTF records no source positions and no alignment. Diagnostics from BTF
 * carry the input path instead of file:line, and explicit alignment is
 * inferred the way pahole does: a member that starts after a hole its natural
 * alignment does not explain is aligned to the largest power of two dividing
 * its offset, and a struct whose size exceeds its members' end by more than
 * their alignment explains is aligned likewise.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "lt.h"

#define MAX_INFERRED_ALIGN 4096u

struct brd {
	struct lt_set *s;
	struct btf *btf;
	struct btf_dump *dump;
	unsigned fileno;
	char *buf;
	size_t n, cap;
	__u32 building[256];       /* structs under construction (nesting) */
	unsigned nbuilding;
	int bad;                   /* 1: a struct contains itself by value;
				    * 2: type bad_id does not resolve */
	__u32 bad_id;
};

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void dump_printf(void *arg, const char *fmt, va_list ap)
{
	struct brd *b = arg;
	ch_buf_vappend(&b->buf, &b->n, &b->cap, fmt, ap);
}

/* 1 if printing type id would print the body of an anonymous struct, union
 * or enum: libbpf's btf_dump writes those inline, once per reference, so a
 * type graph that shares one anonymous type between several members (only a
 * crafted file does; found by fuzz-btf) makes the text, and the time to make
 * it, exponential in the nesting depth. *budget bounds the walk (types
 * visited); running out counts as anonymous. */
static int anon_body_reachable(struct brd *b, __u32 id, int *budget)
{
	while (id) {
		const struct btf_type *t = btf__type_by_id(b->btf, id);
		if (!t || --*budget < 0)
			return 1;
		if (btf_is_struct(t) || btf_is_union(t) || btf_is_enum(t) || btf_is_enum64(t)) {
			const char *n = btf__name_by_offset(b->btf, t->name_off);
			return !n || !*n;
		}
		if (btf_is_typedef(t) || btf_is_int(t) || btf_is_float(t) || btf_is_fwd(t))
			return 0;   /* printed by name */
		if (btf_is_array(t)) {
			id = btf_array(t)->type;
		} else if (btf_is_func_proto(t)) {
			const struct btf_param *p = btf_params(t);
			__u16 k, n = btf_vlen(t);
			for (k = 0; k < n; k++)
				if (anon_body_reachable(b, p[k].type, budget))
					return 1;
			id = t->type;
		} else if (btf_is_ptr(t) || btf_is_mod(t) || btf_is_decl_tag(t)) {
			id = t->type;
		} else {
			return 0;
		}
	}
	return 0;   /* void */
}

/* "struct {...} name[2][3]" for a member of anonymous aggregate type through
 * modifiers and arrays, as the DWARF reader words it
 * (lt_dwarf_decl, layout/dwarf-decl.c); NULL when the type has another shape. */
static const char *anon_decl(struct brd *b, __u32 id, const char *name)
{
	ch_ctx *ctx = b->s->ctx;
	const char *dims = "", *kw, *n;
	const struct btf_type *t;
	int depth = 0;
	while ((t = btf__type_by_id(b->btf, id)) && depth++ < 64) {
		if (btf_is_array(t)) {
			dims = ch_printf(ctx, "%s[%u]", dims, btf_array(t)->nelems);
			id = btf_array(t)->type;
		} else if (btf_is_mod(t)) {
			id = t->type;
		} else {
			break;
		}
	}
	if (!t || !(btf_is_struct(t) || btf_is_union(t) || btf_is_enum(t) || btf_is_enum64(t)))
		return NULL;
	n = btf__name_by_offset(b->btf, t->name_off);
	if (n && *n)
		return NULL;
	kw = btf_is_union(t) ? "union" : btf_is_struct(t) ? "struct" : "enum";
	return ch_printf(ctx, "%s {...}%s%s%s", kw, *name ? " " : "", name, dims);
}

/* Declaration text of type id named name ("" for a type name). */
static const char *decl_text(struct brd *b, __u32 id, const char *name)
{
	DECLARE_LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o,
		.field_name = name,
		.indent_level = 0,
	);
	int budget = 256;
	if (anon_body_reachable(b, id, &budget)) {
		const char *a = anon_decl(b, id, name);
		return a ? a : ch_printf(b->s->ctx, "? %s", name);
	}
	b->n = 0;
	if (b->buf)
		b->buf[0] = 0;
	if (btf_dump__emit_type_decl(b->dump, id, &o) < 0)
		return ch_strdup(b->s->ctx, "?");
	return ch_strdup(b->s->ctx, b->buf ? b->buf : "");
}

static const void *bkey(struct brd *b, __u32 id)
{
	uint64_t k = ((uint64_t)b->fileno << 44) | id;
	return (const void *)(uintptr_t)(k + 1);
}

static unsigned pow2_dividing(uint64_t v)
{
	unsigned a = 1;
	if (!v)
		return MAX_INFERRED_ALIGN;
	while (!(v & a) && a < MAX_INFERRED_ALIGN)
		a <<= 1;
	return a;
}

static struct ch_type *bbuild(struct brd *b, __u32 id, const char *name);

/* Alignment of type id: natural (libbpf), or what the struct model says for
 * aggregates (inferred explicit alignment included). */
static unsigned balign(struct brd *b, __u32 id)
{
	__s32 rid = btf__resolve_type(b->btf, id);
	const struct btf_type *t;
	int a;
	if (rid < 0)
		return 1;
	t = btf__type_by_id(b->btf, rid);
	while (t && btf_is_array(t)) {
		rid = btf__resolve_type(b->btf, btf_array(t)->type);
		if (rid < 0)
			return 1;
		t = btf__type_by_id(b->btf, rid);
	}
	if (t && (btf_is_struct(t) || btf_is_union(t))) {
		struct ch_type *ct = bbuild(b, rid, NULL);
		return ct ? ct->align : 1;
	}
	a = btf__align_of(b->btf, rid);
	return a > 0 ? (unsigned)a : 1;
}

/* The aggregate a pointer type points to (id through modifiers and
 * typedefs), or NULL. */
static const struct btf_type *pointee(struct brd *b, const struct btf_type *ptr, __s32 *id)
{
	const struct btf_type *t;
	*id = btf__resolve_type(b->btf, ptr->type);
	t = *id > 0 ? btf__type_by_id(b->btf, *id) : NULL;
	return t && (btf_is_struct(t) || btf_is_union(t)) ? t : NULL;
}

/* [cachehot-array-sharing] (perthread.c): a member of t pointing to an
 * aggregate that the sidecar or manifest marks per-thread, a heap array
 * (the last member added); the pointee is resolved after reading. */
static void note_pointer_member(struct brd *b, struct ch_type *t, const char *mname,
				const struct btf_type *ptr)
{
	struct lt_ptr_member p;
	const struct btf_type *pt;
	__s32 pid;
	char key[512];
	if (!(pt = pointee(b, ptr, &pid)) ||
	    (size_t)snprintf(key, sizeof(key), "%s.%s", t->name, mname) >= sizeof(key) ||
	    !lt_pt_marked(b->s, key, NULL))
		return;
	memset(&p, 0, sizeof(p));
	p.owner = t;
	p.member = t->nmembers - 1;
	p.pointee_key = bkey(b, (__u32)pid);
	p.pointee_name = btf__name_by_offset(b->btf, pt->name_off);
	if (p.pointee_name && !*p.pointee_name)
		p.pointee_name = NULL;
	lt_pt_add_ptr(b->s, &p);
}

/* [cachehot-array-sharing]: a VAR (BTF has those of the kernel's DATASECs;
 * pahole 1.24 encodes per-CPU ones) that is an array of aggregates or a
 * pointer to one, recorded when marked. BTF has no positions and no
 * declared alignment: the element type's counts. */
static void read_var(struct brd *b, const struct btf_type *v, const char *path)
{
	const char *name = btf__name_by_offset(b->btf, v->name_off);
	__s32 id = btf__resolve_type(b->btf, v->type);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b->btf, id) : NULL;
	struct lt_var lv;
	uint64_t n = 1, cnt = 0;
	int heap = 0;
	if (!name || !*name || !t || btf_var(v)->linkage == BTF_VAR_GLOBAL_EXTERN)
		return;
	if (btf_is_ptr(t)) {
		if (!(t = pointee(b, t, &id)))
			return;
		heap = 1;
	} else if (btf_is_array(t)) {
		while (t && btf_is_array(t)) {
			n *= btf_array(t)->nelems;
			id = btf__resolve_type(b->btf, btf_array(t)->type);
			t = id > 0 ? btf__type_by_id(b->btf, id) : NULL;
		}
		if (!t || !(btf_is_struct(t) || btf_is_union(t)))
			return;
	} else
		return;
	if (!lt_pt_marked(b->s, name, &cnt))
		return;
	memset(&lv, 0, sizeof(lv));
	lv.name = name;
	lv.elem = bbuild(b, (__u32)id, NULL);
	if (!lv.elem || b->bad)
		return;
	lv.elem_size = lv.elem->size;
	lv.nelems = heap ? cnt : n;
	lv.heap = heap;
	lv.input = path;
	lt_pt_add_var(b->s, &lv);
}

static struct ch_type *bbuild(struct brd *b, __u32 id, const char *name)
{
	ch_ctx *ctx = b->s->ctx;
	const struct btf_type *bt = btf__type_by_id(b->btf, id);
	struct ch_type *t = ch_type_lookup(ctx, bkey(b, id));
	const struct btf_member *bm;
	struct lt_typeinfo *ti;
	const char **decls;
	unsigned i, vlen, maxal = 1;
	uint64_t end = 0, prev_end = 0;

	if (t)
		return t;
	if (!bt || !(btf_is_struct(bt) || btf_is_union(bt)))
		return NULL;
	if (!name) {
		name = btf__name_by_offset(b->btf, bt->name_off);
		if (name && !*name)
			name = NULL;
	}
	t = ch_type_new(ctx, bkey(b, id), name, btf_is_union(bt), bt->size, 1);
	vlen = btf_vlen(bt);
	bm = btf_members(bt);
	if (b->nbuilding >= sizeof(b->building) / sizeof(b->building[0])) {
		b->bad = 1;   /* nesting deeper than any real type */
		return t;
	}
	b->building[b->nbuilding++] = id;
	decls = calloc(vlen ? vlen : 1, sizeof(*decls));
	if (!decls)
		abort();
	for (i = 0; i < vlen; i++) {
		const char *mname = btf__name_by_offset(b->btf, bm[i].name_off);
		__u32 bitoff = btf_member_bit_offset(bt, i);
		__u32 bitsz = btf_member_bitfield_size(bt, i);
		__s32 rid = btf__resolve_type(b->btf, bm[i].type);
		const struct btf_type *rt = rid >= 0 ? btf__type_by_id(b->btf, rid) : NULL;
		const struct btf_type *et = rt;
		__s32 eid = rid;
		uint64_t nelems = 1;
		int flex = 0;
		struct ch_type *nested = NULL;
		struct ch_member *m;
		__s64 sz;
		unsigned nat;

		if (mname && !*mname)
			mname = NULL;
		if (rid < 0) {
			/* libbpf resolves at most 32 modifiers/typedefs: a longer
			 * chain would give a member of size 0 */
			b->bad = 2;
			b->bad_id = bm[i].type;
			break;
		}
		while (et && btf_is_array(et)) {
			const struct btf_array *arr = btf_array(et);
			nelems *= arr->nelems;
			if (!arr->nelems)
				flex = 1;
			eid = btf__resolve_type(b->btf, arr->type);
			et = eid >= 0 ? btf__type_by_id(b->btf, eid) : NULL;
		}
		if (et && (btf_is_struct(et) || btf_is_union(et)))
		{
			unsigned q;
			for (q = 0; q < b->nbuilding; q++)
				if (b->building[q] == (__u32)eid)
					b->bad = 1;   /* contains itself: malformed */
			if (b->bad)
				break;
			nested = bbuild(b, eid, NULL);
			/* the nested type contains this one (through an anonymous
			 * member, which the cycle check does not follow past a
			 * named struct): stop before libbpf lays it out for the
			 * declaration text (btf__align_of recursed without end) */
			if (b->bad)
				break;
		}
		nat = balign(b, bm[i].type);
		sz = btf__resolve_size(b->btf, bm[i].type);

		m = ch_type_add_member(ctx, t, mname);
		m->type = nested;
		m->nelems = nelems;
		m->elem_size = eid >= 0 ? (uint64_t)(btf__resolve_size(b->btf, eid) > 0 ?
						     btf__resolve_size(b->btf, eid) : 0) : 0;
		m->size = sz > 0 ? (uint64_t)sz : 0;
		/* BTF does not tell x[0] from x[]: a zero-count array that ends
		 * the struct is taken as flexible; one before other members is
		 * GNU x[0], a zero-size member (as the plugin and DWARF see it),
		 * and so is a kernel group marker anywhere (core/groups.c) */
		m->flexible = flex && i + 1 == vlen && ch_marker_kind(mname, NULL) == CH_MARKER_NONE;
		if (flex && !m->flexible)
			m->size = 0;
		m->is_integer = et && (btf_is_int(et) || btf_is_enum(et) || btf_is_enum64(et));
		m->align = nat;
		if (rt && btf_is_ptr(rt) && mname && name && lt_pt_any(b->s))
			note_pointer_member(b, t, mname, rt);
		if (rt && btf_is_array(rt)) {
			/* "char[56]", as the plugin words it: the element's own
			 * name (typedef, tag or base type; qualifiers skipped) */
			__u32 e = btf_array(rt)->type;
			const struct btf_type *et2 = btf__type_by_id(b->btf, e);
			const char *en;
			int depth = 0;
			while (et2 && (btf_is_mod(et2) || btf_is_array(et2)) && depth++ < 32) {
				e = btf_is_array(et2) ? btf_array(et2)->type : et2->type;
				et2 = btf__type_by_id(b->btf, e);
			}
			en = et2 ? btf__name_by_offset(b->btf, et2->name_off) : NULL;
			if (!en || !*en)
				en = et2 && (btf_is_struct(et2) || btf_is_union(et2)) ? "<anonymous>" : "?";
			m->type_name = ch_printf(ctx, "%s[%llu]", en, (unsigned long long)nelems);
		} else if (b->s->want_decls)
			m->type_name = decl_text(b, bm[i].type, "");
		else if (nested)
			m->type_name = ch_printf(ctx, "%s %s", nested->is_union ? "union" : "struct",
						 nested->name ? nested->name : "<anonymous>");
		if (b->s->want_decls)
			decls[i] = decl_text(b, bm[i].type, mname ? mname : "");
		if (bitsz) {
			m->offset = bitoff / 8;
			m->bit_offset = bitoff % 8;
			m->bit_size = bitsz;
			m->size = (m->bit_offset + bitsz + 7) / 8;
			if (decls[i])
				decls[i] = ch_printf(ctx, "%s:%u", decls[i], bitsz);
		} else {
			m->offset = bitoff / 8;
			/* a hole that natural alignment does not explain */
			if (!btf_is_union(bt) && i > 0 && m->offset > prev_end &&
			    m->offset > ((prev_end + nat - 1) / nat) * nat) {
				/* the largest power of two dividing the offset
				 * (1536 -> 512) overstates ____cacheline_aligned:
				 * take the smallest one that explains the hole,
				 * raised to the 64-byte line when that explains it
				 * too (the kernel's usual attribute) */
				unsigned inf = pow2_dividing(m->offset), a = nat ? nat : 1;
				while (a < inf && (prev_end + a - 1) / a * a != m->offset)
					a <<= 1;
				if (a < 64 && 64 <= inf)
					a = 64;
				inf = a;
				if (inf > nat) {
					m->align = inf;
					m->user_align = 1;
					/* a zero-size aligned type (padding) */
					if (nested && nested->size == 0 && nested->align < inf)
						nested->align = inf;
				}
			}
		}
		if (m->align > maxal)
			maxal = m->align;
		if (m->offset + m->size > end)
			end = m->offset + m->size;
		prev_end = m->offset + m->size;
	}
	if (b->bad) {
		/* stopped before every member was added: the caller refuses
		 * the input, nothing below may look at the members */
		free(decls);
		b->nbuilding--;
		return t;
	}
	/* (a zero-size struct with one zero-length array is a padding type
	 * whose alignment only its uses reveal: raised above when they do)
	 * tail padding beyond what the members' alignment explains */
	if (bt->size > ((end + maxal - 1) / maxal) * maxal) {
		unsigned inf = pow2_dividing(bt->size);
		if (inf > maxal)
			maxal = inf;
	}
	t->align = maxal;
	for (i = 0; i < vlen; i++)
		if (t->members[i].offset % (t->members[i].align ? t->members[i].align : 1) &&
		    !t->members[i].bit_size)
			t->packed = 1;
	for (i = 0; i < vlen; i++)
		ch_member_pad_kind(&t->members[i]);
	if (b->s->want_decls) {
		ti = lt_typeinfo(b->s, t);
		for (i = 0; i < vlen && i < ti->n; i++)
			ti->decl[i] = decls[i];
	}
	free(decls);
	b->nbuilding--;
	return t;
}

/* Edge k (0-based) of type id along what libbpf (btf_dump,
 * btf__resolve_*) follows without stopping: modifiers, typedefs, pointers,
 * array elements, function prototypes (return type, then parameters), and
 * the members of anonymous structs/unions (printed inline). A named
 * struct/union ends a path (printed "struct NAME"): struct s { struct s
 * *next; } is fine. Returns 1 and *to, or 0 when there is no edge k. */
static int follow(const struct btf *btf, __u32 id, unsigned k, __u32 *to)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	if (!t)
		return 0;
	if (btf_is_mod(t) || btf_is_typedef(t) || btf_is_ptr(t) || btf_is_decl_tag(t)) {
		*to = t->type;
		return k == 0;
	}
	if (btf_is_array(t)) {
		*to = btf_array(t)->type;
		return k == 0;
	}
	if (btf_is_func_proto(t)) {
		if (k > btf_vlen(t))
			return 0;
		*to = k ? btf_params(t)[k - 1].type : t->type;
		return 1;
	}
	if ((btf_is_struct(t) || btf_is_union(t)) && !t->name_off && k < btf_vlen(t)) {
		*to = btf_members(t)[k].type;
		return 1;
	}
	return 0;
}

/* A cycle along follow() edges makes libbpf recurse without end (pointer
 * cycles crashed --show/--reorganize inside libbpf; a 200000-long typedef
 * chain took minutes with a walk per type). One iterative depth-first
 * search: linear in types and edges. Returns 0, or -1 with err filled. */
static int btf_check_cycles(const struct btf *btf, const char *path, char *err, size_t errsz)
{
	__u32 n = btf__type_cnt(btf), id;
	unsigned char *state = calloc(n, 1);        /* 0 new, 1 on stack, 2 done */
	struct frame { __u32 id; unsigned next; } *stack = malloc(n * sizeof(*stack));
	int rc = 0;
	if (!state || !stack)
		abort();
	for (id = 1; id < n && !rc; id++) {
		size_t sp = 0;
		if (state[id])
			continue;
		state[id] = 1;
		stack[sp++] = (struct frame){ id, 0 };
		while (sp && !rc) {
			struct frame *f = &stack[sp - 1];
			__u32 to;
			if (!follow(btf, f->id, f->next, &to)) {
				state[f->id] = 2;
				sp--;
				continue;
			}
			f->next++;
			if (!to || to >= n || state[to] == 2)
				continue;
			if (state[to] == 1) {
				snprintf(err, errsz, "%s: malformed BTF: type %u refers to itself "
					 "through pointers, modifiers or anonymous members", path, to);
				rc = -1;
				break;
			}
			state[to] = 1;
			stack[sp++] = (struct frame){ to, 0 };
		}
	}
	free(state);
	free(stack);
	return rc;
}

/* Every struct/union member must have a layout: through typedefs,
 * modifiers and arrays it must end at an int, enum, float, pointer, struct
 * or union. libbpf's btf__align_of() returns 0 for anything else (void, a
 * function, a forward declaration), and btf_dump divides by it: SIGFPE
 * under --show (make fuzz). Chains are resolved once each (memo): linear.
 * Runs after btf_check_cycles(), so every chain ends. */
static int btf_check_member_types(const struct btf *btf, const char *path, char *err,
				  size_t errsz)
{
	__u32 n = btf__type_cnt(btf), id, k;
	signed char *ok = calloc(n, 1);           /* 0 unknown, 1 has a layout, -1 not */
	__u32 *chain = malloc(n * sizeof(*chain));
	int rc = 0;
	if (!ok || !chain)
		abort();
	for (id = 1; id < n && !rc; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_member *m;
		if (!btf_is_struct(t) && !btf_is_union(t))
			continue;
		m = btf_members(t);
		for (k = 0; k < btf_vlen(t) && !rc; k++) {
			__u32 cur = m[k].type, len = 0, i;
			signed char v;
			for (;;) {
				const struct btf_type *c = cur ? btf__type_by_id(btf, cur) : NULL;
				if (cur && ok[cur]) {
					v = ok[cur];
					break;
				}
				if (!c) {
					v = -1;
					break;
				}
				if (btf_is_int(c) || btf_is_any_enum(c) || btf_is_float(c) ||
				    btf_is_ptr(c) || btf_is_struct(c) || btf_is_union(c)) {
					v = 1;
					break;
				}
				chain[len++] = cur;
				if (btf_is_mod(c) || btf_is_typedef(c))
					cur = c->type;
				else if (btf_is_array(c))
					cur = btf_array(c)->type;
				else {
					v = -1;
					break;
				}
				if (len >= n) {   /* cannot happen after the cycle check */
					v = -1;
					break;
				}
			}
			for (i = 0; i < len; i++)
				ok[chain[i]] = v;
			if (v < 0) {
				snprintf(err, errsz, "%s: malformed BTF: member %u of type %u has no "
					 "layout (void, a function or a forward declaration)", path, k, id);
				rc = -1;
			}
		}
	}
	free(ok);
	free(chain);
	return rc;
}

/* libbpf 1.1 (Debian 12) checks the sizes of a BTF blob but not that type
 * references stay in range or that modifier chains end; btf_dump and the
 * walk below would follow them. Check them first, with libbpf's accessors.
 * Returns 0, or -1 with the offending ids in err. */
static int btf_check_refs(const struct btf *btf, const char *path, char *err, size_t errsz)
{
	__u32 n = btf__type_cnt(btf), id, k;
#define REF_OK(r) ((r) < n)
#define BAD(r) do { snprintf(err, errsz, "%s: malformed BTF: type %u refers to " \
			     "missing type %u", path, id, (unsigned)(r)); return -1; } while (0)
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t) {
			snprintf(err, errsz, "%s: malformed BTF: type %u unreadable", path, id);
			return -1;
		}
		/* names: every offset inside the string section */
		if (!btf__name_by_offset(btf, t->name_off))
			goto badname;
		if (btf_is_composite(t)) {
			const struct btf_member *m = btf_members(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!btf__name_by_offset(btf, m[k].name_off))
					goto badname;
		} else if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!btf__name_by_offset(btf, e[k].name_off))
					goto badname;
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!btf__name_by_offset(btf, e[k].name_off))
					goto badname;
		} else if (btf_is_func_proto(t)) {
			const struct btf_param *p = btf_params(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!btf__name_by_offset(btf, p[k].name_off))
					goto badname;
		}
		switch (btf_kind(t)) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
		case BTF_KIND_VAR: case BTF_KIND_TYPE_TAG: case BTF_KIND_DECL_TAG:
			if (!REF_OK(t->type))
				BAD(t->type);
			break;
		case BTF_KIND_ARRAY:
			if (!REF_OK(btf_array(t)->type))
				BAD(btf_array(t)->type);
			if (!REF_OK(btf_array(t)->index_type))
				BAD(btf_array(t)->index_type);
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
			const struct btf_member *m = btf_members(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!REF_OK(m[k].type))
					BAD(m[k].type);
			break;
		}
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *p = btf_params(t);
			if (!REF_OK(t->type))
				BAD(t->type);
			for (k = 0; k < btf_vlen(t); k++)
				if (!REF_OK(p[k].type))
					BAD(p[k].type);
			break;
		}
		case BTF_KIND_DATASEC: {
			const struct btf_var_secinfo *v = btf_var_secinfos(t);
			for (k = 0; k < btf_vlen(t); k++)
				if (!REF_OK(v[k].type))
					BAD(v[k].type);
			break;
		}
		default:
			break;
		}
	}
	/* sizes libbpf divides by or aligns with (btf__align_of() is the
	 * size of an int: 0 raised SIGFPE in btf_dump under --show) */
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		int ok = 1;
		if (btf_is_int(t)) {
			__u32 info = *(const __u32 *)(t + 1);
			ok = (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8 ||
			      t->size == 16) &&
			     BTF_INT_OFFSET(info) + BTF_INT_BITS(info) <= t->size * 8;
		}
		else if (btf_is_enum(t) || btf_is_enum64(t))
			ok = t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8;
		else if (btf_is_float(t))
			ok = t->size == 2 || t->size == 4 || t->size == 8 || t->size == 12 ||
			     t->size == 16;
		if (!ok) {
			snprintf(err, errsz, "%s: malformed BTF: type %u has an impossible size (%u bytes)",
				 path, id, (unsigned)t->size);
			return -1;
		}
	}
	if (btf_check_cycles(btf, path, err, errsz) ||
	    btf_check_member_types(btf, path, err, errsz))
		return -1;
#undef REF_OK
#undef BAD
	return 0;
badname:
	snprintf(err, errsz, "%s: malformed BTF: type %u has a name outside the string section",
		 path, id);
	return -1;
}

int lt_btf_read(struct lt_set *s, const char *path, unsigned fileno,
		char *err, size_t errsz)
{
	struct brd b = { .s = s, .fileno = fileno };
	__u32 id, n;
	long e;

	libbpf_set_print(quiet_print);
	b.btf = btf__parse(path, NULL);
	e = libbpf_get_error(b.btf);
	if (e || !b.btf) {
		snprintf(err, errsz, "%s: cannot read BTF: %s", path, strerror((int)(e < 0 ? -e : e)));
		return -1;
	}
	if (btf_check_refs(b.btf, path, err, errsz)) {
		btf__free(b.btf);
		return -1;
	}
	/* declarations only for --show/--reorganize */
	b.dump = s->want_decls ? btf_dump__new(b.btf, dump_printf, &b, NULL) : NULL;
	if (s->want_decls && libbpf_get_error(b.dump)) {
		snprintf(err, errsz, "%s: cannot set up BTF printing", path);
		btf__free(b.btf);
		return -1;
	}
	n = btf__type_cnt(b.btf);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b.btf, id);
		const char *name = btf__name_by_offset(b.btf, t->name_off);
		struct ch_type *ct;
		if (btf_is_var(t)) {
			if (lt_pt_any(s))
				read_var(&b, t, path);
			if (b.bad)
				break;
			continue;
		}
		if (btf_is_typedef(t)) {
			const struct btf_type *tt = btf__type_by_id(b.btf, t->type);
			const char *tn;
			if (!tt || !(btf_is_struct(tt) || btf_is_union(tt)))
				continue;
			tn = btf__name_by_offset(b.btf, tt->name_off);
			if (tn && *tn)
				continue;
			if (!name || !*name || lt_set_find(s, name))
				continue;
			ct = bbuild(&b, t->type, name);
			if (b.bad)
				break;
			if (ct)
				ct->name_is_typedef = 1;
			if (ct)
				lt_set_add(s, name, ct, path, LT_KIND_BTF);
			continue;
		}
		if (!(btf_is_struct(t) || btf_is_union(t)) || !name || !*name)
			continue;
		if (lt_set_find(s, name)) {
			struct lt_struct *old = lt_set_find(s, name);
			if (old->t->size != t->size)
				old->layouts_differ = 1;
			continue;
		}
		ct = bbuild(&b, id, NULL);
		if (b.bad)
			break;
		if (ct)
			lt_set_add(s, name, ct, path, LT_KIND_BTF);
	}
	if (b.dump)
		btf_dump__free(b.dump);
	free(b.buf);
	btf__free(b.btf);
	if (b.bad == 2) {
		snprintf(err, errsz, "%s: malformed BTF: member type %u does not resolve to a "
			 "type of known size (more than 32 typedefs or modifiers: libbpf's limit)",
			 path, (unsigned)b.bad_id);
		return -1;
	}
	if (b.bad) {
		snprintf(err, errsz, "%s: malformed BTF: a struct contains itself", path);
		return -1;
	}
	return 0;
}
