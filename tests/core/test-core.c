/* test-core.c -- unit tests for core/: models built by hand with the real
 * offsets of the kernel structs they reduce; exact messages asserted.
 * Prints "PASS: name" / "FAIL: name: why" lines (tests/core/run.sh). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "internal.h"   /* ch_fix_reference_search */

static int failures;
static void check(int cond, const char *name, const char *why)
{
	if (cond)
		printf("PASS: %s\n", name);
	else {
		printf("FAIL: %s: %s\n", name, why);
		failures++;
	}
}
static void check_str(const char *name, const char *exp, const char *got)
{
	char why[4096];
	snprintf(why, sizeof(why), "\n  expected: %s\n  got:      %s", exp, got ? got : "(null)");
	check(got && !strcmp(exp, got), name, why);
}

struct collect { char buf[16384]; int n; };
static void collect(const struct ch_finding *f, void *arg)
{
	struct collect *c = (struct collect *)arg;
	snprintf(c->buf + strlen(c->buf), sizeof(c->buf) - strlen(c->buf), "%u:%s: %s\n",
		 f->loc.line, f->severity == CH_SEV_NOTE ? "note" : "warning", f->message);
	c->n++;
}

static struct ch_member *scalar(ch_ctx *ctx, struct ch_type *t, const char *name,
				uint64_t off, uint64_t size, enum ch_class cls, unsigned line)
{
	struct ch_member *m = ch_type_add_member(ctx, t, name);
	m->offset = off;
	m->size = m->elem_size = size;
	m->align = (unsigned)size;
	m->is_integer = 1;
	m->cls = cls;
	m->loc.file = "pc.h";
	m->loc.line = line;
	m->loc.col = 16;
	return m;
}

/* page_counter as in v5.10: usage, min, low, high, max, parent, then the
 * effective-protection fields and the legacy ones (112 bytes, align 8). */
static struct ch_type *pc_v510(ch_ctx *ctx)
{
	static const char *names[] = { "usage", "min", "low", "high", "max", "parent", "emin",
		"min_usage", "children_min_usage", "elow", "low_usage", "children_low_usage",
		"watermark", "failcnt" };
	struct ch_type *t = ch_type_new(ctx, NULL, "page_counter", 0, 112, 8);
	unsigned i;
	t->loc.file = "pc.h";
	t->loc.line = 1;
	for (i = 0; i < 14; i++)
		scalar(ctx, t, names[i], 8 * i, 8,
		       i == 0 ? CH_CLASS_HOT : i <= 5 ? CH_CLASS_READ_MOSTLY : CH_CLASS_NONE, 2 + i);
	return t;
}

static void test_v510(void)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct collect c = { "", 0 };
	int w = ch_check_type(ctx, pc_v510(ctx), &cfg, collect, &c);
	check(w == 5, "v5.10: five warnings", c.buf);
	check_str("v5.10: note + min + ... + parent",
		"1:note: 'struct page_counter' is aligned to 8 bytes, less than the 64-byte cache line: line indexes assume it starts on a line boundary, so isolation depends on where it is placed (align it with ____cacheline_aligned_in_smp) [cachehot-false-sharing]\n"
		"3:warning: read-mostly field 'min' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': move 'min' after 'watermark', move 'low' after 'min', move 'high' after 'low', move 'max' after 'high', move 'parent' after 'max'; this costs no bytes: the struct stays 112 bytes [cachehot-false-sharing]\n"
		"4:warning: read-mostly field 'low' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': move 'min' after 'watermark', move 'low' after 'min', move 'high' after 'low', move 'max' after 'high', move 'parent' after 'max'; this costs no bytes: the struct stays 112 bytes [cachehot-false-sharing]\n"
		"5:warning: read-mostly field 'high' (offset 24, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': move 'min' after 'watermark', move 'low' after 'min', move 'high' after 'low', move 'max' after 'high', move 'parent' after 'max'; this costs no bytes: the struct stays 112 bytes [cachehot-false-sharing]\n"
		"6:warning: read-mostly field 'max' (offset 32, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': move 'min' after 'watermark', move 'low' after 'min', move 'high' after 'low', move 'max' after 'high', move 'parent' after 'max'; this costs no bytes: the struct stays 112 bytes [cachehot-false-sharing]\n"
		"7:warning: read-mostly field 'parent' (offset 40, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': move 'min' after 'watermark', move 'low' after 'min', move 'high' after 'low', move 'max' after 'high', move 'parent' after 'max'; this costs no bytes: the struct stays 112 bytes [cachehot-false-sharing]\n",
		c.buf);
	/* uniprocessor: nothing */
	cfg.smp = 0;
	c.buf[0] = 0;
	check(ch_check_type(ctx, pc_v510(ctx), &cfg, collect, &c) == 0 && !c.buf[0],
	      "uniprocessor: no false sharing", c.buf);
	ch_ctx_free(ctx);
}

/* union alternatives never conflict; nested named type is judged once */
static void test_union_and_nesting(void)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct collect c = { "", 0 };
	struct ch_type *u = ch_type_new(ctx, NULL, NULL, 1, 8, 8);
	struct ch_type *s = ch_type_new(ctx, NULL, "memcg", 0, 8 + 112, 8);
	struct ch_type *pc = pc_v510(ctx);
	struct ch_member *m;
	scalar(ctx, u, "a", 0, 8, CH_CLASS_HOT, 30);
	scalar(ctx, u, "b", 0, 8, CH_CLASS_READ_MOSTLY, 31);
	m = ch_type_add_member(ctx, s, NULL);
	m->type = u; m->size = m->elem_size = 8; m->align = 8;
	m = ch_type_add_member(ctx, s, "memory");
	m->type = pc; m->offset = 8; m->size = m->elem_size = 112; m->align = 8;
	s->loc.line = 29;
	ch_check_type(ctx, s, &cfg, collect, &c);
	/* a/b: union alternatives, silent. memory.usage (8) vs memory.min (16):
	 * same line relative to page_counter too -> left to page_counter.
	 * memory.* at 8..119 vs union 'a' (hot, 0): a vs memory.min..parent
	 * (read-mostly) share line 0 -> reported at the container. */
	check(strstr(c.buf, "'a' (offset 0, size 8) shares") == NULL &&
	      strstr(c.buf, "'b' (offset 0, size 8) shares") == NULL,
	      "union alternatives are silent", c.buf);
	check(strstr(c.buf, "'memory.min' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct memcg' with hot field 'a'") != NULL,
	      "nested field against container field reported", c.buf);
	check(strstr(c.buf, "with hot field 'memory.usage'") == NULL,
	      "pair inside nested named type left to its own definition", c.buf);
	ch_ctx_free(ctx);
}

