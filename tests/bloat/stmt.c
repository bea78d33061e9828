// SPDX-License-Identifier: GPL-2.0
/* Statement form and initializer form of the selector: the pointer is
 * declared with the selection and called as a statement, in and out of a
 * loop. */
struct seq { char buf[64]; int len; };

static inline void show_long(struct seq *m, int i)
{
	m->buf[m->len++ & 63] = 'L';
	m->buf[m->len++ & 63] = (char)('0' + i % 10);
}

static inline void show_short(struct seq *m, int i)
{
	m->buf[m->len++ & 63] = (char)('a' + i % 26);
}

void show_all(struct seq *m, int verbose, int n)
{
	void (*show)(struct seq *m, int i) = verbose ? show_long : show_short;
	int i;

	show(m, -1);
	for (i = 0; i < n; i++) {
		show(m, i);
	}
}
