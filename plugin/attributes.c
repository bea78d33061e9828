/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attributes.c -- the layout attributes cacheline_hot("group"),
 * cacheline_exclusive and cacheline_read_mostly: where they may go, their
 * argument, and a conflicting second one; errors are [cachehot-annotation]
 * (plugin/layout-check.h lists the layout check's parts).
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "stringpool.h"
#include "attribs.h"
#include "diagnostic-core.h"
#include "layout-check.h"

bool cachehot_any_attribute_seen;

const char *const cachehot_layout_attrs[3] = { "cacheline_hot", "cacheline_exclusive",
					    "cacheline_read_mostly" };

static tree handle_layout_attr(tree *node, tree name, tree args, int, bool *no_add_attrs)
{
	tree decl = *node;
	unsigned i;

	cachehot_any_attribute_seen = true;
	/* a variable of static storage (a global, a static local): where it
	 * lands is only known in the binary; recorded in the manifest for
	 * cachehot-layout ([cachehot-global-sharing], finish_decl) */
	if (TREE_CODE(decl) != FIELD_DECL &&
	    !(TREE_CODE(decl) == VAR_DECL && (TREE_STATIC(decl) || DECL_EXTERNAL(decl)))) {
		/* on a struct type: at its tag, as sparse reports it (GCC's
		 * input_location is wherever parsing stopped: the '}') */
		cachehot_error(CH_CHECK_ANNOTATION, DECL_P(decl) ? DECL_SOURCE_LOCATION(decl)
			 : TYPE_P(decl) && TYPE_STUB_DECL(decl) &&
			   DECL_SOURCE_LOCATION(TYPE_STUB_DECL(decl)) > BUILTINS_LOCATION
			 ? DECL_SOURCE_LOCATION(TYPE_STUB_DECL(decl)) : input_location,
			 ch_msg_attr_not_member(cachehot_ctx, IDENTIFIER_POINTER(name)));
		*no_add_attrs = true;
		return NULL_TREE;
	}
	if (args) {
		tree arg = TREE_VALUE(args);
		if (TREE_CODE(arg) != STRING_CST) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_not_string(cachehot_ctx, IDENTIFIER_POINTER(name)));
			*no_add_attrs = true;
			return NULL_TREE;
		}
		if (TREE_STRING_LENGTH(arg) <= 1) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_empty(cachehot_ctx, IDENTIFIER_POINTER(name)));
			*no_add_attrs = true;
			return NULL_TREE;
		}
		/* "a\nb" would break every line-based reader, "a\0b" read as "a" */
		if (!ch_group_name_valid(TREE_STRING_POINTER(arg), TREE_STRING_LENGTH(arg) - 1)) {
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_group_not_identifier(cachehot_ctx, IDENTIFIER_POINTER(name),
								  TREE_STRING_POINTER(arg),
								  TREE_STRING_LENGTH(arg) - 1));
			*no_add_attrs = true;
			return NULL_TREE;
		}
	}
	for (i = 0; i < ARRAY_SIZE(cachehot_layout_attrs); i++) {
		tree old = lookup_attribute(cachehot_layout_attrs[i], DECL_ATTRIBUTES(decl));
		if (old) {
			tree oa = TREE_VALUE(old);
			const char *og = oa && TREE_CODE(TREE_VALUE(oa)) == STRING_CST
					 ? TREE_STRING_POINTER(TREE_VALUE(oa)) : NULL;
			const char *ng = args ? TREE_STRING_POINTER(TREE_VALUE(args)) : NULL;
			*no_add_attrs = true;
			/* "hot, hot": the same annotation twice, as the sidecar
			 * ignores an identical repeat */
			if (is_attribute_p(cachehot_layout_attrs[i], name) &&
			    (og && ng ? !strcmp(og, ng) : og == ng))
				return NULL_TREE;
			cachehot_error(CH_CHECK_ANNOTATION, DECL_SOURCE_LOCATION(decl),
				 ch_msg_attr_conflict_groups(cachehot_ctx, IDENTIFIER_POINTER(name), ng,
							     cachehot_layout_attrs[i], og));
			return NULL_TREE;
		}
	}
	return NULL_TREE;
}

static struct attribute_spec attr_hot = {
	"cacheline_hot", 0, 1, false, false, false, false, handle_layout_attr, NULL
};
static struct attribute_spec attr_exclusive = {
	"cacheline_exclusive", 0, 0, false, false, false, false, handle_layout_attr, NULL
};
static struct attribute_spec attr_read_mostly = {
	"cacheline_read_mostly", 0, 0, false, false, false, false, handle_layout_attr, NULL
};

void cachehot_register_attributes(void *, void *)
{
	register_attribute(&attr_hot);
	register_attribute(&attr_exclusive);
	register_attribute(&attr_read_mostly);
	cachehot_per_thread_attributes();
	cachehot_inline_attributes();
}
