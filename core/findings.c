/* SPDX-License-Identifier: GPL-2.0 */
/*
 * findings.c -- findings as records, the one channel from the engines to the
 * driver (docs/findings.md). One JSON object a line, written with jansson:
 *
 *   {"cachehot_finding": 1, "engine": "plugin",
 *    "check": "cachehot-false-sharing", "severity": "warning",
 *    "file": "hot.c", "line": 7, "column": 23,
 *    "struct": "stats", "function": null, "field": "limit", "other": "hits",
 *    "members": [ {"name": "limit", "offset": 8, "size": 8},
 *                 {"name": "hits", "offset": 0, "size": 8} ],
 *    "line_index": 0, "line_size": 64, "predicted": false,
 *    "fix": {"text": "declare 'limit' _Alignas(64)", "old_size": 64,
 *            "new_size": 128, "cost": 64},
 *    "ident": null, "confidence": "exact", "evidence": null,
 *    "message": "read-mostly field 'limit' (offset 8, size 8) shares ..."}
 *
 * Offsets and sizes in bytes. A key that does not apply is null (or, for
 * "members" and "fix", absent). The identity of a finding -- what baselines
 * and SARIF fingerprints key on -- is check, struct (or function), field,
 * other, line size (with "predicted") and ident; never the message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "internal.h"

static const char *sev_word(enum ch_severity s)
{
	return s == CH_SEV_ERROR ? "error" : s == CH_SEV_WARNING ? "warning" : "note";
}

void ch_record_init(struct ch_record *r, enum ch_check check, enum ch_severity severity,
		    const char *message)
{
	memset(r, 0, sizeof(*r));
	r->check = check;
	r->severity = severity;
	r->message = message;
}

void ch_record_entry(struct ch_record *r, const char *file, unsigned line, const char *entry,
		     const char *ident, const char *hint)
{
	r->file = file;
	r->line = line;
	r->field = entry;
	r->ident = ident;
	r->other = hint;
}

void ch_record_from_finding(struct ch_record *r, const struct ch_finding *f)
{
	memset(r, 0, sizeof(*r));
	r->check = f->check;
	r->severity = f->severity;
	r->message = f->message;
	r->scope = f->struct_name;
	r->field = f->field_a;
	r->other = f->field_b;
	r->has_offsets = f->field_a != NULL;
	r->offset = f->offset_a;
	r->size = f->size_a;
	r->other_offset = f->offset_b;
	r->other_size = f->size_b;
	r->line_index = f->line_index;
	r->line_size = f->line_size;
	r->predicted = f->predicted;
	r->fix = f->fix;
	r->ident = f->ident;
	r->confidence = "exact";
}

void ch_records_begin(ch_ctx *ctx, const char *engine)
{
	ctx->records_on = 1;
	snprintf(ctx->records_engine, sizeof(ctx->records_engine), "%s", engine ? engine : "?");
}

int ch_records_on(const ch_ctx *ctx)
{
	return ctx->records_on;
}

const char *ch_path_normalize(ch_ctx *ctx, const char *path)
{
	size_t n, i, o = 0;
	char *out;
	if (!path)
		return NULL;
	n = strlen(path);
	out = (char *)ch_alloc(ctx, n + 2);
	for (i = 0; i < n; ) {
		if (path[i] == '/') {
			if (!o || out[o - 1] != '/')
				out[o++] = '/';
			i++;
		} else if (path[i] == '.' && (i + 1 == n || path[i + 1] == '/') &&
			   (i == 0 || path[i - 1] == '/')) {
			i += 1 + (i + 1 < n);   /* "./" or a final "." */
		} else {
			out[o++] = path[i++];
		}
	}
	if (o > 1 && out[o - 1] == '/')
		o--;
	if (!o)   /* "." or "./" */
		out[o++] = n && path[0] == '/' ? '/' : '.';
	out[o] = 0;
	return out;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *member(const char *name, uint64_t off, uint64_t size)
{
	json_t *m = json_object();
	json_object_set_new(m, "name", json_string(name));
	json_object_set_new(m, "offset", json_integer((json_int_t)off));
	json_object_set_new(m, "size", json_integer((json_int_t)size));
	return m;
}

/* The message without a trailing " [id]" of this check. */
static json_t *message_json(const char *msg, const char *id)
{
	size_t n = msg ? strlen(msg) : 0, k = strlen(id);
	if (!msg)
		return json_string("");
	if (n >= k + 3 && msg[n - 1] == ']' && !strncmp(msg + n - k - 1, id, k) &&
	    msg[n - k - 2] == '[') {
		n -= k + 2;
		while (n && msg[n - 1] == ' ')
			n--;
	}
	return json_stringn(msg, n);
}

