/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infer-names.c -- what `cachehot annotate` may write as a sidecar line:
 * a struct tag and member path that C can name. GCC lays out types of its
 * own (a nested function's frame is "FRAME.3"), and a facts file from
 * elsewhere may hold any string; a line naming such a thing breaks every
 * compile that loads the sidecar, and a name with a newline would write
 * lines of its own.
 */
#include <stdio.h>
#include <string.h>
#include "access-internal.h"
#include "internal.h"

/* IDENT(.IDENT)*, the path of a member as the facts record it. */
static int member_path_ok(const char *p)
{
	for (;;) {
		size_t n = strcspn(p, ".");
		if (!ch_is_ident(p, n))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

size_t ch_infer_drop_unnamable(json_t *sts, char *example, size_t n)
{
	const char *k, *mk;
	json_t *st, *m;
	void *tmp, *tmp2;
	size_t dropped = 0;
	if (n)
		*example = 0;
	json_object_foreach_safe(sts, tmp, k, st) {
		/* "TAG@FILE:LINE": another definition of TAG (core/access.c),
		 * written as a comment that names FILE */
		size_t tag = strcspn(k, "@");
		if (!ch_is_ident(k, tag) || strpbrk(k + tag, "\n\r") || !json_is_object(st)) {
			if (n && !*example && !strpbrk(k, "\n\r"))
				snprintf(example, n, "%s", k);
			json_object_del(sts, k);
			dropped++;
			continue;
		}
		json_object_foreach_safe(st, tmp2, mk, m)
			if (!member_path_ok(mk)) {
				json_object_del(st, mk);
				dropped++;
			}
	}
	return dropped;
}
