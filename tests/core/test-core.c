/* test-core.c -- unit tests for core/: models built by hand with the real
 * offsets of the kernel structs they reduce; exact messages asserted.
 * Prints "PASS: name" / "FAIL: name: why" lines (tests/core/run.sh). The
 * tests are in test-model.c, test-sidecar.c, test-fix.c and test-output.c;
 * this file holds the helpers they share (test-core.h) and main. */
#include "test-core.h"

int failures;
void check(int cond, const char *name, const char *why)
{
	if (cond)
		printf("PASS: %s\n", name);
	else {
		printf("FAIL: %s: %s\n", name, why);
		failures++;
	}
}
void check_str(const char *name, const char *exp, const char *got)
{
	char why[4096];
	snprintf(why, sizeof(why), "\n  expected: %s\n  got:      %s", exp, got ? got : "(null)");
	check(got && !strcmp(exp, got), name, why);
}

void collect(const struct ch_finding *f, void *arg)
{
	struct collect *c = (struct collect *)arg;
	snprintf(c->buf + strlen(c->buf), sizeof(c->buf) - strlen(c->buf), "%u:%s: %s\n",
		 f->loc.line, f->severity == CH_SEV_NOTE ? "note" : "warning", f->message);
	c->n++;
}

struct ch_member *scalar(ch_ctx *ctx, struct ch_type *t, const char *name,
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
struct ch_type *pc_v510(ch_ctx *ctx)
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
