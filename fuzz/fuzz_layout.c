/* SPDX-License-Identifier: GPL-2.0 */
/* DWARF and BTF readers (layout/dwarf.c, layout/btf.c, through
 * lt_set_read, which detects the kind), then what cachehot-layout does with
 * the structs: judge them with sidecar classes on their first and last
 * members, --show and --reorganize (the first 8 structs). One source, two
 * harnesses (fuzz-dwarf, fuzz-btf) with their own corpora. */
#include "common.h"
#include "lt.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_set *s = lt_set_new();
	char err[1024];
	size_t i;
	struct lt_opts o;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	s->want_decls = 1;
	s->quiet = 1;
	if (lt_set_read(s, fuzz_file(data, size, ".o"), err, sizeof(err))) {
		lt_set_free(s);
		return 0;
	}
	memset(&o, 0, sizeof(o));
	o.cfg.line_size = 64;
	o.cfg.predict = 128;
	o.cfg.smp = 1;
	o.cfg.severity = CH_SEV_WARNING;
	for (i = 0; i < s->n && i < 8; i++) {
		struct ch_type *t = s->structs[i].t;
		if (t->nmembers && t->members[0].name) {
			char line[512];
			snprintf(line, sizeof(line), "%s.%s hot\n", s->structs[i].name,
				 t->members[0].name);
			ch_sidecar_load_string(s->ctx, "fuzz.ann", line);
			if (t->nmembers > 1 && t->members[t->nmembers - 1].name) {
				snprintf(line, sizeof(line), "%s.%s read_mostly\n", s->structs[i].name,
					 t->members[t->nmembers - 1].name);
				ch_sidecar_load_string(s->ctx, "fuzz.ann", line);
			}
		}
	}
	for (i = 0; i < s->n && i < 8; i++) {
		struct lt_struct *st = &s->structs[i];
		if (st->nonmonotonic)
			st->t->randomized = 1;
		ch_check_type(s->ctx, st->t, &o.cfg, NULL, NULL);
		lt_show(s, st, &o, devnull);
		lt_reorganize(s, st, &o, devnull, err, sizeof(err));
	}
	lt_set_free(s);
	return 0;
}
