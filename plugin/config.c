/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.c -- the unit's configuration for the core's rules, read
 * from its macros where a struct is complete: the line size (SMP_CACHE_BYTES,
 * L1_CACHE_BYTES, ...), CONFIG_SMP, kernel or userspace
 * (plugin/layout-check.h lists the layout check's parts).
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic-core.h"
#include "cpplib.h"
#include "langhooks.h"
#include "layout-check.h"

static const char *macro_body(const char *name, void *)
{
	cpp_hashnode *node;
	const unsigned char *def;
	const char *p;
	if (!parse_in)
		return NULL;
	node = cpp_lookup(parse_in, (const unsigned char *)name, strlen(name));
	if (!node || !cpp_user_macro_p(node) || cpp_fun_like_macro_p(node))
		return NULL;
	def = cpp_macro_definition(parse_in, node);
	if (!def)
		return NULL;
	p = (const char *)def + strlen(name);   /* "NAME body" */
	return ch_strdup(cachehot_ctx, p);
}

int cachehot_macro_defined(const char *name, void *)
{
	return parse_in && cpp_defined(parse_in, (const unsigned char *)name, strlen(name));
}

static void current_config(struct ch_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->severity = cachehot_opts.severity;
	cfg->predict = cachehot_opts.predict;
	/* a kernel translation unit without CONFIG_SMP is uniprocessor */
	cfg->smp = ch_smp_from_macros(cachehot_macro_defined, NULL);
	cfg->kernel = ch_kernel_from_macros(cachehot_macro_defined, NULL);
	if (!cfg->kernel && lang_GNU_CXX())
		cfg->kernel = 2;   /* C++: alignas */
	if (cachehot_opts.line_size) {
		cfg->line_size = cachehot_opts.line_size;
		return;
	}
	{
		/* the value in effect now, where the struct being judged is
		 * complete (as ____cacheline_aligned in it expands): a macro
		 * defined after a struct or redefined between two gives each
		 * struct its own (docs/checks.rst, "Line size"; it was the
		 * first value found, for the whole unit). The core's total
		 * evaluation, as every engine: a body it cannot evaluate gives
		 * the default and one note at the macro's definition. */
		static location_t noted;   /* the definition last noted */
		static bool noted_any;
		const char *note = NULL, *which = NULL;
		cfg->line_size = ch_line_size_eval(cachehot_ctx, macro_body, NULL, &note, &which);
		if (note && parse_in) {
			cpp_hashnode *node = cpp_lookup(parse_in, (const unsigned char *)which,
							strlen(which));
			location_t at = node && cpp_user_macro_p(node)
				? cpp_macro_definition_location(node) : UNKNOWN_LOCATION;
			if (!noted_any || at != noted) {
				noted_any = true;
				noted = at;
				struct ch_record r;
				ch_record_init(&r, CH_CHECK_ANNOTATION, CH_SEV_NOTE, note);
				r.field = which;
				r.ident = "line-size-macro";
				cachehot_record_at(at, &r);
				inform(at, "%s", note);
			}
		}
	}
	if (!cfg->line_size)
		cfg->line_size = CH_DEFAULT_LINE_SIZE;
}

void cachehot_config(struct ch_config *cfg)
{
	current_config(cfg);
}
