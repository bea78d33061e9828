# layout/rules.mk -- bin/cachehot-layout: the layout check on the binary
# (DWARF through libdw/libdwfl, BTF through libbpf, manifest through jansson).
#   make layout          build the tool
#   make layout-kernel   real 6.1 objects with -g + the running kernel's BTF (long)
#   make layout-bench    bench/layout: time against one pahole dump (long)
LAYOUT_SRCS := $(wildcard layout/*.c)
LAYOUT_OBJS := $(patsubst layout/%.c,$(BUILD)/layout/%.o,$(LAYOUT_SRCS))
# libstdc++: __cxa_demangle for C++ symbol names (layout/symbols.c)
LAYOUT_LIBS := -ldw -lelf -lbpf -lstdc++
DEB_PACKAGES += libdw-dev libelf-dev libbpf-dev libjansson-dev pahole patch
ALL_TARGETS  += bin/cachehot-layout
CLEAN_FILES  += bin/cachehot-layout

$(BUILD)/layout/%.o: layout/%.c layout/lt.h layout/dwarf-internal.h $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -c -o $@ $<

bin/cachehot-layout: $(LAYOUT_OBJS) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(LAYOUT_OBJS) $(CORE_LIB) $(LAYOUT_LIBS) $(CORE_LIBS)

.PHONY: layout layout-kernel layout-bench
layout: bin/cachehot-layout

layout-kernel: bin/cachehot-layout
	@scripts/need-packages.sh $(sort $(DEB_PACKAGES))
	@layout/kernel-run.sh

layout-bench: bin/cachehot-layout
	@bench/layout
