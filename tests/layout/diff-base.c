/* cachehot-layout --diff fixture: a clean layout ('limit' and 'pgdat' are
 * read-mostly, on their own line); move-read-mostly.patch moves 'limit' onto
 * the hot 'nr_pages' line, which --diff must flag (exit status 1). */
#include "kernel-cache.h"
struct pglist_like;
struct lruvec_like {
	unsigned long nr_pages;
	unsigned long scanned;
	CACHELINE_PADDING(_pad1_);
	unsigned long limit;
	struct pglist_like *pgdat;
};
struct lruvec_like lv;
