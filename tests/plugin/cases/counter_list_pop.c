/* Reduced from 6.1 fs/nfs/write.c nfs_retry_commit(): the loop pops the
 * head of a list (READ_ONCE in list_empty(), WRITE_ONCE in list_del_init())
 * and hands each request to a function that is not inlined, which updates
 * NR_WRITEBACK on the node of the request's page. The request is loaded
 * from the list head every time, from an address that does not change;
 * the loop's WRITE_ONCE(prev->next, ...) changes what is there. The plugin
 * once took the request, and so the target, for one value and advised to
 * accumulate (a wrong fix: the pages are on many nodes). retry_commit:
 * silent (a target per element, no lookup). drain_counted: the same loop
 * with a node that does not change: reported, a loop over elements. */
struct page { unsigned long flags; };
struct pglist_data { long x; };
struct list_head { struct list_head *next, *prev; };
struct nfs_page { struct list_head wb_list; struct page *wb_page; };
enum node_stat_item { NR_WRITEBACK = 3 };
void inc_node_page_state(struct page *page, enum node_stat_item item);
void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void release_request(struct nfs_page *req);

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline void list_del_init(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
	WRITE_ONCE(entry->next, entry);
	entry->prev = entry;
}

__attribute__((noinline)) void add_commit_list(struct nfs_page *req)
{
	if (req->wb_page)
		inc_node_page_state(req->wb_page, NR_WRITEBACK);
}

void retry_commit(struct list_head *page_list)
{
	struct nfs_page *req;

	while (!list_empty(page_list)) {
		req = (struct nfs_page *)page_list->next;
		list_del_init(&req->wb_list);
		add_commit_list(req);
		release_request(req);
	}
}

void drain_counted(struct list_head *page_list, struct pglist_data *pgdat)
{
	struct nfs_page *req;

	while (!list_empty(page_list)) {
		req = (struct nfs_page *)page_list->next;
		list_del_init(&req->wb_list);
		mod_node_page_state(pgdat, NR_WRITEBACK, 1);
		release_request(req);
	}
}

/*
 * expect:
 * 62:17: warning: statistics update 'mod_node_page_state' of NR_WRITEBACK runs once per element of the loop at tests/plugin/cases/counter_list_pop.c:59 in 'drain_counted' with a target and item that do not change in the loop: accumulate in a local and apply once after the loop [cachehot-counter-batch]
 * 59:17: note: the loop whose elements each update 'mod_node_page_state' [cachehot-counter-batch]
 */
