# kernel/rules.mk -- real-kernel targets (long; never part of make check).
.PHONY: kernel-prepare kernel-check
kernel-prepare:
	kernel/prepare.sh $(abspath $(BUILD))/kernel-plugin >/dev/null

# Builds 6.1 mm/ with the plugin and examples/linux-6.1.annotations;
# findings, manifest and the pahole cross-check land in build/kernel-plugin/.
kernel-check: deps $(PLUGIN_SO)
	kernel/check.sh

# Builds 6.1 mm/ with the [cachehot-counter-batch] pass (nice 10, -j2);
# findings in build/kernel-counter/counter-findings.txt, verdicts in
# docs/kernel-6.1.md.
.PHONY: counter-kernel
counter-kernel: deps $(PLUGIN_SO)
	kernel/counter-check.sh
# Builds 6.1 mm/ and kernel/sched/ with the plugin's access mode (one facts
# file per unit in build/kernel-access-facts/), runs cachehot annotate over
# them and compares the result with kernel/annotate-truth-6.1.txt
# (docs/annotate.md). 8-11 min at -j2.
.PHONY: annotate-kernel
annotate-kernel: deps $(PLUGIN_SO) bin/cachehot
	kernel/annotate-run.sh

# The whole kernel (make kernel-sweep VERSION=6.12; default 6.1): every
# compile with the plugin, then make C=2 with cachehot-sparse, both -k;
# prints objects compiled, ICEs, signals and plugin-caused failures
# (docs/reliability.md). Hours at -j2; never part of make check.
.PHONY: kernel-sweep
kernel-sweep: deps $(PLUGIN_SO) $(SPARSE_BIN)
	VERSION=$(or $(VERSION),6.1) kernel/sweep.sh

# Linux 6.12 (Debian's linux-source-6.12) and the running kernel's BTF with
# the tree's own vocabulary: cacheline groups, their asserts and the
# net_cachelines tables (kernel/groups.sh; docs/kernel-6.12.md). Long.
.PHONY: kernel-groups
kernel-groups: bin/cachehot bin/cachehot-layout
	kernel/groups.sh

# 6.1 mm/ with the access mode through ccache: a build of cache misses,
# then one served entirely from the cache; cachehot annotate over each
# build's objects must agree (docs/plugin.rst). About 2x the mm/ build.
.PHONY: ccache-kernel
ccache-kernel: deps $(PLUGIN_SO) bin/cachehot
	kernel/ccache-run.sh
