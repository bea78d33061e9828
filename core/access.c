/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.c -- access facts of struct fields (the plugin's access mode) and
 * their merge across translation units (cachehot annotate). The inference
 * rules that turn merged facts into a sidecar live in core/infer.c.
 *
 * One unit's file (schema version 1, jansson, written atomically):
 * { "cachehot_access": 1, "unit": "/abs/mm/page_counter.c",
 *   "functions": { "page_counter_charge": { "file": "...", "line": 60,
 *        "static": false, "exported": true, "init": false, "exit": false,
 *        "cold": false, "inline": false, "callers": [ "try_charge_memcg" ] } },
 *   "structs": { "page_counter": { "usage.counter": { "offset": 0,
 *        "composite": false,           (or the member's struct tag)
 *        "functions": { "page_counter_charge": { "load": 0, "store": 0,
 *             "rmw": 1, "marked_load": 0, "marked_store": 0, "update": 0,
 *             "unlikely_write": 0, "unlikely_read": 0 } } } } } }
 * A function may also hold "unlikely_callers": callers that call it only on
 * paths marked unlikely (under unlikely(), or the branch likely() does not
 * expect).
 * Addresses passed to calls (docs/annotate.md, "Writes through an address"):
 * a field's per-function counts may hold "passed": { "TARGET": n }, the
 * field's address given n times to TARGET ("passed_unlikely" on a path
 * marked unlikely); a function may hold "params":
 * { "0": { "load": 0, "store": 1, ... } }, accesses through its pointer
 * parameter 0 (or an address derived from it), and "passes": { "0":
 * { "TARGET": n } }, that parameter handed on ("passes_unlikely" on a path
 * marked unlikely). TARGET is "CALLEE/ARG"
 * (ARG 0-based), "CALLEE/ARG/const" when the parameter points to const,
 * CALLEE "*" for an indirect call.
 * Accesses through an object one thread or CPU owns are "owned": n (and
 * the field's "owned_via": { REASON: n }); of them, writes through an
 * object other threads or CPUs can also reach (per-CPU data, an element
 * indexed by the thread's id, a thread-context pointer: not a thread-local
 * variable or the stack) are also "owned_write": n, and updates from the
 * field's own value "owned_update": n (docs/annotate.md, "Ownership").
 * A path names the direct member first (anonymous members skipped, as C
 * names them), then nested members; "offset" is the direct member's byte
 * offset; "composite" is the tag of the direct member's struct/union type
 * when it has one (its own fields are recorded under that tag too). Counts are accesses in
 * the function's GIMPLE after early inlining (docs/annotate.md).
 *
 * The merged view keeps the same shape; a static function's key becomes
 * "name@FILE:LINE" of its definition: a static inline helper from a header
 * is one function in every unit, two .c files' static helpers stay apart.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdarg.h>
#include <jansson.h>
#include "access-internal.h"

static const char *const kind_key[CH_ACC__COUNT] = {
	"load", "store", "rmw", "marked_load", "marked_store", "update", "unlikely_write",
	"unlikely_read"
};

const char *ch_access_kind_name(enum ch_access_kind k)
{
	return k < CH_ACC__COUNT ? kind_key[k] : "?";
}

void ch_access_set_error(ch_access_facts *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->err, sizeof(a->err), fmt, ap);
	va_end(ap);
}

const char *ch_access_error(const ch_access_facts *a)
{
	return a->err;
}

/* A JSON string of s: s itself when it is UTF-8, else s with every byte
 * that is no part of valid UTF-8 written "\\xNN" (a non-UTF-8 directory
 * name: jansson refuses the raw bytes, and the key went missing, so the
 * merge later refused the whole file). NULL for NULL. */
static json_t *path_string(const char *s)
{
	json_t *j;
	char *buf, *o;
	const unsigned char *p;
	if (!s)
		return NULL;
	if ((j = json_string(s)) != NULL)
		return j;
	buf = (char *)malloc(4 * strlen(s) + 1);
	if (!buf)
		abort();
	for (o = buf, p = (const unsigned char *)s; *p; ) {
		size_t n = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
			 : (*p & 0xf8) == 0xf0 ? 4 : 0, k;
		for (k = 1; n && k < n; k++)
			if ((p[k] & 0xc0) != 0x80)
				n = 0;
		if (n && n > 1) {   /* a well-formed sequence: keep it if jansson does */
			char one[5];
			memcpy(one, p, n);
			one[n] = 0;
			j = json_string(one);
			if (!j)
				n = 0;
			json_decref(j);
		}
		if (!n) {
			o += sprintf(o, "\\x%02x", *p);
			p++;
			continue;
		}
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = 0;
	j = json_string(buf);
	free(buf);
	return j ? j : json_string("?");
}

ch_access_facts *ch_access_new(const char *unit)
{
	ch_access_facts *a = (ch_access_facts *)calloc(1, sizeof(*a));
	if (!a)
		abort();
	a->root = json_object();
	json_object_set_new(a->root, "cachehot_access", json_integer(1));
	if (unit)
		json_object_set_new(a->root, "unit", path_string(unit));
	json_object_set_new(a->root, "functions", json_object());
	json_object_set_new(a->root, "structs", json_object());
	return a;
}

void ch_access_set_flags(ch_access_facts *a, const char *flags)
{
	if (flags)
		json_object_set_new(a->root, "flags", json_string(flags));
}

void ch_access_free(ch_access_facts *a)
{
	if (!a)
		return;
	if (a->have_only)
		regfree(&a->only_units);
	if (a->have_exclude)
		regfree(&a->exclude_units);
	json_decref(a->root);
	json_decref(a->seen);
	json_decref(a->program_units);
	free(a);
}

/* obj[key] as an object, created when missing */
static json_t *child(json_t *obj, const char *key)
{
	json_t *c = json_object_get(obj, key);
	if (!json_is_object(c)) {
		c = json_object();
		json_object_set_new(obj, key, c);
	}
	return c;
}

static void add_count(json_t *obj, const char *key, json_int_t n)
{
	json_t *v = json_object_get(obj, key);
	if (json_is_integer(v))
		json_integer_set(v, json_integer_value(v) + n);
	else
		json_object_set_new(obj, key, json_integer(n));
}

static json_t *fn_counts(json_t *field, const char *function)
{
	json_t *fns = child(field, "functions"), *c = json_object_get(fns, function);
	int k;
	if (!json_is_object(c)) {
		c = json_object();
		for (k = 0; k < CH_ACC__COUNT; k++)
			json_object_set_new(c, kind_key[k], json_integer(0));
		json_object_set_new(fns, function, c);
	}
	return c;
}

/* The entry of struct_name's member path, created when missing. */
static json_t *field_entry(ch_access_facts *a, const char *struct_name, const char *path,
			   uint64_t offset, const char *composite)
{
	json_t *st = child(json_object_get(a->root, "structs"), struct_name);
	json_t *field = json_object_get(st, path);
	if (!json_is_object(field)) {
		field = json_object();
		json_object_set_new(field, "offset", json_integer((json_int_t)offset));
		json_object_set_new(field, "composite", composite ? json_string(composite)
								  : json_false());
		json_object_set_new(st, path, field);
	}
	return field;
}

void ch_access_field(ch_access_facts *a, const char *struct_name, const char *path,
		     uint64_t offset, const char *composite, const char *function,
		     enum ch_access_kind kind)
{
	if (!struct_name || !path || !*path || !function || kind >= CH_ACC__COUNT)
		return;
	add_count(fn_counts(field_entry(a, struct_name, path, offset, composite), function),
		  kind_key[kind], 1);
}

/* "CALLEE/ARG[/const]" into buf */
static const char *target_key(char *buf, size_t n, const char *callee, unsigned arg, int is_const)
{
	snprintf(buf, n, "%s/%u%s", callee && *callee ? callee : "*", arg, is_const ? "/const" : "");
	return buf;
}

void ch_access_field_passed(ch_access_facts *a, const char *struct_name, const char *path,
			    uint64_t offset, const char *composite, const char *function,
			    const char *callee, unsigned arg, int is_const, int unlikely)
{
	json_t *field;
	char key[1024];
	if (!struct_name || !path || !*path || !function)
		return;
	field = field_entry(a, struct_name, path, offset, composite);
	add_count(child(fn_counts(field, function), unlikely ? "passed_unlikely" : "passed"),
		  target_key(key, sizeof(key), callee, arg, is_const), 1);
}

static json_t *fn_entry(ch_access_facts *a, const char *function);

void ch_access_param(ch_access_facts *a, const char *function, unsigned param,
		     enum ch_access_kind kind)
{
	char idx[16];
	json_t *p;
	int k;
	if (!function || kind >= CH_ACC__COUNT)
		return;
	snprintf(idx, sizeof(idx), "%u", param);
	p = json_object_get(child(fn_entry(a, function), "params"), idx);
	if (!json_is_object(p)) {
		p = json_object();
		for (k = 0; k < CH_ACC__COUNT; k++)
			json_object_set_new(p, kind_key[k], json_integer(0));
		json_object_set_new(json_object_get(fn_entry(a, function), "params"), idx, p);
	}
	add_count(p, kind_key[kind], 1);
}

void ch_access_param_passed(ch_access_facts *a, const char *function, unsigned param,
			    const char *callee, unsigned arg, int is_const, int unlikely)
{
	char idx[16], key[1024];
	if (!function)
		return;
	snprintf(idx, sizeof(idx), "%u", param);
	add_count(child(child(fn_entry(a, function), unlikely ? "passes_unlikely" : "passes"), idx),
		  target_key(key, sizeof(key), callee, arg, is_const), 1);
}

static json_t *fn_entry(ch_access_facts *a, const char *function);

void ch_access_field_owned(ch_access_facts *a, const char *struct_name, const char *path,
			   uint64_t offset, const char *composite, const char *function,
			   enum ch_access_kind kind, const char *owner)
{
	json_t *field;
	if (!owner) {
		ch_access_field(a, struct_name, path, offset, composite, function, kind);
		return;
	}
	if (!struct_name || !path || !*path || !function || kind >= CH_ACC__COUNT)
		return;
	/* the field entry as ch_access_field() makes it, then the owned count */
	field = json_object_get(child(json_object_get(a->root, "structs"), struct_name), path);
	if (!json_is_object(field)) {
		field = json_object();
		json_object_set_new(field, "offset", json_integer((json_int_t)offset));
		json_object_set_new(field, "composite", composite ? json_string(composite)
								  : json_false());
		json_object_set_new(child(json_object_get(a->root, "structs"), struct_name), path, field);
	}
	if (kind == CH_ACC_UPDATE) {
		/* marks a store already counted: only said apart below */
		if (ch_access_owner_shared(owner))
			add_count(fn_counts(field, function), "owned_update", 1);
		return;
	}
	add_count(fn_counts(field, function), "owned", 1);
	add_count(child(field, "owned_via"), owner, 1);
	if (ch_access_owner_shared(owner) &&
	    (kind == CH_ACC_STORE || kind == CH_ACC_MSTORE || kind == CH_ACC_RMW))
		add_count(fn_counts(field, function), "owned_write", 1);
}

int ch_access_owner_shared(const char *owner)
{
	return owner && (!strcmp(owner, "per-CPU") || !strcmp(owner, "indexed by the thread's id") ||
			 !strcmp(owner, "thread-context pointer"));
}

void ch_access_struct_def(ch_access_facts *a, const char *struct_name, const char *file,
			  unsigned line, uint64_t size, unsigned long layout)
{
	json_t *defs = child(a->root, "struct_defs");
	char buf[4096];
	if (!struct_name || json_object_get(defs, struct_name))
		return;
	snprintf(buf, sizeof(buf), "%s:%u size %llu layout %08lx", file ? file : "?", line,
		 (unsigned long long)size, layout);
	json_object_set_new(defs, struct_name, json_string(buf));
}

/* "FILE:LINE size N layout H" -> "size N layout H": what must agree */
static const char *def_layout(const char *d)
{
	const char *sz = strstr(d, " size ");
	return sz ? sz : d;
}

int ch_access_has_struct_def(ch_access_facts *a, const char *struct_name)
{
	return struct_name && json_object_get(json_object_get(a->root, "struct_defs"), struct_name);
}

int ch_access_set_units(ch_access_facts *a, const char *only, const char *exclude)
{
	if (only) {
		if (regcomp(&a->only_units, only, REG_EXTENDED | REG_NOSUB))
			return -1;
		a->have_only = 1;
	}
	if (exclude) {
		if (regcomp(&a->exclude_units, exclude, REG_EXTENDED | REG_NOSUB))
			return -1;
		a->have_exclude = 1;
	}
	return 0;
}

void ch_access_set_program_units(ch_access_facts *a, const char *const *units, size_t n)
{
	size_t i;
	if (!a->program_units)
		a->program_units = json_object();
	for (i = 0; i < n; i++)
		json_object_set_new(a->program_units, units[i], json_true());
}

void ch_access_field_locked(ch_access_facts *a, const char *struct_name, const char *path,
			    uint64_t offset, const char *composite, const char *function)
{
	json_t *sts = json_object_get(a->root, "structs"), *field;
	if (!struct_name || !path || !*path || !function)
		return;
	field = json_object_get(child(sts, struct_name), path);
	if (!json_is_object(field)) {
		field = json_object();
		json_object_set_new(field, "offset", json_integer((json_int_t)offset));
		json_object_set_new(field, "composite", composite ? json_string(composite)
								  : json_false());
		json_object_set_new(child(sts, struct_name), path, field);
	}
	add_count(fn_counts(field, function), "locked", 1);
}

void ch_access_slow_root(ch_access_facts *a, const char *function, const char *why)
{
	if (function && why)
		json_object_set_new(fn_entry(a, function), "slow_root", json_string(why));
}

void ch_access_thread_call(ch_access_facts *a, const char *function, int create)
{
	if (function)
		json_object_set_new(fn_entry(a, function), create ? "creates_thread" : "joins_thread",
				    json_true());
}

/* [first, last] line of v's calls, widened by [lo, hi] */
static void widen_lines(json_t *obj, const char *key, json_int_t lo, json_int_t hi)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_array(v) || json_array_size(v) != 2) {
		json_object_set_new(obj, key, json_pack("[I,I]", lo, hi));
		return;
	}
	if (json_integer_value(json_array_get(v, 0)) > lo)
		json_integer_set(json_array_get(v, 0), lo);
	if (json_integer_value(json_array_get(v, 1)) < hi)
		json_integer_set(json_array_get(v, 1), hi);
}

