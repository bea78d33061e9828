/* test-fix.c -- unit tests of core/: one fix per struct: the reference search sweep and the brief fix
 * (tests/core/test-core.c runs them; helpers in test-core.h). */
#include "test-core.h"

/* ch_struct_fix's sweep (core/fix-sweep.c) against its reference search (every
 * pair, every round) on generated structs: members of 1..16 bytes and char
 * arrays, bit-field runs, hot groups, kernel groups, every class; both
 * vocabularies and two line sizes. Same fix (text, edits, size) or both
 * none. */
static unsigned long rng_state = 12345;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)((rng_state >> 33) % n);
}

static const char *fix_key(ch_ctx *ctx, const struct ch_type *t, const struct ch_fix_leaf *v,
			   size_t n, unsigned L, int kernel, int reference)
{
	const struct ch_fix *fx;
	char *buf;
	size_t k, len;
	ch_fix_reference_search = reference;
	fx = ch_struct_fix(ctx, t, v, n, L, kernel, 1, 0);
	ch_fix_reference_search = 0;
	if (!fx)
		return "none";
	len = strlen(fx->text) + 64 + 64 * fx->nedits;
	buf = (char *)malloc(len);
	snprintf(buf, len, "%s|%llu|%zu", fx->text, (unsigned long long)fx->new_size, fx->nedits);
	for (k = 0; k < fx->nedits; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "|%ld:%ld:%s",
			 (long)(fx->edits[k].member - t->members),
			 fx->edits[k].after ? (long)(fx->edits[k].after - t->members) : -1L,
			 fx->edits[k].text ? fx->edits[k].text : "");
	{
		const char *r = ch_printf(ctx, "%s", buf);
		free(buf);
		return r;
	}
}

void test_fix_sweep(void)
{
	static const char *groups[] = { "ga", "gb", "gc" };
	struct ch_group kg[2];
	int round, differ = 0, fixes = 0, moves = 0, unfit = 0;
	char why[8192] = "";
	memset(kg, 0, sizeof(kg));
	for (round = 0; round < 3000; round++) {
		ch_ctx *ctx = ch_ctx_new();
		struct ch_type *t = ch_type_new(ctx, NULL, "gen", 0, 0, 1);
		unsigned nm = 2 + rnd(round < 2500 ? 40 : 300), i, L = rnd(2) ? 64 : 128;
		int kernel = (int)rnd(2);
		uint64_t cur = 0, bitend = 0;   /* bytes; bits after a bit-field */
		unsigned align = 1;
		int prev_bits = 0;
		struct ch_fix_leaf *v;
		const char *a, *b;
		for (i = 0; i < nm; i++) {
			char name[16];
			struct ch_member *m;
			unsigned kind = rnd(10), sz, al;
			snprintf(name, sizeof(name), "m%u", i);
			m = ch_type_add_member(ctx, t, ch_printf(ctx, "%s", name));
			if (kind < 2) {
				/* 'unsigned int mN : 3', where GCC puts it: in the
				 * unit of the bit-field or byte before it when the
				 * bits fit, else at the next 4-byte unit; the byte
				 * holding its first bit, as the front ends give it */
				uint64_t p = ch_bitfield_place(prev_bits ? bitend : cur * 8, 3, 4);
				m->offset = p / 8;
				m->bit_offset = (unsigned)(p % 8);
				m->bit_size = 3;
				m->size = m->elem_size = (m->bit_offset + 3 + 7) / 8;
				m->align = 1;
				bitend = p + 3;
				cur = (bitend + 7) / 8;
				prev_bits = 1;
				if (align < 4)   /* the type aligns the struct */
					align = 4;
			} else {
				if (kind < 8) {
					sz = al = 1u << rnd(4);
				} else {
					al = 1;
					sz = 1 + rnd(200);
				}
				m->align = al;
				m->offset = (cur + al - 1) / al * al;
				m->size = m->elem_size = sz;
				cur = m->offset + m->size;
				prev_bits = 0;
			}
			if (m->align > align)
				align = m->align;
			m->nelems = 1;
			m->is_integer = 1;
			switch (rnd(6)) {
			case 0: m->cls = CH_CLASS_HOT; m->group = rnd(3) ? NULL : groups[rnd(3)]; break;
			case 1: m->cls = CH_CLASS_READ_MOSTLY; break;
			case 2: m->cls = rnd(8) ? CH_CLASS_NONE : CH_CLASS_EXCLUSIVE; break;
			default: m->cls = CH_CLASS_NONE;
			}
			if (!rnd(12))
				m->kgroup = &kg[rnd(2)];
		}
		t->align = align;
		t->size = (cur + align - 1) / align * align;
		unfit += !ch_layout_fits(t);
		v = (struct ch_fix_leaf *)calloc(nm, sizeof(*v));
		for (i = 0; i < nm; i++) {
			v[i].offset = t->members[i].offset;
			v[i].size = t->members[i].size;
			v[i].cls = t->members[i].cls;
			v[i].group = t->members[i].group;
			v[i].top = i;
			v[i].data = 1;
		}
		a = fix_key(ctx, t, v, nm, L, kernel, 1);
		b = fix_key(ctx, t, v, nm, L, kernel, 0);
		if (strcmp(a, "none"))
			fixes++;
		if (strstr(a, "move "))
			moves++;
		if (strcmp(a, b) && !differ++)
			snprintf(why, sizeof(why), "round %d (%u members, L %u, kernel %d):\n"
				 "  reference: %.3000s\n  sweep:     %.3000s", round, nm, L, kernel, a, b);
		free(v);
		ch_ctx_free(ctx);
	}
	check(!differ, "fix: sweep gives the reference search's fix on 3000 generated structs", why);
	snprintf(why, sizeof(why), "%d fixes, %d with moves", fixes, moves);
	check(fixes > 1000 && moves > 20, "fix: generated structs exercise breaks and moves", why);
	snprintf(why, sizeof(why), "%d of 3000 not reproduced", unfit);
	check(!unfit, "layout model: reproduces 3000 generated GCC layouts with bit-fields", why);
}

