/* A wait queue woken only when it has waiters (the kernel's
 * 'if (waitqueue_active(&q)) wake_up(&q)', 'if (!wq_has_sleeper(&q))
 * return;'): its address reaches wake_up() (defined nowhere: written) in
 * four functions, but each time only when a test of the queue's own value
 * said a waiter is there: a rare write, so 'wait' is not hot. 'wait2' is
 * woken under a test of another field: written, hot. */
struct waitq {
	struct waitq *next;
	int lock;
};

struct node {
	struct waitq wait;
	long events;
	struct waitq wait2;
	long limit;
};

extern void wake_up(struct waitq *q);

static inline int has_waiters(struct waitq *q)
{
	return *(struct waitq *volatile *)&q->next != q;
}

void ev_add(struct node *n)
{
	__atomic_fetch_add(&n->events, 1, __ATOMIC_RELAXED);
	if (has_waiters(&n->wait))
		wake_up(&n->wait);
	if (n->events > n->limit)
		wake_up(&n->wait2);
}

void ev_del(struct node *n)
{
	__atomic_fetch_sub(&n->events, 1, __ATOMIC_RELAXED);
	if (!has_waiters(&n->wait))
		return;
	wake_up(&n->wait);
	if (n->events < n->limit)
		wake_up(&n->wait2);
}

void ev_flush(struct node *n)
{
	if (n->limit && has_waiters(&n->wait))
		wake_up(&n->wait);
	if (n->limit)
		wake_up(&n->wait2);
}

void ev_kick(struct node *n)
{
	if (has_waiters(&n->wait))
		wake_up(&n->wait);
	if (n->limit > 1)
		wake_up(&n->wait2);
}

/* facts:
 * fn ev_add static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn ev_del static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn ev_flush static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn ev_kick static=0 inline=0 init=0 exit=0 cold=0 callers=
 * fn has_waiters static=1 inline=1 init=0 exit=0 cold=0 callers=
 * node events ev_add load=1,rmw=1
 * node events ev_del load=1,rmw=1
 * node limit ev_add load=1
 * node limit ev_del load=1
 * node limit ev_flush load=2
 * node limit ev_kick load=1
 * node wait ev_add marked_load=1,passed_unlikely:wake_up/0=1
 * node wait ev_del marked_load=1,passed_unlikely:wake_up/0=1
 * node wait ev_flush marked_load=1,passed_unlikely:wake_up/0=1
 * node wait ev_kick marked_load=1,passed_unlikely:wake_up/0=1
 * node wait2 ev_add passed:wake_up/0=1
 * node wait2 ev_del passed:wake_up/0=1
 * node wait2 ev_flush passed:wake_up/0=1
 * node wait2 ev_kick passed:wake_up/0=1
 * param ev_add 0 load=2,rmw=1,marked_load=1
 * param ev_del 0 load=2,rmw=1,marked_load=1
 * param ev_flush 0 load=2,marked_load=1
 * param ev_kick 0 load=1,marked_load=1
 * param has_waiters 0 marked_load=1
 * pass ev_add 0 wake_up/0=2
 * pass ev_del 0 wake_up/0=2
 * pass ev_flush 0 wake_up/0=2
 * pass ev_kick 0 wake_up/0=2
 * waitq next has_waiters marked_load=1
 */