void ch_record_add(ch_ctx *ctx, const struct ch_record *r)
{
	json_t *o;
	char *text;
	const char *id = ch_check_id(r->check);
	if (!ctx->records_on)
		return;
	o = json_object();
	json_object_set_new(o, "cachehot_finding", json_integer(CH_RECORD_VERSION));
	json_object_set_new(o, "engine", json_string(ctx->records_engine));
	json_object_set_new(o, "check", json_string(id));
	json_object_set_new(o, "severity", json_string(sev_word(r->severity)));
	json_object_set_new(o, "file", str_or_null(ch_path_normalize(ctx, r->file)));
	json_object_set_new(o, "line", json_integer(r->line));
	json_object_set_new(o, "column", json_integer(r->col));
	json_object_set_new(o, "struct", str_or_null(r->scope));
	json_object_set_new(o, "function", str_or_null(r->function));
	json_object_set_new(o, "field", str_or_null(r->field));
	json_object_set_new(o, "other", str_or_null(r->other));
	if (r->has_offsets && r->field) {
		json_t *a = json_array();
		json_array_append_new(a, member(r->field, r->offset, r->size));
		if (r->other)
			json_array_append_new(a, member(r->other, r->other_offset, r->other_size));
		json_object_set_new(o, "members", a);
	}
	json_object_set_new(o, "line_index", json_integer((json_int_t)r->line_index));
	json_object_set_new(o, "line_size", json_integer(r->line_size));
	json_object_set_new(o, "predicted", json_boolean(r->predicted));
	if (r->fix) {
		json_t *fx = json_object();
		json_object_set_new(fx, "text", json_string(r->fix->text));
		json_object_set_new(fx, "old_size", json_integer((json_int_t)r->fix->old_size));
		json_object_set_new(fx, "new_size", json_integer((json_int_t)r->fix->new_size));
		json_object_set_new(fx, "cost", json_integer((json_int_t)(r->fix->new_size -
									 r->fix->old_size)));
		json_object_set_new(o, "fix", fx);
	}
	json_object_set_new(o, "ident", str_or_null(r->ident));
	json_object_set_new(o, "confidence", str_or_null(r->confidence));
	json_object_set_new(o, "evidence", str_or_null(r->evidence));
	json_object_set_new(o, "message", message_json(r->message, id));
	text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!text)
		abort();
	{
		size_t n = strlen(text);
		if (ctx->records_len + n + 2 > ctx->records_cap) {
			ctx->records_cap = 2 * (ctx->records_len + n + 2) + 4096;
			ctx->records = (char *)ch_xrealloc(ctx->records, ctx->records_cap);
		}
		memcpy(ctx->records + ctx->records_len, text, n);
		ctx->records_len += n;
		ctx->records[ctx->records_len++] = '\n';
		ctx->records[ctx->records_len] = 0;
		ctx->nrecords++;
	}
	free(text);
}

