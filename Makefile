# cachehot -- top-level Makefile.
#
#   make demo          build everything, run the plugin over examples/ (main job)
#   make check         install what is missing, build, run every test suite
#   make install PREFIX=/usr/local DESTDIR=   tools, plugin, header, rules, man pages
#
# Long targets on Debian's linux-source-6.1 (never part of make check):
#   make kernel-check        mm/ + udp.o with the plugin; pahole cross-check
#   make sparse-kernel       make C=2 CHECK=bin/cachehot-sparse over mm/
#   make cocci-kernel        the Coccinelle rules under make coccicheck
#   make layout-kernel       the DWARF/BTF layout check on real objects
#   make bloat-kernel        out-of-line copy census of mm/ and udp.o
#   make kernel-integration  the in-tree CONFIG_GCC_PLUGIN_CACHEHOT patch, built
#   make long-check          every long target above and below, one after the other
#
# Packaging:
#   make deb                 the Debian package, built with no network (build/deb/)
#   make deb-check           that package installed into a fresh Debian 12 (debootstrap)
#
# Each engine keeps its build rules in its own folder as <dir>/rules.mk;
# they add to the variables below (install: driver/rules.mk has the one
# recipe; other fragments add prerequisites only). Outputs: $(BUILD), bin/.

BUILD    ?= build
# make predefines CC=cc and CXX=g++: "?=" would never apply
ifeq ($(origin CC),default)
CC        = gcc
endif
ifeq ($(origin CXX),default)
CXX       = g++
endif
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wno-unused-parameter
PREFIX   ?= /usr/local
DESTDIR  ?=
TOP      := $(CURDIR)

# Debian packages the default build and tests need (rules.mk files add theirs).
DEB_PACKAGES = gcc g++ make gcc-12-plugin-dev libjansson-dev libelf-dev libdw-dev \
               pahole jq
# Run-time needs found on a fresh Debian 12 (debootstrap) that no package
# dependency pulls in: spatch's python rules dlopen libpython3.11.so (the -dev
# symlink); pahole 1.24 -J adds .BTF with llvm-objcopy.
DEB_PACKAGES += libpython3.11-dev llvm
ALL_TARGETS  =
CLEAN_FILES  =

.PHONY: all deps check test demo clean install bench deb deb-check long-check
all:

# core/ first: the other fragments name $(CORE_LIB) and friends in their
# prerequisites, which make expands as it reads them
include core/rules.mk
include $(filter-out core/rules.mk,$(sort $(wildcard */rules.mk)))

all: $(ALL_TARGETS)

# Installs missing Debian packages (apt-get; sudo when not root).
deps:
	@scripts/need-packages.sh $(sort $(DEB_PACKAGES))

# The README's test command. SUITES="a b" restricts to some suites;
# T=SUITE or T=SUITE/CASE (a shell pattern) to one suite or some of its cases.
check: deps
	@$(MAKE) --no-print-directory all
	@tests/run.sh $(if $(T),--only "$(T)",$(SUITES))
test: check

clean:
	rm -rf $(BUILD) $(CLEAN_FILES)

# The README's main job: build everything, run the plugin over examples/.
demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh

# The Debian package (debian/): dpkg-buildpackage -us -uc -b in a copy of the
# tree under build/deb/, with the network unreachable, then lintian.
deb:
	@scripts/deb.sh $(abspath $(BUILD))/deb

# Installs that package into a fresh Debian 12 made by debootstrap (network:
# Debian's archive) and runs debian/tests/smoke there. Long; root only.
deb-check: deb
	@scripts/deb-check.sh $(abspath $(BUILD))/deb

# Every documented long target, one after the other (scripts/long-check.sh;
# LONG="a b" runs some); logs in build/long-check/. Hours at -j2.
long-check: deps
	@scripts/long-check.sh $(LONG)
