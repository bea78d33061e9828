// SPDX-License-Identifier: GPL-2.0
/*
 * attrs-internal.h -- what attrs.c lends attrs-marks.c: where an attribute
 * was written, read from libsparse 0.6.4's private decl_state (attrs.c
 * says why each fact holds). Private to the two; after sparse's headers.
 */
#ifndef CACHEHOT_SPARSE_ATTRS_INTERNAL_H
#define CACHEHOT_SPARSE_ATTRS_INTERNAL_H

/* Where ctx->ident points decides the context (attrs.c, ch_attr_context). */
enum attr_ctx { ATTR_SPECIFIER, ATTR_NOT_MEMBER, ATTR_MEMBER };
enum attr_ctx ch_attr_context(struct decl_state *ctx);
/* The struct member being declared, or NULL (not a member). */
struct symbol *ch_attr_member(struct decl_state *ctx);
/* Position of the declared name id (from p, its declaration), as GCC's
 * DECL_SOURCE_LOCATION. */
struct position ch_attr_name_pos(struct position p, const struct ident *id);
/* GCC's position for a diagnostic about a variable or function declared at
 * file or block scope (ATTR_NOT_MEMBER): its name, which precedes the
 * attribute at pos -- the last whole-word occurrence before it. */
struct position ch_attr_decl_name_pos(struct decl_state *ctx, struct position pos);
/* Register keyword name (NS_KEYWORD) with op: __has_attribute(name) is then
 * true and op->attribute runs where it is written. */
void ch_attr_add_keyword(const char *name, struct symbol_op *op);
#endif
