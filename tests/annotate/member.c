/* Per-member context (docs/annotate.md): a small rate counter embedded in
 * several structs, touched only through them by always-inline helpers. In
 * struct proxy, sess_rate is updated on every connection and comp_rate only
 * read by the stats dump; struct global's conn_rate is updated on every
 * connection. Judged by type, freq_ctr.curr_ctr would be hot in every
 * container, comp_rate too; judged per member, only where it is updated. */
struct freq_ctr {
	unsigned int curr_tick;
	unsigned int curr_ctr;
	unsigned int prev_ctr;
};

struct proxy {
	struct freq_ctr sess_rate;
	long maxconn;
	struct freq_ctr comp_rate;
	long mode;
	long served;
};

struct global {
	struct freq_ctr conn_rate;
	long nbthread;
	long maxsock;
};

static inline __attribute__((always_inline)) void update_freq_ctr(struct freq_ctr *c, unsigned int n)
{
	if (__atomic_load_n(&c->curr_tick, __ATOMIC_RELAXED) != 1)
		__atomic_store_n(&c->curr_tick, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->curr_ctr, n, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) unsigned int read_freq_ctr(struct freq_ctr *c)
{
	return c->curr_ctr + c->prev_ctr;
}

void accept_conn(struct proxy *p, struct global *g)
{
	update_freq_ctr(&p->sess_rate, 1);
	update_freq_ctr(&g->conn_rate, 1);
	if (p->mode && g->nbthread)
		p->served++;
}

void accept_ssl(struct proxy *p, struct global *g)
{
	update_freq_ctr(&p->sess_rate, 1);
	update_freq_ctr(&g->conn_rate, 1);
	if (p->served > p->maxconn + g->maxsock)
		p->served--;
}

int may_accept(struct proxy *p, struct global *g)
{
	return read_freq_ctr(&p->sess_rate) < p->maxconn && g->maxsock > p->mode && g->nbthread;
}

unsigned int stats_dump(struct proxy *p, struct global *g)
{
	return read_freq_ctr(&p->comp_rate) + (unsigned int)p->maxconn + (unsigned int)g->maxsock +
	       (unsigned int)g->nbthread + (unsigned int)p->mode;
}
