# fuzz/rules.mk -- libFuzzer harnesses; never part of
# `make all` or `make check`. `make fuzz` builds them with clang-14
# (-fsanitize=fuzzer,address,undefined) and runs each for FUZZ_SECONDS
# (fuzz/run.sh); docs/reliability.md says what ran and what it found.
FUZZ_CC      := clang-14
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_NAMES   := sidecar sidecar_index eval dwarf btf census manifest driver access netcl asserts
FUZZ_BINS    := $(patsubst %,$(BUILD)/fuzz/fuzz-%,$(FUZZ_NAMES))
DEB_PACKAGES += clang-14 libclang-rt-14-dev

# the tools' main() files are compiled too (helpers live there), with
# main renamed so that libFuzzer's main is the program's
FUZZ_LIBSRC  := $(wildcard core/*.c) $(wildcard layout/*.c) bloat/bloat.c bloat/hmap.c bloat/linefiles.c bloat/reloc.c bloat/source.c \
		$(filter-out driver/main.c driver/engines.c,$(wildcard driver/*.c))
FUZZ_LIBOBJS := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(FUZZ_LIBSRC))
FUZZ_INC     := -Icore -Ilayout -Ibloat -Idriver
FUZZ_LIBS    = -ldw -lelf -lbpf -lstdc++ -ljansson $(DRIVER_LIBS)

$(BUILD)/fuzz/obj/%.o: %.c $(CORE_HDRS) layout/lt.h $(wildcard bloat/*.h) driver/driver.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu99 $(FUZZ_CFLAGS) $(FUZZ_INC) -c -o $@ $<

$(BUILD)/fuzz/obj/layout/main.o: FUZZ_INC += -Dmain=cachehot_layout_main

$(BUILD)/fuzz/fuzz-%: fuzz/fuzz_%.c fuzz/common.h $(FUZZ_LIBOBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu99 $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_INC) -o $@ $< $(FUZZ_LIBOBJS) $(FUZZ_LIBS)

# one source, two harnesses with their own corpora
$(BUILD)/fuzz/fuzz-dwarf $(BUILD)/fuzz/fuzz-btf: fuzz/fuzz_layout.c fuzz/common.h $(FUZZ_LIBOBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu99 $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_INC) -o $@ $< $(FUZZ_LIBOBJS) $(FUZZ_LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@scripts/need-packages.sh $(sort $(DEB_PACKAGES))
	@FUZZ_SECONDS=$(FUZZ_SECONDS) BUILD=$(BUILD) fuzz/run.sh $(FUZZ)

# Replay binaries (gcc, ASan + UBSan, no libFuzzer): built by `make` so that
# `make check` (tests/fuzz/run.sh) replays the crashes kept under
# tests/fuzz/crashes/NAME/ without clang.
REPLAY_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined
REPLAY_OBJS   := $(patsubst %.c,$(BUILD)/fuzz-replay/obj/%.o,$(FUZZ_LIBSRC))
REPLAY_BINS   := $(patsubst %,$(BUILD)/fuzz-replay/replay-%,$(FUZZ_NAMES))
ALL_TARGETS   += $(REPLAY_BINS)

$(BUILD)/fuzz-replay/obj/layout/main.o: FUZZ_INC += -Dmain=cachehot_layout_main

$(BUILD)/fuzz-replay/obj/%.o: %.c $(CORE_HDRS) layout/lt.h $(wildcard bloat/*.h) driver/driver.h
	@mkdir -p $(@D)
	$(CC) -std=gnu99 -g -O1 $(REPLAY_SAN) $(FUZZ_INC) -c -o $@ $<

$(BUILD)/fuzz-replay/replay-%: fuzz/fuzz_%.c fuzz/replay.c fuzz/common.h $(REPLAY_OBJS)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 -g -O1 $(REPLAY_SAN) $(FUZZ_INC) -o $@ $< fuzz/replay.c $(REPLAY_OBJS) $(FUZZ_LIBS)

$(BUILD)/fuzz-replay/replay-dwarf $(BUILD)/fuzz-replay/replay-btf: fuzz/fuzz_layout.c fuzz/replay.c fuzz/common.h $(REPLAY_OBJS)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 -g -O1 $(REPLAY_SAN) $(FUZZ_INC) -o $@ $< fuzz/replay.c $(REPLAY_OBJS) $(FUZZ_LIBS)
