// SPDX-License-Identifier: GPL-2.0
/* Calls through the selector that are the whole body of an if or a loop:
 * the patch puts braces around the if/else it writes there. */
static inline void counter_inc(int *p)
{
	*p += 1;
}

static inline void counter_dec(int *p)
{
	*p -= 1;
}

void counters_step(int up, int n, int *v)
{
	if (n > 0) {
		if (up)
			counter_inc(&v[0]);
		else
			counter_dec(&v[0]);
	}
	while (n-- > 1) {
		if (up)
			counter_inc(&v[n]);
		else
			counter_dec(&v[n]);
	}
}
