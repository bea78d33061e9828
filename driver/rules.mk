# driver/rules.mk -- bin/cachehot (the one entry point), its test tools,
# "make install" and "make kernel-integration".
DRIVER_SRCS := $(wildcard driver/*.c)
DRIVER_OBJS := $(patsubst driver/%.c,$(BUILD)/driver/%.o,$(DRIVER_SRCS))
DRIVER_HDRS := driver/driver.h driver/check.h core/cachehot-core.h $(wildcard core/api-*.h)
DRIVER_LIBS := $(shell pkg-config --libs libgit2 2>/dev/null || echo -lgit2) -ldw
# SARIF 2.1.0 schema for tests/driver: committed, unmodified
# (third_party/sarif/README.md says where it comes from): no network.
SARIF_SCHEMA  := third_party/sarif/sarif-2.1.0-rtm.5.json
ALL_TARGETS  += bin/cachehot
CLEAN_FILES  += bin/cachehot
# python3-jsonschema validates SARIF in tests/driver; git for --diff.
DEB_PACKAGES += libjansson-dev libgit2-dev libdw-dev python3-jsonschema git patch

$(BUILD)/driver/%.o: driver/%.c $(DRIVER_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -c -o $@ $<

bin/cachehot: $(DRIVER_OBJS) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(DRIVER_OBJS) $(CORE_LIB) $(CORE_LIBS) $(DRIVER_LIBS)

.PHONY: driver
driver: bin/cachehot

# ---- make install / make uninstall (PREFIX=... DESTDIR=...) ------------------
# Every bin/ tool that exists, the plugin, the header, the Coccinelle rules
# and the man pages. Layout: PREFIX/bin, the plugin in GCC's own plugin
# folder ($(gcc -print-file-name=plugin), GCC_PLUGIN_DIR overrides it) so
# that -fplugin=cachehot finds it, and PREFIX/lib/cachehot/cachehot.so (a
# relative link to it, where an installed cachehot looks), PREFIX/include/cachehot.h,
# PREFIX/share/cachehot/cocci/, PREFIX/share/man/man{1,7}/, the kernel patch
# in PREFIX/share/cachehot/kernel/. DESTDIR is put in front of every path.
INSTALL_DIR     = $(DESTDIR)$(PREFIX)
GCC_PLUGIN_DIR ?= $(shell $(CC) -print-file-name=plugin)
CACHEHOT_TOOLS  = cachehot cachehot-layout cachehot-bloat cachehot-sparse
MAN_PAGES       = $(wildcard docs/man/*.[1-9])
.PHONY: uninstall
install: all
	install -d $(INSTALL_DIR)/bin $(INSTALL_DIR)/share/man/man1 $(INSTALL_DIR)/share/man/man7 \
		$(INSTALL_DIR)/share/doc/cachehot
	for t in bin/*; do [ -f "$$t" ] && [ -x "$$t" ] && install -m 755 "$$t" $(INSTALL_DIR)/bin/ || true; done
	if [ -f plugin/cachehot.so ]; then \
		install -d $(DESTDIR)$(GCC_PLUGIN_DIR) $(INSTALL_DIR)/lib/cachehot && \
		install -m 755 plugin/cachehot.so $(DESTDIR)$(GCC_PLUGIN_DIR)/ && \
		ln -sfr $(DESTDIR)$(GCC_PLUGIN_DIR)/cachehot.so $(INSTALL_DIR)/lib/cachehot/cachehot.so; fi
	if [ -f include/cachehot.h ]; then install -d $(INSTALL_DIR)/include && \
		install -m 644 include/cachehot.h $(INSTALL_DIR)/include/; fi
	if [ -f runtime/libcachehot-rt.so ]; then install -d $(INSTALL_DIR)/lib $(INSTALL_DIR)/include && \
		install -m 644 runtime/libcachehot-rt.so.$(RT_SOVERSION) $(INSTALL_DIR)/lib/ && \
		ln -sf libcachehot-rt.so.$(RT_SOVERSION) $(INSTALL_DIR)/lib/libcachehot-rt.so && \
		install -m 644 runtime/libcachehot-rt.a $(INSTALL_DIR)/lib/ && \
		install -m 644 runtime/cachehot-rt.h $(INSTALL_DIR)/include/; fi
	if ls cocci/*.cocci >/dev/null 2>&1; then install -d $(INSTALL_DIR)/share/cachehot/cocci && \
		install -m 644 cocci/*.cocci $(INSTALL_DIR)/share/cachehot/cocci/ && \
		install -d $(INSTALL_DIR)/share/cachehot/cocci/all && \
		install -m 644 cocci/all/cachehot.cocci $(INSTALL_DIR)/share/cachehot/cocci/all/; fi
	for m in $(MAN_PAGES); do install -m 644 "$$m" $(INSTALL_DIR)/share/man/man$${m##*.}/; done
	install -m 644 docs/cachehot.rst $(INSTALL_DIR)/share/doc/cachehot/
	install -d $(INSTALL_DIR)/share/cachehot/kernel
	install -m 644 docs/kernel/*.patch docs/kernel/README.rst $(INSTALL_DIR)/share/cachehot/kernel/

# Removes exactly what install put there (and the folders only cachehot uses).
uninstall:
	for t in $(CACHEHOT_TOOLS); do rm -f $(INSTALL_DIR)/bin/$$t; done
	rm -f $(DESTDIR)$(GCC_PLUGIN_DIR)/cachehot.so $(INSTALL_DIR)/include/cachehot.h
	rm -f $(INSTALL_DIR)/lib/libcachehot-rt.so $(INSTALL_DIR)/lib/libcachehot-rt.so.$(RT_SOVERSION) $(INSTALL_DIR)/lib/libcachehot-rt.a $(INSTALL_DIR)/include/cachehot-rt.h
	for m in $(notdir $(MAN_PAGES)); do rm -f $(INSTALL_DIR)/share/man/man$${m##*.}/$$m; done
	rm -rf $(INSTALL_DIR)/lib/cachehot $(INSTALL_DIR)/share/cachehot $(INSTALL_DIR)/share/doc/cachehot

# ---- make kernel-integration -----------------------------------------------
# Applies docs/kernel/*.patch to a copy of build/linux-6.1 (only the files it
# touches are copied, the rest hard-linked: see driver/kernel-integration.sh),
# copies plugin/ + core/ in as scripts/gcc-plugins/cachehot*, enables
# CONFIG_GCC_PLUGIN_CACHEHOT and builds mm/. Long: never part of make check.
.PHONY: kernel-integration
kernel-integration:
	driver/kernel-integration.sh
