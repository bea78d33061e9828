#include "topology.h"

struct topo_level {
	int (*sd_flags)(void);
	const char *name;
};

struct topo_level topo_levels[] = {
	{ cpu_cluster_flags, "CLS" },
	{ cpu_core_flags, "MC" },
};
