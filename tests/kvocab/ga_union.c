/* Groups `cachehot asserts` must write or refuse (kvocab suite):
 *  - ga_un: a union whose group sits in an anonymous struct member: the
 *    block says 'union ga_un' and compiles;
 *  - ga_anon: a struct whose groups sit in an anonymous struct member;
 *  - ga_overlap: ga_ov_write_tx begins inside ga_ov_read_tx: an error
 *    naming both, not "no cacheline groups" and not a block without them;
 *  - ga_direct: markers directly in a union (every member at offset 0). */
#include "ga_sock.h"
union ga_un {
	struct {
		__cacheline_group_begin(ga_un_read);
		long key;               /* 0 8 */
		int len;                /* 8 4 */
		__cacheline_group_end(ga_un_read);   /* 12 */
	};
	char raw[24];
};
struct ga_anon {
	long head;                      /*  0 8 */
	struct {
		__cacheline_group_begin(ga_anon_write);   /* 8 */
		long hits;              /*  8 8 */
		__cacheline_group_end(ga_anon_write);     /* 16 */
	};
	long tail;                      /* 16 8 */
};
struct ga_overlap {
	long head;
	__cacheline_group_begin(ga_ov_read_tx);
	int a;
	__cacheline_group_begin(ga_ov_write_tx);
	int b;
	__cacheline_group_end(ga_ov_read_tx);
	long c;
	__cacheline_group_end(ga_ov_write_tx);
};
union ga_direct {
	__cacheline_group_begin(ga_direct_read);
	long x;
	__cacheline_group_end(ga_direct_read);
	int y;
};
union ga_un u1;
struct ga_anon a1;
struct ga_overlap o1;
union ga_direct d1;
