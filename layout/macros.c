// SPDX-License-Identifier: GPL-2.0
/*
 * macros.c -- the macro table of a -g3 object (.debug_macro / .debug_macinfo,
 * read with libdw): SMP_CACHE_BYTES (else L1_CACHE_BYTES), __KERNEL__ and
 * CONFIG_SMP, as the plugin reads them from the preprocessor.
 *
 * The line size is the one in effect at each struct (docs/checks.rst, "Line
 * size"): the reader keeps the value after every #define / #undef of a name
 * it depends on, with the line in the main file (a directive inside an
 * included file at the line of that #include), and a struct looks up the
 * value before its DW_AT_decl_line (a struct of a header: before the line
 * that includes the header). Command-line and headers' definitions are in
 * imported units, followed in a linked file, not in an object (macro_cb()).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lt.h"
#include "macros.h"

/* Object-like macros of one CU: name -> body (NULL once #undef'd) and the
 * line of the definition; names hashed (open addressing) so that a CU with
 * many definitions is read in linear time. */
struct macros {
	char **name, **body;
	unsigned *line;
	size_t n, cap;
	struct ch_index idx;    /* the names */
	int any;
	/* where the reader is: include depth (1 = the main file) */
	unsigned depth, inc_line;  /* the main file's #include line being read */
	struct lt_cu_macros *cm;
	ch_ctx *ctx;
	/* names the line size depends on (consulted by its last evaluation) */
	char *watch[64];
	size_t nwatch;
	int watch_all;
};

/* a name as the reader meets it: n bytes at s */
struct mname {
	const char *s;
	size_t n;
};

static int macro_eq(size_t item, const void *key, const void *arg)
{
	const struct mname *k = (const struct mname *)key;
	const char *o = ((const struct macros *)arg)->name[item];
	return !strncmp(o, k->s, k->n) && !o[k->n];
}

static uint64_t macro_hash(size_t item, const void *arg)
{
	return ch_hash_str(((const struct macros *)arg)->name[item]);
}

/* The index of the macro named by the nl bytes at name, or mt->n. */
static size_t macro_find(struct macros *mt, const char *name, size_t nl)
{
	struct mname k = { name, nl };
	size_t i = ch_index_find(&mt->idx, ch_hash_bytes(name, nl), macro_eq, &k, mt);
	return i == CH_INDEX_NONE ? mt->n : i;
}

static void macro_set(struct macros *mt, const char *def, unsigned line, int undef)
{
	size_t nl = strcspn(def, " (");
	size_t i;
	const char *body;
	if (!nl)
		return;
	i = macro_find(mt, def, nl);
	if (undef) {
		if (i < mt->n) {
			free(mt->body[i]);
			mt->body[i] = NULL;
		}
		return;
	}
	if (def[nl] == '(')
		return;  /* function-like: never a constant */
	body = def + nl;
	while (*body == ' ')
		body++;
	if (i == mt->n) {
		if (mt->n == mt->cap) {
			mt->cap = mt->cap ? 2 * mt->cap : 256;
			mt->name = realloc(mt->name, mt->cap * sizeof(char *));
			mt->body = realloc(mt->body, mt->cap * sizeof(char *));
			mt->line = realloc(mt->line, mt->cap * sizeof(unsigned));
			if (!mt->name || !mt->body || !mt->line)
				abort();
		}
		mt->name[i] = strndup(def, nl);
		mt->body[i] = NULL;
		ch_index_add(&mt->idx, i, ch_hash_bytes(def, nl), macro_hash, mt);
		mt->n++;
	}
	free(mt->body[i]);
	mt->body[i] = strdup(body);
	mt->line[i] = line;
}

static const char *macro_lookup(const char *name, void *arg)
{
	struct macros *mt = arg;
	size_t i = macro_find(mt, name, strlen(name));
	return i < mt->n ? mt->body[i] : NULL;
}

static unsigned macro_line(struct macros *mt, const char *name)
{
	size_t i = macro_find(mt, name, strlen(name));
	return i < mt->n ? mt->line[i] : 0;
}


/* ---- the history of the line size ---------------------------------------- */
static int watched(const struct macros *mt, const char *name, size_t nl)
{
	size_t i;
	if (mt->watch_all || (nl == 15 && !strncmp(name, "SMP_CACHE_BYTES", 15)) ||
	    (nl == 14 && !strncmp(name, "L1_CACHE_BYTES", 14)))
		return 1;
	for (i = 0; i < mt->nwatch; i++)
		if (strlen(mt->watch[i]) == nl && !strncmp(mt->watch[i], name, nl))
			return 1;
	return 0;
}

