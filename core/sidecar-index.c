/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sidecar-index.c -- a big sidecar parsed once per build, not once per unit.
 *
 * ch_sidecar_load() parses every line (about 1.7 k instructions a line): a
 * sidecar of 100 000 lines costs each compiled unit as much as sparse's
 * whole check of mm/page_counter.c. ch_sidecar_load_cached() gives the same
 * entries and the same errors, but for a file of CH_SIDECAR_INDEX_MIN bytes
 * or more, loaded first into an empty context:
 *
 *   - DIR/sidecar-DEV-INODE.idx (DIR: the cache_dir argument, else
 *     $CACHEHOT_CACHE_DIR, else $XDG_CACHE_HOME/cachehot, else
 *     $HOME/.cache/cachehot) holds, for that file as it is (device, inode,
 *     size, mtime and ctime to the nanosecond, all checked: any write
 *     changes the ctime), the byte offset and line number of every line,
 *     grouped by the struct it names ("STRUCT.FIELD ...", "STRUCT.@GROUP
 *     ..."), in an open-addressing table keyed by STRUCT, and the other
 *     lines (variables, functions, per_thread); no index is written for a
 *     file changed in the last 2 seconds (two writes within one timestamp
 *     tick would look like one);
 *   - with the index, only the other lines are parsed now; the lines of a
 *     struct are parsed the first time any lookup names that struct (a
 *     unit asks about its few thousand struct tags: one hash probe each);
 *   - without it, the file is parsed whole, as ch_sidecar_load() does, and
 *     the index is written (to a temporary name, then renamed: concurrent
 *     units never see half an index).
 * The index is written only after the whole file parsed without error, so
 * the lines parsed later cannot fail. A second file loaded later, or a
 * file loaded after other entries, makes every pending line parsed first
 * (errors between files are then found as ch_sidecar_load() finds them).
 * Unmatched entries are listed in file order all the same
 * (ch_sidecar_unmatched parses the pending lines, then sorts by line).
 * The index is native-endian and checked before use. At map time: magic
 * and version, the file's identity, its length, the index's own size, and
 * one check over the header's counts and the other lines' records
 * (other_check; those lines are parsed at load anyway). Each slot (a
 * struct's name, its records' range, its place in the table) has a 32-bit
 * check over it and its records (slot_check). An index of up to
 * SMALL_INDEX_SLOTS slots has every named slot checked at map time, and
 * the slots' ranges following one another over every record
 * (small_index_ok); a bad index is ignored and rewritten. A bigger one's
 * slots are not walked in every unit (0.8 M instructions for 100 000
 * lines): a slot is checked, once, when a lookup passes it, ends at it (an
 * empty slot has a check too) or wants its lines; index_all (the unmatched
 * notes) checks every slot and that every record was reached. And each
 * record before its line is parsed: it starts a line of the text that
 * names the slot's struct (an other line: none). A slot or record that
 * fails after the map (counts, offsets, names or line numbers changed,
 * records or slots moved) makes the unit parse every line of the text it
 * has not parsed yet, as a whole parse would, and remove the index, which
 * the next unit writes again (index_damaged; found inside the parse of a
 * line, the lines after it wait for that parse to end). Not noticed: a
 * slot of a big index made empty whose struct no lookup of the unit
 * reaches, in a unit that lists no unmatched entries (its entries are not
 * needed there), and changes made to pass the checks on purpose (they
 * guard against damage, not forgery: the cache directory is the user's).
 * The index is removed by its name: a good one another unit wrote under
 * that name meanwhile is removed too, and written again by the next unit.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define IDX_MAGIC "chsidx5\n"   /* 5: the checks of slots and other lines */
/* idx_rec.line: the line number, and this bit for a line after "# cachehot
 * annotate:" (an inferred sidecar's lines, ch_sidecar_inferred) */
#define REC_INFERRED 0x80000000u

/* The file an index belongs to: any change of the file changes one of
 * these (the kernel sets ctime on every write; nobody can set it back). */
struct idx_key {
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns, ctime_s, ctime_ns;
};
struct idx_header {
	char magic[8];
	struct idx_key key;
	uint64_t text_len;
	uint32_t nslots, nrecs, nother, nlines;
	uint32_t other_check, pad;   /* other_check(): the counts above, the other lines' records */
};
/* check: slot_check() of the slot and its records, made by write_index() */
struct idx_slot { uint32_t name_off, name_len, first, count, check; };
struct idx_rec { uint32_t off, line; };

/* One lazily loaded file. */
struct side_lazy {
	const char *path;            /* ctx-owned */
	const char *text;            /* mapped sidecar */
	size_t text_len;
	void *map;                   /* mapped index */
	size_t map_len;
	const struct idx_header *h;
	const struct idx_slot *slots;
	const struct idx_rec *recs;
	unsigned char *done;         /* per slot: parsed */
	size_t seq_base;
	/* per bit of ch_side_type_bit: the slots not parsed yet whose name
	 * has it. 0: no pending line names a struct of that bit, and
	 * index_need() returns at once (a unit asks about the structs it
	 * does name again and again: 436 lookups on mm/page_counter.c) */
	uint32_t pending_bit[128];
	int filter;                  /* pending_bit kept (a small index) */
	char *idx_path;              /* the index file (malloc'd) */
	int damaged;                 /* a record failed its check: all parsed */
	uint32_t *parsed;            /* line numbers parsed so far (malloc'd) */
	size_t nparsed, capparsed;
	/* lines being parsed (parse_line_at nests: a lookup inside a line's
	 * parse parses a struct's lines): how deep, the lowest line number;
	 * deferred: index_damaged() left the lines after it for when the
	 * outermost parse ends */
	int depth, deferred;
	uint32_t active_min;
};

/* An index of at most this many slots (files of up to 512 lines) sets the
 * bits of its struct names one by one; a bigger one sets them all. */
#define SMALL_INDEX_SLOTS 1024

static void key_of(const struct stat *st, struct idx_key *k)
{
	memset(k, 0, sizeof(*k));
	k->dev = (uint64_t)st->st_dev;
	k->ino = (uint64_t)st->st_ino;
	k->size = (uint64_t)st->st_size;
	k->mtime_s = (int64_t)st->st_mtim.tv_sec;
	k->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
	k->ctime_s = (int64_t)st->st_ctim.tv_sec;
	k->ctime_ns = (int64_t)st->st_ctim.tv_nsec;
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a */
	size_t i;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

const char *ch_cache_dir_of(const char *dir, char *buf, size_t size)
{
	const char *e;
	if (dir && *dir)
		return dir;
	if ((e = getenv("CACHEHOT_CACHE_DIR")) && *e)
		return e;
	if ((e = getenv("XDG_CACHE_HOME")) && *e) {
		snprintf(buf, size, "%s/cachehot", e);
		return buf;
	}
	if ((e = getenv("HOME")) && *e) {
		snprintf(buf, size, "%s/.cache/cachehot", e);
		return buf;
	}
	return NULL;
}

/* The line starting at off: skip a byte order mark and blanks, then the
 * STRUCT of "STRUCT.FIELD ..." / "STRUCT.@GROUP ..." (*len bytes at the
 * returned pointer); NULL for any other line (blank and comment lines set
 * *other 0, others 1). */
static const char *struct_of_line(const char *t, size_t n, size_t off, size_t *len, int *other)
{
	size_t i = off, s, dot = 0;
	*other = 0;
	if (n - i >= 3 && !memcmp(t + i, "\xef\xbb\xbf", 3))
		i += 3;
	while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r'))
		i++;
	if (i >= n || t[i] == '\n' || t[i] == '#')
		return NULL;
	*other = 1;
	for (s = i; i < n && t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n' && t[i] != '#'; i++) {
		if (t[i] == '[' || t[i] == '(')
			return NULL;
		if (t[i] == '.' && !dot)
			dot = i;
	}
	if (!dot || dot == s)
		return NULL;
	*other = 0;
	*len = dot - s;
	return t + s;
}

/* The check of n records at r, and of slot s with its records
 * (write_index stores them; parse_slot and the load compare). */
static uint32_t rec_check(const struct idx_rec *r, size_t n)
{
	uint64_t h = ch_hash_bytes(r, n * sizeof(*r));
	return (uint32_t)(h ^ (h >> 32));
}

/* k: the slot's place in the table (a slot moved to another place, e.g.
 * swapped with an empty one, would hide its struct from the lookups) */
static uint32_t slot_check(const struct idx_slot *s, uint32_t k, const struct idx_rec *recs)
{
	uint64_t h = ch_hash_bytes(s, offsetof(struct idx_slot, check)) ^ ((uint64_t)k << 32);
	h ^= rec_check(recs + s->first, s->count) * 0x9E3779B97F4A7C15ull;
	h = ch_hash_bytes(&h, sizeof(h));
	return (uint32_t)(h ^ (h >> 32));
}

/* The header's counts and the other lines' records: checked at load. */
static uint32_t other_check(const struct idx_header *h, const struct idx_rec *other)
{
	uint64_t c[5] = { h->text_len, h->nslots, h->nrecs, h->nother, h->nlines };
	uint64_t x = ch_hash_bytes(c, sizeof(c)) ^ rec_check(other, h->nother);
	x = ch_hash_bytes(&x, sizeof(x));
	return (uint32_t)(x ^ (x >> 32));
}

/* REC_INFERRED if the line [off, end) of t is the "# cachehot annotate:"
 * line (after a byte order mark), which marks every line after it inferred,
 * as ch_sidecar_load_string() does; else 0. */
static uint32_t marks_inferred(const char *t, size_t off, size_t end)
{
	if (end - off >= 3 && !memcmp(t + off, "\xef\xbb\xbf", 3))
		off += 3;
	return end - off >= 20 && !memcmp(t + off, "# cachehot annotate:", 20) ? REC_INFERRED : 0;
}

/* Write the index of text (already parsed without error) to path. */
static void write_index(const char *path, const char *t, size_t n, const struct idx_key *key)
{
	struct idx_header h;
	struct idx_slot *slots;
	struct idx_rec *recs, *other, *byslot;
	uint32_t *slot_of, nslots = 16, nrecs = 0, nother = 0, nlines = 0, i, inferred = 0;
	size_t off, cap = 0;
	char tmp[4300];
	FILE *f;
	int ok;

	if (n >= 0xffffffffu)
		return;
	for (off = 0; off < n; off++)
		if (t[off] == '\n')
			cap++;
	cap++;
	while (nslots < 2 * cap)
		nslots *= 2;
	slots = (struct idx_slot *)calloc(nslots, sizeof(*slots));
	recs = (struct idx_rec *)malloc(cap * sizeof(*recs));
	other = (struct idx_rec *)malloc(cap * sizeof(*other));
	slot_of = (uint32_t *)malloc(cap * sizeof(*slot_of));
	byslot = (struct idx_rec *)malloc(cap * sizeof(*byslot));
	if (!slots || !recs || !other || !slot_of || !byslot)
		goto out;
	/* pass 1: each struct line's slot, counts per slot */
	for (off = 0; off < n; ) {
		const char *nl = (const char *)memchr(t + off, '\n', n - off);
		size_t end = nl ? (size_t)(nl - t) : n, len;
		int oth;
		const char *s = struct_of_line(t, end, off, &len, &oth);
		nlines++;
		inferred |= marks_inferred(t, off, end);
		if (s) {
			uint32_t k = name_hash(s, len) & (nslots - 1);
			while (slots[k].name_len &&
			       !(slots[k].name_len == len && !memcmp(t + slots[k].name_off, s, len)))
				k = (k + 1) & (nslots - 1);
			if (!slots[k].name_len) {
				slots[k].name_off = (uint32_t)(s - t);
				slots[k].name_len = (uint32_t)len;
			}
			slots[k].count++;
			recs[nrecs].off = (uint32_t)off;
			recs[nrecs].line = nlines | inferred;
			slot_of[nrecs++] = k;
		} else if (oth) {
			other[nother].off = (uint32_t)off;
			other[nother++].line = nlines | inferred;
		}
		off = end + 1;
	}
	/* pass 2: records grouped by slot, file order within a slot */
	{
		uint32_t at = 0;
		for (i = 0; i < nslots; i++) {
			slots[i].first = at;
			at += slots[i].count;
			slots[i].count = 0;
		}
		for (i = 0; i < nrecs; i++) {
			struct idx_slot *sl = &slots[slot_of[i]];
			byslot[sl->first + sl->count++] = recs[i];
		}
	}
	for (i = 0; i < nslots; i++)
		slots[i].check = slot_check(&slots[i], i, byslot);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, IDX_MAGIC, 8);
	h.key = *key;
	h.text_len = n;
	h.nslots = nslots;
	h.nrecs = nrecs;
	h.nother = nother;
	h.nlines = nlines;
	h.other_check = other_check(&h, other);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f)
		goto out;
	ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
	     fwrite(slots, sizeof(*slots), nslots, f) == nslots &&
	     (!nrecs || fwrite(byslot, sizeof(*byslot), nrecs, f) == nrecs) &&
	     (!nother || fwrite(other, sizeof(*other), nother, f) == nother);
	if (fclose(f) || !ok || rename(tmp, path))
		unlink(tmp);
out:
	free(slots);
	free(recs);
	free(other);
	free(slot_of);
	free(byslot);
}

/* A small index whole, as write_index() lays it out: in table order each
 * slot's records start where the one before's ended, an empty slot holds
 * none, all of them together are every struct record, and every check
 * holds. O(slots + records): at map time, for an index of up to
 * SMALL_INDEX_SLOTS slots only. */
static int small_index_ok(const struct idx_header *h)
{
	const struct idx_slot *sl = (const struct idx_slot *)(h + 1);
	const struct idx_rec *recs = (const struct idx_rec *)(sl + h->nslots);
	uint64_t at = 0;
	uint32_t k;
	for (k = 0; k < h->nslots; k++) {
		if (sl[k].first != at || (!sl[k].name_len && sl[k].count))
			return 0;
		at += sl[k].count;
		if (at > h->nrecs || (sl[k].name_len && slot_check(&sl[k], k, recs) != sl[k].check))
			return 0;
	}
	return at == h->nrecs;
}

/* The bytes an index of h's counts takes. */
static size_t index_size(const struct idx_header *h)
{
	return sizeof(*h) + (size_t)h->nslots * sizeof(struct idx_slot) +
	       ((size_t)h->nrecs + h->nother) * sizeof(struct idx_rec);
}

/* An index image of len bytes for a text of text_len bytes that passes
 * every check made when it is mapped (but the file's identity): magic,
 * text length, its own size, a power-of-two table, the header's and other
 * lines' check, and a small index's slots. */
static int index_well_formed(const struct idx_header *h, size_t len, uint64_t text_len)
{
	return len >= sizeof(*h) && !memcmp(h->magic, IDX_MAGIC, 8) && h->text_len == text_len &&
	       index_size(h) == len && h->nslots && !(h->nslots & (h->nslots - 1)) &&
	       other_check(h, (const struct idx_rec *)((const struct idx_slot *)(h + 1) + h->nslots) +
				      h->nrecs) == h->other_check &&
	       (h->nslots > SMALL_INDEX_SLOTS || small_index_ok(h));
}

/* Map the index at path for the file of key (n bytes); NULL if absent or
 * not exactly that file's. */
static void *map_index(const char *path, size_t n, const struct idx_key *key, size_t *map_len)
{
	struct stat st;
	const struct idx_header *h;
	void *m;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	h = (const struct idx_header *)m;
	if (memcmp(&h->key, key, sizeof(*key)) || !index_well_formed(h, (size_t)st.st_size, n)) {
		munmap(m, (size_t)st.st_size);
		return NULL;
	}
	*map_len = (size_t)st.st_size;
	return m;
}

static void parse_unparsed(ch_ctx *ctx, struct side_lazy *l, uint32_t limit);

/* Parse the line at rec of file l (its entries get sequence seq_base+line),
 * unchecked: parse_rec() checks a record of the index first. */
static void parse_line_at(ch_ctx *ctx, struct side_lazy *l, const struct idx_rec *r)
{
	const char *p = l->text + r->off, *nl;
	size_t len, was;
	uint32_t saved_min;
	char *line, *hash;
	if (r->off >= l->text_len)
		return;
	nl = (const char *)memchr(p, '\n', l->text_len - r->off);
	len = nl ? (size_t)(nl - p) : l->text_len - r->off;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3, len -= 3;
	line = (char *)malloc(len + 1);
	if (!line)
		abort();
	memcpy(line, p, len);
	line[len] = 0;
	if ((hash = strchr(line, '#')))
		*hash = 0;
	ctx->side_seq = l->seq_base + (r->line & ~REC_INFERRED);
	was = ctx->nside;
	saved_min = l->active_min;
	if (!l->depth++ || (r->line & ~REC_INFERRED) < l->active_min)
		l->active_min = r->line & ~REC_INFERRED;
	/* the whole file parsed without error when the index was written */
	if (ch_sidecar_parse_line(ctx, l->path, r->line & ~REC_INFERRED, line))
		ch_set_error(ctx, "%s:%u: %s", l->path, r->line & ~REC_INFERRED,
			     "sidecar index out of date");
	l->depth--;
	l->active_min = saved_min;
	/* this line's entries only: a "STRUCT owned" line's duplicate check
	 * parses STRUCT's waiting lines (parse_slot) inside this parse */
	for (; (r->line & REC_INFERRED) && was < ctx->nside; was++)
		if (ctx->side[was].seq == l->seq_base + (r->line & ~REC_INFERRED))
			ctx->side[was].inferred = 1;
	free(line);
	if (!l->depth && l->deferred) {   /* index_damaged() inside this parse */
		l->deferred = 0;
		parse_unparsed(ctx, l, UINT32_MAX);
	}
}

/* The slot's name lies inside the sidecar's text (map_index checks the
 * index's records, not its names). */
static int name_in_text(const struct side_lazy *l, const struct idx_slot *s)
{
	return s->name_len && (size_t)s->name_off + s->name_len <= l->text_len;
}

/* Record r as write_index() wrote it: it starts a line of the text, its
 * line number is in range, and that line names the struct of slot (slot
 * NULL: an other line, which names none). */
static int rec_ok(const struct side_lazy *l, const struct idx_rec *r, const struct idx_slot *slot)
{
	const char *nl, *name;
	size_t end, len = 0;
	int other;
	uint32_t line = r->line & ~REC_INFERRED;
	if (r->off >= l->text_len || (r->off && l->text[r->off - 1] != '\n') || !line ||
	    line > l->h->nlines)
		return 0;
	nl = (const char *)memchr(l->text + r->off, '\n', l->text_len - r->off);
	end = nl ? (size_t)(nl - l->text) : l->text_len;
	name = struct_of_line(l->text, end, r->off, &len, &other);
	if (!slot)
		return !name && other;
	return name && len == slot->name_len && name_in_text(l, slot) &&
	       !memcmp(name, l->text + slot->name_off, len);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Note line as parsed (index_damaged() skips it). */
static void note_parsed(struct side_lazy *l, uint32_t line)
{
	if (l->nparsed == l->capparsed) {
		l->capparsed = l->capparsed ? 2 * l->capparsed : 64;
		l->parsed = (uint32_t *)realloc(l->parsed, l->capparsed * sizeof(*l->parsed));
		if (!l->parsed)
			abort();
	}
	l->parsed[l->nparsed++] = line;
}

/* Parse every line of the text numbered below limit that is not parsed
 * yet, in file order with its own sequence and inferred mark (as
 * write_index() finds them). */
static void parse_unparsed(ch_ctx *ctx, struct side_lazy *l, uint32_t limit)
{
	size_t off = 0, i = 0, n = l->nparsed, saved_seq = ctx->side_seq;
	uint32_t line = 0, inferred = 0;
	if (n)
		qsort(l->parsed, n, sizeof(*l->parsed), cmp_u32);
	while (off < l->text_len) {
		const char *nl = (const char *)memchr(l->text + off, '\n', l->text_len - off);
		size_t end = nl ? (size_t)(nl - l->text) : l->text_len;
		if (++line >= limit)
			break;
		inferred |= marks_inferred(l->text, off, end);
		while (i < n && l->parsed[i] < line)
			i++;
		if (i == n || l->parsed[i] != line) {
			struct idx_rec r = { (uint32_t)off, line | inferred };
			note_parsed(l, line);
			parse_line_at(ctx, l, &r);
		}
		off = end + 1;
	}
	ctx->side_seq = saved_seq;
}

/* A slot or record failed its check: the index is damaged. Every line of
 * the text not parsed yet is parsed, so that the unit ends with a whole
 * parse's entries, and the index file is removed for the next unit to
 * write again. Found inside the parse of a line (a lookup of a nested
 * parse), only the lines before the lowest line being parsed are parsed
 * now, the others when that parse ends (parse_line_at), so that a later
 * line never comes before one a whole parse has parsed first (a second
 * "STRUCT owned" line would take the first one's place). */
static void index_damaged(ch_ctx *ctx, struct side_lazy *l)
{
	if (l->damaged)
		return;
	l->damaged = 1;
	unlink(l->idx_path);
	ctx->nside_pending = 0;
	ctx->side_pending_bloom[0] = ctx->side_pending_bloom[1] = 0;
	memset(l->done, 1, l->h->nslots);
	if (l->depth) {
		parse_unparsed(ctx, l, l->active_min);
		l->deferred = 1;
	} else {
		parse_unparsed(ctx, l, UINT32_MAX);
	}
}

/* Record r of slot (NULL: an other line) after its check; its line is
 * noted as parsed first (a nested index_damaged() then skips it). 0, or -1
 * when the index is damaged (then every line is parsed). */
static int parse_rec(ch_ctx *ctx, struct side_lazy *l, const struct idx_rec *r,
		     const struct idx_slot *slot)
{
	if (!rec_ok(l, r, slot)) {
		index_damaged(ctx, l);
		return -1;
	}
	note_parsed(l, r->line & ~REC_INFERRED);
	parse_line_at(ctx, l, r);
	return 0;
}

/* Slot k passes its check (done[k]: 0 not looked at, 1 parsed, 2 checked,
 * not parsed); each slot is checked once. */
static int slot_ok(struct side_lazy *l, uint32_t k)
{
	const struct idx_slot *s = &l->slots[k];
	if (l->done[k])
		return 1;
	if ((uint64_t)s->first + s->count > l->h->nrecs || slot_check(s, k, l->recs) != s->check)
		return 0;
	l->done[k] = 2;
	return 1;
}

static void parse_slot(ch_ctx *ctx, struct side_lazy *l, uint32_t k)
{
	const struct idx_slot *s = &l->slots[k];
	uint32_t i;
	/* called inside the parse of another line (a "STRUCT owned" line
	 * looks STRUCT up): that line's entry keeps its own sequence */
	size_t saved_seq = ctx->side_seq;
	if (l->done[k] == 1 || l->damaged)
		return;
	if (!slot_ok(l, k)) {
		index_damaged(ctx, l);
		return;
	}
	l->done[k] = 1;   /* first: parsing looks the struct up again */
	if (l->filter && name_in_text(l, s)) {
		unsigned bit = ch_side_type_bit(l->text + s->name_off, s->name_len);
		if (!--l->pending_bit[bit])
			ch_side_bit_clear(ctx->side_pending_bloom, bit);
	}
	for (i = 0; i < s->count && !l->damaged; i++) {
		if (parse_rec(ctx, l, &l->recs[s->first + i], s))
			break;
		/* slots whose records overlap (a damaged index whose lines
		 * pass the check: map_index does not compare every pair of
		 * ranges) parse a record twice; the count stops at 0 */
		if (ctx->nside_pending)
			ctx->nside_pending--;
	}
	ctx->side_seq = saved_seq;
}

static void index_need(ch_ctx *ctx, const char *type)
{
	struct side_lazy *l = (struct side_lazy *)ctx->side_lazy;
	size_t n;
	uint32_t k, probes;
	if (!l || !ctx->nside_pending || !type)
		return;
	n = strlen(type);
	if (l->filter && !l->pending_bit[ch_side_type_bit(type, n)])
		return;
	/* at most every slot once: a damaged index may have no empty one */
	for (k = name_hash(type, n) & (l->h->nslots - 1), probes = 0; probes < l->h->nslots;
	     k = (k + 1) & (l->h->nslots - 1), probes++) {
		const struct idx_slot *s = &l->slots[k];
		/* every slot on the way is checked (once), the empty one
		 * that ends it too: a damaged or moved slot would hide the
		 * struct's lines */
		if (!slot_ok(l, k)) {
			index_damaged(ctx, l);
			return;
		}
		if (!s->name_len)
			return;
		if (s->name_len == n && name_in_text(l, s) &&
		    !memcmp(l->text + s->name_off, type, n)) {
			parse_slot(ctx, l, k);
			return;
		}
	}
}

static void index_all(ch_ctx *ctx)
{
	struct side_lazy *l = (struct side_lazy *)ctx->side_lazy;
	uint32_t k;
	if (!l || !ctx->nside_pending)
		return;
	/* the empty slots checked too, and every record must have been
	 * parsed: a slot emptied by damage would drop its unmatched notes */
	for (k = 0; k < l->h->nslots && !l->damaged; k++) {
		if (l->slots[k].name_len)
			parse_slot(ctx, l, k);
		else if (!slot_ok(l, k))
			index_damaged(ctx, l);
	}
	if (ctx->nside_pending && !l->damaged)
		index_damaged(ctx, l);
	ctx->nside_pending = 0;
	ctx->side_pending_bloom[0] = ctx->side_pending_bloom[1] = 0;
}

static void index_free(ch_ctx *ctx)
{
	struct side_lazy *l = (struct side_lazy *)ctx->side_lazy;
	if (!l)
		return;
	munmap((void *)l->text, l->text_len);
	munmap(l->map, l->map_len);
	free(l->done);
	free(l->idx_path);
	free(l->parsed);
	free(l);
	ctx->side_lazy = NULL;
	ctx->side_lazy_ops = NULL;
}

static const struct ch_side_lazy_ops index_ops = { index_need, index_all, index_free };

/* The fuzz harness's forger (fuzz/fuzz_sidecar_index.c): every check of
 * the index image img (len bytes, as on disk) made to match what it holds,
 * so that fuzzing reaches what lies behind the checks (record ranges,
 * offsets, names, line numbers), which must never read outside the index or
 * the text however wrong they are. An image whose counts do not give its
 * length, and a slot whose records lie outside the image, are left as they
 * are (map_index and slot_ok turn them away before any check). img must be
 * 8-byte aligned (malloc'd). */
void ch_sidecar_index_reseal(void *img, size_t len)
{
	struct idx_header *h = (struct idx_header *)img;
	struct idx_slot *sl;
	struct idx_rec *recs;
	uint32_t k;
	if (len < sizeof(*h) || index_size(h) != len)
		return;
	sl = (struct idx_slot *)(h + 1);
	recs = (struct idx_rec *)(sl + h->nslots);
	for (k = 0; k < h->nslots; k++)
		if ((uint64_t)sl[k].first + sl[k].count <= h->nrecs)
			sl[k].check = slot_check(&sl[k], k, recs);
	h->other_check = other_check(h, recs + h->nrecs);
}

/* The fuzz harness's test for a forged part (its oracle, a whole parse's
 * answers, holds only for damage the checks can see): 1 if img (len bytes)
 * is an index map_index would take whose header's counts and other
 * records, or one of whose slots and its records, pass their check while
 * differing from good (the index as written, good_len bytes; a good_len
 * its counts do not give is no index: 0). libFuzzer learns a check's value
 * from the comparison and writes it into the input, so an input of the
 * plain mode can carry a forged part too. img and good must be 8-byte
 * aligned (malloc'd). */
int ch_sidecar_index_forged(const void *img, size_t len, const void *good, size_t good_len)
{
	const struct idx_header *h = (const struct idx_header *)img, *g = (const struct idx_header *)good;
	const struct idx_slot *sl, *gsl;
	const struct idx_rec *recs, *grecs;
	uint32_t k;
	if (good_len < sizeof(*g) || index_size(g) != good_len)
		return 0;   /* not an index as written */
	/* what map_index turns away is never used: a whole parse follows */
	if (!index_well_formed(h, len, g->text_len))
		return 0;
	sl = (const struct idx_slot *)(h + 1);
	recs = (const struct idx_rec *)(sl + h->nslots);
	gsl = (const struct idx_slot *)(g + 1);
	grecs = (const struct idx_rec *)(gsl + g->nslots);
	if (h->nslots != g->nslots || h->nrecs != g->nrecs || h->nother != g->nother ||
	    h->nlines != g->nlines ||
	    memcmp(recs + h->nrecs, grecs + g->nrecs, (size_t)h->nother * sizeof(*recs)))
		return 1;   /* counts or other lines changed, their check passing */
	for (k = 0; k < h->nslots; k++)
		if ((uint64_t)sl[k].first + sl[k].count <= h->nrecs &&
		    slot_check(&sl[k], k, recs) == sl[k].check &&
		    (memcmp(&sl[k], &gsl[k], sizeof(*sl)) ||
		     (uint64_t)gsl[k].first + sl[k].count > g->nrecs ||
		     memcmp(recs + sl[k].first, grecs + gsl[k].first, (size_t)sl[k].count * sizeof(*recs))))
			return 1;
	return 0;
}

int ch_sidecar_load_cached(ch_ctx *ctx, const char *path, const char *cache_dir)
{
	char dirbuf[4096], idx[4200];
	const char *dir;
	struct stat st;
	struct idx_key key;
	void *text, *map;
	size_t map_len = 0;
	struct side_lazy *l;
	uint32_t i;
	int fd, rc;

	/* a second file: what is pending is parsed now, the file as usual */
	if (ctx->side_lazy || ctx->nside)
		goto plain;
	dir = ch_cache_dir_of(cache_dir, dirbuf, sizeof(dirbuf));
	if (!dir)
		goto plain;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size < CH_SIDECAR_INDEX_MIN || st.st_size >= 0xffffffffLL) {
		if (fd >= 0)
			close(fd);
		goto plain;
	}
	key_of(&st, &key);
	snprintf(idx, sizeof(idx), "%s/sidecar-%llx-%llx.idx", dir, (unsigned long long)key.dev,
		 (unsigned long long)key.ino);
	map = map_index(idx, (size_t)st.st_size, &key, &map_len);
	if (!map) {
		/* first unit to see this file: parse it all, then index it,
		 * unless it changed in the last 2 seconds (a file rewritten
		 * within one timestamp tick would look unchanged) */
		close(fd);
		rc = ch_sidecar_load(ctx, path);
		if (!rc && time(NULL) - st.st_mtim.tv_sec >= 2 && time(NULL) - st.st_ctim.tv_sec >= 2) {
			fd = open(path, O_RDONLY);
			text = fd >= 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
				       : MAP_FAILED;
			if (fd >= 0)
				close(fd);
			if (text != MAP_FAILED) {
				mkdir(dir, 0777);   /* one level; an existing one is fine */
				write_index(idx, (const char *)text, (size_t)st.st_size, &key);
				munmap(text, (size_t)st.st_size);
			}
		}
		return rc;
	}
	text = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (text == MAP_FAILED) {
		munmap(map, map_len);
		goto plain;
	}
	l = (struct side_lazy *)calloc(1, sizeof(*l));
	if (!l)
		abort();
	l->path = ch_strdup(ctx, path);
	l->text = (const char *)text;
	l->text_len = (size_t)st.st_size;
	l->map = map;
	l->map_len = map_len;
	l->h = (const struct idx_header *)map;
	l->slots = (const struct idx_slot *)(l->h + 1);
	l->recs = (const struct idx_rec *)(l->slots + l->h->nslots);
	l->done = (unsigned char *)calloc(l->h->nslots, 1);
	l->idx_path = strdup(idx);
	if (!l->done || !l->idx_path)
		abort();
	l->seq_base = ctx->side_seq_next;
	ctx->side_seq_next += (size_t)l->h->nlines + 1;
	ctx->side_lazy = l;
	ctx->side_lazy_ops = &index_ops;
	ctx->nside_pending = l->h->nrecs;
	/* every struct the index holds lines of gets its bit: a name without
	 * one is in no line, pending or parsed (ch_sidecar_find_type). Only
	 * for a small index: a big one names so many structs that every bit
	 * is set anyway, and walking its slots in every unit cost 4 M
	 * instructions for a 100 000-line sidecar (bench/plugin-overhead);
	 * there every bit is set at once and index_need() asks the index. */
	if (l->h->nslots <= SMALL_INDEX_SLOTS) {
		l->filter = 1;
		for (i = 0; i < l->h->nslots; i++) {
			const struct idx_slot *sl = &l->slots[i];
			if (!name_in_text(l, sl))
				continue;   /* empty, or index_need never matches it */
			unsigned bit = ch_side_type_bit(l->text + sl->name_off, sl->name_len);
			ch_side_bit_set(ctx->side_type_bloom, bit);
			ch_side_bit_set(ctx->side_pending_bloom, bit);
			l->pending_bit[bit]++;
		}
	} else
		ch_side_type_mark_all(ctx);
	/* the lines naming no struct: now */
	for (i = 0; i < l->h->nother && !l->damaged; i++)
		if (parse_rec(ctx, l, &l->recs[l->h->nrecs + i], NULL))
			break;
	return 0;
plain:
	index_all(ctx);
	return ch_sidecar_load(ctx, path);
}
