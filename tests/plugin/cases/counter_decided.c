/* Silent: after the update, a value the path knows decides the condition
 * that would take the loop round again. __filemap_add_folio's shape: a
 * flag set beside the update, tested after code the early jump threader
 * does not copy (here 16 calls), ends the walk. Each condition is decided
 * on the update's path only by the constant its PHI takes there (counter-
 * silent.c's decide_cond; a build with its answers inverted warns on all
 * three functions). */
struct pglist_data { long x; };
struct folio { struct folio *next; int nid; };
enum node_stat_item { NR_WRITTEN = 6 };
void mod_node_page_state(struct pglist_data *, enum node_stat_item, long);
void unlock(struct folio *);
#define U4 unlock(f); unlock(f); unlock(f); unlock(f);
#define U16 U4 U4 U4 U4

/* NE_EXPR on an int */
void add_first(struct pglist_data *pgdat, struct folio *f, int nid)
{
	for (; f; f = f->next) {
		int done = 0;
		if (f->nid == nid) {
			mod_node_page_state(pgdat, NR_WRITTEN, 1);
			done = 1;
		}
		U16
		if (done)
			break;
	}
}

/* GT_EXPR on an unsigned char: -1 on the update's path is 255, above 100
 * (compared as a signed char it would be below) */
void add_marked(struct pglist_data *pgdat, struct folio *f, int nid)
{
	for (; f; f = f->next) {
		unsigned char state = 0;
		if (f->nid == nid) {
			mod_node_page_state(pgdat, NR_WRITTEN, 1);
			state = -1;
		}
		U16
		if (state > 100)
			break;
	}
}

/* EQ_EXPR on a long against a negative constant */
void add_until(struct pglist_data *pgdat, struct folio *f, int nid)
{
	for (; f; f = f->next) {
		long rc = 0;
		if (f->nid == nid) {
			mod_node_page_state(pgdat, NR_WRITTEN, 1);
			rc = -17;
		}
		U16
		if (rc == -17)
			return;
	}
}

/*
 * expect-none
 */
