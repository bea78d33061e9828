/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.c -- the plugin's arguments, -fplugin-arg-cachehot-KEY[=VALUE]:
 * the one list. The help the plugin prints (help, PLUGIN_INFO), the "known:"
 * list of its unknown-argument error and, checked by tests/registry, the
 * table of docs/plugin.rst and cachehot-annotations(7) come from it.
 * plugin_init (plugin/cachehot.c) parses them.
 */
#include "cachehot-plugin.h"

const struct ch_option cachehot_plugin_options[] = {
	{ "annotations", "FILE[:FILE]", "sidecar annotations: STRUCT.FIELD hot|exclusive|read_mostly[:GROUP]" },
	{ "line-size", "N", "cache line size in bytes (default SMP_CACHE_BYTES, else 64)" },
	{ "predict", "N", "also check at line size N (e.g. 128)" },
	{ "severity", "note|warning|error", "severity of findings (default warning)" },
	{ "manifest", "FILE|object", "merge a JSON record of annotated structs into FILE" },
	{ "unmatched", "note|ignore", "report sidecar entries that matched no struct (default note)" },
	{ "inline-addr", "0|1", "check inline functions used as values (default 1)" },
	{ "inline-notes", "0|1", "ops-table/callback uses as notes (1) or at severity (0)" },
	{ "counter-batch", "0|1", "statistics counters updated once per loop element (default 1)" },
	{ "counter-updaters", "NAME[:TARGET:ITEM],...", "more updaters for counter-batch" },
	{ "access", "FILE|DIR|object", "record field access facts for cachehot annotate (also into the object; 'object': there only)" },
	{ "record", "[all|annotated|TAG,...]", "recording build: link with -lcachehot-rt" },
	{ "object-records", "0|1", "write access facts and manifest records into the object (default 1)" },
	{ "once", "DIR", "a finding about a header prints once per build (default: per unit)" },
	{ "findings", "FILE|DIR|-", "write the findings as records (JSON lines) for cachehot check; -: stderr" },
	{ "werror", "0|1", "0: findings stay warnings under -Werror (default 1)" },
	{ "disable", NULL, "do nothing (per-file opt-out, as DISABLE_*_PLUGIN)" },
	{ "help", NULL, "print this list on stderr" },
	{ NULL, NULL, NULL }
};