static void test_sidecar(void)
{
	ch_ctx *ctx = ch_ctx_new();
	const char *g = NULL;
	check(ch_sidecar_load_string(ctx, "s.ann", "# c\npage_counter.usage exclusive\n"
				     "page_counter.failcnt hot:charge  # x\nfoo() addressable\n") == 0,
	      "sidecar: valid file loads", ch_ctx_error(ctx));
	check(ch_sidecar_class(ctx, "page_counter", "failcnt", &g) == CH_CLASS_HOT && g &&
	      !strcmp(g, "charge"), "sidecar: group parsed", "");
	check(ch_sidecar_addressable(ctx, "foo") == 1, "sidecar: addressable", "");
	check(ch_sidecar_unmatched(ctx, NULL, NULL) == 1, "sidecar: one unmatched", "");
	check(ch_sidecar_load_string(ctx, "bad.ann", "\nx.y warm\n") == -1, "sidecar: bad class", "");
	check_str("sidecar: bad class message",
		  "bad.ann:2: unknown class 'warm' (expected hot, exclusive or read_mostly)",
		  ch_ctx_error(ctx));
	check(ch_sidecar_load_string(ctx, "bad.ann", "x-y hot\n") == -1, "sidecar: not a name", "");
	check_str("sidecar: not a name message",
		  "bad.ann:1: 'x-y' is not STRUCT.FIELD or a variable name", ch_ctx_error(ctx));
	check(ch_sidecar_load_string(ctx, "bad.ann", "x.y-z hot\n") == -1, "sidecar: bad field", "");
	check_str("sidecar: bad field message", "bad.ann:1: 'x.y-z' is not STRUCT.FIELD",
		  ch_ctx_error(ctx));
	check(ch_sidecar_load_string(ctx, "bad.ann", "a.b read_mostly:g\n") == -1,
	      "sidecar: group on read_mostly", "");
	check(ch_sidecar_load_string(ctx, "bad.ann", "a.b hot extra\n") == -1,
	      "sidecar: trailing words", "");
	check(ch_sidecar_count(ctx) == 3, "sidecar: failed loads add nothing", "");
	check(ch_sidecar_load_string(ctx, "dup.ann", "page_counter.usage exclusive\n") == 0 &&
	      ch_sidecar_count(ctx) == 3, "sidecar: identical repeat ignored", ch_ctx_error(ctx));
	check(ch_sidecar_load_string(ctx, "conf.ann", "\npage_counter.failcnt read_mostly\n") == -1,
	      "sidecar: conflicting class refused", "");
	check_str("sidecar: conflicting class message",
		  "conf.ann:2: 'page_counter.failcnt' is already annotated 'hot:charge' at s.ann:3: one class per field",
		  ch_ctx_error(ctx));
	check(ch_sidecar_load(ctx, "/nonexistent/x.ann") == -1 &&
	      strstr(ch_ctx_error(ctx), "cannot open") != NULL, "sidecar: missing file", ch_ctx_error(ctx));
	ch_ctx_free(ctx);
}

static char missing_lines[256];
static void missing_cb(const char *file, unsigned line, const char *entry, void *arg)
{
	size_t l = strlen(missing_lines);
	(void)file; (void)arg;
	snprintf(missing_lines + l, sizeof(missing_lines) - l, " %s@%u", entry, line);
}

/* The indices: 100k entries over 1000 structs, a conflict
 * 100k lines apart, a failed load undone, missing fields in file order. */
/* [cachehot-global-sharing]: the sidecar's VARIABLE lines and the rule
 * (core/globals.c) on hand-made symbol tables. */
static struct ch_finding gfound[8];
static int ngfound;
static void gemit(const struct ch_finding *f, void *arg)
{
	(void)arg;
	if (ngfound < 8)
		gfound[ngfound++] = *f;
}

static struct ch_global gl(const char *name, uint64_t addr, uint64_t secaddr, uint64_t align,
			   uint64_t size, enum ch_class cls, const char *group, unsigned line,
			   unsigned col)
{
	struct ch_global g;
	memset(&g, 0, sizeof(g));
	g.name = name;
	g.section = ".bss";
	g.addr = addr;
	g.section_addr = secaddr;
	g.section_align = align;
	g.section_size = 4096;
	g.size = size;
	g.cls = cls;
	g.group = group;
	g.loc.file = line ? "a.c" : NULL;
	g.loc.line = line;
	g.loc.col = col;
	return g;
}

