/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites.c -- libcachehot-rt's sites and members: the site string a recording
 * build passes with each access (cachehot-rt.h) resolved to the member it
 * names. sites[]: by the string's address, lock-free after the first time;
 * members[]: by text (struct and member path), so that two units share one
 * member. Only the first access of a site (per thread: then the thread's
 * memo of recent accesses, rt.c) comes here.
 */
#define _GNU_SOURCE
#include "rt-private.h"

static int mhash[1 << 16];
static struct site *sites;

static uint32_t hash_str(const char *a, const char *b)
{
	uint32_t h = 2166136261u;
	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 16777619u;
	h = (h ^ '.') * 16777619u;
	for (; *b; b++)
		h = (h ^ (unsigned char)*b) * 16777619u;
	return h;
}

static char *field(const char **p)
{
	const char *s = *p, *e = strchr(s, '\t');
	size_t n = e ? (size_t)(e - s) : strlen(s);
	char *r = malloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, s, n);
	r[n] = 0;
	*p = e ? e + 1 : s + n;
	return r;
}

static uint32_t num(const char **p)
{
	char *f = field(p);
	uint32_t v = f ? (uint32_t)strtoul(f, NULL, 10) : 0;
	free(f);
	return v;
}

/* Under reg. Returns the member id, or -1. */
static int member_of(const char *site, uint32_t *asize)
{
	const char *p = site;
	char *ver = field(&p), *sname = field(&p), *path = field(&p);
	uint32_t off = num(&p), size = num(&p), ssize = num(&p), h, b;
	int id = -1, td;
	*asize = num(&p);
	td = *p == 't';
	if (!ver || strcmp(ver, "1") || !sname || !path || !members)
		goto out;
	h = hash_str(sname, path);
	b = h & ((1u << 16) - 1);
	for (id = mhash[b] - 1; id >= 0; id = members[id].next)
		if (members[id].hash == h && !strcmp(members[id].sname, sname) &&
		    !strcmp(members[id].path, path))
			goto out;
	if (nmembers >= MAX_MEMBERS) {
		id = -1;
		goto out;
	}
	id = nmembers++;
	members[id] = (struct member){ sname, path, off, size, ssize, td, { 0, 0, 0 }, h, mhash[b] - 1 };
	mhash[b] = id + 1;
	sname = path = NULL;
out:
	free(ver);
	free(sname);
	free(path);
	return id;
}

struct site *site_of(const char *key)
{
	uint32_t i = hash64((uintptr_t)key, 17), n;
	struct site *s;
	if (!sites)
		return NULL;
	for (n = 0; n < MAX_SITES; n++, i = (i + 1) & (MAX_SITES - 1)) {
		s = &sites[i];
		const char *k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (k == key)
			return s;
		if (!k)
			break;
	}
	/* not seen yet: insert under reg */
	pthread_mutex_lock(&reg);
	i = hash64((uintptr_t)key, 17);
	for (n = 0; n < MAX_SITES; n++, i = (i + 1) & (MAX_SITES - 1)) {
		s = &sites[i];
		if (s->key == key)
			break;
		if (!s->key) {
			s->member = member_of(key, &s->asize);
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&reg);
	return n < MAX_SITES ? s : NULL;
}

void sites_init(void)
{
	void *p = mmap(NULL, sizeof(*sites) * MAX_SITES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	sites = p == MAP_FAILED ? NULL : p;
}

int sites_ready(void)
{
	return sites != NULL;
}
