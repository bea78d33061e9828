/* move_folios_to_lru shape: the update two inlined calls deep, item per
 * element from a small set, the lock dropped inside the loop */
struct lruvec { int lock; };
struct folio { unsigned long flags; struct folio *next; };
enum node_stat_item { NR_LRU_BASE, NR_ACTIVE_ANON = 1, NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE };
enum lru_list { LRU_INACTIVE_ANON, LRU_ACTIVE_ANON, LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, LRU_UNEVICTABLE };
void __mod_lruvec_state(struct lruvec *, enum node_stat_item, int);
void spin_lock_irq(int *);
void spin_unlock_irq(int *);
void putback(struct folio *);

static inline enum lru_list folio_lru(struct folio *f)
{
	enum lru_list lru;
	if (f->flags & 1)
		return LRU_UNEVICTABLE;
	lru = (f->flags & 2) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	if (f->flags & 4)
		lru += 1;
	return lru;
}

static inline void update_size(struct lruvec *lruvec, enum lru_list lru, int nr)
{
	__mod_lruvec_state(lruvec, NR_LRU_BASE + lru, nr);
}

static inline void add_folio(struct lruvec *lruvec, struct folio *f)
{
	update_size(lruvec, folio_lru(f), 1);
}

unsigned move_to_lru(struct lruvec *lruvec, struct folio *list)
{
	unsigned moved = 0;
	while (list) {
		struct folio *f = list;
		list = f->next;
		if (f->flags & 8) {
			spin_unlock_irq(&lruvec->lock);
			putback(f);
			spin_lock_irq(&lruvec->lock);
			continue;
		}
		add_folio(lruvec, f);
		moved++;
	}
	return moved;
}

/*
 * expect:
 * 45:17: warning: statistics update '__mod_lruvec_state' of NR_LRU_BASE..NR_UNEVICTABLE (tests/plugin/cases/counter_inlined.c:25) runs once per element of the loop at tests/plugin/cases/counter_inlined.c:36 in 'move_to_lru' (inlined: move_to_lru -> add_folio -> update_size); the item takes one of 5 values per element and the target does not change in the loop: keep a keyed accumulator of 5 locals and apply each once after the loop; the loop drops a lock ('spin_unlock_irq' at line 40): apply the accumulated delta before it, or readers under the lock see a partial count [cachehot-counter-batch]
 * 36:16: note: the loop whose elements each update '__mod_lruvec_state' [cachehot-counter-batch]
 */