static void test_globals(void)
{
	ch_ctx *ctx = ch_ctx_new();
	const char *g = NULL;
	int n;
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 0 };
	/* an object's .bss: q_tail 0..8, q_head 8..16, hits 16..24, aligned 8 */
	struct ch_global v[4];
	v[0] = gl("q_tail", 0, 0, 8, 8, CH_CLASS_NONE, NULL, 4, 23);
	v[1] = gl("q_head", 8, 0, 8, 8, CH_CLASS_NONE, NULL, 4, 15);
	v[2] = gl("hits", 16, 0, 8, 8, CH_CLASS_HOT, NULL, 3, 15);
	v[3] = gl("big", 64, 0, 8, 8, CH_CLASS_NONE, NULL, 0, 0);
	check(ch_sidecar_load_string(ctx, "g.ann", "hits hot\nlimit read_mostly\nctr hot:io\n") == 0,
	      "globals: sidecar VARIABLE lines load", ch_ctx_error(ctx));
	check(ch_sidecar_global_class(ctx, "hits", &g) == CH_CLASS_HOT && !g,
	      "globals: sidecar class of a variable", "");
	check(ch_sidecar_global_class(ctx, "ctr", &g) == CH_CLASS_HOT && g && !strcmp(g, "io"),
	      "globals: sidecar group of a variable", "");
	check(ch_sidecar_class(ctx, "hits", NULL, &g) == CH_CLASS_NONE && !ch_sidecar_names_type(ctx, "hits"),
	      "globals: a variable entry names no struct", "");
	check(ch_sidecar_unmatched(ctx, NULL, NULL) == 0, "globals: never unmatched per unit", "");
	check(ch_sidecar_globals(ctx, NULL, NULL) == 3, "globals: three variable entries", "");
	check(ch_sidecar_load_string(ctx, "c.ann", "hits read_mostly\n") == -1,
	      "globals: a second class refused", "");
	check_str("globals: second class message",
		  "c.ann:1: 'hits' is already annotated 'hot' at g.ann:1: one class per variable",
		  ch_ctx_error(ctx));

	ngfound = 0;
	check(ch_check_globals(ctx, v, 4, 1, &cfg, gemit, NULL) == 1 && ngfound == 1,
	      "globals: one warning in an object", "");
	check_str("globals: object message",
		  "hot global 'hits' (8 bytes at offset 16 of '.bss') shares cache line 0 of '.bss' "
		  "(64-byte lines) with 'q_tail' (8 bytes at offset 0, line 0) and 'q_head' (8 bytes "
		  "at offset 8, line 0): every write to 'hits' takes the line from the CPUs using "
		  "them; declare 'hits' _Alignas(64); at this placement that costs 48 bytes of "
		  "padding (lines counted as if '.bss' started on a line: in this relocatable object "
		  "it is aligned to 8 bytes and the link decides where it starts, so judge the linked "
		  "file) [cachehot-global-sharing]", ngfound ? gfound[0].message : "");
	check(ngfound && gfound[0].line_index == 0 && gfound[0].offset_a == 16 &&
	      !strcmp(gfound[0].field_b, "q_tail") && gfound[0].loc.line == 3,
	      "globals: finding fields", "");

	/* linked: hits first on its line, a read-mostly reader after it */
	v[0] = gl("hits", 0x4040, 0x4040, 64, 8, CH_CLASS_HOT, NULL, 0, 0);
	v[1] = gl("limit", 0x4048, 0x4040, 64, 8, CH_CLASS_READ_MOSTLY, NULL, 0, 0);
	v[2] = gl("far", 0x4080, 0x4040, 64, 8, CH_CLASS_NONE, NULL, 0, 0);
	cfg.kernel = 1;
	ngfound = 0;
	ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL);
	check_str("globals: kernel message",
		  "hot global 'hits' (8 bytes at 0x4040, offset 0 of '.bss') shares cache line 0 of "
		  "'.bss' (64-byte lines, 0x4040-0x407f) with 'limit' (read-mostly, 8 bytes at 0x4048, "
		  "offset 8, line 0): every write to 'hits' takes the line from the CPUs using it; "
		  "mark 'hits' __cacheline_aligned_in_smp (it moves to .data..cacheline_aligned, "
		  "where every variable starts a line of its own), or mark that reader __read_mostly "
		  "(moved to .data..read_mostly); this costs 56 bytes (its 8 bytes take 64) "
		  "[cachehot-global-sharing]", ngfound ? gfound[0].message : "");
	/* a hot variable left in .data..read_mostly; readers already there */
	v[0].section = v[1].section = v[2].section = ".data..read_mostly";
	ngfound = 0;
	ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL);
	check(ngfound == 1 && strstr(gfound[0].message, "it; drop __read_mostly from 'hits' (a written "
				     "variable), and mark 'hits' __cacheline_aligned_in_smp (it moves "
				     "to .data..cacheline_aligned, where every variable starts a line "
				     "of its own); this costs 56 bytes"),
	      "globals: kernel, hot variable in .data..read_mostly", ngfound ? gfound[0].message : "");
	v[0].section = v[1].section = v[2].section = ".bss";
	cfg.kernel = 0;
	ngfound = 0;
	ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL);
	check(ngfound == 1 && strstr(gfound[0].message, "declare 'hits' _Alignas(64), and 'limit', "
				     "the first variable after it on its line, _Alignas(64) too; at "
				     "this placement that costs 56 bytes of padding"),
	      "globals: userspace fix names the follower", ngfound ? gfound[0].message : "");
	/* clean: hits alone on its line; same group may share; uniprocessor */
	v[1].addr = 0x4080;
	v[2].addr = 0x4088;
	ngfound = 0;
	check(ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL) == 0 && ngfound == 0,
	      "globals: aligned hot variable is clean", "");
	v[1] = gl("hits2", 0x4048, 0x4040, 64, 8, CH_CLASS_HOT, "io", 0, 0);
	v[0].group = "io";
	ngfound = 0;
	check(ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL) == 0 && ngfound == 0,
	      "globals: one hot group shares a line", "");
	v[0].cls = CH_CLASS_EXCLUSIVE;
	ngfound = 0;
	n = ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL);
	check(n == 2 && ngfound == 2 && !strncmp(gfound[0].message, "exclusive global 'hits'", 23) &&
	      !strncmp(gfound[1].message, "hot global 'hits2'", 18),
	      "globals: exclusive shares with no group", ngfound ? gfound[0].message : "none");
	cfg.smp = 0;
	ngfound = 0;
	check(ch_check_globals(ctx, v, 3, 0, &cfg, gemit, NULL) == 0 && ngfound == 0,
	      "globals: no false sharing on a uniprocessor", "");
	/* a relocatable object: one variable, its section aligned to the line
	 * but ending inside its line (____cacheline_aligned, no tail padding) */
	cfg.smp = 1;
	cfg.kernel = 1;
	v[0] = gl("vm_committed_as", 0, 0, 64, 40, CH_CLASS_HOT, NULL, 953, 23);
	v[0].section_size = 40;
	ngfound = 0;
	check(ch_check_globals(ctx, v, 1, 1, &cfg, gemit, NULL) == 0 && ngfound == 1 &&
	      gfound[0].severity == CH_SEV_NOTE, "globals: open tail is a note", "");
	check_str("globals: open tail message",
		  "hot global 'vm_committed_as' (40 bytes at offset 0 of '.bss') has its cache lines "
		  "to itself in this relocatable object, but the link decides what else shares them: "
		  "'.bss' ends at byte 40, inside the variable's last line, so data after it may share "
		  "that line; judge the linked file, or mark 'vm_committed_as' "
		  "__cacheline_aligned_in_smp (.data..cacheline_aligned starts every variable on a "
		  "line and is followed by an aligned section) [cachehot-global-sharing]",
		  ngfound ? gfound[0].message : "");
	v[0].section = ".data..cacheline_aligned";
	ngfound = 0;
	check(ch_check_globals(ctx, v, 1, 1, &cfg, gemit, NULL) == 0 && ngfound == 0,
	      "globals: .data..cacheline_aligned closes the tail", "");
	v[0].section_size = 64;
	v[0].section = ".bss";
	ngfound = 0;
	check(ch_check_globals(ctx, v, 1, 1, &cfg, gemit, NULL) == 0 && ngfound == 0,
	      "globals: a section padded to the line is closed", "");
	ch_ctx_free(ctx);
}

static void test_sidecar_index(void)
{
	ch_ctx *ctx = ch_ctx_new();
	size_t cap = 100000 * 40, n = 0, i;
	char *text = malloc(cap);
	for (i = 0; i < 100000; i++)
		n += snprintf(text + n, cap - n, "s%zu.f%zu %s\n", i % 1000, i / 1000,
			      i % 3 ? "hot" : "read_mostly");
	check(ch_sidecar_load_string(ctx, "big.ann", text) == 0 && ch_sidecar_count(ctx) == 100000,
	      "sidecar-index: 100k entries load", ch_ctx_error(ctx));
	check(ch_sidecar_class(ctx, "s999", "f98", NULL) == CH_CLASS_HOT &&
	      ch_sidecar_class(ctx, "s0", "f0", NULL) == CH_CLASS_READ_MOSTLY &&
	      ch_sidecar_class(ctx, "s0", "f100", NULL) == CH_CLASS_NONE &&
	      ch_sidecar_class(ctx, "s1000", "f0", NULL) == CH_CLASS_NONE,
	      "sidecar-index: lookups", "");
	check(ch_sidecar_load_string(ctx, "c.ann", "s5.f7 hot\ns5.f8 hot\n") == -1,
	      "sidecar-index: conflict 100k lines apart", "");
	check_str("sidecar-index: conflict message",
		  "c.ann:1: 's5.f7' is already annotated 'read_mostly' at big.ann:7006: one class per field",
		  ch_ctx_error(ctx));
	/* 40 entries then an error: undone, indices rebuilt */
	n = 0;
	for (i = 0; i < 40; i++)
		n += snprintf(text + n, cap - n, "new%zu.x hot\n", i);
	snprintf(text + n, cap - n, "bad line here\n");
	check(ch_sidecar_load_string(ctx, "u.ann", text) == -1 && ch_sidecar_count(ctx) == 100000 &&
	      !ch_sidecar_names_type(ctx, "new3") && ch_sidecar_names_type(ctx, "s3") &&
	      ch_sidecar_class(ctx, "s3", "f4", NULL) == CH_CLASS_HOT,
	      "sidecar-index: failed load undone", "");
	/* s7 had f0..f99; mark all but f1, f50, f99 */
	for (i = 0; i < 100; i++)
		if (i != 1 && i != 50 && i != 99) {
			char f[16];
			snprintf(f, sizeof(f), "f%zu", i);
			ch_sidecar_class(ctx, "s7", f, NULL);
		}
	missing_lines[0] = 0;
	check(ch_sidecar_missing_fields(ctx, "s7", missing_cb, NULL) == 3 &&
	      !strcmp(missing_lines, " s7.f1@1008 s7.f50@50008 s7.f99@99008") &&
	      ch_sidecar_missing_fields(ctx, "s7", NULL, NULL) == 0 &&
	      ch_sidecar_missing_fields(ctx, "nosuch", NULL, NULL) == 0,
	      "sidecar-index: missing fields of one struct", "");
	check(ch_sidecar_unmatched(ctx, NULL, NULL) == 100000 - 3 - 97 - 3,
	      "sidecar-index: unmatched count", "");
	free(text);
	ch_ctx_free(ctx);
}

