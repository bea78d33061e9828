/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.c -- the one list of cachehot's checks: id (a public name),
 * default severity, summary, SARIF rule text and the section of
 * docs/checks.rst that describes it. Every other list is made from this one
 * (ch_check_id, the driver's SARIF rules, "cachehot checks") or checked
 * against it by tests/registry (docs/checks.rst, the man pages). Also the
 * helpers that print an engine's table of options (struct ch_option).
 */
#include <string.h>
#include "internal.h"

static const struct ch_check_info rows[CH_CHECK__ROWS] = {
	{ CH_CHECK_FALSE_SHARING, "cachehot-false-sharing", "FalseSharing", CH_SEV_WARNING, 1,
	  "Fields written on different hot paths share a cache line",
	  "A field annotated __cacheline_hot (or in a hot group) shares a cache line with a "
	  "field of another hot group, a read-mostly field or an exclusive field, at the "
	  "configured line size (and at the predicted larger one with predict=N). Writers on "
	  "different CPUs then bounce the line. Move the fields apart or separate them with "
	  "CACHELINE_PADDING(). See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-false-sharing" },
	{ CH_CHECK_PADDING_MACRO, "cachehot-padding-macro", "PaddingMacro", CH_SEV_WARNING, 1,
	  "Padding does not use CACHELINE_PADDING or does not isolate what it should",
	  "Hot groups are separated by a private padding type (PC_PADDING, MEMCG_PADDING, "
	  "ZONE_PADDING), a hand-sized byte array or an alignment attribute where the "
	  "kernel's unified CACHELINE_PADDING() (struct cacheline_padding) expresses the "
	  "intent, or the padding no longer isolates the fields it was written for. "
	  "See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-padding-macro" },
	{ CH_CHECK_INLINE_ADDR, "cachehot-inline-addr", "InlineAddress", CH_SEV_WARNING, 1,
	  "The address of an inline function is taken, emitting an out-of-line copy",
	  "Taking the address of a static inline function (a function pointer, an ops "
	  "table, a conditional callback) makes the compiler emit an out-of-line copy in "
	  "every object that does so. Mark intended uses 'FUNCTION() addressable' in the "
	  "annotations file, or call the function directly. See cachehot(1).",
	  "docs/checks.rst#cachehot-inline-addr" },
	{ CH_CHECK_COUNTER_BATCH, "cachehot-counter-batch", "CounterBatch", CH_SEV_WARNING, 1,
	  "A statistics counter is updated once per element of a loop",
	  "A shared statistics counter (__mod_lruvec_state, mod_node_page_state, the "
	  "*_state/*_event(s) family or a counter-updaters entry) is updated inside a loop, "
	  "one atomic or per-CPU update per element, where the target and the item do not "
	  "change over the loop (or take a few values). Accumulate in a local (or a keyed "
	  "set of locals) and apply once after the loop, before any early exit and before "
	  "a lock is dropped. See docs/checks.rst.",
	  "docs/checks.rst#cachehot-counter-batch" },
	{ CH_CHECK_GROUP_SPAN, "cachehot-group-span", "GroupSpan", CH_SEV_WARNING, 1,
	  "A group of fields spans more cache lines than its bytes need",
	  "A kernel cacheline group (__cacheline_group_begin/end) or a __cacheline_hot_group "
	  "group touches one cache line more than its size requires, so every fast-path pass "
	  "over it loads an extra line. Shift the group (move the named bytes of fields "
	  "before it to after it) or start it on a line boundary with "
	  "__cacheline_group_begin_aligned(). See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-group-span" },
	{ CH_CHECK_GROUP_MARKERS, "cachehot-group-markers", "GroupMarkers", CH_SEV_WARNING, 1,
	  "Kernel cacheline group markers are unbalanced or overlap",
	  "A __cacheline_group_begin(G) has no __cacheline_group_end(G) (or the reverse), a "
	  "group begins twice, or one group begins inside another. Such groups are not "
	  "checked, and CACHELINE_ASSERT_GROUP_* asserts on them do not mean what they say. "
	  "See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-group-markers" },
	{ CH_CHECK_NET_CACHELINES, "cachehot-net-cachelines", "NetCachelines", CH_SEV_WARNING, 0,
	  "The kernel's net_cachelines table and the struct disagree",
	  "A row of Documentation/networking/net_cachelines names no member of the struct "
	  "(renamed, moved or configured out), or a member has no row. See "
	  "docs/net-cachelines.md.",
	  "docs/checks.rst#cachehot-net-cachelines" },
	{ CH_CHECK_GROUP_ASSERT, "cachehot-group-assert", "GroupAssert", CH_SEV_WARNING, 0,
	  "A CACHELINE_ASSERT_GROUP_SIZE/_MEMBER assert is stale or missing",
	  "A hand-kept cacheline group assert no longer holds on the real layout, has slack, "
	  "names a member or group that is gone, or a group member has none. "
	  "`cachehot asserts STRUCT OBJ` prints the current block. See docs/kernel-groups.md.",
	  "docs/checks.rst#cachehot-group-assert" },
	{ CH_CHECK_ARRAY_SHARING, "cachehot-array-sharing", "ArraySharing", CH_SEV_WARNING, 1,
	  "Neighbouring elements of a per-thread array share a cache line",
	  "An array whose elements are each written by their own thread or CPU "
	  "(__cacheline_per_thread, sidecar 'NAME[] per_thread') has an element size that "
	  "is not a multiple of the cache line, or does not start on a line: a hot field of "
	  "element i shares a line with element i+1, so two threads write one line. Align "
	  "the element type to the line (_Alignas on its first member; "
	  "____cacheline_aligned_in_smp in the kernel). See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-array-sharing" },
	{ CH_CHECK_GLOBAL_SHARING, "cachehot-global-sharing", "GlobalSharing", CH_SEV_WARNING, 1,
	  "A hot global variable shares a cache line with other data",
	  "A global variable annotated __cacheline_hot or __cacheline_exclusive (or named "
	  "'VARIABLE hot' in the annotations file) shares a cache line with other variables "
	  "in the linked binary, as its ELF symbol table places them (cachehot-layout). Every "
	  "write to it takes the line from the CPUs using its neighbours. Give it a line of "
	  "its own: __cacheline_aligned_in_smp in the kernel (or __read_mostly on its "
	  "readers), _Alignas(L) on it and on the variable after it elsewhere. "
	  "See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot-global-sharing" },
	{ CH_CHECK_ANNOTATION, "cachehot", "Annotations", CH_SEV_WARNING, 0,
	  "An annotation cannot be applied: a sidecar entry or attribute names nothing",
	  "A sidecar entry names no member of its struct (the member was renamed or removed, "
	  "or the entry is misspelt), matches no struct of the units checked, or an "
	  "annotation attribute is misused. The layout it was meant to protect is not "
	  "checked until the annotation is corrected. See cachehot-annotations(7).",
	  "docs/checks.rst#cachehot" },
};

const struct ch_check_info *ch_check_info(enum ch_check c)
{
	return (unsigned)c < CH_CHECK__ROWS ? &rows[c] : NULL;
}

const struct ch_check_info *ch_check_info_by_id(const char *id)
{
	unsigned i;
	for (i = 0; id && i < CH_CHECK__ROWS; i++)
		if (!strcmp(rows[i].id, id))
			return &rows[i];
	return NULL;
}

const char *ch_check_id(enum ch_check c)
{
	const struct ch_check_info *r = ch_check_info(c);
	return r ? r->id : "cachehot-unknown";
}

const struct ch_option *ch_option_find(const struct ch_option *t, const char *key)
{
	for (; t && t->key; t++)
		if (key && !strcmp(t->key, key))
			return t;
	return NULL;
}

/* Appends s to the text at *at (one pass: the plugin builds this table in
 * every unit, for PLUGIN_INFO) */
static void put(char **at, const char *s)
{
	size_t n = strlen(s);
	memcpy(*at, s, n);
	*at += n;
}

const char *ch_options_help(ch_ctx *ctx, const struct ch_option *t, const char *prefix,
			    unsigned width)
{
	const struct ch_option *o;
	size_t total = 1;
	char *out, *at;
	if (!prefix)
		prefix = "";
	/* "  PREFIXkey[=value]" padded to width (at least 2 blanks), help */
	for (o = t; o && o->key; o++)
		total = total + 2 + strlen(prefix) + strlen(o->key) + 2 + (o->value ? strlen(o->value) : 0) +
			width + 2 + strlen(o->help) + 1;
	out = at = (char *)ch_alloc(ctx, total);
	for (o = t; o && o->key; o++) {
		/* a value "[...]" is optional: "key[=...]" */
		int opt = o->value && o->value[0] == '[';
		char *head = at;
		size_t n;
		put(&at, "  ");
		put(&at, prefix);
		put(&at, o->key);
		if (o->value) {
			put(&at, opt ? "[=" : "=");
			put(&at, opt ? o->value + 1 : o->value);
		}
		n = (size_t)(at - head);
		n = n + 2 > width ? 2 : width - n;
		memset(at, ' ', n);
		at += n;
		put(&at, o->help);
		put(&at, "\n");
	}
	*at = 0;
	return out;
}

const char *ch_options_known(ch_ctx *ctx, const struct ch_option *t)
{
	const char *out = "";
	int first = 1;
	for (; t && t->key; t++, first = 0)
		out = ch_printf(ctx, "%s%s%s", out, first ? "" : ", ", t->key);
	return out;
}
