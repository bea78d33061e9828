/* folio_batch_move_lru() shape (6.1 mm/swap.c): the lruvec is kept from
 * one folio to the next and relocked only when the folio needs another
 * (folio_lruvec_relock_irqsave()); folios come in runs of one lruvec, so a
 * per-run accumulator applies (a note). Silent before: the target was a
 * call's result. */
struct lruvec { int lock; };
struct folio { unsigned long flags; struct lruvec *lv; };
enum node_stat_item { NR_LRU_BASE, NR_ACTIVE_ANON };
void __mod_lruvec_state(struct lruvec *, enum node_stat_item, int);
struct lruvec *lruvec_lock(struct folio *f);
void lruvec_unlock(struct lruvec *l);
static inline struct lruvec *relock(struct folio *f, struct lruvec *locked)
{
	if (locked) {
		if (f->lv == locked)
			return locked;
		lruvec_unlock(locked);
	}
	return lruvec_lock(f);
}
void move_batch(struct folio **batch, int n)
{
	struct lruvec *lruvec = 0;
	for (int i = 0; i < n; i++) {
		lruvec = relock(batch[i], lruvec);
		__mod_lruvec_state(lruvec, NR_LRU_BASE, 1);
	}
	if (lruvec)
		lruvec_unlock(lruvec);
}

/*
 * expect:
 * 26:17: note: statistics update '__mod_lruvec_state' of NR_LRU_BASE runs once per element of the loop at tests/plugin/cases/counter_relock.c:24 in 'move_batch'; the target changes per element but is looked up from one value (kept from the element before, replaced when it changes) that stays the same over runs of elements: keep the current target and a local accumulator, apply when the target changes and after the loop [cachehot-counter-batch]
 * 24:27: note: the loop whose elements each update '__mod_lruvec_state' [cachehot-counter-batch]
 */
