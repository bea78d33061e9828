# cocci/rules.mk -- Coccinelle rules (cocci/*.cocci; docs/cocci.rst).
# Nothing to build: spatch reads the rules as they are.
#   make cocci-check    the rule tests only (tests/cocci/run.sh, a few seconds)
#   make cocci-kernel   every rule over linux-6.1 mm/, through the kernel's
#                       "make coccicheck MODE=report M=mm/" and plain
#                       "spatch --dir mm -j 2" (minutes; never run by tests)
#   make cocci-bench    bench/cocci: the rule set against an empty-match pass
#   make cocci-merged   cocci/all/cachehot.cocci: every rule in one semantic
#                       patch (bench/cocci-merge.py), so that one coccicheck
#                       run parses each file once; tests/cocci checks it is
#                       current
DEB_PACKAGES += coccinelle pahole patch python3 bc time

.PHONY: cocci-check cocci-kernel cocci-bench cocci-merged
cocci-check: deps
	@tests/run.sh cocci
cocci-kernel: deps
	@cocci/kernel-run.sh
cocci-bench: deps
	@bench/cocci
cocci-merged:
	@mkdir -p cocci/all && python3 bench/cocci-merge.py cocci/all/cachehot.cocci cocci/*.cocci