/* directory mode: DIR/UNIT-REAL-PATH.findings.jsonl, '/' written ',' */
static char *unit_file(const char *dir, const char *unit)
{
	char *real = unit ? realpath(unit, NULL) : NULL;
	const char *s = real ? real : unit ? unit : "stdin";
	size_t n;
	char *out, *p;
	while (*s == '/')
		s++;
	n = strlen(dir) + strlen(s) + 32;
	out = (char *)malloc(n);
	if (!out)
		abort();
	snprintf(out, n, "%s/%s.findings.jsonl", dir, s);
	for (p = out + strlen(dir) + 1; *p; p++)
		if (*p == '/')
			*p = ',';
	free(real);
	return out;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* findings=-: each record a line on stderr, one write(2) a line (a pipe
 * keeps up to PIPE_BUF bytes of one write together: the lines of parallel
 * compiles in one build log do not mix). */
static int write_lines(ch_ctx *ctx)
{
	const char *p = ctx->records ? ctx->records : "", *end = p + ctx->records_len;
	fflush(stderr);   /* the diagnostics printed before come first */
	while (p < end) {
		const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		if (write_all(2, p, n)) {
			ch_set_error(ctx, "cannot write records to stderr: %s", strerror(errno));
			return -1;
		}
		p += n;
	}
	return 0;
}

int ch_records_write(ch_ctx *ctx, const char *path, const char *unit)
{
	struct stat st;
	struct ch_atomic at;
	char *file, *target;
	int direct, rc = 0;
	if (!strcmp(path, "-")) {
		rc = write_lines(ctx);
		ctx->records_len = 0;
		ctx->nrecords = 0;
		if (ctx->records)
			ctx->records[0] = 0;
		return rc;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		file = unit_file(path, unit);
	else
		file = strdup(path);
	target = ch_output_target(file, &direct);
	if (!target) {
		ch_set_error(ctx, "cannot write records to %s: %s", file, strerror(errno));
		free(file);
		return -1;
	}
	if (direct) {
		FILE *f = fopen(target, "w");
		if (!f || fwrite(ctx->records ? ctx->records : "", 1, ctx->records_len, f) !=
			  ctx->records_len) {
			ch_set_error(ctx, "cannot write records to %s: %s", file, strerror(errno));
			rc = -1;
		}
		if (f && fclose(f) && !rc) {
			ch_set_error(ctx, "cannot write records to %s: %s", file, strerror(errno));
			rc = -1;
		}
	} else if (ch_atomic_open(&at, target)) {
		ch_set_error(ctx, "cannot write records to %s: %s", file, strerror(errno));
		rc = -1;
	} else if (write_all(at.fd, ctx->records ? ctx->records : "", ctx->records_len) ||
		   ch_atomic_commit(&at)) {
		int e = errno;
		ch_atomic_abort(&at);
		ch_set_error(ctx, "cannot write records to %s: %s", file, strerror(e));
		rc = -1;
	}
	free(target);
	free(file);
	ctx->records_len = 0;
	ctx->nrecords = 0;
	if (ctx->records)
		ctx->records[0] = 0;
	return rc;
}

static const char *jstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static uint64_t jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static char *errf(const char *fmt, const char *path, unsigned long line, const char *why)
{
	size_t n = strlen(fmt) + strlen(path) + strlen(why) + 32;
	char *e = (char *)malloc(n);
	if (!e)
		abort();
	snprintf(e, n, fmt, path, line, why);
	return e;
}

#define RECORD_START "{\"cachehot_finding\""

/* A line a person reads as one of cachehot's diagnostics: a check tag
 * " [cachehot-ID]" / " [cachehot]" (GCC's, sparse's, cachehot-layout's,
 * the unify_padding rule's): 2, or spatch's report shape "FILE:L:C-C: "
 * (the Coccinelle rules in report mode): 1; else 0. Tags and shapes only,
 * never words. */
static int diagnostic_line(const char *l)
{
	const char *p = l, *q;
	if (strstr(l, " [cachehot-") || strstr(l, " [cachehot]"))
		return 2;
	/* FILE:L:C-C: with FILE free of blanks */
	while (*p && *p != ' ' && *p != '\t') {
		if (*p == ':' && p > l && p[1] >= '0' && p[1] <= '9') {
			q = p + 1 + strspn(p + 1, "0123456789");
			if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
				q = q + 1 + strspn(q + 1, "0123456789");
				if (*q == '-' && q[1] >= '0' && q[1] <= '9') {
					q = q + 1 + strspn(q + 1, "0123456789");
					if (q[0] == ':' && q[1] == ' ')
						return 1;
				}
			}
		}
		p++;
	}
	return 0;
}

long ch_records_read_stream(FILE *f, const char *name, enum ch_records_input input,
			    int (*fn)(const struct ch_record *r, const char *engine, void *arg),
			    void *arg, char **err, struct ch_records_scan *scan)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	long count = 0;
	struct ch_records_scan dummy;
	if (!scan)
		scan = &dummy;
	memset(scan, 0, sizeof(*scan));
	*err = NULL;
	while ((n = getline(&line, &cap, f)) >= 0) {
		json_error_t je;
		json_t *o, *m;
		struct ch_record r;
		const struct ch_check_info *ci;
		const char *sev, *engine, *check;
		int stop;
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		if (input == CH_RECORDS_IN_TEXT && strncmp(line, RECORD_START, strlen(RECORD_START))) {
			const char *at = strstr(line, RECORD_START);
			if (at) {
				*err = errf("%s:%lu: %s", name, lineno, "a record line with other "
					    "text before it on its line (two processes wrote into "
					    "one line of the log?)");
				count = -1;
				break;
			}
			{
				int d = diagnostic_line(line);
				if (d && !scan->diagnostics++)
					scan->first_diagnostic = lineno;
				scan->tagged += d == 2;
			}
			continue;
		}
		o = (size_t)n == strlen(line) ? json_loads(line, 0, &je) : NULL;
		if ((size_t)n != strlen(line))   /* json_loads would stop at the NUL */
			snprintf(je.text, sizeof(je.text), "a NUL byte in the line");
		if (!o || !json_is_object(o)) {
			char why[400];
			if (input == CH_RECORDS_IN_TEXT)
				snprintf(why, sizeof(why), "a malformed record line (%s): cut short "
					 "or mixed with other output (a record longer than "
					 "PIPE_BUF, %d bytes, written by one of several parallel "
					 "compiles into one pipe?)", o ? "not a JSON object" : je.text,
					 4096);
			else
				snprintf(why, sizeof(why), "not a cachehot record: %s",
					 o ? "not a JSON object" : je.text);
			*err = errf("%s:%lu: %s", name, lineno, why);
			json_decref(o);
			count = -1;
			break;
		}
		if (json_integer_value(json_object_get(o, "cachehot_finding")) != CH_RECORD_VERSION) {
			json_t *v = json_object_get(o, "cachehot_finding");
			char why[200];
			if (json_is_integer(v))
				snprintf(why, sizeof(why), "a record of schema version %lld, this cachehot "
					 "reads version %d: use engines and driver of one cachehot",
					 (long long)json_integer_value(v), CH_RECORD_VERSION);
			else
				snprintf(why, sizeof(why), "no \"cachehot_finding\" version");
			*err = errf("%s:%lu: %s", name, lineno, why);
			json_decref(o);
			count = -1;
			break;
		}
		memset(&r, 0, sizeof(r));
		check = jstr(o, "check");
		ci = ch_check_info_by_id(check);
		sev = jstr(o, "severity");
		engine = jstr(o, "engine");
		/* a Coccinelle rule's own id: the rule set is open (any
		 * cocci/NAME.cocci reports as cachehot-NAME) */
		if (!ci && engine && !strcmp(engine, "cocci") && check &&
		    !strncmp(check, "cachehot-", 9) && check[9] &&
		    strspn(check + 9, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(check + 9))
			r.check = CH_CHECK__ROWS;
		else if (ci)
			r.check = ci->check;
		if ((!ci && r.check != CH_CHECK__ROWS) || !sev || ch_severity_parse(sev, &r.severity) ||
		    !engine) {
			*err = errf("%s:%lu: %s", name, lineno,
				    !engine ? "no engine" : r.check != CH_CHECK__ROWS && !ci
							    ? "unknown check id" : "bad severity");
			json_decref(o);
			count = -1;
			break;
		}
		r.check_id = check;
		r.file = jstr(o, "file");
		r.line = (unsigned)jnum(o, "line");
		r.col = (unsigned)jnum(o, "column");
		r.message = jstr(o, "message");
		r.scope = jstr(o, "struct");
		r.function = jstr(o, "function");
		r.field = jstr(o, "field");
		r.other = jstr(o, "other");
		m = json_object_get(o, "members");
		if (json_is_array(m) && json_array_size(m) >= 1) {
			r.has_offsets = 1;
			r.offset = jnum(json_array_get(m, 0), "offset");
			r.size = jnum(json_array_get(m, 0), "size");
			if (json_array_size(m) >= 2) {
				r.other_offset = jnum(json_array_get(m, 1), "offset");
				r.other_size = jnum(json_array_get(m, 1), "size");
			}
		}
		r.line_index = jnum(o, "line_index");
		r.line_size = (unsigned)jnum(o, "line_size");
		r.predicted = json_is_true(json_object_get(o, "predicted"));
		m = json_object_get(o, "fix");
		if (json_is_object(m)) {
			r.fix_text = jstr(m, "text");
			r.fix_old_size = jnum(m, "old_size");
			r.fix_new_size = jnum(m, "new_size");
		}
		r.ident = jstr(o, "ident");
		r.confidence = jstr(o, "confidence");
		r.evidence = jstr(o, "evidence");
		if (!r.message)
			r.message = "";
		count++;
		scan->records++;
		stop = fn(&r, engine, arg);
		json_decref(o);
		if (stop)
			break;
	}
	free(line);
	return count;
}

long ch_records_read(const char *path,
		     int (*fn)(const struct ch_record *r, const char *engine, void *arg),
		     void *arg, char **err)
{
	FILE *f = fopen(path, "r");
	long n;
	*err = NULL;
	if (!f) {
		*err = errf("%s:%lu: %s", path, 0, strerror(errno));
		return -1;
	}
	n = ch_records_read_stream(f, path, CH_RECORDS_ONLY, fn, arg, err, NULL);
	fclose(f);
	return n;
}

/* One more finding in a list a rule builds (rules.c, grouprules.c). */
struct ch_finding *ch_finding_new(struct ch_finding_list *fl)
{
	struct ch_finding *x;
	CH_GROW(fl->v, fl->n, fl->cap, 16);
	x = &fl->v[fl->n++];
	memset(x, 0, sizeof(*x));
	return x;
}

/* A finding about leaf a (where it is reported) and leaf b (the other). */
struct ch_finding *ch_pair_finding(struct ch_finding_list *fl, enum ch_check check,
				       const struct ch_config *cfg, const struct ch_type *t,
				       const struct ch_leaf *a, const struct ch_leaf *b,
				       uint64_t line_index, unsigned L)
{
	struct ch_finding *x = ch_finding_new(fl);
	x->check = check;
	x->severity = cfg->severity;
	x->struct_name = t->name;
	x->field_a = a->path;
	x->offset_a = a->offset;
	x->size_a = a->size;
	x->field_b = b->path;
	x->offset_b = b->offset;
	x->size_b = b->size;
	x->line_index = line_index;
	x->line_size = L;
	return x;
}
