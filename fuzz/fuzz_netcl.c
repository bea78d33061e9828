/* SPDX-License-Identifier: GPL-2.0 */
/* The net_cachelines readers (core/netcl.c): the input as an RST table and
 * as a path-aware sidecar; what was read is written back as a sidecar and
 * read again (the round trip must read), then checked and measured on a
 * small struct (core/netcl-check.c). First byte: 0 RST, 1 sidecar. */
#include "common.h"
#include "cachehot-core.h"
#include "cachehot-netcl.h"

static FILE *devnull;

/* struct nc { long state; int flags; int mtu; struct { long a; long b; } inner;
 *             long tail[8]; }, 96 bytes */
static struct ch_type *nc_type(ch_ctx *ctx)
{
	static const char *names[] = { "state", "flags", "mtu", NULL, "tail" };
	static const uint64_t offs[] = { 0, 8, 12, 16, 32 }, sizes[] = { 8, 4, 4, 16, 64 };
	struct ch_type *in = ch_type_new(ctx, NULL, NULL, 0, 16, 8);
	struct ch_type *t = ch_type_new(ctx, NULL, "nc", 0, 96, 8);
	struct ch_member *m;
	size_t i;
	m = ch_type_add_member(ctx, in, "a");
	m->offset = 0; m->size = 8; m->align = 8; m->elem_size = 8;
	m = ch_type_add_member(ctx, in, "b");
	m->offset = 8; m->size = 8; m->align = 8; m->elem_size = 8;
	for (i = 0; i < 5; i++) {
		m = ch_type_add_member(ctx, t, names[i]);
		m->offset = offs[i];
		m->size = sizes[i];
		m->align = 8;
		m->nelems = i == 4 ? 8 : 1;
		m->elem_size = i == 4 ? 8 : sizes[i];
		if (i == 3)
			m->type = in;
	}
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ch_ctx *ctx;
	ch_netcl *t;
	char *text;
	int rc;
	if (!size)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	ctx = ch_ctx_new();
	t = ch_netcl_new(ctx);
	text = fuzz_string(data + 1, size - 1);
	rc = data[0] & 1 ? ch_netcl_load_string(t, "fuzz.netcl", text)
			 : ch_netcl_parse_rst_string(t, "fuzz.rst", text);
	if (!rc) {
		char *buf = NULL;
		size_t len = 0, n;
		FILE *mem = open_memstream(&buf, &len);
		ch_netcl *again = ch_netcl_new(ctx);
		struct ch_config cfg = { 0 };
		struct ch_type *ty = nc_type(ctx);
		struct ch_locality loc[3];
		ch_netcl_write(t, mem);
		fclose(mem);
		/* what was written reads back, row for row */
		if (ch_netcl_load_string(again, "again.netcl", buf) ||
		    ch_netcl_count(again) != ch_netcl_count(t))
			abort();
		free(buf);
		ch_netcl_free(again);
		ch_netcl_types(t, &n);
		cfg.line_size = 64;
		cfg.smp = 1;
		cfg.severity = CH_SEV_WARNING;
		ch_netcl_check(ctx, t, ty, &cfg, fuzz_emit_nothing, NULL);
		ch_netcl_locality(t, ty, CH_NC_TX, &cfg, &loc[0]);
		ch_netcl_locality(t, ty, CH_NC_RX, &cfg, &loc[1]);
		ch_netcl_locality(t, ty, CH_NC_ANY, &cfg, &loc[2]);
		ch_netcl_locality_print(loc, 3, data[0] & 2, devnull);
	}
	ch_netcl_free(t);
	ch_ctx_free(ctx);
	free(text);
	return 0;
}
