/* A worker-pool server's globals, reduced from the shape of userspace
 * daemons: a request counter every worker bumps, sitting beside
 * configuration the workers only read and the indices of a work queue.
 * With -DFIXED it carries the fix cachehot suggests (tests/globals/run.sh). */
#include "cachehot.h"

#ifdef FIXED
#define LINE_ALONE _Alignas(64)   /* what the warning on the linked program says */
#else
#define LINE_ALONE
#endif

static unsigned int max_conns __cacheline_read_mostly = 1024;
LINE_ALONE unsigned long requests_served __cacheline_hot;
unsigned long queue_head;
unsigned long queue_tail;

int serve(int fd);
int serve(int fd)
{
	__atomic_fetch_add(&requests_served, 1, __ATOMIC_RELAXED);
	queue_head++;
	return fd < (int)max_conns ? (int)(queue_tail & 7) : -1;
}

int main(int argc, char **argv)
{
	(void)argv;
	max_conns = (unsigned int)argc * 512;
	return serve(argc);
}