/* the evaluator's lookup: each name it asks for is watched from now on */
static const char *watching_lookup(const char *name, void *arg)
{
	struct macros *mt = arg;
	if (!watched(mt, name, strlen(name))) {
		if (mt->nwatch < sizeof(mt->watch) / sizeof(mt->watch[0]))
			mt->watch[mt->nwatch++] = strdup(name);
		else
			mt->watch_all = 1;
	}
	return macro_lookup(name, mt);
}

/* After a directive at position pos (2 * line in the main file, + 1 inside
 * an included file): the value now, when it changed. */
static void evaluate(struct macros *mt, uint64_t pos, const char *cu)
{
	struct lt_cu_macros *cm = mt->cm;
	const char *note = NULL, *which = NULL;
	unsigned v = ch_line_size_eval(mt->ctx, watching_lookup, mt, &note, &which);
	struct lt_macro_step *e;
	if (cm->n && cm->steps[cm->n - 1].line_size == v && !note && !cm->steps[cm->n - 1].note)
		return;
	CH_GROW(cm->steps, cm->n, cm->cap, 8);
	e = &cm->steps[cm->n++];
	e->pos = pos;
	e->line_size = v;
	e->note = note ? ch_printf(mt->ctx, "%s:%u: note: %s", cu ? cu : "<unknown>",
				   macro_line(mt, which), note) : NULL;
}

struct cb_arg {
	struct macros *mt;
	const char *cu;
	Dwarf *dw;
	Dwarf_Word own;   /* offset of the unit's own table */
	int imported;     /* reading an imported unit */
};

static int macro_cb(Dwarf_Macro *m, void *arg)
{
	struct cb_arg *ca = arg;
	struct macros *mt = ca->mt;
	struct lt_cu_macros *cm = mt->cm;
	unsigned int op;
	const char *str = NULL;
	Dwarf_Word line = 0, file = 0;
	Dwarf_Attribute a;
	if (dwarf_macro_opcode(m, &op))
		return DWARF_CB_OK;
	mt->any = 1;
	if (op == DW_MACRO_start_file) {
		if (dwarf_macro_param(m, 0, &a) == 0)
			dwarf_formudata(&a, &line);
		if (dwarf_macro_param(m, 1, &a) == 0)
			dwarf_formudata(&a, &file);
		mt->depth++;
		if (mt->depth == 1) {
			cm->main_file = file;
		} else {
			if (mt->depth == 2)
				mt->inc_line = line > UINT_MAX ? 0 : (unsigned)line;
			/* the first inclusion of each file, by line table index */
			if (file < 1u << 20) {
				if (file >= cm->nfiles) {
					size_t n = file + 16, i;
					cm->inc_line = realloc(cm->inc_line, n * sizeof(unsigned));
					if (!cm->inc_line)
						abort();
					for (i = cm->nfiles; i < n; i++)
						cm->inc_line[i] = 0;
					cm->nfiles = n;
				}
				if (!cm->inc_line[file])
					cm->inc_line[file] = mt->inc_line + 1;
			}
		}
	} else if (op == DW_MACRO_end_file) {
		if (mt->depth)
			mt->depth--;
	} else if (op == DW_MACRO_define || op == DW_MACRO_define_strp ||
		   op == DW_MACRO_define_strx || op == DW_MACRO_undef ||
		   op == DW_MACRO_undef_strp || op == DW_MACRO_undef_strx) {
		if (dwarf_macro_param(m, 0, &a) == 0)
			dwarf_formudata(&a, &line);
		if (dwarf_macro_param(m, 1, &a) == 0)
			str = dwarf_formstring(&a);
		if (str) {
			size_t nl = strcspn(str, " (");
			int w = watched(mt, str, nl);
			macro_set(mt, str, line > UINT_MAX ? 0 : (unsigned)line,
				  op == DW_MACRO_undef || op == DW_MACRO_undef_strp ||
				  op == DW_MACRO_undef_strx);
			if (w)
				evaluate(mt, mt->depth <= 1 ? 2 * (uint64_t)line
							    : 2 * (uint64_t)mt->inc_line + 1, ca->cu);
		}
	}
	/* DW_MACRO_import: the predefined and command-line macros (-D__KERNEL__,
	 * -DSMP_CACHE_BYTES=128: line 0, before the main file) and each
	 * header's, in units of their own. Followed where libdw can address
	 * them: in a linked file. In a relocatable object GCC puts each in a
	 * COMDAT .debug_macro section of its own, which libdw does not load (the
	 * offset reads back as the importing unit's: skipped, no recursion), so
	 * only the main file's own definitions count there. Imported units
	 * import nothing (GCC), one level is followed. */
	else if (op == DW_MACRO_import && !ca->imported && ca->dw) {   /* = _GNU_transparent_include */
		Dwarf_Word off = 0;
		if (dwarf_macro_param(m, 0, &a) == 0 && dwarf_formudata(&a, &off) == 0 &&
		    off != ca->own) {
			ptrdiff_t tok = DWARF_GETMACROS_START;
			ca->imported = 1;
			while ((tok = dwarf_getmacros_off(ca->dw, off, macro_cb, ca, tok)) > 0)
				;
			ca->imported = 0;
		}
	}
	return DWARF_CB_OK;
}

