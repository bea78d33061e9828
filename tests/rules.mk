# tests/rules.mk -- targets of the test tools that are not suites.
#   make fuzz-engines N=100000 SEED=1   differential testing of the plugin, the
#       sparse checker and cachehot-layout against GCC's own layout on N
#       generated structs (tests/fuzz-engines/fuzz.sh; docs/reliability.md).
#       `make check` runs 300 of them (tests/fuzz-engines/run.sh).
DEB_PACKAGES += python3 perl jq bear cmake bsdutils ccache icecc valgrind
N    ?= 10000
SEED ?= 1
.PHONY: fuzz-engines
fuzz-engines: deps
	@$(MAKE) --no-print-directory all
	@nice -n 19 tests/fuzz-engines/fuzz.sh $(N) $(SEED)
