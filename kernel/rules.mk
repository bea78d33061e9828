# kernel/rules.mk -- real-kernel targets (long; never part of make check).
.PHONY: kernel-prepare kernel-check
kernel-prepare:
	kernel/prepare.sh $(abspath $(BUILD))/kernel-plugin >/dev/null

# Builds 6.1 mm/ with the plugin and examples/linux-6.1.annotations;
# findings, manifest and the pahole cross-check land in build/kernel-plugin/.
kernel-check: deps $(PLUGIN_SO)
	kernel/check.sh

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
