/* test-sidecar.c -- unit tests of core/: the sidecar: entries, globals, the index, variable hints, the chain of a struct's entries
 * (tests/core/test-core.c runs them; helpers in test-core.h). */
#include "test-core.h"

void test_sidecar(void)
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

void test_globals(void)
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

void test_sidecar_index(void)
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

/* "did you mean 'STRUCT.FIELD'?" for a variable entry that is a tag and a
 * member run together: the prefix table, the longest tag, no hint for a
 * tag that is the whole name or begins no entry. */
void test_variable_hints(void)
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

/* A struct's entries found once and asked member by member (the walk of a
 * short chain, the hash past CH_CHAIN_WALK entries): the answers of
 * ch_sidecar_class_inferred, and the same entries marked used. */
void test_sidecar_chain(void)
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
void test_sidecar_chain_cache(void)
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