static const char *lk(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, "L1_CACHE_SHIFT")) return "(CONFIG_X86_L1_CACHE_SHIFT)";
	if (!strcmp(name, "CONFIG_X86_L1_CACHE_SHIFT")) return "6";
	if (!strcmp(name, "L1_CACHE_BYTES")) return "(1 << L1_CACHE_SHIFT)";
	if (!strcmp(name, "LOOP")) return "LOOP";
	return NULL;
}

static void test_eval(void)
{
	long long v = 0;
	check(ch_eval_macro("L1_CACHE_BYTES", lk, NULL, &v) == 0 && v == 64, "eval: x86 L1_CACHE_BYTES", "");
	check(ch_eval_macro("(_AC(1,UL) << 7)", lk, NULL, &v) == 0 && v == 128, "eval: _AC", "");
	check(ch_eval_macro("LOOP", lk, NULL, &v) == -1, "eval: recursion refused", "");
	check(ch_eval_macro("sizeof(long)", lk, NULL, &v) == -1, "eval: unknown refused", "");
}

static const char *lk_smp(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, "SMP_CACHE_BYTES")) return "L1_CACHE_BYTES";
	return lk(name, NULL);
}
static int def_up(const char *name, void *arg) { (void)arg; return !strcmp(name, "__KERNEL__"); }
static int def_smp(const char *name, void *arg) { (void)arg; return 1; }
static int def_none(const char *name, void *arg) { (void)arg; return 0; }

static void test_options(void)
{
	enum ch_severity sev;
	unsigned L = 0;
	check(ch_severity_parse("note", &sev) == 0 && sev == CH_SEV_NOTE, "options: severity note", "");
	check(ch_severity_parse("fatal", &sev) == -1, "options: bad severity", "");
	check(ch_line_size_parse("128", &L) == 0 && L == 128, "options: line size 128", "");
	check(ch_line_size_parse("100", &L) == -1 && ch_line_size_parse("4", &L) == -1 &&
	      ch_line_size_parse("64k", &L) == -1, "options: bad line sizes", "");
	check(ch_line_size_from_macros(lk_smp, NULL) == 64, "options: SMP_CACHE_BYTES on x86", "");
	check(ch_line_size_from_macros(lk, NULL) == 64, "options: L1_CACHE_BYTES fallback", "");
	check(ch_smp_from_macros(def_up, NULL) == 0, "options: kernel without CONFIG_SMP is UP", "");
	check(ch_smp_from_macros(def_smp, NULL) == 1 && ch_smp_from_macros(def_none, NULL) == 1,
	      "options: SMP kernel and user space", "");
}

static void test_self_nesting(void)
{
	/* a corrupt reader's input: a type that contains itself */
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct ch_type *t = ch_type_new(ctx, NULL, "loop", 0, 16, 8);
	struct ch_member *m = ch_type_add_member(ctx, t, "self");
	m->type = t; m->size = m->elem_size = 16;
	scalar(ctx, t, "x", 8, 8, CH_CLASS_NONE, 3);
	check(ch_check_type(ctx, t, &cfg, NULL, NULL) == 0, "self-nesting type: no recursion", "");
	t->members[1].cls = CH_CLASS_HOT;   /* annotated: flattening must stop too */
	t->annot_state = 0;
	/* 'x' (hot, offset 8) of every nesting level lies at the same offset:
	 * each level conflicts with the outer ones, up to the depth limit */
	check(ch_check_type(ctx, t, &cfg, NULL, NULL) > 0,
	      "self-nesting annotated type: flattening stops", "");
	check(ch_classes_conflict(CH_CLASS_HOT, "a", CH_CLASS_HOT, "a") == 0 &&
	      ch_classes_conflict(CH_CLASS_HOT, "a", CH_CLASS_HOT, "b") == 1 &&
	      ch_classes_conflict(CH_CLASS_HOT, NULL, CH_CLASS_HOT, NULL) == 1 &&
	      ch_classes_conflict(CH_CLASS_NONE, NULL, CH_CLASS_EXCLUSIVE, NULL) == 1 &&
	      ch_classes_conflict(CH_CLASS_READ_MOSTLY, NULL, CH_CLASS_READ_MOSTLY, NULL) == 0,
	      "class conflict predicate", "");
	ch_ctx_free(ctx);
}

/* Kernel cacheline groups: names, classes, paths, the sidecar's
 * STRUCT.@GROUP, and group records from markers (core/groups.c). */
