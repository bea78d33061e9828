/* Second unit for passed.c: the session code that uses struct sess. Four
 * lockers pass the lock handle's address to lck_lock() (defined in
 * passed.c: it only loads the handle) and insert into the run queue
 * through tree_insert() (no unit defines it: written); three readers peek
 * at the queue and the handle. Expected (tests/annotate/expected/passed.sidecar):
 * runq hot (written through its address in 5 functions), mtx read_mostly
 * (read through lck_lock() in 5, written in none), not the other way round. */
struct node { struct node *left, *right; };
struct lock { void *priv; };
struct sess {
	struct lock mtx;
	struct node runq;
	long hits;
	const char *name;
	char tag[8];
};

void tree_insert(struct node *root, struct node *n);
void lck_lock(struct lock *lck);

#define LOCKER(NAME) \
void NAME(struct sess *s, struct node *n) \
{ \
	lck_lock(&s->mtx); \
	tree_insert(&s->runq, n); \
}
LOCKER(sess_add)
LOCKER(sess_requeue)
LOCKER(sess_wake)
LOCKER(sess_push)

int sess_idle(struct sess *s)
{
	return !s->runq.left && !s->runq.right;
}

struct node *sess_first(struct sess *s)
{
	return s->runq.left;
}

void *sess_handle(struct sess *s)
{
	return s->mtx.priv;
}
