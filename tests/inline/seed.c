/* The seed shape, reduced from memcg's memory.numa_stat code: two inline
 * accessors chosen through a pointer, then called in a loop. */
struct lruvec { long state[8]; long local[8]; };
static inline unsigned long lruvec_page_state(struct lruvec *l, int idx)
{
	long x = 0; int i;
	for (i = 0; i < 4; i++) x += l[i].state[idx];
	return x < 0 ? 0 : x;
}
static inline unsigned long lruvec_page_state_local(struct lruvec *l, int idx)
{
	long x = l->local[idx];
	return x < 0 ? 0 : x;
}
unsigned long numa_stat(struct lruvec *lruvec, int tree, int n)
{
	unsigned long (*page_state)(struct lruvec *, int);
	unsigned long nr = 0;
	int idx;

	page_state = tree ? lruvec_page_state : lruvec_page_state_local;
	for (idx = 0; idx < n; idx++)
		nr += page_state(lruvec, idx);
	return nr;
}
/* cachehot-args:
 * expect:
 * 21:29: warning: inline function 'lruvec_page_state' (defined at seed.c:4) is chosen through the local function pointer 'page_state', so an out-of-line copy is emitted; call lruvec_page_state/lruvec_page_state_local directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 * 21:49: warning: inline function 'lruvec_page_state_local' (defined at seed.c:10) is chosen through the local function pointer 'page_state', so an out-of-line copy is emitted; call lruvec_page_state/lruvec_page_state_local directly; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
