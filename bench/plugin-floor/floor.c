/* SPDX-License-Identifier: GPL-2.0 */
/*
 * floor.c -- the floor of bench/plugin-overhead: a GCC plugin that
 * registers what plugin/cachehot.c registers on a kernel compile (the same
 * events, the same three attributes, a GIMPLE pass after every "ccp") and
 * does nothing in any of them. cc1's instructions with it over cc1's
 * without are what loading any such plugin costs (dlopen, cc1's dispatch of
 * every event, its pass manager running one more gate per function), the
 * part of cachehot's cost no change to cachehot can remove.
 *
 * Built by bench/plugin-overhead (BENCH_FLOOR=1) as DIR/cachehot.so, so that
 * the kernel's -fplugin-arg-cachehot-* arguments reach it unchanged (and are
 * ignored). Compiled as C++ against gcc-12-plugin-dev, like plugin/.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "stringpool.h"
#include "attribs.h"

__attribute__((visibility("default"))) int plugin_is_GPL_compatible;

static struct plugin_info floor_info = { "floor", "does nothing" };

static tree handle_attr(tree *, tree, tree, int, bool *no_add_attrs)
{
	*no_add_attrs = false;
	return NULL_TREE;
}
static struct attribute_spec attr_hot = {
	"cacheline_hot", 0, 1, false, false, false, false, handle_attr, NULL
};
static struct attribute_spec attr_exclusive = {
	"cacheline_exclusive", 0, 0, false, false, false, false, handle_attr, NULL
};
static struct attribute_spec attr_read_mostly = {
	"cacheline_read_mostly", 0, 0, false, false, false, false, handle_attr, NULL
};
static void register_attributes(void *, void *)
{
	register_attribute(&attr_hot);
	register_attribute(&attr_exclusive);
	register_attribute(&attr_read_mostly);
}

static void nothing(void *, void *) {}

static const pass_data floor_pass_data = {
	GIMPLE_PASS, "floor_pass", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0, 0, 0
};
class floor_pass : public gimple_opt_pass {
public:
	floor_pass(gcc::context *c) : gimple_opt_pass(floor_pass_data, c) {}
	bool gate(function *) OVERRIDE { return false; }
	unsigned int execute(function *) OVERRIDE { return 0; }
	opt_pass *clone() OVERRIDE { return new floor_pass(m_ctxt); }
};

__attribute__((visibility("default")))
int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct register_pass_info pi;
	const char *n = info->base_name;
	if (!plugin_default_version_check(version, &gcc_version))
		return 1;
	register_callback(n, PLUGIN_INFO, NULL, &floor_info);
	register_callback(n, PLUGIN_ATTRIBUTES, register_attributes, NULL);
	/* as cachehot.c, counter-batch.c, inline-addr.c, build.c register them */
	register_callback(n, PLUGIN_FINISH_TYPE, nothing, NULL);
	register_callback(n, PLUGIN_FINISH_DECL, nothing, NULL);
	register_callback(n, PLUGIN_FINISH_UNIT, nothing, NULL);
	register_callback(n, PLUGIN_PRE_GENERICIZE, nothing, NULL);
	register_callback(n, PLUGIN_ALL_IPA_PASSES_END, nothing, NULL);
	register_callback(n, PLUGIN_FINISH_UNIT, nothing, NULL);
	register_callback(n, PLUGIN_START_UNIT, nothing, NULL);
	pi.pass = new floor_pass(g);
	pi.reference_pass_name = "ccp";
	pi.ref_pass_instance_number = 0;
	pi.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(n, PLUGIN_PASS_MANAGER_SETUP, NULL, &pi);
	return 0;
}
