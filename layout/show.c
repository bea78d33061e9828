#include "lt.h"
int lt_show(struct lt_set *s, struct lt_struct *st, const struct lt_opts *o, FILE *out) { return 0; }
