// SPDX-License-Identifier: GPL-2.0
/* Reduced from net/ipv4/udp.c udp_sendmsg(): the selected pointer is passed
 * on (it escapes), so the out-of-line copy is needed: reported, not patched. */
#include "udp.h"

int ip_generic_getfrag(void *from, char *to, int offset, int len, int odd);
int ip_append_data(int (*getfrag)(void *, char *, int, int, int), void *from,
		   int len);

int udp_sendmsg(void *msg, int len, int is_udplite)
{
	int (*getfrag)(void *, char *, int, int, int);

	getfrag = is_udplite ? udplite_getfrag : ip_generic_getfrag;
	return ip_append_data(getfrag, msg, len);
}
