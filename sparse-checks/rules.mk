# sparse-checks/rules.mk -- bin/cachehot-sparse, a libsparse checker.
#
#   make sparse          libsparse from Debian's source package, then the checker
#   make sparse-kernel   make C=2 CHECK=bin/cachehot-sparse over 6.1 mm/ (long)
#
# libsparse is built from Debian's own source package of the installed sparse
# version, with Debian's patches applied (sparse-checks/get-libsparse.sh);
# no sparse source lives in this repository. The checker links sparse.o from
# that tree unmodified (sparse's own main) and wraps seven libsparse entry
# points with the linker's --wrap (sparse-checks/main.c, and lookup_symbol
# in sparse-checks/attrs.c).
SPARSE_SRC    := $(BUILD)/sparse-src/sparse
SPARSE_LIB    := $(SPARSE_SRC)/libsparse.a
SPARSE_MAINO  := $(SPARSE_SRC)/sparse.o
SPARSE_BIN    := bin/cachehot-sparse
SPARSE_CK_SRCS := $(wildcard sparse-checks/*.c)
SPARSE_CK_OBJS := $(patsubst sparse-checks/%.c,$(BUILD)/sparse-checks/%.o,$(SPARSE_CK_SRCS))
SPARSE_WRAPS  := -Wl,--wrap=sparse_initialize -Wl,--wrap=init_builtins -Wl,--wrap=sparse \
		 -Wl,--wrap=clear_token_alloc -Wl,--wrap=end_block_scope \
		 -Wl,--wrap=end_function_scope -Wl,--wrap=lookup_symbol
DEB_PACKAGES  += sparse dpkg-dev
ALL_TARGETS   += $(SPARSE_BIN)
CLEAN_FILES   += $(SPARSE_BIN)

# Built once per installed Debian sparse version (the script checks it).
$(SPARSE_LIB): sparse-checks/get-libsparse.sh
	@sparse-checks/get-libsparse.sh $(BUILD)/sparse-src
	@touch $@

# sparse's own main(), compiled unmodified in that tree
$(SPARSE_MAINO): $(SPARSE_LIB)
	@$(MAKE) -s -C $(SPARSE_SRC) sparse.o >/dev/null
	@touch $@

$(BUILD)/sparse-checks/%.o: sparse-checks/%.c $(wildcard sparse-checks/*.h) $(CORE_HDRS) $(SPARSE_LIB)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -Wno-sign-compare -I$(SPARSE_SRC) -Icore -c -o $@ $<

$(SPARSE_BIN): $(SPARSE_CK_OBJS) $(SPARSE_MAINO) $(SPARSE_LIB) $(CORE_LIB) sparse-checks/rules.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(SPARSE_MAINO) $(SPARSE_CK_OBJS) $(SPARSE_WRAPS) \
		$(SPARSE_LIB) $(CORE_LIB) $(CORE_LIBS)

.PHONY: sparse sparse-kernel
sparse: $(SPARSE_BIN)

# Real input: 6.1 mm/ with the shipped sidecar (docs/sparse.rst).
SPARSE_KOBJ   ?= $(abspath $(BUILD))/kernel-sparse
SPARSE_ANN    ?= $(TOP)/examples/linux-6.1.annotations
sparse-kernel: $(SPARSE_BIN)
	@sparse-checks/kernel-run.sh "$(SPARSE_KOBJ)" "$(SPARSE_ANN)"
