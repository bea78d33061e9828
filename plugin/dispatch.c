/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dispatch.c -- GCC's plugin event dispatch switched off while the unit's
 * functions are optimized and expanded, where cachehot needs no event.
 *
 * Once any plugin is loaded, cc1 calls invoke_plugin_callbacks_full() for
 * every event it raises, registered or not (plugin.h: the inline
 * invoke_plugin_callbacks() tests flag_plugin_added only): about 30
 * instructions each. Two of them come once per pass and function,
 * PLUGIN_OVERRIDE_GATE and PLUGIN_PASS_EXECUTION (execute_one_pass); on
 * mm/page_counter.c that is 7 782 calls, 0.25 M instructions of a 1.93 M
 * budget (docs/performance.md "GCC plugin"). cachehot's own passes run
 * without events (they are in the pass manager's lists), and its last event
 * before the end of the unit is PLUGIN_ALL_IPA_PASSES_END (inline-addr's
 * call graph): after it, until PLUGIN_FINISH_UNIT, no event is wanted.
 *
 * So the flag is cleared twice and set twice:
 *  - from the end of the front end's parse (a wrapper of lang_hooks.parse_file)
 *    to the end of the regular IPA passes (a pass of ours after "comdats",
 *    their last), i.e. the lowering and the early local passes of every
 *    function, 4 274 of those calls on mm/page_counter.c; not when the
 *    regular IPA passes do not run (-flto without -ffat-lto-objects) or
 *    nothing follows the parse (-fsyntax-only);
 *  - from PLUGIN_ALL_IPA_PASSES_END (inline-addr's last event) to
 *    lang_hooks.decls.post_compilation_parsing_cleanups, which
 *    compile_file() calls right after symtab->finalize_compilation_unit()
 *    returns, with or without errors and before PLUGIN_FINISH_UNIT
 *    (toplev.cc): the passes that optimize and expand every function, 3 508
 *    more. The front end's own hook, if it had one (C has none), is called
 *    from ours.
 * flag_plugin_added is declared in the plugin API's plugin.h; cc1 reads it
 * nowhere but there (Debian 12's cc1: 25 tests of it, each leading to a call
 * of invoke_plugin_callbacks_full; objdump -d). Measured: docs/performance.md
 * "GCC plugin" (page_counter.c without -g 1.0032 -> 1.0024).
 *
 * Only when nothing else could want those events: cachehot is the only
 * -fplugin= of the compile (another plugin's passes and gates keep their
 * events), and the recording mode, which moves a pass's gate
 * (PLUGIN_OVERRIDE_GATE, plugin/record.c), is off.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "langhooks.h"
#include "toplev.h"
#include "opts.h"
#include "options.h"
#include "tree-pass.h"
#include "context.h"

#include "cachehot-plugin.h"

/* The front end's own hooks, called from ours. */
static void (*front_end_parse)(void);
static void (*front_end_cleanups)(void);
/* The flag was cleared by us and not set again yet. */
static bool dispatch_off;

static void dispatch_set(bool on)
{
	if (on && dispatch_off) {
		flag_plugin_added = true;
		dispatch_off = false;
	} else if (!on && flag_plugin_added) {
		flag_plugin_added = false;
		dispatch_off = true;
	}
}

static void parse_then_off(void)
{
	front_end_parse();
	/* what follows the parse: the regular IPA passes, whose end sets the
	 * flag again, run unless the unit is only streamed for LTO (the test
	 * of ipa_passes(), cgraphunit.cc; in_lto_p is never true here). Under
	 * -fsyntax-only compile_file() returns before the cleanups hook, so
	 * the flag must stay on; flag_wpa is lto1's, where plugin_init
	 * registers nothing of this (cachehot.c: "GNU GIMPLE"). */
	if (!flag_syntax_only && !(flag_lto && !flag_fat_lto_objects))
		dispatch_set(false);
}

static void cleanups_then_on(void)
{
	dispatch_set(true);
	if (front_end_cleanups)
		front_end_cleanups();
}

static void all_ipa_passes_end(void *, void *)
{
	/* the other callbacks of this event still run: the list is walked
	 * whatever the flag says */
	dispatch_set(false);
}

static const pass_data events_on_data = {
	IPA_PASS, "cachehot_events_on", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0
};

/* After the last regular IPA pass: PLUGIN_ALL_IPA_PASSES_END comes next.
 * A regular IPA pass (the list's type) with no summaries and no transform. */
class events_on_pass : public ipa_opt_pass_d {
public:
	events_on_pass(gcc::context *ctxt)
		: ipa_opt_pass_d(events_on_data, ctxt, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL) {}
	unsigned int execute(function *) OVERRIDE
	{
		dispatch_set(true);
		return 0;
	}
};

/* How many -fplugin= options cc1 was given. */
static unsigned plugins_given(void)
{
	unsigned i, n = 0;
	for (i = 0; i < save_decoded_options_count; i++)
		if (save_decoded_options[i].opt_index == OPT_fplugin_)
			n++;
	return n;
}

void cachehot_dispatch_init(const char *plugin_name, bool pass_events_wanted)
{
	static struct register_pass_info info;

	if (pass_events_wanted || plugins_given() != 1)
		return;
	front_end_parse = lang_hooks.parse_file;
	lang_hooks.parse_file = parse_then_off;
	front_end_cleanups = lang_hooks.decls.post_compilation_parsing_cleanups;
	lang_hooks.decls.post_compilation_parsing_cleanups = cleanups_then_on;
	info.pass = new events_on_pass(g);
	info.reference_pass_name = "comdats";
	info.ref_pass_instance_number = 1;
	info.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
	register_callback(plugin_name, PLUGIN_ALL_IPA_PASSES_END, all_ipa_passes_end, NULL);
}
