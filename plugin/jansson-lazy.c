/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jansson-lazy.c -- libjansson loaded by the plugin only when a JSON file
 * is read or written (the manifest, findings=, access=, the object records),
 * not by cc1's dlopen of the plugin on every compile.
 *
 * Linked with -ljansson, the plugin made cc1's dlopen(RTLD_NOW) load
 * libjansson and bind its imports and the plugin's 37 json_* calls on every
 * unit: 0.09 M instructions of cc1 on mm/page_counter.c, which writes no
 * JSON (bench/plugin-overhead; a floor plugin linked with -ljansson against
 * one without). Here every json_* function the plugin (core/ included)
 * calls is defined, local to the plugin (plugin/exports.map): the first call
 * of each dlopen()s libjansson's runtime name and dlsym()s the function.
 * Debian's libjansson.a is not position-independent, so it cannot be linked
 * in instead. plugin/rules.mk links without -ljansson: a json_* function
 * missing here is an undefined symbol that makes cc1's dlopen of the plugin
 * fail (every plugin test); libjansson missing at run time is a fatal error
 * at the first JSON operation, with dlerror()'s text.
 *
 * Not a GCC header in sight: jansson.h's warn_unused_result clashes with
 * GCC's options.h. Compiled as C++ (plugin/rules.mk), written C-style.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>

/* The soname libjansson has had since 2.0 (Debian's libjansson4). */
#define JANSSON_SONAME "libjansson.so.4"

