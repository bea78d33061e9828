/* test-output.c -- unit tests of core/: the unit's manifest text from cached record texts, the object section's emitter
 * (tests/core/test-core.c runs them; helpers in test-core.h). */
#include "test-core.h"

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

void test_unit_text(void)
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

void test_objsec_emit(void)
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
