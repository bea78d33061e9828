/* Writes through an address (docs/annotate.md): a field's address handed
 * to a function counts as what that function does through its parameter.
 * Reduced from a userspace HTTP cache's session code: an opaque lock
 * handle (a pointer set once at setup) whose address every locker passes
 * to a wrapper that only loads it, a run queue inserted into by a function
 * of another unit, a counter bumped by a helper's helper. */
struct node { struct node *left, *right; };
struct lock { void *priv; };
struct ilck { int held; };
struct sess {
	struct lock mtx;          /* opaque handle: read by the wrapper */
	struct node runq;         /* tree_insert() writes it */
	long hits;                /* atomic through hand() -> bump() */
	const char *name;         /* read through a const parameter */
	char tag[8];              /* memset: a store */
};

void tree_insert(struct node *root, struct node *n);   /* another unit */
int ext_lock(int *word);                                /* a library's */
int show(const char *s);

#define noinline __attribute__((__noinline__))

/* the lock wrapper: loads the handle, locks what it points to */
noinline void lck_lock(struct lock *lck)
{
	struct ilck *i = (struct ilck *)lck->priv;
	ext_lock(&i->held);
}

noinline static void bump(long *p)
{
	__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}

noinline static void hand(long *p)
{
	bump(p);
}

void sess_queue(struct sess *s, struct node *n)
{
	lck_lock(&s->mtx);
	tree_insert(&s->runq, n);
	hand(&s->hits);
	show(s->name);
	__builtin_memset(s->tag, 0, sizeof(s->tag));
}

/* facts:
 * fn bump static=1 inline=0 init=0 exit=0 cold=0 callers=hand
 * fn hand static=1 inline=0 init=0 exit=0 cold=0 callers=sess_queue
 * fn lck_lock static=0 inline=0 init=0 exit=0 cold=0 callers=sess_queue
 * fn sess_queue static=0 inline=0 init=0 exit=0 cold=0 callers=
 * ilck held lck_lock passed:ext_lock/0=1
 * lock priv lck_lock load=1
 * param bump 0 rmw=1
 * param lck_lock 0 load=1
 * param sess_queue 0 load=1,store=1
 * pass hand 0 bump/0=1
 * pass sess_queue 0 hand/0=1,lck_lock/0=1,tree_insert/0=1
 * pass sess_queue 1 tree_insert/1=1
 * sess hits sess_queue passed:hand/0=1
 * sess mtx sess_queue passed:lck_lock/0=1
 * sess name sess_queue load=1
 * sess runq sess_queue passed:tree_insert/0=1
 * sess tag sess_queue store=1
 */
