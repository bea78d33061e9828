/* A struct shaped like 6.12's net_device/inet_connection_sock rows of the
 * net_cachelines tables (reduced): an array member, an anonymous union, a
 * named nested struct whose fields the table names by their own names, a
 * bit-field, a member the table forgets, and a written field next to a
 * field read-mostly on the other path. Read by tests/kvocab/run.sh with
 * nc_dev.rst; offsets (bytes) in the comments. */
struct nc_hlist {
	void *first;
};
struct nc_dev {
	unsigned long state;            /*  0  8 */
	unsigned int flags;             /*  8  4 */
	unsigned int mtu;               /* 12  4 */
	void *maps[2];                  /* 16 16 */
	union {                         /* 32  8 */
		void *lstats;
		void *tstats;
	};
	struct {                        /* 40  4 */
		unsigned char pending;
		unsigned char quick;
		unsigned short rcv_mss;
	} ack;
	unsigned int lltx:1, other:31;  /* 44  4 */
	struct nc_hlist pools;          /* 48  8 */
	void *ptr;                      /* 56  8 */
	unsigned long rx_bytes;         /* 64  8 */
	unsigned long tx_bytes;         /* 72  8 */
	unsigned long rx_hash;          /* 80  8 */
	char pad[40];                   /* 88 40 */
};
struct nc_dev nc_dev_instance;
