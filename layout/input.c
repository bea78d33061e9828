/* SPDX-License-Identifier: GPL-2.0 */
/* input.c -- the set of structs read from the inputs; file-kind detection. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gelf.h>
#include "lt.h"

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		fputs("cachehot-layout: out of memory\n", stderr);
		abort();
	}
	return p;
}

struct lt_set *lt_set_new(void)
{
	static unsigned long serial;
	struct lt_set *s = xcalloc(1, sizeof(*s));
	s->ctx = ch_ctx_new();
	s->serial = ++serial;
	return s;
}

void lt_set_free(struct lt_set *s)
{
	size_t i;
	if (!s)
		return;
	ch_ctx_free(s->ctx);
	for (i = 0; i < s->tin; i++)
		free(s->ti[i].decl);
	free(s->structs);
	free(s->tds);
	ch_index_free(&s->names);
	free(s->ti);
	ch_index_free(&s->ti_idx);
	free(s->mdecl);
	ch_index_free(&s->m_idx);
	free(s->vars);
	free(s->ptrs);
	free(s);
}

/* the structs by name (ch_index) */
static int name_eq(size_t item, const void *key, const void *arg)
{
	const struct lt_set *s = arg;
	return !strcmp(s->structs[item].name, key);
}

static uint64_t name_hash(size_t item, const void *arg)
{
	const struct lt_set *s = arg;
	return ch_hash_str(s->structs[item].name);
}

struct lt_struct *lt_set_find(struct lt_set *s, const char *name)
{
	size_t i = name ? ch_index_find(&s->names, ch_hash_str(name), name_eq, name, s)
			: CH_INDEX_NONE;
	return i == CH_INDEX_NONE ? NULL : &s->structs[i];
}

int lt_type_nonmonotonic(const struct ch_type *t)
{
	size_t i;
	if (t->is_union)
		return 0;
	for (i = 1; i < t->nmembers; i++)
		if (t->members[i].offset < t->members[i - 1].offset)
			return 1;
	return 0;
}

void lt_set_add(struct lt_set *s, const char *name, struct ch_type *t,
		const char *input, enum lt_kind kind)
{
	struct lt_struct *old = lt_set_find(s, name);
	struct lt_struct *st;
	if (old) {
		if (old->t->size != t->size)
			old->layouts_differ = 1;
		return;
	}
	CH_GROW(s->structs, s->n, s->cap, 256);
	st = &s->structs[s->n++];
	memset(st, 0, sizeof(*st));
	st->name = ch_strdup(s->ctx, name);
	st->t = t;
	st->input = ch_strdup(s->ctx, input);
	st->kind = kind;
	st->nonmonotonic = lt_type_nonmonotonic(t);
	ch_index_add(&s->names, s->n - 1, ch_hash_str(st->name), name_hash, s);
}

static int ti_is(size_t item, const void *key, const void *arg)
{
	return ((const struct lt_set *)arg)->ti[item].t == key;
}

static uint64_t ti_hash(size_t item, const void *arg)
{
	return ch_hash_ptr(((const struct lt_set *)arg)->ti[item].t);
}

struct lt_typeinfo *lt_typeinfo(struct lt_set *s, const struct ch_type *t)
{
	size_t i = ch_index_find(&s->ti_idx, ch_hash_ptr(t), ti_is, t, s);
	struct lt_typeinfo *x;
	if (i != CH_INDEX_NONE) {
		x = &s->ti[i];
		if (x->n < t->nmembers) {
			/* members were added since: grow */
			const char **d = xcalloc(t->nmembers, sizeof(*d));
			memcpy(d, x->decl, x->n * sizeof(*d));
			free(x->decl);
			x->decl = d;
			x->n = t->nmembers;
		}
		return x;
	}
	CH_GROW(s->ti, s->tin, s->ticap, 1024);
	x = &s->ti[s->tin];
	memset(x, 0, sizeof(*x));
	x->t = t;
	x->n = t->nmembers;
	x->decl = xcalloc(t->nmembers, sizeof(char *));
	ch_index_add(&s->ti_idx, s->tin, ch_hash_ptr(t), ti_hash, s);
	s->tin++;
	return x;
}

int lt_elf_has_section(const char *path, const char *section)
{
	int fd, found = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	{
		/* a truncated file: section headers past its end */
		GElf_Ehdr eh;
		struct stat stb;
		if (!gelf_getehdr(elf, &eh) || fstat(fd, &stb) ||
		    eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize > (uint64_t)stb.st_size) {
			elf_end(elf);
			close(fd);
			return -1;
		}
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, section) && sh.sh_type != SHT_NOBITS)
			found++;
	}
	elf_end(elf);
	close(fd);
	return found;
}

static int mdecl_is(size_t item, const void *key, const void *arg)
{
	return ((const struct lt_set *)arg)->mdecl[item].m == key;
}

static uint64_t mdecl_hash(size_t item, const void *arg)
{
	return ch_hash_ptr(((const struct lt_set *)arg)->mdecl[item].m);
}

/* Index every member that has a declaration (see struct lt_set). */
static void index_member_decls(struct lt_set *s)
{
	size_t i, k, total = 0;
	for (i = 0; i < s->tin; i++)
		total += s->ti[i].n;
	ch_index_free(&s->m_idx);
	s->mn = 0;
	for (i = 0; i < s->tin; i++) {
		const struct ch_type *t = s->ti[i].t;
		for (k = 0; t && k < s->ti[i].n && k < t->nmembers; k++) {
			const struct ch_member *m = &t->members[k];
			if (!s->ti[i].decl[k])
				continue;
			CH_GROW(s->mdecl, s->mn, s->mcap, 64);
			s->mdecl[s->mn].m = m;
			s->mdecl[s->mn].decl = s->ti[i].decl[k];
			ch_index_add(&s->m_idx, s->mn++, ch_hash_ptr(m), mdecl_hash, s);
		}
	}
	s->m_at_tin = s->tin;
	s->m_at_decls = total;
}

const char *lt_member_decl(struct lt_set *s, const struct ch_member *m, const char *display)
{
	const char *decl = NULL;
	if (s->tin) {
		size_t i;
		/* readers fill decls while reading; printing comes after */
		if (!s->m_at_tin || s->m_at_tin != s->tin)
			index_member_decls(s);
		i = ch_index_find(&s->m_idx, ch_hash_ptr(m), mdecl_is, m, s);
		if (i != CH_INDEX_NONE)
			decl = s->mdecl[i].decl;
	}
	if (!decl) {
		const char *tn = m->type_name ? m->type_name : "?";
		size_t k = strlen(tn);
		return ch_printf(s->ctx, "%s%s%s", tn, k && tn[k - 1] == '*' ? "" : " ",
				 display ? display : (m->name ? m->name : ""));
	}
	if (display && m->name && *m->name) {
		/* replace the last whole-word occurrence of the member name */
		size_t nl = strlen(m->name);
		const char *p = decl, *hit = NULL;
		while ((p = strstr(p, m->name))) {
			int before = p == decl || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
			int after = !(isalnum((unsigned char)p[nl]) || p[nl] == '_');
			if (before && after)
				hit = p;
			p += nl;
		}
		if (hit)
			return ch_printf(s->ctx, "%.*s%s%s", (int)(hit - decl), decl, display,
					 hit + nl);
	}
	return decl;
}