void ch_access_main_call(ch_access_facts *a, const char *callee, unsigned line)
{
	if (callee)
		widen_lines(child(fn_entry(a, "main"), "main_calls"), callee, line, line);
}

void ch_access_address_taken(ch_access_facts *a, const char *function)
{
	json_t *f = function ? json_object_get(json_object_get(a->root, "functions"), function) : NULL;
	if (json_is_object(f))   /* only functions this unit has facts for */
		json_object_set_new(f, "address_taken", json_true());
}

void ch_access_unit_kernel(ch_access_facts *a, int kernel)
{
	json_object_set_new(a->root, "kernel", json_boolean(kernel));
}

static json_t *fn_entry(ch_access_facts *a, const char *function)
{
	json_t *f = child(json_object_get(a->root, "functions"), function);
	if (!json_object_get(f, "callers"))   /* a set in memory, an array in files */
		json_object_set_new(f, "callers", json_object());
	return f;
}

void ch_access_function(ch_access_facts *a, const char *function,
			const struct ch_access_fn_info *info)
{
	json_t *f = fn_entry(a, function);
	json_object_set_new(f, "file", info->file ? path_string(info->file) : json_null());
	json_object_set_new(f, "line", json_integer(info->line));
	json_object_set_new(f, "static", json_boolean(info->is_static));
	if (!json_is_true(json_object_get(f, "exported")))   /* ch_access_export() may come first */
		json_object_set_new(f, "exported", json_boolean(info->exported));
	json_object_set_new(f, "init", json_boolean(info->init));
	json_object_set_new(f, "exit", json_boolean(info->exit));
	json_object_set_new(f, "cold", json_boolean(info->cold));
	json_object_set_new(f, "inline", json_boolean(info->is_inline));
}