static void test_groups(void)
{
	ch_ctx *ctx = ch_ctx_new();
	const char *g = NULL;
	struct ch_type *t;
	const struct ch_groups *gs;
	enum ch_class c = CH_CLASS_NONE;
	static const char *names[] = { "head", "__cacheline_group_begin__sock_write_rx", "a", "b",
				       "__cacheline_group_end__sock_write_rx",
				       "__cacheline_group_begin__icmp", "c",
				       "__cacheline_group_end__icmp", "__cacheline_group_pad__icmp" };
	size_t i;

	check(ch_marker_kind("__cacheline_group_begin__tcp_sock_read_tx", &g) == CH_MARKER_BEGIN &&
	      !strcmp(g, "tcp_sock_read_tx"), "groups: begin marker", "");
	check(ch_marker_kind("__cacheline_group_pad__icmp", &g) == CH_MARKER_PAD, "groups: pad marker", "");
	check(ch_marker_kind("__cacheline_group_begin__", &g) == CH_MARKER_NONE, "groups: empty name", "");
	check(ch_marker_kind("cacheline_group_begin__x", &g) == CH_MARKER_NONE, "groups: not a marker", "");
	check(ch_group_class_of("tcp_sock_write_tx") == CH_CLASS_HOT &&
	      ch_group_class_of("read_write") == CH_CLASS_HOT &&
	      ch_group_class_of("x_rw") == CH_CLASS_HOT &&
	      ch_group_class_of("net_device_read_txrx") == CH_CLASS_READ_MOSTLY &&
	      ch_group_class_of("icmp") == CH_CLASS_NONE &&
	      ch_group_class_of("crwd") == CH_CLASS_NONE, "groups: class from the name", "");
	check(ch_group_path_of("sock_read_rxtx") == CH_PATH_TXRX &&
	      ch_group_path_of("tcp_sock_write_tx") == CH_PATH_TX &&
	      ch_group_path_of("sock_write_rx") == CH_PATH_RX &&
	      ch_group_path_of("frag") == CH_PATH_NONE &&
	      ch_group_path_of("rxq") == CH_PATH_NONE, "groups: path from the name", "");
	check(ch_lines_touched(1400, 32, 64) == 2 && ch_lines_min(32, 64) == 1 &&
	      ch_lines_touched(8, 0, 64) == 0, "groups: line counts", "");

	check(ch_sidecar_load_string(ctx, "g.ann", "s.@icmp written\ns.@sock_write_rx none\n"
				     "s.@icmp hot\n") == 0, "groups: sidecar @GROUP loads",
	      ch_ctx_error(ctx));
	check(ch_sidecar_group_class(ctx, "s", "icmp", &c) == 1 && c == CH_CLASS_HOT,
	      "groups: sidecar class", "");
	check(ch_sidecar_load_string(ctx, "b.ann", "s.@icmp read_mostly\n") == -1,
	      "groups: second class for a group", "");
	check_str("groups: second class message",
		  "b.ann:1: group 's.@icmp' is already given class 'written' at g.ann:1: one class per group",
		  ch_ctx_error(ctx));
	check(ch_sidecar_load_string(ctx, "b.ann", "s.@1x written\n") == -1 &&
	      strstr(ch_ctx_error(ctx), "bad group name '1x'"), "groups: bad group name", "");
	check(ch_sidecar_load_string(ctx, "b.ann", "s.@x exclusive\n") == -1 &&
	      strstr(ch_ctx_error(ctx), "unknown group class 'exclusive'"), "groups: bad group class", "");

	t = ch_type_new(ctx, NULL, "s", 0, 64, 8);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct ch_member *m = ch_type_add_member(ctx, t, names[i]);
		m->offset = i < 2 ? 8 * i : 8 * (i - 1);
		m->size = strncmp(names[i], "__cacheline_group_", 18) ? 8 : 0;
		if (!strcmp(names[i], "head"))
			m->offset = 0;
	}
	gs = ch_type_groups(ctx, t);
	check(gs->n == 2 && gs->nproblems == 0, "groups: two groups", "");
	check(gs->n == 2 && !strcmp(gs->v[0].name, "sock_write_rx") && gs->v[0].nmembers == 2 &&
	      gs->v[0].cls == CH_CLASS_NONE && gs->v[0].cls_from_sidecar &&
	      gs->v[1].cls == CH_CLASS_HOT && gs->v[1].pad_m && gs->v[1].nmembers == 1,
	      "groups: members, sidecar classes, pad marker", "");
	check(t->members[2].kgroup == &gs->v[0] && t->members[0].kgroup == NULL,
	      "groups: members point at their group", "");
	check(ch_type_groups(ctx, t) == gs, "groups: computed once", "");
	ch_ctx_free(ctx);
}


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

static void test_fix_sweep(void)
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

/* The one model of a layout (core/layout-eval.c) on struct conf of
 * tests/fixtures/bitfield_packs.c, members as the plugin gives them (a
 * bit-field: the byte holding its first bit, the bytes it touches, align
 * 1): as declared, and in the order of its fix ('level' moved after 'id'),
 * where GCC packs 'level' and 'mode' into one unsigned short (pahole on
 * the fixed struct: level bits 16..20, mode 21..23, name at 3, hits at 64,
 * 72 bytes). */
static void test_layout_bitfields(void)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_type *t = ch_type_new(ctx, NULL, "conf", 0, 80, 8);
	static const struct { const char *n; uint64_t off, size; unsigned bo, bs, al; } f[] = {
		{ "id", 0, 2, 0, 0, 2 }, { "mode", 2, 1, 0, 3, 1 }, { "name", 3, 61, 0, 0, 1 },
		{ "hits", 64, 8, 0, 0, 8 }, { "level", 72, 1, 0, 5, 1 } };
	size_t k, decl[5] = { 0, 1, 2, 3, 4 }, fixed[5] = { 0, 4, 1, 2, 3 };
	uint64_t bits[5], size;
	unsigned al;
	char got[128];
	for (k = 0; k < 5; k++) {
		struct ch_member *m = ch_type_add_member(ctx, t, f[k].n);
		m->offset = f[k].off;
		m->size = m->elem_size = f[k].size;
		m->bit_offset = f[k].bo;
		m->bit_size = f[k].bs;
		m->align = f[k].al;
		m->nelems = 1;
	}
	size = ch_layout_order(t, decl, NULL, 64, bits, &al);
	snprintf(got, sizeof(got), "%llu %llu %llu %llu %llu|%llu|%d", (unsigned long long)bits[0],
		 (unsigned long long)bits[1], (unsigned long long)bits[2],
		 (unsigned long long)bits[3], (unsigned long long)bits[4], (unsigned long long)size,
		 ch_layout_fits(t));
	check(!strcmp(got, "0 16 24 512 576|80|1"), "layout model: struct conf as declared", got);
	size = ch_layout_order(t, fixed, NULL, 64, bits, &al);
	snprintf(got, sizeof(got), "%llu %llu %llu %llu %llu|%llu", (unsigned long long)bits[0],
		 (unsigned long long)bits[4], (unsigned long long)bits[1],
		 (unsigned long long)bits[2], (unsigned long long)bits[3], (unsigned long long)size);
	check(!strcmp(got, "0 16 21 24 512|72"),
	      "layout model: a moved bit-field packs into the unit before it, as GCC", got);
	/* 'long seq : 39' at bit 8 needs an 8-byte unit; 'unsigned x : 3' at
	 * bit 0 fits in one byte; a 20-bit field at bit 6 needs 4 bytes */
	{
		struct ch_member m;
		memset(&m, 0, sizeof(m));
		m.offset = 1; m.bit_size = 39;
		snprintf(got, sizeof(got), "%llu", (unsigned long long)ch_bitfield_storage(&m));
		m.offset = 0; m.bit_size = 3;
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %llu",
			 (unsigned long long)ch_bitfield_storage(&m));
		m.bit_offset = 6; m.bit_size = 20;
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %llu",
			 (unsigned long long)ch_bitfield_storage(&m));
		check(!strcmp(got, "8 1 4"), "layout model: a bit-field's storage unit", got);
	}
	ch_ctx_free(ctx);
}

