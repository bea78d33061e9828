/* folio_batch_move_lru shape: the loop calls move_fn, and every function
 * of this file passed as move_fn updates a counter per folio */
struct lruvec { int lock; };
struct folio { unsigned long flags; };
enum node_stat_item { NR_LRU_BASE, NR_ACTIVE_ANON };
void __mod_lruvec_state(struct lruvec *, enum node_stat_item, int);
struct lruvec *folio_lruvec(struct folio *);
typedef void (*move_fn_t)(struct lruvec *lruvec, struct folio *folio);

static void add_fn(struct lruvec *lruvec, struct folio *folio)
{
	__mod_lruvec_state(lruvec, NR_LRU_BASE, 1);
}

static void activate_fn(struct lruvec *lruvec, struct folio *folio)
{
	__mod_lruvec_state(lruvec, NR_ACTIVE_ANON, 1);
}

static __attribute__((noinline)) void move_batch(struct folio **batch, int n, move_fn_t move_fn)
{
	for (int i = 0; i < n; i++)
		move_fn(folio_lruvec(batch[i]), batch[i]);
}

void add_all(struct folio **b, int n) { move_batch(b, n, add_fn); }
void activate_all(struct folio **b, int n) { move_batch(b, n, activate_fn); }

/*
 * expect:
 * 23:17: note: the loop at tests/plugin/cases/counter_indirect.c:22 in 'move_batch' calls through a function pointer whose every possible target in this file (activate_fn/add_fn) updates '__mod_lruvec_state' once per call: pass the batch to the callback, or accumulate in the caller and apply once after the loop [cachehot-counter-batch]
 * 22:27: note: the loop whose elements each update '__mod_lruvec_state' [cachehot-counter-batch]
 */
