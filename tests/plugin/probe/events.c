/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.c -- a second plugin for tests/plugin (the dispatch-* cases): counts
 * the pass events cc1 dispatches to it and prints the counts at PLUGIN_FINISH:
 *
 *   probe: gates=G passes=P other-gates=g other-passes=p ipa-end=E units=U
 *
 * G and P count every PLUGIN_OVERRIDE_GATE and PLUGIN_PASS_EXECUTION, g and p
 * those of passes not named cachehot_* (the ones any compile has), E counts
 * PLUGIN_ALL_IPA_PASSES_END, U PLUGIN_FINISH_UNIT. Built by the test with
 * g++ -shared against the GCC plugin headers.
 */
#include "gcc-plugin.h"
#include "tree-pass.h"
#include <stdio.h>
#include <string.h>

int plugin_is_GPL_compatible;

static unsigned long gates, passes, other_gates, other_passes, ipa_end, units;

static bool ours(const opt_pass *p)
{
	return p && p->name && !strncmp(p->name, "cachehot_", 9);
}

static void on_gate(void *, void *)
{
	gates++;
	if (!ours(current_pass))
		other_gates++;
}

static void on_pass(void *data, void *)
{
	passes++;
	if (!ours((const opt_pass *)data))
		other_passes++;
}

static void on_ipa_end(void *, void *) { ipa_end++; }
static void on_unit(void *, void *) { units++; }

static void on_finish(void *, void *)
{
	fprintf(stderr, "probe: gates=%lu passes=%lu other-gates=%lu other-passes=%lu ipa-end=%lu units=%lu\n",
		gates, passes, other_gates, other_passes, ipa_end, units);
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *)
{
	register_callback(info->base_name, PLUGIN_OVERRIDE_GATE, on_gate, NULL);
	register_callback(info->base_name, PLUGIN_PASS_EXECUTION, on_pass, NULL);
	register_callback(info->base_name, PLUGIN_ALL_IPA_PASSES_END, on_ipa_end, NULL);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, on_unit, NULL);
	register_callback(info->base_name, PLUGIN_FINISH, on_finish, NULL);
	return 0;
}