/* A fix of more than 8 edits: written out on the first warning, the first
 * 8 and a count on the others (output linear in warnings, not warnings x
 * edits). Ten longs, read-mostly and hot in turn: the read-mostly
 * ones together and a break before each hot one, nine edits. */
static void test_fix_brief(void)
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

/* "did you mean 'STRUCT.FIELD'?" for a variable entry that is a tag and a
 * member run together: the prefix table, the longest tag, no hint for a
 * tag that is the whole name or begins no entry. */
static void test_variable_hints(void)
{
	ch_ctx *ctx = ch_ctx_new();
	check(ch_sidecar_load_string(ctx, "h.ann", "page_counterusage hot\na_bc hot\nx.y hot\n") == 0,
	      "hints: load", ch_ctx_error(ctx));
	check(ch_sidecar_global_count(ctx) == 2, "hints: two variable lines", "");
	check(ch_sidecar_hint_tag(ctx, "page") && ch_sidecar_hint_tag(ctx, "page_counter") &&
	      !ch_sidecar_hint_tag(ctx, "page_counterusage") && !ch_sidecar_hint_tag(ctx, "x") &&
	      !ch_sidecar_hint_tag(ctx, "pagecounter"), "hints: prefix table", "");
	ch_sidecar_hint_member(ctx, "page_counter", "max");   /* no such entry */
	check(!ch_sidecar_global_hint(ctx, "page_counterusage"), "hints: none yet", "");
	ch_sidecar_hint_member(ctx, "page_counter", "usage");
	check_str("hints: tag.member", "page_counter.usage",
		  ch_sidecar_global_hint(ctx, "page_counterusage"));
	ch_sidecar_hint_member(ctx, "a_b", "c");
	ch_sidecar_hint_member(ctx, "a", "_bc");
	check_str("hints: longest tag", "a_b.c", ch_sidecar_global_hint(ctx, "a_bc"));
	check_str("hints: message", "sidecar entry 'page_counterusage hot' (h.ann:1) names no "
		  "variable of the input: no variable or data symbol has that name (a stale or "
		  "misspelt entry, or a variable the compiler removed); did you mean "
		  "'page_counter.usage'? ('page_counter' has a member 'usage': a field is written "
		  "STRUCT.FIELD) [cachehot]",
		  ch_msg_sidecar_no_symbol(ctx, ch_sidecar_global_entry(ctx, "page_counterusage",
									CH_CLASS_HOT, NULL),
					   "h.ann", 1, ch_sidecar_global_hint(ctx, "page_counterusage")));
	ch_ctx_free(ctx);
}

static void ch_buf_append_test(char **buf, size_t *n, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ch_buf_vappend(buf, n, cap, fmt, ap);
	va_end(ap);
}
/* ch_printf does the core's usual conversions itself (core/format.c): the
 * same bytes as glibc's snprintf for each, and for those it leaves to
 * glibc; ch_buf_vappend the same across growth. */
#define SAME(fmt, ...) do { \
		char exp_[8192]; \
		snprintf(exp_, sizeof(exp_), fmt, __VA_ARGS__); \
		check_str("format: " fmt, exp_, ch_printf(ctx, fmt, __VA_ARGS__)); \
	} while (0)
static void test_format(void)
{
	ch_ctx *ctx = ch_ctx_new();
	const char *volatile nul = NULL;
	char big[6000], *buf = NULL, exp[40000];
	size_t n = 0, cap = 0, e = 0;
	int i;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	SAME("%s '%s' (%s) shares line %lld", "hot field", "usage", "offset 0, size 8", -3LL);
	SAME("%d %d %d %d", -2147483647 - 1, -1, 0, 2147483647);
	SAME("%u|%u", 0u, 4294967295u);
	SAME("%lld %lld %llu", -9223372036854775807LL - 1, 9223372036854775807LL,
	     18446744073709551615ULL);
	SAME("%ld %lu %zu", -9223372036854775807L - 1, 18446744073709551615UL, (size_t)-1);
	SAME("[%.*s][%.*s][%.*s][%.*s]", 3, "abcdef", 0, "abc", -1, "abc", 100, "abc");
	SAME("100%% of %s%%", "lines");
	SAME("%s", nul);                       /* "(null)", from glibc */
	SAME("%.*s|%s", 2, nul, "x");
	SAME("%5llu|%-4s|%08lx|%.2f|%c", 42ULL, "ab", 255UL, 1.005, 'q');   /* glibc's */
	SAME("%s%s", big, "tail");             /* past ch_printf's 4 KiB buffer */
	SAME("%s", "");
	SAME("no conversion%s", "");
	for (i = 0; i < 2000; i++) {
		ch_buf_append_test(&buf, &n, &cap, "%s-%u,%.*s;", i % 7 ? "f" : "field", (unsigned)i, i % 5, "abcdef");
		e += (size_t)snprintf(exp + e, sizeof(exp) - e, "%s-%u,%.*s;", i % 7 ? "f" : "field", (unsigned)i, i % 5, "abcdef");
	}
	check(n == e && buf && !strcmp(buf, exp), "format: ch_buf_vappend over 2000 appends",
	      "differs from snprintf");
	free(buf);
	ch_ctx_free(ctx);
}

/* A struct's entries found once and asked member by member (the walk of a
 * short chain, the hash past CH_CHAIN_WALK entries): the answers of
 * ch_sidecar_class_inferred, and the same entries marked used. */
static void test_sidecar_chain(void)
{
	ch_ctx *a = ch_ctx_new(), *b = ch_ctx_new();
	char text[2048], f[16];
	size_t n = 0;
	int i, same = 1;
	struct ch_side_chain big, small, none;
	for (i = 0; i < 12; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "big.f%d %s\n", i,
				      i % 3 == 0 ? "hot:g1" : i % 3 == 1 ? "read_mostly" : "exclusive");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "small.a hot\n# cachehot annotate: x\n"
			      "small.b read_mostly\nsmall.c.d hot\nbig.f12 hot:g2\n");
	check(!ch_sidecar_load_string(a, "c.ann", text) && !ch_sidecar_load_string(b, "c.ann", text),
	      "sidecar chain: loads", ch_ctx_error(a));
	check(ch_sidecar_chain(a, "big", &big) && big.n == 13 && ch_sidecar_chain(a, "small", &small) &&
	      small.n == 3 && !ch_sidecar_chain(a, "none", &none) && !none.first &&
	      !ch_sidecar_chain(a, NULL, &none), "sidecar chain: found once, counted", "");
	for (i = 0; i < 16; i++) {
		const char *ga = "-", *gb = "-";
		int ia = -1, ib = -1, k;
		snprintf(f, sizeof(f), "f%d", i);
		for (k = 0; k < 2; k++) {
			const struct ch_side_chain *c = k ? &small : &big;
			const char *fl = k ? (i == 0 ? "a" : i == 1 ? "b" : i == 2 ? "c.d" : f) : f;
			if (ch_sidecar_class_chain(a, c, fl, &ga, &ia) !=
			    ch_sidecar_class_inferred(b, k ? "small" : "big", fl, &gb, &ib) ||
			    strcmp(ga ? ga : "", gb ? gb : "") || ia != ib)
				same = 0;
		}
	}
	check(same, "sidecar chain: same class, group, inferred as the hash", "");
	check(ch_sidecar_class_chain(a, &small, "b", NULL, &i) == CH_CLASS_READ_MOSTLY && i == 1 &&
	      ch_sidecar_class_chain(a, &small, "a", NULL, &i) == CH_CLASS_HOT && i == 0,
	      "sidecar chain: inferred after the annotate line", "");
	check(ch_sidecar_unmatched(a, NULL, NULL) == 0 && ch_sidecar_unmatched(b, NULL, NULL) == 0,
	      "sidecar chain: every entry asked is marked used", "");
	ch_ctx_free(a);
	ch_ctx_free(b);
}

