/* GCC's nested functions: the frame the inner functions share is a struct
 * GCC lays out itself, 'FRAME.N' */
struct counters { long hits; long misses; long spare[6]; long limit; };
long walk(struct counters *c, int n)
{
	long seen = 0, total = 0;
	__attribute__((noinline)) void visit1(int i) { seen++; total += i; c->hits++; }
	__attribute__((noinline)) void visit2(int i) { seen++; total -= i; c->misses++; }
	__attribute__((noinline)) void visit3(int i) { seen++; total ^= i; c->hits++; }
	__attribute__((noinline)) void visit4(int i) { seen++; total |= i; c->misses++; }
	for (int i = 0; i < n; i++) { visit1(i); visit2(i); visit3(i); visit4(i); }
	return seen + total + c->limit;
}
