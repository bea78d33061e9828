// SPDX-License-Identifier: GPL-2.0
/*
 * linesize.c -- the cache line size in effect at each struct of a file.
 *
 * The rule every engine follows (docs/checks.rst, "Line size"): a struct is
 * judged at the value SMP_CACHE_BYTES (else L1_CACHE_BYTES, else 64 bytes)
 * has where its definition is complete, as the compiler expands the
 * macro there (____cacheline_aligned in that struct gets the same value).
 * A macro defined only after a struct, or redefined between two structs,
 * so gives each struct the value in force at it (the plugin used
 * the first value found for the whole unit, this checker the last one).
 *
 * sparse preprocesses a whole file before it parses it: at parse time every
 * macro has its end-of-file value. The checker therefore re-evaluates the
 * line size after each #define / #undef of a name the value depends on and
 * keeps the history with the directives' positions; a struct looks its
 * position up there. This relies on a private detail of libsparse 0.6.4
 * (pre-process.c, handle_preprocessor_line()): a directive's handler is
 * found with lookup_symbol(NAME, NS_PREPROCESSOR) (wrapped in attrs.c,
 * which calls ch_linesize_directive()) and called with the directive's name
 * token. We return a copy of that symbol whose handler calls the real one
 * and then evaluates. Positions in included files are ordered through each
 * stream's #include position (struct stream.pos).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib.h"
#include "token.h"
#include "symbol.h"

#include "cachehot-sparse.h"

/* ---- the names the line size depends on ---------------------------------- */
/* Compared as sparse's interned idents (one pointer test per name): the
 * hook runs on every #define of the unit, and naming the defined macro with
 * show_ident() (an sprintf) cost 6% of a kernel file's check. */
#define MAX_WATCH 64
static const struct ident *watch[MAX_WATCH];
static size_t nwatch;
static int watch_all;                  /* more names than MAX_WATCH */

static int watched(const struct ident *id)
{
	size_t i;
	if (watch_all)
		return 1;
	if (!nwatch) {
		watch[nwatch++] = built_in_ident("SMP_CACHE_BYTES");
		watch[nwatch++] = built_in_ident("L1_CACHE_BYTES");
	}
	for (i = 0; i < nwatch; i++)
		if (watch[i] == id)
			return 1;
	return 0;
}

/* The evaluator's lookup: each name it asks for is watched from now on. */
static const char *watching_body(const char *name, void *arg)
{
	const struct ident *id = built_in_ident(name);
	(void)arg;
	if (!watched(id)) {
		if (nwatch < MAX_WATCH)
			watch[nwatch++] = id;
		else
			watch_all = 1;
	}
	return ch_sparse_macro_body(name);
}

/* ---- the history --------------------------------------------------------- */
struct ls_entry {
	struct position at;        /* the directive after which this holds */
	unsigned line_size;        /* bytes; 0: no usable macro (the default) */
	const char *note;          /* ctx-owned, or NULL */
	struct position def;       /* the definition the note is about */
	const char *macro;         /* its name */
	int noted;                 /* the note was printed */
};
static struct ls_entry *hist;
static size_t nhist, caphist;

static void evaluate(struct position at)
{
	const char *note = NULL, *which = NULL;
	unsigned v = ch_line_size_eval(ch_sparse_ctx, watching_body, NULL, &note, &which);
	struct ls_entry *e;
	if (nhist && hist[nhist - 1].line_size == v && !note && !hist[nhist - 1].note)
		return;   /* no change */
	if (nhist == caphist) {
		caphist = caphist ? 2 * caphist : 16;
		hist = realloc(hist, caphist * sizeof(*hist));
		if (!hist)
			die("cachehot-sparse: out of memory");
	}
	e = &hist[nhist++];
	memset(e, 0, sizeof(*e));
	e->at = at;
	e->line_size = v;
	e->note = note;
	e->macro = which;
	if (note && which) {
		struct symbol *sym = lookup_symbol(built_in_ident(which), NS_MACRO);
		e->def = sym ? sym->pos : at;
	}
}

/* ---- the directive hook -------------------------------------------------- */
typedef int directive_fn(struct stream *, struct token **, struct token *);
static const char *const directives[] = {
	"define", "weak_define", "strong_define", "undef", "strong_undef",
};
#define NDIR (sizeof(directives) / sizeof(directives[0]))
static struct ident *dir_ident[NDIR];
static directive_fn *dir_real[NDIR];
static struct symbol dir_proxy[NDIR];
static const struct symbol *dir_sym[NDIR];   /* the symbol each proxy copies */

static int hook(struct stream *stream, struct token **line, struct token *token)
{
	struct position at = token->pos;
	struct token *name = token->next;
	int w = token_type(name) == TOKEN_IDENT && watched(name->ident);
	size_t i;
	int r = 1;
	/* read before the real handler, which may free the tokens */
	for (i = 0; i < NDIR; i++)
		if (token->ident == dir_ident[i]) {
			r = dir_real[i](stream, line, token);
			break;
		}
	if (w)
		evaluate(at);
	return r;
}