void ch_access_call(ch_access_facts *a, const char *caller, const char *callee)
{
	if (caller && callee)
		json_object_set_new(json_object_get(fn_entry(a, callee), "callers"), caller, json_true());
}

void ch_access_call_unlikely(ch_access_facts *a, const char *caller, const char *callee)
{
	if (caller && callee)
		json_object_set_new(child(fn_entry(a, callee), "unlikely_callers"), caller, json_true());
}

void ch_access_export(ch_access_facts *a, const char *function)
{
	if (function && *function)
		json_object_set_new(fn_entry(a, function), "exported", json_true());
}

static int cmp_cstr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A set (object) as a sorted array, without the names in except. */
static json_t *sorted_array(json_t *set, json_t *except)
{
	const char **names = (const char **)calloc(json_object_size(set) + 1, sizeof(*names)), *ck;
	size_t n = 0, i;
	json_t *arr = json_array(), *x;
	json_object_foreach(set, ck, x)
		if (!except || !json_object_get(except, ck))
			names[n++] = ck;
	qsort(names, n, sizeof(*names), cmp_cstr);
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_string(names[i]));
	free(names);
	return arr;
}

/* Drop functions this unit neither defines (no "file") nor calls nor names
 * as a handler: a called one keeps its callers (the call edge into another
 * unit, which the userspace slow-path rules follow); callers become a
 * sorted array, and so do "unlikely_callers" (callers that call only on
 * paths marked unlikely; absent when none). */
