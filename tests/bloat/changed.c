// SPDX-License-Identifier: GPL-2.0
/* The condition changes between the selection and a later call: rewriting
 * would call the other function there, so it is reported, not patched. */
static inline int step_up(int x)
{
	return x + 3;
}

static inline int step_down(int x)
{
	return x - 5;
}

int walk(int up, int n)
{
	int (*step)(int);
	int pos = 0;

	step = up ? step_up : step_down;
	while (n--) {
		pos = step(pos);
		up = !up;
	}
	return pos + up;
}

int walk2(int up, int n)
{
	int (*step)(int);
	int pos = 0;

	step = up ? step_up : step_down;
	pos = step(pos);
	step = step_down;
	return step(pos + n);
}