struct symbol *ch_linesize_directive(struct ident *ident, struct symbol *sym)
{
	size_t i;
	if (!sym || !sym->handler || ch_opts.line_size)
		return sym;
	if (!dir_ident[0])
		for (i = 0; i < NDIR; i++)
			dir_ident[i] = built_in_ident(directives[i]);
	for (i = 0; i < NDIR; i++)
		if (ident == dir_ident[i]) {
			/* init_preprocessor() makes new symbols per file: a new
			 * one is copied (once, not on each directive) */
			if (dir_sym[i] != sym) {
				dir_sym[i] = sym;
				dir_proxy[i] = *sym;
				dir_real[i] = sym->handler;
				dir_proxy[i].handler = hook;
			}
			return &dir_proxy[i];
		}
	return sym;
}

/* ---- positions in preprocessing order ------------------------------------ */
#define ROOT_STREAM ((1u << 14) - 1)   /* struct position.stream of -1 */

static int is_root(unsigned stream)
{
	return (int)stream >= input_stream_nr || input_streams[stream].pos.stream == ROOT_STREAM;
}

static unsigned depth_of(unsigned stream)
{
	unsigned d = 0;
	while (!is_root(stream) && d < 4096) {
		stream = input_streams[stream].pos.stream;
		d++;
	}
	return d;
}

/* 1 if a comes before b in preprocessing order: in one stream by line and
 * column, else through the #include lines of the deeper one's stream. */
static int before(struct position a, struct position b)
{
	unsigned da = depth_of(a.stream), db = depth_of(b.stream);
	while (a.stream != b.stream) {
		if (da >= db && da > 0) {
			a = input_streams[a.stream].pos;
			da--;
		} else if (db > 0) {
			b = input_streams[b.stream].pos;
			db--;
		} else {
			break;
		}
	}
	if (a.stream != b.stream)   /* two files of one run: in stream order */
		return a.stream < b.stream;
	return a.line != b.line ? a.line < b.line : a.pos < b.pos;
}

unsigned ch_line_size_at(struct position p)
{
	size_t lo = 0, hi = nhist, i;
	struct ls_entry *e;
	/* the history is in preprocessing order: the entries before p are a
	 * prefix; its length by binary search (a file alternating definitions
	 * and structs stays O(n log n)) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(hist[mid].at, p))
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;
	if (!i)
		return 0;
	e = &hist[i - 1];
	if (e->note && !e->noted) {
		e->noted = 1;
		struct ch_record r;
		ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, e->note);
		r.field = e->macro;
		r.ident = "line-size-macro";
		ch_sparse_report(e->def, &r);
	}
	return e->line_size;
}

/* ---- config -------------------------------------------------------------- */
const char *ch_sparse_macro_body(const char *name)
{
	struct symbol *sym = lookup_symbol(built_in_ident(name), NS_MACRO);
	struct token *t;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	const char *copy;

	if (!sym || sym->arglist || !sym->expansion)
		return NULL;
	for (t = sym->expansion; t && !eof_token(t); t = t->next) {
		const char *s;
		size_t l;
		if (token_type(t) > TOKEN_SPECIAL)
			continue;   /* preprocessor markers such as <untaint> */
		s = show_token(t);
		l = strlen(s);
		if (n + l + 2 > cap) {
			cap = 2 * (n + l + 2) + 256;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		memcpy(buf + n, s, l);
		n += l;
		buf[n++] = ' ';
	}
	if (!buf)
		return "";
	buf[n] = 0;
	/* a copy: ch_eval_macro resolves nested names while holding this one */
	copy = ch_strdup(ch_sparse_ctx, buf);
	free(buf);
	return copy;
}

static int macro_defined(const char *name)
{
	return lookup_symbol(built_in_ident(name), NS_MACRO) != NULL;
}

static const char *macro_body(const char *name, void *arg)
{
	(void)arg;
	return ch_sparse_macro_body(name);
}

void ch_file_config(struct ch_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->line_size = ch_opts.line_size;
	if (!cfg->line_size) {
		/* the value at the end of the file; each struct is judged at
		 * the value in effect where it is defined (ch_line_size_at(),
		 * which also prints the note of a body the core cannot
		 * evaluate) */
		cfg->line_size = ch_line_size_eval(ch_sparse_ctx, macro_body, NULL, NULL, NULL);
		if (!cfg->line_size)
			cfg->line_size = CH_DEFAULT_LINE_SIZE;
	}
	cfg->predict = ch_opts.predict;
	cfg->severity = ch_opts.severity;
	if (ch_opts.smp >= 0)
		cfg->smp = ch_opts.smp;
	else    /* a kernel build without CONFIG_SMP has no false sharing */
		cfg->smp = !(macro_defined("__KERNEL__") && !macro_defined("CONFIG_SMP"));
	cfg->kernel = macro_defined("__KERNEL__") ? 1 : 0;
}
