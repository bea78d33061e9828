/* test-model.c -- unit tests of core/: the model, nesting, line-size macros, options, kernel groups, bit-fields, formatting
 * (tests/core/test-core.c runs them; helpers in test-core.h). */
#include "test-core.h"

void test_v510(void)
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
void test_union_and_nesting(void)
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

static const char *lk(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, "L1_CACHE_SHIFT")) return "(CONFIG_X86_L1_CACHE_SHIFT)";
	if (!strcmp(name, "CONFIG_X86_L1_CACHE_SHIFT")) return "6";
	if (!strcmp(name, "L1_CACHE_BYTES")) return "(1 << L1_CACHE_SHIFT)";
	if (!strcmp(name, "LOOP")) return "LOOP";
	return NULL;
}

void test_eval(void)
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

void test_options(void)
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

void test_self_nesting(void)
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
void test_groups(void)
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


/* The one model of a layout (core/layout-eval.c) on struct conf of
 * tests/fixtures/bitfield_packs.c, members as the plugin gives them (a
 * bit-field: the byte holding its first bit, the bytes it touches, align
 * 1): as declared, and in the order of its fix ('level' moved after 'id'),
 * where GCC packs 'level' and 'mode' into one unsigned short (pahole on
 * the fixed struct: level bits 16..20, mode 21..23, name at 3, hits at 64,
 * 72 bytes). */
void test_layout_bitfields(void)
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
void test_format(void)
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
