/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access.c -- access facts of struct fields (the plugin's access mode);
 * their merge across translation units (cachehot annotate) is
 * core/access-merge.c. The inference rules that turn merged facts into a
 * sidecar live in core/infer.c.
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
json_t *ch_access_child(json_t *obj, const char *key)
{
	json_t *c = json_object_get(obj, key);
	if (!json_is_object(c)) {
		c = json_object();
		json_object_set_new(obj, key, c);
	}
	return c;
}

void ch_access_add_count(json_t *obj, const char *key, json_int_t n)
{
	json_t *v = json_object_get(obj, key);
	if (json_is_integer(v))
		json_integer_set(v, json_integer_value(v) + n);
	else
		json_object_set_new(obj, key, json_integer(n));
}

json_t *ch_access_fn_counts(json_t *field, const char *function)
{
	json_t *fns = ch_access_child(field, "functions"), *c = json_object_get(fns, function);
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
	json_t *st = ch_access_child(json_object_get(a->root, "structs"), struct_name);
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
	ch_access_add_count(ch_access_fn_counts(field_entry(a, struct_name, path, offset, composite), function),
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
	ch_access_add_count(ch_access_child(ch_access_fn_counts(field, function), unlikely ? "passed_unlikely" : "passed"),
		  target_key(key, sizeof(key), callee, arg, is_const), 1);
}

void ch_access_param(ch_access_facts *a, const char *function, unsigned param,
		     enum ch_access_kind kind)
{
	char idx[16];
	json_t *p;
	int k;
	if (!function || kind >= CH_ACC__COUNT)
		return;
	snprintf(idx, sizeof(idx), "%u", param);
	p = json_object_get(ch_access_child(ch_access_fn_entry(a, function), "params"), idx);
	if (!json_is_object(p)) {
		p = json_object();
		for (k = 0; k < CH_ACC__COUNT; k++)
			json_object_set_new(p, kind_key[k], json_integer(0));
		json_object_set_new(json_object_get(ch_access_fn_entry(a, function), "params"), idx, p);
	}
	ch_access_add_count(p, kind_key[kind], 1);
}

void ch_access_param_passed(ch_access_facts *a, const char *function, unsigned param,
			    const char *callee, unsigned arg, int is_const, int unlikely)
{
	char idx[16], key[1024];
	if (!function)
		return;
	snprintf(idx, sizeof(idx), "%u", param);
	ch_access_add_count(ch_access_child(ch_access_child(ch_access_fn_entry(a, function), unlikely ? "passes_unlikely" : "passes"), idx),
		  target_key(key, sizeof(key), callee, arg, is_const), 1);
}

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
	field = json_object_get(ch_access_child(json_object_get(a->root, "structs"), struct_name), path);
	if (!json_is_object(field)) {
		field = json_object();
		json_object_set_new(field, "offset", json_integer((json_int_t)offset));
		json_object_set_new(field, "composite", composite ? json_string(composite)
								  : json_false());
		json_object_set_new(ch_access_child(json_object_get(a->root, "structs"), struct_name), path, field);
	}
	if (kind == CH_ACC_UPDATE) {
		/* marks a store already counted: only said apart below */
		if (ch_access_owner_shared(owner))
			ch_access_add_count(ch_access_fn_counts(field, function), "owned_update", 1);
		return;
	}
	ch_access_add_count(ch_access_fn_counts(field, function), "owned", 1);
	ch_access_add_count(ch_access_child(field, "owned_via"), owner, 1);
	if (ch_access_owner_shared(owner) &&
	    (kind == CH_ACC_STORE || kind == CH_ACC_MSTORE || kind == CH_ACC_RMW))
		ch_access_add_count(ch_access_fn_counts(field, function), "owned_write", 1);
}

int ch_access_owner_shared(const char *owner)
{
	return owner && (!strcmp(owner, "per-CPU") || !strcmp(owner, "indexed by the thread's id") ||
			 !strcmp(owner, "thread-context pointer"));
}

void ch_access_struct_def(ch_access_facts *a, const char *struct_name, const char *file,
			  unsigned line, uint64_t size, unsigned long layout)
{
	json_t *defs = ch_access_child(a->root, "struct_defs");
	char buf[4096];
	if (!struct_name || json_object_get(defs, struct_name))
		return;
	snprintf(buf, sizeof(buf), "%s:%u size %llu layout %08lx", file ? file : "?", line,
		 (unsigned long long)size, layout);
	json_object_set_new(defs, struct_name, json_string(buf));
}

/* "FILE:LINE size N layout H" -> "size N layout H": what must agree */
const char *ch_access_def_layout(const char *d)
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
	field = json_object_get(ch_access_child(sts, struct_name), path);
	if (!json_is_object(field)) {
		field = json_object();
		json_object_set_new(field, "offset", json_integer((json_int_t)offset));
		json_object_set_new(field, "composite", composite ? json_string(composite)
								  : json_false());
		json_object_set_new(ch_access_child(sts, struct_name), path, field);
	}
	ch_access_add_count(ch_access_fn_counts(field, function), "locked", 1);
}

void ch_access_slow_root(ch_access_facts *a, const char *function, const char *why)
{
	if (function && why)
		json_object_set_new(ch_access_fn_entry(a, function), "slow_root", json_string(why));
}

void ch_access_thread_call(ch_access_facts *a, const char *function, int create)
{
	if (function)
		json_object_set_new(ch_access_fn_entry(a, function), create ? "creates_thread" : "joins_thread",
				    json_true());
}

/* [first, last] line of v's calls, widened by [lo, hi] */
void ch_access_widen_lines(json_t *obj, const char *key, json_int_t lo, json_int_t hi)
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
		ch_access_widen_lines(ch_access_child(ch_access_fn_entry(a, "main"), "main_calls"), callee, line, line);
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

json_t *ch_access_fn_entry(ch_access_facts *a, const char *function)
{
	json_t *f = ch_access_child(json_object_get(a->root, "functions"), function);
	if (!json_object_get(f, "callers"))   /* a set in memory, an array in files */
		json_object_set_new(f, "callers", json_object());
	return f;
}

void ch_access_function(ch_access_facts *a, const char *function,
			const struct ch_access_fn_info *info)
{
	json_t *f = ch_access_fn_entry(a, function);
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
		json_object_set_new(json_object_get(ch_access_fn_entry(a, callee), "callers"), caller, json_true());
}

void ch_access_call_unlikely(ch_access_facts *a, const char *caller, const char *callee)
{
	if (caller && callee)
		json_object_set_new(ch_access_child(ch_access_fn_entry(a, callee), "unlikely_callers"), caller, json_true());
}

void ch_access_export(ch_access_facts *a, const char *function)
{
	if (function && *function)
		json_object_set_new(ch_access_fn_entry(a, function), "exported", json_true());
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