/* A struct's sidecar entries are remembered with its type (ch_type_chain)
 * only while the sidecar stays as it was: a struct judged with no entries
 * (its hot field marked in the source), then given one by a sidecar loaded
 * later, has it counted when it is judged again. */
static void test_sidecar_chain_cache(void)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct collect c;
	struct ch_type *t = ch_type_new(ctx, NULL, "outer", 0, 32, 8);
	scalar(ctx, t, "a", 0, 8, CH_CLASS_HOT, 5);
	scalar(ctx, t, "b", 24, 8, CH_CLASS_NONE, 7);
	check(!ch_sidecar_load_string(ctx, "1.ann", "other.x hot\n"), "sidecar chain cache: loads", "");
	memset(&c, 0, sizeof(c));
	check(ch_check_type(ctx, t, &cfg, collect, &c) == 0, "sidecar chain cache: one hot field, quiet",
	      c.buf);
	check(!ch_sidecar_load_string(ctx, "2.ann", "outer.b read_mostly\n"),
	      "sidecar chain cache: second file loads", "");
	memset(&c, 0, sizeof(c));
	ch_check_type(ctx, t, &cfg, collect, &c);
	check(strstr(c.buf, "read-mostly field 'b' (offset 24, size 8) shares cache line 0 "
		  "(64-byte lines) of 'struct outer' with hot field 'a' (offset 0, size 8)") != NULL,
	      "sidecar chain cache: a line loaded later is seen", c.buf);
	ch_ctx_free(ctx);
}

/* ---- the unit's manifest text from cached record texts (manifest-cache.c) -- */

struct unit_out { char *text; int built; };

/* One unit: page_counter, "aaa" and "zzz" (variant & 1: a second
 * page_counter of another line, merged into its other_definitions;
 * variant & 2: a global and a per_thread name too), manifest man, cache
 * directory cache (NULL: none, the text made by jansson as before).
 * built: the records built into the ctx (0: every text was cached). */
static struct unit_out unit_run(const char *man, const char *cache, int variant)
{
	ch_ctx *ctx = ch_ctx_new();
	struct ch_config cfg = { 64, 0, 1, CH_SEV_WARNING, 1 };
	struct collect c;
	struct unit_out u;
	struct ch_type *t;
	const char *p;
	char *all;
	if (cache)
		ch_fix_cache_enable(ctx, cache);
	ch_manifest_use(ctx, man);
	memset(&c, 0, sizeof(c));
	ch_check_type_manifest(ctx, pc_v510(ctx), &cfg, collect, &c, "plugin");
	t = ch_type_new(ctx, NULL, "zzz", 0, 16, 8);
	t->loc.file = "z.h";
	t->loc.line = 3;
	scalar(ctx, t, "hot", 0, 8, CH_CLASS_HOT, 4);
	scalar(ctx, t, "rm", 8, 8, CH_CLASS_READ_MOSTLY, 5);
	ch_check_type_manifest(ctx, t, &cfg, collect, &c, "plugin");
	t = ch_type_new(ctx, NULL, "aaa", 0, 8, 8);
	t->loc.file = "a \"quoted\" \\ path\t\xc3\xa9.h";
	t->loc.line = 1;
	scalar(ctx, t, "x", 0, 8, CH_CLASS_HOT, 2);
	ch_check_type_manifest(ctx, t, &cfg, collect, &c, "sparse");
	if (variant & 1) {
		t = pc_v510(ctx);
		t->loc.line = 99;
		ch_check_type_manifest(ctx, t, &cfg, collect, &c, "plugin");
	}
	if (variant & 2) {
		struct ch_loc loc = { "g.c", 7, 3, 0 };
		ch_manifest_add_global(ctx, "gvar", CH_CLASS_HOT, "grp", loc, "plugin");
		ch_manifest_per_thread(ctx, "stats");
	}
	ch_manifest_write(ctx, man);
	u.text = ch_manifest_unit_text(ctx);
	all = ch_manifest_text(ctx);
	u.built = 0;
	for (p = all; p && (p = strstr(p, "\"digest\":")) != NULL; p++)
		u.built++;
	free(all);
	ch_ctx_free(ctx);
	return u;
}

/* 1 if a and b are the same text, and parse to equal JSON */
static int same_json(const char *a, const char *b)
{
	json_t *x = a ? json_loads(a, 0, NULL) : NULL, *y = b ? json_loads(b, 0, NULL) : NULL;
	int r = x && y && json_equal(x, y) && !strcmp(a, b);
	json_decref(x);
	json_decref(y);
	return r;
}