static void *jansson_sym(const char *name)
{
	static void *lib;
	void *p;
	if (!lib && !(lib = dlopen(JANSSON_SONAME, RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "cc1: cachehot plugin: cannot load %s: %s\n", JANSSON_SONAME, dlerror());
		exit(EXIT_FAILURE);
	}
	if (!(p = dlsym(lib, name))) {
		fprintf(stderr, "cc1: cachehot plugin: %s has no %s: %s\n", JANSSON_SONAME, name,
			dlerror());
		exit(EXIT_FAILURE);
	}
	return p;
}

json_t * json_array(void)
{
	static json_t * (*f)(void);
	if (!f)
		f = (json_t * (*)(void))jansson_sym("json_array");
	return f();
}

int json_array_append_new(json_t *array, json_t *value)
{
	static int (*f)(json_t *, json_t *);
	if (!f)
		f = (int (*)(json_t *, json_t *))jansson_sym("json_array_append_new");
	return f(array, value);
}

json_t * json_array_get(const json_t *array, size_t index)
{
	static json_t * (*f)(const json_t *, size_t);
	if (!f)
		f = (json_t * (*)(const json_t *, size_t))jansson_sym("json_array_get");
	return f(array, index);
}

int json_array_insert_new(json_t *array, size_t index, json_t *value)
{
	static int (*f)(json_t *, size_t, json_t *);
	if (!f)
		f = (int (*)(json_t *, size_t, json_t *))jansson_sym("json_array_insert_new");
	return f(array, index, value);
}

int json_array_set_new(json_t *array, size_t index, json_t *value)
{
	static int (*f)(json_t *, size_t, json_t *);
	if (!f)
		f = (int (*)(json_t *, size_t, json_t *))jansson_sym("json_array_set_new");
	return f(array, index, value);
}

size_t json_array_size(const json_t *array)
{
	static size_t (*f)(const json_t *);
	if (!f)
		f = (size_t (*)(const json_t *))jansson_sym("json_array_size");
	return f(array);
}

json_t * json_copy(json_t *value)
{
	static json_t * (*f)(json_t *);
	if (!f)
		f = (json_t * (*)(json_t *))jansson_sym("json_copy");
	return f(value);
}

json_t * json_deep_copy(const json_t *value)
{
	static json_t * (*f)(const json_t *);
	if (!f)
		f = (json_t * (*)(const json_t *))jansson_sym("json_deep_copy");
	return f(value);
}

void json_delete(json_t *json)
{
	static void (*f)(json_t *);
	if (!f)
		f = (void (*)(json_t *))jansson_sym("json_delete");
	f(json);
}

int json_dump_file(const json_t *json, const char *path, size_t flags)
{
	static int (*f)(const json_t *, const char *, size_t);
	if (!f)
		f = (int (*)(const json_t *, const char *, size_t))jansson_sym("json_dump_file");
	return f(json, path, flags);
}

int json_dumpfd(const json_t *json, int output, size_t flags)
{
	static int (*f)(const json_t *, int, size_t);
	if (!f)
		f = (int (*)(const json_t *, int, size_t))jansson_sym("json_dumpfd");
	return f(json, output, flags);
}

char * json_dumps(const json_t *json, size_t flags)
{
	static char * (*f)(const json_t *, size_t);
	if (!f)
		f = (char * (*)(const json_t *, size_t))jansson_sym("json_dumps");
	return f(json, flags);
}

json_t * json_false(void)
{
	static json_t * (*f)(void);
	if (!f)
		f = (json_t * (*)(void))jansson_sym("json_false");
	return f();
}

json_t * json_integer(json_int_t value)
{
	static json_t * (*f)(json_int_t);
	if (!f)
		f = (json_t * (*)(json_int_t))jansson_sym("json_integer");
	return f(value);
}

int json_integer_set(json_t *integer, json_int_t value)
{
	static int (*f)(json_t *, json_int_t);
	if (!f)
		f = (int (*)(json_t *, json_int_t))jansson_sym("json_integer_set");
	return f(integer, value);
}

json_int_t json_integer_value(const json_t *integer)
{
	static json_int_t (*f)(const json_t *);
	if (!f)
		f = (json_int_t (*)(const json_t *))jansson_sym("json_integer_value");
	return f(integer);
}

json_t * json_load_file(const char *path, size_t flags, json_error_t *error)
{
	static json_t * (*f)(const char *, size_t, json_error_t *);
	if (!f)
		f = (json_t * (*)(const char *, size_t, json_error_t *))jansson_sym("json_load_file");
	return f(path, flags, error);
}

json_t * json_loads(const char *input, size_t flags, json_error_t *error)
{
	static json_t * (*f)(const char *, size_t, json_error_t *);
	if (!f)
		f = (json_t * (*)(const char *, size_t, json_error_t *))jansson_sym("json_loads");
	return f(input, flags, error);
}

json_t * json_null(void)
{
	static json_t * (*f)(void);
	if (!f)
		f = (json_t * (*)(void))jansson_sym("json_null");
	return f();
}

double json_number_value(const json_t *json)
{
	static double (*f)(const json_t *);
	if (!f)
		f = (double (*)(const json_t *))jansson_sym("json_number_value");
	return f(json);
}

json_t * json_object(void)
{
	static json_t * (*f)(void);
	if (!f)
		f = (json_t * (*)(void))jansson_sym("json_object");
	return f();
}

int json_object_del(json_t *object, const char *key)
{
	static int (*f)(json_t *, const char *);
	if (!f)
		f = (int (*)(json_t *, const char *))jansson_sym("json_object_del");
	return f(object, key);
}

json_t * json_object_get(const json_t *object, const char *key)
{
	static json_t * (*f)(const json_t *, const char *);
	if (!f)
		f = (json_t * (*)(const json_t *, const char *))jansson_sym("json_object_get");
	return f(object, key);
}

void * json_object_iter(json_t *object)
{
	static void * (*f)(json_t *);
	if (!f)
		f = (void * (*)(json_t *))jansson_sym("json_object_iter");
	return f(object);
}

const char * json_object_iter_key(void *iter)
{
	static const char * (*f)(void *);
	if (!f)
		f = (const char * (*)(void *))jansson_sym("json_object_iter_key");
	return f(iter);
}

void * json_object_iter_next(json_t *object, void *iter)
{
	static void * (*f)(json_t *, void *);
	if (!f)
		f = (void * (*)(json_t *, void *))jansson_sym("json_object_iter_next");
	return f(object, iter);
}

json_t * json_object_iter_value(void *iter)
{
	static json_t * (*f)(void *);
	if (!f)
		f = (json_t * (*)(void *))jansson_sym("json_object_iter_value");
	return f(iter);
}

void * json_object_key_to_iter(const char *key)
{
	static void * (*f)(const char *);
	if (!f)
		f = (void * (*)(const char *))jansson_sym("json_object_key_to_iter");
	return f(key);
}

int json_object_set_new(json_t *object, const char *key, json_t *value)
{
	static int (*f)(json_t *, const char *, json_t *);
	if (!f)
		f = (int (*)(json_t *, const char *, json_t *))jansson_sym("json_object_set_new");
	return f(object, key, value);
}

size_t json_object_size(const json_t *object)
{
	static size_t (*f)(const json_t *);
	if (!f)
		f = (size_t (*)(const json_t *))jansson_sym("json_object_size");
	return f(object);
}

int json_object_update(json_t *object, json_t *other)
{
	static int (*f)(json_t *, json_t *);
	if (!f)
		f = (int (*)(json_t *, json_t *))jansson_sym("json_object_update");
	return f(object, other);
}

json_t * json_string(const char *value)
{
	static json_t * (*f)(const char *);
	if (!f)
		f = (json_t * (*)(const char *))jansson_sym("json_string");
	return f(value);
}

size_t json_string_length(const json_t *string)
{
	static size_t (*f)(const json_t *);
	if (!f)
		f = (size_t (*)(const json_t *))jansson_sym("json_string_length");
	return f(string);
}

const char * json_string_value(const json_t *string)
{
	static const char * (*f)(const json_t *);
	if (!f)
		f = (const char * (*)(const json_t *))jansson_sym("json_string_value");
	return f(string);
}

json_t * json_stringn(const char *value, size_t len)
{
	static json_t * (*f)(const char *, size_t);
	if (!f)
		f = (json_t * (*)(const char *, size_t))jansson_sym("json_stringn");
	return f(value, len);
}

json_t * json_true(void)
{
	static json_t * (*f)(void);
	if (!f)
		f = (json_t * (*)(void))jansson_sym("json_true");
	return f();
}

json_t * json_vpack_ex(json_error_t *error, size_t flags, const char *fmt, va_list ap)
{
	static json_t * (*f)(json_error_t *, size_t, const char *, va_list);
	if (!f)
		f = (json_t * (*)(json_error_t *, size_t, const char *, va_list))jansson_sym("json_vpack_ex");
	return f(error, flags, fmt, ap);
}

json_t *json_pack(const char *fmt, ...)
{
	va_list ap;
	json_t *v;
	va_start(ap, fmt);
	v = json_vpack_ex(NULL, 0, fmt, ap);
	va_end(ap);
	return v;
}
