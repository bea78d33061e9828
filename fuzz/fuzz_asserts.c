/* SPDX-License-Identifier: GPL-2.0 */
/* The -E assert path (core/groupassert.c): the input as preprocessed text
 * (gcc -E with include/cachehot-asserts.h: linemarkers and
 * __cachehot_assert_group_member/_size calls), checked against a struct
 * with cacheline groups, one of them inside an anonymous member
 * (core/groupassert-check.c), and the asserts block written for it. */
#include "common.h"
#include "cachehot-core.h"
#include "cachehot-groupassert.h"

/* struct ga_sock { long head; begin(ga_read_tx) int mss; int window;
 * end(ga_read_tx); struct { begin(ga_write_rx) long rcv; end(ga_write_rx) };
 * long tail; } -- 40 bytes */
static struct ch_type *ga_type(ch_ctx *ctx)
{
	struct ch_type *in = ch_type_new(ctx, NULL, NULL, 0, 8, 8);
	struct ch_type *t = ch_type_new(ctx, NULL, "ga_sock", 0, 40, 8);
	static const struct { const char *name; uint64_t off, size; } f[] = {
		{ "head", 0, 8 }, { "__cacheline_group_begin__ga_read_tx", 8, 0 },
		{ "mss", 8, 4 }, { "window", 12, 4 }, { "__cacheline_group_end__ga_read_tx", 16, 0 },
		{ NULL, 16, 8 }, { "tail", 24, 8 },
	};
	struct ch_member *m;
	size_t i;
	m = ch_type_add_member(ctx, in, "__cacheline_group_begin__ga_write_rx");
	m->align = 1;
	m = ch_type_add_member(ctx, in, "rcv");
	m->size = m->elem_size = 8;
	m->align = 8;
	m = ch_type_add_member(ctx, in, "__cacheline_group_end__ga_write_rx");
	m->offset = 8;
	m->align = 1;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		m = ch_type_add_member(ctx, t, f[i].name);
		m->offset = f[i].off;
		m->size = m->elem_size = f[i].size;
		m->align = f[i].size ? (unsigned)f[i].size : 1;
		if (!f[i].name)
			m->type = in;
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ch_ctx *ctx = ch_ctx_new();
	ch_asserts *a = ch_asserts_new(ctx);
	char *text = fuzz_string(data, size);
	if (!ch_asserts_scan(a, "fuzz.i", text)) {
		struct ch_config cfg = { 0 };
		struct ch_type *t = ga_type(ctx);
		size_t i;
		cfg.line_size = 64;
		cfg.smp = 1;
		cfg.severity = CH_SEV_WARNING;
		for (i = 0; i < ch_asserts_count(a); i++)
			(void)ch_asserts_get(a, i)->type_name;
		ch_asserts_names_type(a, "ga_sock");
		ch_group_assert_check(ctx, a, t, &cfg, fuzz_emit_nothing, NULL);
		ch_group_asserts_block(ctx, t);
	}
	ch_asserts_free(a);
	ch_ctx_free(ctx);
	free(text);
	return 0;
}
