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
	for (i = 0; i < s->ticap; i++)
		free(s->ti[i].decl);
	free(s->structs);
	free(s->tds);
	ch_index_free(&s->names);
	free(s->ti);
	free(s->mkey);
	free(s->mdecl);
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

struct lt_typeinfo *lt_typeinfo(struct lt_set *s, const struct ch_type *t)
{
	size_t h;
	if (2 * (s->tin + 1) >= s->ticap) {
		size_t i, cap = s->ticap ? 2 * s->ticap : 1024;
		struct lt_typeinfo *n = xcalloc(cap, sizeof(*n));
		for (i = 0; i < s->ticap; i++) {
			if (!s->ti[i].t)
				continue;
			h = (size_t)ch_hash_ptr(s->ti[i].t) & (cap - 1);
			while (n[h].t)
				h = (h + 1) & (cap - 1);
			n[h] = s->ti[i];
		}
		free(s->ti);
		s->ti = n;
		s->ticap = cap;
	}
	h = (size_t)ch_hash_ptr(t) & (s->ticap - 1);
	while (s->ti[h].t) {
		if (s->ti[h].t == t) {
			if (s->ti[h].n < t->nmembers) {
				/* members were added since: grow */
				const char **d = xcalloc(t->nmembers, sizeof(*d));
				memcpy(d, s->ti[h].decl, s->ti[h].n * sizeof(*d));
				free(s->ti[h].decl);
				s->ti[h].decl = d;
				s->ti[h].n = t->nmembers;
			}
			return &s->ti[h];
		}
		h = (h + 1) & (s->ticap - 1);
	}
	s->ti[h].t = t;
	s->ti[h].n = t->nmembers;
	s->ti[h].decl = xcalloc(t->nmembers, sizeof(char *));
	s->tin++;
	return &s->ti[h];
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

/* Index every member that has a declaration (see struct lt_set). */
static void index_member_decls(struct lt_set *s)
{
	size_t i, k, total = 0, cap = 64;
	for (i = 0; i < s->ticap; i++)
		if (s->ti[i].t)
			total += s->ti[i].n;
	while (cap < 2 * total + 2)
		cap *= 2;
	free(s->mkey);
	free(s->mdecl);
	s->mkey = xcalloc(cap, sizeof(*s->mkey));
	s->mdecl = xcalloc(cap, sizeof(*s->mdecl));
	s->mcap = cap;
	for (i = 0; i < s->ticap; i++) {
		const struct ch_type *t = s->ti[i].t;
		for (k = 0; t && k < s->ti[i].n && k < t->nmembers; k++) {
			const struct ch_member *m = &t->members[k];
			size_t h = (size_t)ch_hash_ptr(m) & (cap - 1);
			if (!s->ti[i].decl[k])
				continue;
			while (s->mkey[h] && s->mkey[h] != m)
				h = (h + 1) & (cap - 1);
			s->mkey[h] = m;
			s->mdecl[h] = s->ti[i].decl[k];
		}
	}
	s->m_at_tin = s->tin;
	s->m_at_decls = total;
}

const char *lt_member_decl(struct lt_set *s, const struct ch_member *m, const char *display)
{
	const char *decl = NULL;
	if (s->tin) {
		size_t h;
		/* readers fill decls while reading; printing comes after */
		if (!s->mcap || s->m_at_tin != s->tin)
			index_member_decls(s);
		for (h = (size_t)ch_hash_ptr(m) & (s->mcap - 1); s->mkey[h]; h = (h + 1) & (s->mcap - 1))
			if (s->mkey[h] == m) {
				decl = s->mdecl[h];
				break;
			}
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
