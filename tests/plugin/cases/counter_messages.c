/* What the messages say, reduced from 6.1 mm/:
 * - a loop spelled by a macro (list_for_each_entry, container_of) is
 *   located where the macro is used, not in the macro's definition;
 * - an item passed as a plain int (__mod_memcg_state(memcg, MEMCG_SWAP, n)
 *   in mem_cgroup_move_swap_account()) is named by its enumerator;
 * - a target looked up in a callee that is not inlined (gup_put_folio() ->
 *   node_stat_mod_folio(): NODE_DATA(folio_nid(folio))) names the array;
 * - calls not inlined are named, not marked. */
struct mem_cgroup { long x; };
struct pglist_data { long x; };
struct folio { unsigned long flags; int nid; struct folio *next; };
enum node_stat_item { NR_FOLL_PIN_RELEASED = 40, NR_VM_NODE_STAT_ITEMS = 43 };
enum memcg_stat_item { MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS, MEMCG_SOCK };
void __mod_memcg_state(struct mem_cgroup *, int idx, int val);
void mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
extern struct pglist_data *node_data[];

#define for_each_folio(f, head) \
	for (f = (head); f != (void *)0; f = f->next)

void move_swap(struct mem_cgroup *to, struct folio *head)
{
	struct folio *f;
	for_each_folio(f, head)
		__mod_memcg_state(to, MEMCG_SWAP, 1);
}

static __attribute__((noinline)) void put_folio(struct folio *f)
{
	f->flags--;
	mod_node_page_state(node_data[f->nid], NR_FOLL_PIN_RELEASED, 1);
}

void unpin(struct folio **pages, int n)
{
	for (int i = 0; i < n; i++)
		put_folio(pages[i]);
}

/*
 * expect:
 * 25:17: warning: statistics update '__mod_memcg_state' of MEMCG_SWAP runs once per element of the loop at tests/plugin/cases/counter_messages.c:24 in 'move_swap' with a target and item that do not change in the loop: accumulate in a local and apply once after the loop [cachehot-counter-batch]
 * 24:9: note: the loop whose elements each update '__mod_memcg_state' [cachehot-counter-batch]
 * 37:17: note: statistics update 'mod_node_page_state' of NR_FOLL_PIN_RELEASED (tests/plugin/cases/counter_messages.c:31) runs once per element of the loop at tests/plugin/cases/counter_messages.c:36 in 'unpin' (through unpin -> put_folio; 1 call not inlined: put_folio); the target changes per element but is looked up from one value (the index into 'node_data') that stays the same over runs of elements: keep the current target and a local accumulator, apply when the target changes and after the loop [cachehot-counter-batch]
 * 36:27: note: the loop whose elements each update 'mod_node_page_state' [cachehot-counter-batch]
 */