static void prune_functions(ch_access_facts *a)
{
	json_t *fns = json_object_get(a->root, "functions"), *v, *c, *u;
	const char *k;
	void *tmp;
	json_object_foreach_safe(fns, tmp, k, v) {
		/* a function defined elsewhere stays when this unit calls it
		 * (callers: the edge into another unit, which the userspace
		 * slow-path rules follow) or names it a handler */
		/* idempotent: the facts can be written twice from one compile
		 * (the access facts file and the object's records), and after
		 * the first time "callers" is a sorted array, no longer a set
		 * (an array's json_object_size is 0: every function defined
		 * elsewhere was dropped from the file) */
		c = json_object_get(v, "callers");
		if (!json_object_get(v, "file") && !json_object_get(v, "slow_root") &&
		    !(json_is_array(c) ? json_array_size(c) : json_object_size(c))) {
			json_object_del(fns, k);
			continue;
		}
		c = json_object_get(v, "callers");
		u = json_object_get(v, "unlikely_callers");
		if (json_is_object(u)) {
			json_t *arr = sorted_array(u, json_is_object(c) ? c : NULL);
			if (json_array_size(arr))
				json_object_set_new(v, "unlikely_callers", arr);
			else
				json_object_del(v, "unlikely_callers");
			if (!json_array_size(arr))
				json_decref(arr);
		}
		if (json_is_object(c))
			json_object_set_new(v, "callers", sorted_array(c, NULL));   /* frees the set */
	}
}

