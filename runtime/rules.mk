# runtime/rules.mk -- libcachehot-rt, the runtime a recording build
# (-fplugin-arg-cachehot-record) links with: runtime/libcachehot-rt.so and
# runtime/libcachehot-rt.a; installed as PREFIX/lib/libcachehot-rt.{so,a}
# and PREFIX/include/cachehot-rt.h (driver/rules.mk's install recipe).
RT_SO      := runtime/libcachehot-rt.so
# The ABI version in the SONAME (libcachehot-rt.so.0): raise it when the
# entry points the plugin's instrumentation calls change incompatibly.
RT_SOVERSION := 0
RT_A       := runtime/libcachehot-rt.a
RT_CFLAGS   = -std=gnu99 -O2 -g -fPIC -fvisibility=hidden $(WARN) -Wno-missing-field-initializers -Wno-format-truncation
ALL_TARGETS += $(RT_SO) $(RT_A)
CLEAN_FILES += $(RT_SO) $(RT_SO).$(RT_SOVERSION) $(RT_A)

# rt.c: the recorder (entry points, the model); sites.c: site strings to
# members; profile.c: the JSON profile; allregs.c: the entry points that
# preserve every register (x86-64)
RT_OBJS    := $(BUILD)/runtime/rt.o $(BUILD)/runtime/sites.o $(BUILD)/runtime/profile.o $(BUILD)/runtime/allregs.o
$(BUILD)/runtime/%.o: runtime/%.c runtime/cachehot-rt.h runtime/rt-private.h runtime/allregs.h
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -c -o $@ $<

# the library is libcachehot-rt.so.0 (its SONAME: what programs linked with it
# load); libcachehot-rt.so is the link-time name, a symbolic link to it
$(RT_SO).$(RT_SOVERSION): $(RT_OBJS)
	$(CC) -shared -Wl,-soname,libcachehot-rt.so.$(RT_SOVERSION) -o $@ $^ -lpthread
$(RT_SO): $(RT_SO).$(RT_SOVERSION)
	ln -sf $(notdir $<) $@

$(RT_A): $(RT_OBJS)
	@rm -f $@
	ar rcs $@ $^

.PHONY: runtime
runtime: $(RT_SO) $(RT_A)
# tests/record opens the html report in a real browser (headless Chromium)
DEB_PACKAGES += chromium

# The proof (docs/record.md; never part of make check: timings):
#   make record-demo       record a benchmark with false sharing, print the
#                          confirmed finding and its fix, apply it, print the
#                          measured speedup (bench/record/run.sh accumulators)
#   make record-bench      the same for every program of bench/record
#   make record-memcached  memcached from Debian's source package, recorded
#                          under memcslap on loopback (network: Debian archive)
.PHONY: record-demo record-bench record-memcached
record-demo: deps
	@$(MAKE) --no-print-directory all
	@bench/record/run.sh -n 5 accumulators
record-bench: deps
	@$(MAKE) --no-print-directory all
	@bench/record/run.sh -n 7
record-memcached: deps
	@$(MAKE) --no-print-directory all
	@userspace/memcached-record.sh
