/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h -- what the recording mode's two halves share: record.c (which
 * accesses, which member; the pass) and record-fastpath.c (the runtime's
 * declarations, the batches, the countdown, the cold block). Include after
 * GCC's headers.
 */
#ifndef CACHEHOT_PLUGIN_RECORD_H
#define CACHEHOT_PLUGIN_RECORD_H

enum rec_kind { REC_LOAD, REC_STORE, REC_RMW };

/* the runtime's entry points and countdown, declared once (the type nodes
 * exist from the first pass on, not at plugin_init) */
void record_decls(void);
tree record_fn(enum rec_kind kind);
/* their GGC roots, for PLUGIN_REGISTER_GGC_ROOTS */
const struct ggc_root_tab *record_roots(void);
/* a call to one of the entry points */
bool record_is_rt_call(gimple *s);
/* every entry point call of fun behind the inline countdown (batches, the
 * cold block); returns whether anything changed (then: TODO_update_ssa) */
bool record_lower_calls(function *fun);

#endif