char *ch_access_text(ch_access_facts *a)
{
	prune_functions(a);
	return json_dumps(a->root, JSON_COMPACT | JSON_SORT_KEYS);
}

int ch_access_write(ch_access_facts *a, const char *path)
{
	int direct;
	char *target = ch_output_target(path, &direct), *tmp;
	int rc = -1;
	prune_functions(a);
	if (!target) {
		ch_access_set_error(a, "%s: cannot write access facts: %s", path, strerror(errno));
		return -1;
	}
	if (direct) {   /* /dev/stdout, a FIFO: in place */
		rc = json_dump_file(a->root, target, JSON_INDENT(1) | JSON_SORT_KEYS) ? -1 : 0;
		if (rc)
			ch_access_set_error(a, "%s: cannot write access facts", path);
		free(target);
		return rc;
	}
	tmp = (char *)malloc(strlen(target) + 32);
	sprintf(tmp, "%s.tmp.%ld", target, (long)getpid());
	if (json_dump_file(a->root, tmp, JSON_COMPACT | JSON_SORT_KEYS)) {
		ch_access_set_error(a, "%s: cannot write access facts: %s", target, strerror(errno));
		unlink(tmp);
	} else if (rename(tmp, target)) {
		ch_access_set_error(a, "%s: cannot rename into place: %s", target, strerror(errno));
		unlink(tmp);
	} else {
		rc = 0;
	}
	free(tmp);
	free(target);
	return rc;
}

/* ---- merging ---------------------------------------------------------- */

static int get_bool(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
}