/* A fix of more than 8 edits: written out on the first warning, the first
 * 8 and a count on the others (output linear in warnings, not warnings x
 * edits). Ten longs, read-mostly and hot in turn: the read-mostly
 * ones together and a break before each hot one, nine edits. */
void test_fix_brief(void)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct collect c = { "", 0 };
	struct ch_type *t = ch_type_new(ctx, NULL, "wide", 0, 128, 64);
	unsigned i;
	int w;
	const char *full = "one fix for all of 'struct wide': insert CACHELINE_PADDING(_pad1_) before 'f1', "
		"CACHELINE_PADDING(_pad2_) before 'f3', CACHELINE_PADDING(_pad3_) before 'f5', "
		"CACHELINE_PADDING(_pad4_) before 'f7', CACHELINE_PADDING(_pad5_) before 'f9' "
		"(<linux/cache.h>), and move 'f2' after 'f0', move 'f4' after 'f2', move 'f6' after "
		"'f4', move 'f8' after 'f6'; this costs 256 bytes per object (128 -> 384 bytes; an "
		"array of n grows by 256*n bytes) [cachehot-false-sharing]\n";
	const char *brief = "one fix for all of 'struct wide': insert CACHELINE_PADDING(_pad1_) before 'f1', "
		"CACHELINE_PADDING(_pad2_) before 'f3', CACHELINE_PADDING(_pad3_) before 'f5', "
		"CACHELINE_PADDING(_pad4_) before 'f7', CACHELINE_PADDING(_pad5_) before 'f9' "
		"(<linux/cache.h>), and move 'f2' after 'f0', move 'f4' after 'f2', move 'f6' after "
		"'f4', and 1 more edit (the first warning on this struct lists them all); this costs "
		"256 bytes per object (128 -> 384 bytes; an array of n grows by 256*n bytes) "
		"[cachehot-false-sharing]\n";
	char *line, *save = NULL, why[256];
	int nfull = 0, nbrief = 0, n = 0, first_full = 0;
	t->loc.file = "pc.h";
	t->loc.line = 1;
	for (i = 0; i < 10; i++)
		scalar(ctx, t, ch_printf(ctx, "f%u", i), 8 * i, 8,
		       i % 2 ? CH_CLASS_HOT : CH_CLASS_READ_MOSTLY, 2 + i);
	w = ch_check_type(ctx, t, &cfg, collect, &c);
	for (line = strtok_r(c.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char l2[4096];
		size_t ll = strlen(line);
		snprintf(l2, sizeof(l2), "%s\n", line);
		n++;
		if (ll + 1 >= strlen(full) && !strcmp(l2 + ll + 1 - strlen(full), full)) {
			nfull++;
			first_full = n == 1;
		} else if (ll + 1 >= strlen(brief) && !strcmp(l2 + ll + 1 - strlen(brief), brief))
			nbrief++;
	}
	snprintf(why, sizeof(why), "%d warnings, %d lines: %d with the whole fix, %d brief",
		 w, n, nfull, nbrief);
	check(w == 23 && n == 23 && nfull == 1 && first_full && nbrief == 22,
	      "fix: more than 8 edits are written out on the first warning only", why);
	ch_ctx_free(ctx);
}