static void test_unit_text(void)
{
	char dir[] = "/tmp/cachehot-test-unit-text.XXXXXX", man[256], cache[256], name[64];
	char cmd[600], why[256];
	int v;
	if (!mkdtemp(dir)) {
		check(0, "unit text: temporary directory", "mkdtemp");
		return;
	}
	snprintf(man, sizeof(man), "%s/m.json", dir);
	free(unit_run(man, NULL, 3).text);   /* the file holds every record */
	for (v = 0; v < 4; v++) {
		struct unit_out old, cold, warm, bad, again;
		static const char *const harm[] = {
			"truncate -s -1",                      /* truncated */
			"printf x | dd conv=notrunc bs=1 seek=200 status=none of=",  /* a byte */
			"printf garbage >",                    /* not ours */
			"truncate -s 0",                       /* empty */
		};
		size_t h;
		snprintf(cache, sizeof(cache), "%s/cache%d", dir, v);
		old = unit_run(man, NULL, v);
		cold = unit_run(man, cache, v);
		warm = unit_run(man, cache, v);
		snprintf(name, sizeof(name), "unit text %d: cold cache = jansson's", v);
		check(same_json(old.text, cold.text), name, cold.text ? cold.text : "(null)");
		snprintf(name, sizeof(name), "unit text %d: warm cache = jansson's", v);
		check(same_json(old.text, warm.text), name, warm.text ? warm.text : "(null)");
		snprintf(name, sizeof(name), "unit text %d: warm cache builds no record", v);
		snprintf(why, sizeof(why), "old %d, cold %d, warm %d records built", old.built,
			 cold.built, warm.built);
		/* variant 1: page_counter's two records are merged, not cached */
		check(old.built >= 3 && cold.built == old.built &&
		      warm.built == (v & 1 ? 2 : 0), name, why);
		for (h = 0; h < sizeof(harm) / sizeof(harm[0]); h++) {
			snprintf(cmd, sizeof(cmd), "for f in %s/rec-*.cmr; do %s%s\"$f\"; done", cache,
				 harm[h], harm[h][strlen(harm[h]) - 1] == '=' ? "" : " ");
			if (system(cmd))
				check(0, "unit text: damage the cache", cmd);
			bad = unit_run(man, cache, v);
			again = unit_run(man, cache, v);
			snprintf(name, sizeof(name), "unit text %d: damaged entry %zu ignored", v, h);
			snprintf(why, sizeof(why), "built %d then %d", bad.built, again.built);
			check(same_json(old.text, bad.text) && bad.built == old.built, name, why);
			snprintf(name, sizeof(name), "unit text %d: damaged entry %zu rewritten", v, h);
			check(same_json(old.text, again.text) && again.built == warm.built, name, why);
			free(bad.text);
			free(again.text);
		}
		/* another record's entry under this one's name: not trusted */
		snprintf(cmd, sizeof(cmd),
			 "cd %s && set -- rec-*.cmr && [ $# -ge 2 ] && cp \"$1\" \"$2\" && cp \"$1\" \"$3\"",
			 cache);
		if (v == 0) {
			if (system(cmd))
				check(0, "unit text: swap the entries", cmd);
			bad = unit_run(man, cache, v);
			check(same_json(old.text, bad.text) && bad.built == 2,
			      "unit text: another record's entry ignored", bad.text ? bad.text : "");
			free(bad.text);
		}
		free(old.text);
		free(cold.text);
		free(warm.text);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		check(0, "unit text: clean up", cmd);
}

/* The section text of core/objsec-emit.c read back as an assembler reads
 * it: every line of the section is ".ascii" with at most 4000 bytes of
 * escaped text (a directive every assembler reads), the quote and the
 * backslash escaped, every byte outside printable ASCII an octal escape,
 * and the bytes the same as the text's; a new .ascii only once a line
 * holds 4000 bytes. Texts of 0-70 000 bytes cross the emitter's 16 kB
 * buffer, its 4000-column splits and its 16-byte steps at every phase. */
static int emit_read_back(const char *asmtext, char *out, size_t *nout, size_t *longest)
{
	const char *p = asmtext, *want = "\t.pushsection .discard.cachehot,\"e\"\n";
	size_t n = 0;
	*longest = 0;
	if (strncmp(p, want, strlen(want)))
		return -1;
	p += strlen(want);
	while (!strncmp(p, "\t.ascii \"", 9)) {
		const char *q = p + 9;
		while (*q != '"') {
			if (*q == '\n' || !*q)
				return -2;
			if (*q != '\\') {
				if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f)
					return -3;
				out[n++] = *q++;
			} else if (q[1] == '"' || q[1] == '\\') {
				out[n++] = q[1];
				q += 2;
			} else if (q[1] >= '0' && q[1] <= '3' && q[2] >= '0' && q[2] <= '7' &&
				   q[3] >= '0' && q[3] <= '7') {
				out[n++] = (char)(((q[1] - '0') << 6) | ((q[2] - '0') << 3) | (q[3] - '0'));
				q += 4;
			} else
				return -4;
		}
		size_t cols = (size_t)(q - (p + 9));
		if (cols > *longest)
			*longest = cols;
		p = q + 1;
		if (*p++ != '\n')
			return -5;
		/* split at the first byte that begins at column 4000 or
		 * later: every line but the last holds 4000-4003 bytes */
		if (cols < 4000 && !strncmp(p, "\t.ascii \"", 9))
			return -7;
	}
	*nout = n;
	return strcmp(p, "\t.byte 0\n\t.popsection\n") ? -6 : 0;
}

/* text (len bytes, freed here) through the emitter and read back: 0, or 1
 * when the emitter failed, 2 when what is read back differs or a line is
 * too long; *longest the longest line */
static int emit_round_trip(char *text, size_t len, size_t *longest)
{
	char *asmtext = NULL, *back = (char *)malloc(len + 1);
	size_t nout = 0, nasm;
	FILE *f = open_memstream(&asmtext, &nasm);
	int bad = 0;
	*longest = 0;
	text[len] = 0;
	if (ch_objsec_emit_asm(f, text) || fclose(f))
		bad = 1;
	else if (emit_read_back(asmtext, back, &nout, longest) || nout != len ||
		 memcmp(back, text, len) || *longest > 4003)
		bad = 2;
	free(text);
	free(back);
	free(asmtext);
	return bad;
}

static void test_objsec_emit(void)
{
	static const size_t lens[] = { 0, 1, 3999, 4000, 4001, 16319, 16320, 16321, 16384, 40000, 70000 };
	int bad = 0, t;
	size_t longest_all = 0, longest;
	srand(22);
	for (t = 0; t < 300 && bad == 0; t++) {
		size_t len = t < 11 * 5 ? lens[t % 11] : (size_t)(rand() % 70000), i;
		int mode = t % 5;
		char *text = (char *)malloc(len + 1);
		for (i = 0; i < len; i++) {
			int r = rand() % 100;
			text[i] = (char)(mode == 0 ? 'a' + r % 26 :
					 mode == 1 ? (r < 15 ? '"' : r < 18 ? '\\' : 'a' + r % 26) :
					 mode == 2 ? 1 + rand() % 255 :
					 mode == 3 ? (r < 40 ? '\\' : r < 45 ? 0xe9 : '{') :
					 /* JSON-like: a quote every six bytes, now and
					  * then 0x7f, 0x80 or a control byte */
					 (r < 16 ? '"' : r == 16 ? 0x7f : r == 17 ? 0x80 : r == 18 ? '\n' :
					  'a' + r % 26));
		}
		bad = emit_round_trip(text, len, &longest);
		if (longest > longest_all)
			longest_all = longest;
	}
	/* long texts where a line ends just as the buffer fills: 887 014
	 * bytes of 0x01 (each escaped to 4) put a split within the last
	 * bytes of the emitter's buffer; written before the flush, it made
	 * the next chunk overrun the buffer (found under ASan) */
	for (t = 0; t < 2 && bad == 0; t++) {
		size_t len = t ? (size_t)3 << 20 : 887014, i;
		char *text = (char *)malloc(len + 1);
		for (i = 0; i < len; i++)
			text[i] = (char)(t ? 1 + rand() % 255 : 1);
		bad = emit_round_trip(text, len, &longest);
	}
	check(bad == 0 && longest_all >= 4000, "objsec-emit-read-back",
	      bad == 1 ? "the emitter failed" : "a text read back differs, or a directive is too long");
}

int main(void)
{
	test_v510();
	test_union_and_nesting();
	test_sidecar();
	test_globals();
	test_sidecar_index();
	test_eval();
	test_options();
	test_self_nesting();
	test_groups();
	test_fix_sweep();
	test_layout_bitfields();
	test_fix_brief();
	test_variable_hints();
	test_format();
	test_sidecar_chain();
	test_sidecar_chain_cache();
	test_unit_text();
	test_objsec_emit();
	return 0;
}
