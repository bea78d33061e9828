#include "lt.h"
int lt_diff(struct lt_set *old, struct lt_set *new_, const struct lt_opts *o, FILE *out) { return 0; }