int lt_cu_macros_read(struct lt_set *s, Dwarf_Die *cudie, struct lt_cu_macros *cm)
{
	struct macros mt;
	struct cb_arg ca;
	ptrdiff_t tok = DWARF_GETMACROS_START;
	size_t i;
	Dwarf_Attribute a;
	memset(cm, 0, sizeof(*cm));
	memset(&mt, 0, sizeof(mt));
	if (!dwarf_attr(cudie, DW_AT_macros, &a) && !dwarf_attr(cudie, DW_AT_GNU_macros, &a) &&
	    !dwarf_attr(cudie, DW_AT_macro_info, &a))
		return 0;
	mt.cm = cm;
	mt.ctx = s->ctx;
	ca.mt = &mt;
	ca.cu = dwarf_diename(cudie);
	ca.dw = dwarf_cu_getdwarf(cudie->cu);
	ca.imported = 0;
	ca.own = 0;
	if (dwarf_formudata(&a, &ca.own) != 0)
		ca.dw = NULL;   /* cannot tell the unit's own table: no imports */
	while ((tok = dwarf_getmacros(cudie, macro_cb, &ca, tok)) > 0)
		;
	if (mt.any) {
		cm->any = 1;
		s->have_macros = 1;
		/* the value at the end of the first unit with a table: for what
		 * is not one struct (--show, --reorganize, --diff) */
		if (!s->macro_line_size) {
			const char *note = NULL, *which = NULL;
			s->macro_line_size = ch_line_size_eval(s->ctx, macro_lookup, &mt, &note, &which);
			if (note && !s->macro_note)
				s->macro_note = ch_printf(s->ctx, "%s:%u: note: %s",
							  ca.cu ? ca.cu : "<unknown>",
							  macro_line(&mt, which), note);
		}
		if (macro_lookup("__KERNEL__", &mt) && !macro_lookup("CONFIG_SMP", &mt))
			s->macro_up = 1;
		if (macro_lookup("__KERNEL__", &mt))
			s->kernel = 1;
	}
	for (i = 0; i < mt.n; i++) {
		free(mt.name[i]);
		free(mt.body[i]);
	}
	for (i = 0; i < mt.nwatch; i++)
		free(mt.watch[i]);
	free(mt.name);
	free(mt.body);
	free(mt.line);
	ch_index_free(&mt.idx);
	return cm->any;
}

void lt_cu_macros_at(const struct lt_cu_macros *cm, uint64_t file, uint64_t line,
		     struct lt_struct *st)
{
	uint64_t pos;
	size_t i;
	if (!cm->any)
		return;
	st->macros = 1;
	st->macro_line_size = 0;
	st->macro_note = NULL;
	if (file == cm->main_file)
		pos = 2 * line;
	else if (file < cm->nfiles && cm->inc_line[file])
		pos = 2 * (uint64_t)(cm->inc_line[file] - 1) + 1;
	else
		pos = UINT64_MAX;   /* unknown: the end of the unit */
	/* steps are in table order, their positions never decrease: the
	 * steps before pos are a prefix (binary search: linear overall) */
	if (pos == UINT64_MAX) {
		i = cm->n;
	} else {
		size_t lo = 0, hi = cm->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cm->steps[mid].pos < pos)
				lo = mid + 1;
			else
				hi = mid;
		}
		i = lo;
	}
	if (i) {
		st->macro_line_size = cm->steps[i - 1].line_size;
		st->macro_note = cm->steps[i - 1].note;
	}
}

void lt_cu_macros_free(struct lt_cu_macros *cm)
{
	free(cm->steps);
	free(cm->inc_line);
	memset(cm, 0, sizeof(*cm));
}