/* The merged key of a unit's function: "name@FILE:LINE" when static. */
static const char *merged_key(json_t *unit_fns, const char *name, const char *unit,
			      char *buf, size_t n)
{
	json_t *f = json_object_get(unit_fns, name);
	/* main() is one per program: two programs of one tree keep theirs */
	if (json_is_object(f) && (get_bool(f, "static") || !strcmp(name, "main"))) {
		const char *file = json_string_value(json_object_get(f, "file"));
		snprintf(buf, n, "%s@%s:%lld", name, file ? file : unit,
			 (long long)json_integer_value(json_object_get(f, "line")));
		return buf;
	}
	return name;
}

/* A unit's "CALLEE/ARG[/const]" with CALLEE as merged_key() names it. */
static const char *merged_target(json_t *unit_fns, const char *target, const char *unit,
				 char *buf, size_t n)
{
	const char *slash = strchr(target, '/');
	char name[1024], kb[4096];
	if (!slash || (size_t)(slash - target) >= sizeof(name))
		return target;
	memcpy(name, target, (size_t)(slash - target));
	name[slash - target] = 0;
	snprintf(buf, n, "%s%s", merged_key(unit_fns, name, unit, kb, sizeof(kb)), slash);
	return buf;
}

/* into[key] = max(into[key], n) */
static void max_count(json_t *into, const char *key, json_int_t n)
{
	json_t *v = json_object_get(into, key);
	if (!json_is_integer(v))
		json_object_set_new(into, key, json_integer(n));
	else if (json_integer_value(v) < n)
		json_integer_set(v, n);
}

/* A function's "params" and "passes" from one unit: a function defined in
 * a header is the same function in every unit, so counts are not summed. */
static void merge_params(json_t *m, json_t *v, json_t *unit_fns, const char *unit)
{
	json_t *ps = json_object_get(v, "params"), *pp, *x, *c;
	const char *idx, *k;
	char tb[4096];
	json_object_foreach(ps, idx, x) {
		json_t *into = child(child(m, "params"), idx);
		json_object_foreach(x, k, c)
			if (json_is_integer(c))
				max_count(into, k, json_integer_value(c));
	}
	for (int u = 0; u < 2; u++) {
		const char *key = u ? "passes_unlikely" : "passes";
		pp = json_object_get(v, key);
		json_object_foreach(pp, idx, x) {
			json_t *into = child(child(m, key), idx);
			json_object_foreach(x, k, c)
				if (json_is_integer(c))
					max_count(into, merged_target(unit_fns, k, unit, tb, sizeof(tb)),
						  json_integer_value(c));
		}
	}
}

static int bad(ch_access_facts *a, const char *path, const char *why)
{
	ch_access_set_error(a, "%s: not a cachehot access file: %s", path, why);
	return -1;
}

static int merge_json(ch_access_facts *a, json_t *u, const char *path);

int ch_access_merge_file(ch_access_facts *a, const char *path)
{
	json_error_t jerr;
	json_t *u = json_load_file(path, 0, &jerr);
	int rc;
	if (!u) {
		if (jerr.line > 0)
			ch_access_set_error(a, "%s:%d: %s", path, jerr.line, jerr.text);
		else
			ch_access_set_error(a, "%s: %s", path, jerr.text);
		return -1;
	}
	rc = merge_json(a, u, path);
	json_decref(u);
	return rc;
}

int ch_access_merge_text(ch_access_facts *a, const char *text, const char *origin)
{
	json_error_t jerr;
	json_t *u = json_loads(text, 0, &jerr);
	int rc;
	if (!u) {
		ch_access_set_error(a, "%s: a record is not valid JSON: %s", origin, jerr.text);
		return -1;
	}
	rc = merge_json(a, u, origin);
	json_decref(u);
	return rc;
}

/* A unit seen before (its "unit" and "flags": one source compiled with one
 * set of options), as the same unit read twice reaches the merge: from its
 * object and from vmlinux.o or an archive holding a copy, or from a facts
 * directory beside the objects. 1: skip it (counted in a->nrepeats, and
 * in a->nconflicts when its content differs: the first one read stays). */
