/* SPDX-License-Identifier: GPL-2.0 */
/*
 * access-internal.h -- what the files of the plugin's access mode share
 * (private; C++, GCC headers first): the pass and the unit's facts
 * (access.c), one reference recorded (access-ref.c), asm statements and
 * calls (access-calls.c).
 */
#ifndef CACHEHOT_ACCESS_INTERNAL_H
#define CACHEHOT_ACCESS_INTERNAL_H

#define MAX_CHAIN 32   /* fields of one reference followed */

/* ---- access.c ---- */
/* The unit's facts, made on first use (main_input_filename is not known at
 * plugin_init); owned by access.c for the unit's life. */
ch_access_facts *access_facts(void);
#define facts access_facts()
/* The block of the statement being read (guarded_by_own_value()). */
extern basic_block access_cur_bb;
/* The statement being read lies on a path the code marks unlikely: its
 * writes are recorded as rare (CH_ACC_RARE_WRITE, "passed_unlikely"). */
extern bool access_in_unlikely;

/* ---- access-ref.c ---- */
/* Where a field reference's address goes when it is passed to a call. */
struct passed_to {
	const char *callee;   /* NULL: indirect */
	unsigned arg;
	int is_const;
};
/* k as recorded on the current path (rare when access_in_unlikely). */
enum ch_access_kind access_as_rare(enum ch_access_kind k);
/* The fields of ref, recorded with kind in function fn. to: the field's
 * address is passed to a call; locked: to a function whose name says it
 * locks (recorded apart as "locked", a sign of sharing). */
void access_record_ref_to(tree ref, const char *fn, enum ch_access_kind kind,
			  const struct passed_to *to, bool locked = false);
/* access_record_ref_to without a call, and a pointer parameter's access. */
void access_record_ref(tree ref, const char *fn, enum ch_access_kind kind);
/* The index of the PARM_DECL whose incoming value ptr is derived from
 * (copies, casts, pointer arithmetic, &p->f, a PHI with such an argument),
 * else -1. */
int access_param_index(tree ptr, int depth);
/* A memory reference (a component or a MEM_REF). */
bool access_is_mem(tree t);
/* A load or store of ref: marked when volatile (READ_ONCE, WRITE_ONCE). */
enum ch_access_kind access_plain(tree ref, bool store);
/* A reference with its MEM_REFs on &X addresses resolved to X. */
tree access_resolved(tree ref);

/* ---- access-calls.c ---- */
void access_do_asm(gasm *stmt, const char *fn);
void access_do_call(gcall *stmt, const char *fn);
/* sa.sa_handler = handler (struct sigaction): the handler runs on a signal */
void access_signal_handler_store(tree lhs, tree rhs);
#endif
