/* One of two programs of one tree that define different structs named
 * http (as a server and its test driver do): cachehot annotate
 * --program=BINARY judges the struct of the program it is given. */
struct http {
	int status;
	long hits;
	int limit;
};

struct http H;

void count(void) { __atomic_fetch_add(&H.hits, 1, __ATOMIC_RELAXED); }
void count_again(void) { __atomic_fetch_add(&H.hits, 1, __ATOMIC_RELAXED); }
int full(void) { return H.status > H.limit; }
int near(void) { return H.limit - 1; }
int over(void) { return H.limit + 1; }

int main(void)
{
	count();
	count_again();
	return full() + near() + over();
}
