/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer-slow.c -- which functions `cachehot annotate` counts as slow paths
 * (ch_infer_mark_slow: init/exit text, cold, static functions reached only
 * from slow paths or unlikely branches, main() in userspace) and where an
 * access counts (ch_infer_attribution: an inline helper's accesses at its
 * callers). Part of core/infer.c's rules (its header comment is the
 * summary, docs/annotate.md the reference).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access-internal.h"
#include "infer-internal.h"

/* ---- slow paths ----------------------------------------------------------- */

static int flag(json_t *f, const char *k)
{
	return json_is_true(json_object_get(f, k));
}

/* The function's name without "@FILE:LINE". */
void ch_infer_plain_name(const char *key, char *buf, size_t n)
{
	const char *at = strchr(key, '@');
	snprintf(buf, n, "%.*s", (int)(at ? (size_t)(at - key) : strlen(key)), key);
}

static void set_slow(json_t *f, const char *why)
{
	json_object_set_new(f, "slow", json_true());
	if (!json_object_get(f, "slow_why"))
		json_object_set_new(f, "slow_why", json_string(why));
}

/* main(), keyed "main@FILE:LINE" (one per program) */
static int is_main(const char *key)
{
	return !strncmp(key, "main", 4) && (!key[4] || key[4] == '@');
}

/* The first line of main()'s calls at which a thread may exist: the first
 * call of a function that starts threads (calls pthread_create() without
 * pthread_join(), or calls such a function), or 0 when main() starts none
 * that the facts show. */
static json_int_t first_thread_line(json_t *fns, json_t *main_fn)
{
	json_t *starters = json_object(), *f, *c, *calls = json_object_get(main_fn, "main_calls");
	const char *k, *ck;
	json_int_t first = 0;
	json_object_foreach(fns, k, f)
		if (flag(f, "creates_thread") && !flag(f, "joins_thread"))
			json_object_set_new(starters, k, json_true());
	/* callers of starters start threads too (least fixpoint) */
	ch_infer_callers_closure(fns, starters, is_main);
	json_object_foreach(calls, ck, c) {
		json_int_t lo = json_integer_value(json_array_get(c, 0));
		if ((json_object_get(starters, ck) || !strcmp(ck, "pthread_create") ||
		     !strcmp(ck, "thrd_create")) && (!first || lo < first))
			first = lo;
	}
	json_decref(starters);
	return first;
}

/* Can f be slow because all its callers are? Not if exported; in the
 * kernel only static functions (other callers may be outside the build). */
static int slow_candidate(json_t *f, void *arg)
{
	return !flag(f, "exported") && (*(int *)arg || flag(f, "static"));
}

/* Marks "slow": true (and "slow_why") on every function on a slow path:
 * - .init.text/.exit.text or cold, in any program;
 * - matched by a --slow pattern (the name, without @FILE:LINE);
 * - in userspace (no kernel unit merged): exit and signal handlers
 *   (atexit(), signal(), sigaction's sa_handler), and main()'s callees
 *   whose every call in main() comes before main() starts its first
 *   thread;
 * - a function all of whose known callers are slow: static ones (and not
 *   EXPORT_SYMBOL'd) anywhere; any function in userspace, where the whole
 *   program is built together;
 * - main() itself in userspace (it runs once; its callees are judged by
 *   where main() calls them, so main() is marked after the fixpoint). */
void ch_infer_mark_slow(ch_access_facts *a, json_t *fns, const struct ch_infer_opts *o)
{
	const char *k, *mk;
	json_t *f, *mf;
	int user = a->nkernel == 0;
	regex_t re;
	int have_re = 0;
	char name[512];
	if (o->slow && *o->slow && !regcomp(&re, o->slow, REG_EXTENDED | REG_NOSUB))
		have_re = 1;
	json_object_foreach(fns, k, f) {
		json_object_set_new(f, "slow", json_false());
		json_object_del(f, "slow_why");
		ch_infer_plain_name(k, name, sizeof(name));
		/* userspace: a static function no unit calls and none takes the
		 * address of was inlined into its callers by the early inliner
		 * (its accesses are counted there); its own body is dead */
		if (user && flag(f, "static") && !flag(f, "address_taken") &&
		    json_is_string(json_object_get(f, "file")) &&
		    !json_object_size(json_object_get(f, "callers")) &&
		    !json_object_size(json_object_get(f, "unlikely_callers")) && !is_main(k))
			json_object_set_new(f, "inlined_away", json_true());
		if (flag(f, "init"))
			set_slow(f, "__init");
		else if (flag(f, "exit"))
			set_slow(f, "__exit");
		else if (flag(f, "cold"))
			set_slow(f, "cold");
		else if (have_re && !regexec(&re, name, 0, NULL, 0))
			set_slow(f, "--slow");
		else if (user && json_is_string(json_object_get(f, "slow_root")))
		{
			const char *r = json_string_value(json_object_get(f, "slow_root"));
			set_slow(f, !strcmp(r, "atexit") ? "exit handler"
				    : !strcmp(r, "constructor") ? "constructor or destructor"
				    : "signal handler");
		}
	}
	if (have_re)
		regfree(&re);
	json_object_foreach(fns, mk, mf) {
		json_int_t first;
		json_t *c;
		if (!user || !is_main(mk))
			continue;
		first = first_thread_line(fns, mf);
		json_object_foreach(json_object_get(mf, "main_calls"), k, c) {
			json_t *cf = json_object_get(fns, k);
			if (cf && first && json_integer_value(json_array_get(c, 1)) < first &&
			    !flag(cf, "slow"))
				set_slow(cf, "called by main() before its first thread");
		}
	}
	/* a call made only on a path marked unlikely is a slow edge; the
	 * least fixpoint, however deep the chain */
	ch_infer_slow_callees(fns, slow_candidate, &user, "only called from slow paths");
	/* main()'s own accesses run once; its callees were judged above by
	 * where main() calls them, not by main() being slow */
	json_object_foreach(fns, mk, mf)
		if (user && is_main(mk) && !flag(mf, "slow"))
			set_slow(mf, "main() runs once");
}

/* ---- inline helpers count at their callers ------------------------------- */

/* The functions an access in function key is counted in: the function
 * itself, or, for a function declared inline that has callers, those
 * callers' own ch_infer_attribution (what inlining would make of it; depth 4). */
json_t *ch_infer_attribution(json_t *fns, const char *key, int depth)
{
	json_t *f = json_object_get(fns, key), *memo, *callers, *c, *out, *seen;
	const char *ck;
	if (!f)
		return NULL;
	if ((memo = json_object_get(f, "attr")))
		return memo;
	out = json_array();
	callers = json_object_get(f, "callers");
	if (depth < 4 && flag(f, "inline") && json_object_size(callers)) {
		json_object_set_new(f, "attr", json_array());   /* a cycle ends here */
		seen = json_object();
		json_object_foreach(callers, ck, c) {
			json_t *up = ch_infer_attribution(fns, ck, depth + 1), *u;
			size_t j;
			json_array_foreach(up, j, u)
				if (!json_object_get(seen, json_string_value(u))) {
					json_object_set_new(seen, json_string_value(u), json_true());
					json_array_append(out, u);
				}
		}
		json_decref(seen);
		if (!json_array_size(out))
			json_array_append_new(out, json_string(key));
	} else {
		json_array_append_new(out, json_string(key));
	}
	json_object_set_new(f, "attr", out);
	return out;
}
