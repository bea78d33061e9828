/* SPDX-License-Identifier: GPL-2.0 */
/* Macro evaluation (core/eval.c): the first line is the body of
 * SMP_CACHE_BYTES, each further line "NAME BODY" an object-like macro. */
#include "common.h"
#include "cachehot-core.h"

struct table { char *name[64], *body[64]; int n; };

static const char *lookup(const char *name, void *arg)
{
	struct table *t = arg;
	int i;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name))
			return t->body[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *save = NULL, *line;
	struct table t = { .n = 0 };
	ch_ctx *ctx = ch_ctx_new();
	const char *note, *macro;
	long long v;
	char why[160];
	int first = 1;
	for (line = strtok_r(text, "\n", &save); line && t.n < 64; line = strtok_r(NULL, "\n", &save)) {
		if (first) {
			t.name[t.n] = "SMP_CACHE_BYTES";
			t.body[t.n++] = line;
			first = 0;
			continue;
		}
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		t.name[t.n] = line;
		t.body[t.n++] = sp + 1;
	}
	ch_line_size_eval(ctx, lookup, &t, &note, &macro);
	if (t.n)
		ch_eval_macro_why(t.body[0], lookup, &t, &v, why, sizeof(why));
	ch_ctx_free(ctx);
	free(text);
	return 0;
}
