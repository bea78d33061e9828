/* The address is taken inside a header inline function (not walked, for
 * speed) inlined here: the call graph's reference from this function still
 * reports it, at the call in this file (6.12 net/core/xdp.o,
 * btf_id_cmp_func: found by sparse, missed by the plugin). */
#include "cmp-hdr.h"
int ids[8];
int is_metadata_kfunc(int id)
{
	return id_set_contains(ids, 8, id) != 0;
}
/* cachehot-args:
 * expect:
 * 9:16: note: inline function 'id_cmp' (defined at cmp-hdr.h:5) is passed to 'bsearch' (argument 5), so an out-of-line copy is emitted; `cachehot-bloat OBJ` gives its size in bytes from the symbol table [cachehot-inline-addr]
 */