static int seen_before(ch_access_facts *a, json_t *u, const char *unit)
{
	const char *flags = json_string_value(json_object_get(u, "flags"));
	char *key, *text;
	json_t *prev;
	int same;
	if (!flags)   /* written before units had an identity: every file counts */
		return 0;
	if (!a->seen)
		a->seen = json_object();
	key = (char *)malloc(strlen(unit) + strlen(flags) + 2);
	if (!key)
		abort();
	sprintf(key, "%s\n%s", unit, flags);
	text = json_dumps(u, JSON_COMPACT | JSON_SORT_KEYS);
	prev = json_object_get(a->seen, key);
	if (!prev) {
		json_object_set_new(a->seen, key, json_string(text ? text : ""));
		free(key);
		free(text);
		return 0;
	}
	same = text && !strcmp(json_string_value(prev), text);
	free(key);
	free(text);
	a->nrepeats++;
	if (!same)
		a->nconflicts++;
	return 1;
}

static int merge_json(ch_access_facts *a, json_t *u, const char *path)
{
	json_t *fns, *sts, *v, *mf, *ms;
	const char *unit, *k;
	char kb[4096], cb[4096];
	int rc = -1;

	fns = json_object_get(u, "functions");
	sts = json_object_get(u, "structs");
	unit = json_string_value(json_object_get(u, "unit"));
	if (!json_is_object(u) || json_integer_value(json_object_get(u, "cachehot_access")) != 1) {
		rc = bad(a, path, "no \"cachehot_access\": 1");
		goto out;
	}
	if (!json_is_object(fns) || !json_is_object(sts) || !unit) {
		rc = bad(a, path, "no \"unit\", \"functions\" or \"structs\"");
		goto out;
	}
	if ((a->have_only && regexec(&a->only_units, unit, 0, NULL, 0)) ||
	    (a->have_exclude && !regexec(&a->exclude_units, unit, 0, NULL, 0)) ||
	    (a->program_units && !json_object_get(a->program_units, unit))) {
		a->nskipped++;   /* another program: --units / --exclude-units / --program */
		rc = 0;
		goto out;
	}
	if (seen_before(a, u, unit))
		return 0;
	mf = json_object_get(a->root, "functions");
	ms = json_object_get(a->root, "structs");
	json_object_foreach(fns, k, v) {
		const char *key = merged_key(fns, k, unit, kb, sizeof(kb));
		json_t *m = fn_entry(a, key), *callers = json_object_get(v, "callers"), *c;
		size_t i;
		static const char *const flags[] = { "static", "exported", "init", "exit", "cold",
						      "inline" };
		unsigned j;
		if (!json_is_object(v)) {
			rc = bad(a, path, "a function entry is not an object");
			goto out;
		}
		json_object_set_new(m, "name", json_string(k));
		if (!json_is_string(json_object_get(m, "file"))) {
			json_t *file = json_object_get(v, "file");
			json_object_set(m, "file", file ? file : json_null());
			json_t *line = json_object_get(v, "line");
			/* (a new 0 is the object's own: json_object_set would
			 * leak it) */
			json_object_set_new(m, "line", line ? json_incref(line) : json_integer(0));
		}
		merge_params(m, v, fns, unit);
		{
			/* slow-path evidence of a userspace program (docs/annotate.md) */
			json_t *x = json_object_get(v, "slow_root"), *mc;
			const char *ck2;
			if (json_is_string(x))
				json_object_set_new(m, "slow_root", json_string(json_string_value(x)));
			if (get_bool(v, "address_taken"))
			json_object_set_new(m, "address_taken", json_true());
		if (get_bool(v, "creates_thread"))
				json_object_set_new(m, "creates_thread", json_true());
			if (get_bool(v, "joins_thread"))
				json_object_set_new(m, "joins_thread", json_true());
			json_object_foreach(json_object_get(v, "main_calls"), ck2, mc)
				if (json_is_array(mc) && json_array_size(mc) == 2)
					widen_lines(child(m, "main_calls"),
						    merged_key(fns, ck2, unit, cb, sizeof(cb)),
						    json_integer_value(json_array_get(mc, 0)),
						    json_integer_value(json_array_get(mc, 1)));
		}
		for (j = 0; j < sizeof(flags) / sizeof(flags[0]); j++)
			if (get_bool(v, flags[j]) || !json_object_get(m, flags[j]))
				json_object_set_new(m, flags[j], json_boolean(get_bool(v, flags[j])));
		json_array_foreach(callers, i, c)
			if (json_is_string(c))
				json_object_set_new(json_object_get(m, "callers"),
					merged_key(fns, json_string_value(c), unit, cb, sizeof(cb)), json_true());
		json_array_foreach(json_object_get(v, "unlikely_callers"), i, c)
			if (json_is_string(c))
				json_object_set_new(child(m, "unlikely_callers"),
					merged_key(fns, json_string_value(c), unit, cb, sizeof(cb)), json_true());
	}
	json_object_foreach(sts, k, v) {
		const char *p;
		json_t *f, *mst;
		/* a tag is one struct while its layout (size, members' names and
		 * places) is the same in every unit; another layout of the tag
		 * (a second program of the tree) is kept apart as TAG@FILE:LINE,
		 * where its first member is */
		{
			json_t *ud = json_object_get(json_object_get(u, "struct_defs"), k);
			json_t *md = json_object_get(child(a->root, "struct_defs"), k);
			char sk[4096];
			const char *key = k;
			if (json_is_string(ud)) {
				if (!md)
					json_object_set_new(child(a->root, "struct_defs"), k,
							    json_string(json_string_value(ud)));
				else if (strcmp(def_layout(json_string_value(md)),
						def_layout(json_string_value(ud)))) {
					const char *d = json_string_value(ud), *sp = strchr(d, ' ');
					snprintf(sk, sizeof(sk), "%s@%.*s", k,
						 (int)(sp ? (size_t)(sp - d) : strlen(d)), d);
					key = sk;
				}
			}
			mst = child(ms, key);
		}
		if (!json_is_object(v)) {
			rc = bad(a, path, "a struct entry is not an object");
			goto out;
		}
		json_object_foreach(v, p, f) {
			json_t *mfield = json_object_get(mst, p), *ffns = json_object_get(f, "functions"), *cnt;
			const char *fn;
			if (!json_is_object(ffns)) {
				rc = bad(a, path, "a field entry has no \"functions\" object");
				goto out;
			}
			if (!json_is_object(mfield)) {
				mfield = json_object();
				json_object_set_new(mfield, "offset", json_integer(
					json_integer_value(json_object_get(f, "offset"))));
				json_t *comp = json_object_get(f, "composite");
				json_object_set_new(mfield, "composite", json_is_string(comp)
						    ? json_string(json_string_value(comp)) : json_false());
				json_object_set_new(mst, p, mfield);
			}
			{
				json_t *ov = json_object_get(f, "owned_via"), *oc;
				const char *ok;
				json_object_foreach(ov, ok, oc)
					if (json_is_integer(oc))
						add_count(child(mfield, "owned_via"), ok, json_integer_value(oc));
			}
			json_object_foreach(ffns, fn, cnt) {
				json_t *mc = fn_counts(mfield, merged_key(fns, fn, unit, kb, sizeof(kb)));
				int kk;
				json_t *passed, *pc;
				const char *tk;
				for (kk = 0; kk < CH_ACC__COUNT; kk++)
					add_count(mc, kind_key[kk],
						  json_integer_value(json_object_get(cnt, kind_key[kk])));
				for (int u = 0; u < 2; u++) {
					const char *key = u ? "passed_unlikely" : "passed";
					passed = json_object_get(cnt, key);
					json_object_foreach(passed, tk, pc)
						if (json_is_integer(pc))
							add_count(child(mc, key),
								  merged_target(fns, tk, unit, cb, sizeof(cb)),
								  json_integer_value(pc));
				}
				static const char *const owned_keys[] = { "owned", "owned_write",
									  "owned_update" };
				for (kk = 0; kk < 3; kk++)
					if (json_is_integer(json_object_get(cnt, owned_keys[kk])))
						add_count(mc, owned_keys[kk],
							  json_integer_value(json_object_get(cnt, owned_keys[kk])));
				if (json_is_integer(json_object_get(cnt, "locked")))
					add_count(mc, "locked", json_integer_value(json_object_get(cnt, "locked")));
			}
		}
	}
	a->nunits++;
	if (get_bool(u, "kernel"))
		a->nkernel++;
	(void)mf;
	rc = 0;
out:
	return rc;
}

size_t ch_access_units(const ch_access_facts *a)
{
	return a->nunits;
}

size_t ch_access_repeats(const ch_access_facts *a, size_t *conflicts)
{
	if (conflicts)
		*conflicts = a->nconflicts;
	return a->nrepeats;
}
