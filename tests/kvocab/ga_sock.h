/* ga_sock: a struct with kernel cacheline groups (6.12 include/linux/cache.h
 * markers, reduced from tcp_sock) for the [cachehot-group-assert] fixture
 * ga_asserts.c. Offsets (bytes) in the comments. */
#ifndef GA_SOCK_H
#define GA_SOCK_H
#define __cacheline_group_begin(GROUP) unsigned char __cacheline_group_begin__##GROUP[0]
#define __cacheline_group_end(GROUP) unsigned char __cacheline_group_end__##GROUP[0]
struct ga_sock {
	long head;                              /*  0  8 */
	__cacheline_group_begin(ga_read_tx);    /*  8    */
	unsigned int mss;                       /*  8  4 */
	unsigned int window;                    /* 12  4 */
	__cacheline_group_end(ga_read_tx);      /* 16    */
	unsigned int moved;                     /* 16  4: asserted in ga_read_tx */
	__cacheline_group_begin(ga_write_tx);   /* 24    */
	unsigned long snd_nxt;                  /* 24  8 */
	unsigned long packets;                  /* 32  8: not asserted */
	unsigned char chrono:2, repair:1;       /* 40  1: bit-fields */
	__cacheline_group_end(ga_write_tx);     /* 41    */
	__cacheline_group_begin(ga_read_rx);    /* 41    */
	union {                                 /* 48  8 */
		void *rx_dst;
		unsigned long rx_cookie;
	};
	__cacheline_group_end(ga_read_rx);      /* 56    */
	__cacheline_group_begin(ga_write_rx);   /* 56    */
	unsigned int rcv_nxt;                   /* 56  4 */
	union {                                 /* 60  2: not asserted */
		unsigned short rcv_wnd;
		unsigned short rcv_wnd_raw;
	};
	__cacheline_group_end(ga_write_rx);     /* 62    */
	unsigned int tail;                      /* 64  4 */
};
#endif
