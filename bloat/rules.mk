# bloat/rules.mk -- bin/cachehot-bloat: out-of-line copies of inline functions
# (ELF symbol sizes via libelf, "declared inline" via libdw/libdwfl).
# Kernel run: make bloat-kernel (long; not part of make check).
BLOAT_SRCS := bloat/bloat.c bloat/hmap.c bloat/linefiles.c bloat/reloc.c bloat/source.c bloat/cachehot-bloat.c
BLOAT_OBJS := $(patsubst bloat/%.c,$(BUILD)/bloat/%.o,$(BLOAT_SRCS))
BLOAT_LIBS := -ldw -lelf
DEB_PACKAGES += libelf-dev libdw-dev binutils coccinelle pahole bc
ALL_TARGETS  += bin/cachehot-bloat
CLEAN_FILES  += bin/cachehot-bloat

$(BUILD)/bloat/%.o: bloat/%.c $(wildcard bloat/*.h)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -c -o $@ $<

bin/cachehot-bloat: $(BLOAT_OBJS) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(BLOAT_OBJS) $(CORE_LIB) $(BLOAT_LIBS) $(CORE_LIBS)

.PHONY: bloat bloat-kernel
bloat: bin/cachehot-bloat

# Real input: 6.1 mm/ and net/ipv4/udp.o with -g in build/kernel-bloat, the
# census over them and the cocci rule over mm/ and net/ (timed).
bloat-kernel: bin/cachehot-bloat
	@scripts/need-packages.sh $(sort $(DEB_PACKAGES))
	@bloat/kernel-run.sh
