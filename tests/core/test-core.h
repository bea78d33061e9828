/* test-core.h -- what the unit tests of core/ share (tests/core/test-core.c):
 * the checks that print PASS/FAIL lines, a finding collector, and the
 * hand-built page_counter of v5.10; and every test, called by main. */
#ifndef CACHEHOT_TEST_CORE_H
#define CACHEHOT_TEST_CORE_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "internal.h"   /* ch_fix_reference_search */

/* failed checks so far */
extern int failures;
/* "PASS: name", or "FAIL: name: why" and one more failure */
void check(int cond, const char *name, const char *why);
/* check that got equals exp (both shown when not) */
void check_str(const char *name, const char *exp, const char *got);
/* findings collected as "LINE:note|warning: message" lines (a ch_emit_fn) */
struct collect { char buf[16384]; int n; };
void collect(const struct ch_finding *f, void *arg);
/* an integer member of size bytes at off, class cls, declared at pc.h:line */
struct ch_member *scalar(ch_ctx *ctx, struct ch_type *t, const char *name,
			 uint64_t off, uint64_t size, enum ch_class cls, unsigned line);
/* struct page_counter as in v5.10 (112 bytes) */
struct ch_type *pc_v510(ch_ctx *ctx);

/* test-model.c */
void test_v510(void);
void test_union_and_nesting(void);
void test_eval(void);
void test_options(void);
void test_self_nesting(void);
void test_groups(void);
void test_layout_bitfields(void);
void test_format(void);
/* test-sidecar.c */
void test_sidecar(void);
void test_globals(void);
void test_sidecar_index(void);
void test_variable_hints(void);
void test_sidecar_chain(void);
void test_sidecar_chain_cache(void);
/* test-fix.c */
void test_fix_sweep(void);
void test_fix_brief(void);
/* test-output.c */
void test_unit_text(void);
void test_objsec_emit(void);

#endif
