/* Functions that are not declared inline: their copies are not the check's
 * business (they exist anyway). */
static int plain_a(int x) { return x * 5 + 1; }
static int plain_b(int x) { return x * 7 - 1; }

int select_plain(int c, int n)
{
	int (*f)(int) = c ? plain_a : plain_b;
	int i, r = 0;

	for (i = 0; i < n; i++)
		r += f(i);
	return r;
}
/* cachehot-args:
 * expect-none
 */
