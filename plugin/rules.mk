# plugin/rules.mk -- the GCC plugin, C-style code compiled with g++ against
# gcc-<version>-plugin-dev, like the kernel's scripts/gcc-plugins/.
PLUGIN_DIR    := $(shell $(CC) -print-file-name=plugin 2>/dev/null)
PLUGIN_SO     := plugin/cachehot.so
PLUGIN_SRCS   := $(wildcard plugin/*.c)
PLUGIN_OBJS   := $(patsubst plugin/%.c,$(BUILD)/plugin/%.o,$(PLUGIN_SRCS))
PLUGIN_CXXFLAGS = -std=gnu++11 -fPIC -fno-rtti -fno-exceptions -fvisibility=hidden -O2 -g -Wall \
		  -ffunction-sections -fdata-sections \
		  -Wno-unused-parameter -I$(PLUGIN_DIR)/include -Icore -Iplugin
ALL_TARGETS   += $(PLUGIN_SO)
CLEAN_FILES   += $(PLUGIN_SO)

$(BUILD)/plugin/%.o: plugin/%.c $(wildcard plugin/*.h) $(CORE_HDRS)
	@mkdir -p $(@D)
	@test -d $(PLUGIN_DIR)/include || { echo "plugin: no GCC plugin headers in $(PLUGIN_DIR): install gcc-12-plugin-dev (make deps)" >&2; exit 1; }
	$(CXX) -x c++ $(PLUGIN_CXXFLAGS) -c -o $@ $<

# libstdc++ linked in statically: cc1 does not load libstdc++.so, and
# loading it for the plugin cost more instructions than the checks themselves
# (bench/plugin-overhead).
# --exclude-libs: libstdc++'s symbols stay local to the plugin, so that cc1's
# dlopen(RTLD_NOW) binds about 300 fewer symbols by name (0.02% of cc1 on
# mm/page_counter.c).
# plugin/exports.map: only plugin_init and plugin_is_GPL_compatible are
# exported; the plugin's own calls bind inside it at link time (about 180
# fewer lookups by name at dlopen).
# --gc-sections (each function and datum in its own section): the core's
# code the plugin never calls goes, and with it 26 of the 323 names cc1's
# dlopen(RTLD_NOW) looked up (26 k instructions of cc1 per unit).
# plugin_link: the recipe, $@ from the objects among $^.
define plugin_link
	$(CXX) -shared -static-libstdc++ -static-libgcc -Wl,-O1 -Wl,--as-needed -Wl,--exclude-libs,ALL \
		-Wl,--gc-sections \
		-Wl,--version-script=plugin/exports.map -o $@ $(filter %.o,$^) $(CORE_LIBS)
endef
$(PLUGIN_SO): $(PLUGIN_OBJS) $(CORE_CXX_OBJS) plugin/exports.map
	$(plugin_link)

# The plugin built with -DCACHEHOT_CHECK_DECIDE: counter-silent.c's
# decide_cond() checked against GCC's own fold_binary() on every condition
# it decides (an internal error on any difference). tests/plugin compiles
# the counter fixtures with it (tests/plugin/cases/counter_decided.c
# reaches it on three of the comparisons it folds by itself).
PLUGIN_DECIDE_SO := $(BUILD)/plugin-check-decide/cachehot.so
ALL_TARGETS += $(PLUGIN_DECIDE_SO)
$(BUILD)/plugin-check-decide/counter-silent.o: plugin/counter-silent.c $(wildcard plugin/*.h) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) -x c++ $(PLUGIN_CXXFLAGS) -DCACHEHOT_CHECK_DECIDE -c -o $@ $<
$(PLUGIN_DECIDE_SO): $(filter-out $(BUILD)/plugin/counter-silent.o,$(PLUGIN_OBJS)) \
		$(BUILD)/plugin-check-decide/counter-silent.o $(CORE_CXX_OBJS) plugin/exports.map
	$(plugin_link)

.PHONY: plugin
plugin: $(PLUGIN_SO)

# make plugin-asan: the plugin and the core built with AddressSanitizer and
# UBSan into $(BUILD)/plugin-asan/cachehot.so (plugin/heap.c then leaves
# every block to ASan). make plugin-asan-check runs the plugin suite with it,
# cc1 started with libasan preloaded (cc1 itself is not instrumented; its
# leaks by design are not reported). Not part of make check (a second run of
# the plugin suite, about 45 s, and a second build of the plugin); make
# long-check runs it.
PLUGIN_ASAN_DIR   := $(BUILD)/plugin-asan
PLUGIN_ASAN_SO    := $(PLUGIN_ASAN_DIR)/cachehot.so
PLUGIN_ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
PLUGIN_ASAN_OBJS  := $(patsubst plugin/%.c,$(PLUGIN_ASAN_DIR)/plugin/%.o,$(PLUGIN_SRCS)) \
		     $(patsubst core/%.c,$(PLUGIN_ASAN_DIR)/core/%.o,$(filter-out core/objsec.c,$(CORE_SRCS)))
$(PLUGIN_ASAN_DIR)/plugin/%.o: plugin/%.c $(wildcard plugin/*.h) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) -x c++ $(PLUGIN_CXXFLAGS) $(PLUGIN_ASAN_FLAGS) -c -o $@ $<
$(PLUGIN_ASAN_DIR)/core/%.o: core/%.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) -x c++ -std=gnu++11 $(CFLAGS) $(WARN) -fPIC -fno-rtti $(PLUGIN_ASAN_FLAGS) -c -o $@ $<
$(PLUGIN_ASAN_SO): $(PLUGIN_ASAN_OBJS) plugin/exports.map
	$(CXX) -shared $(PLUGIN_ASAN_FLAGS) -static-libstdc++ -static-libgcc -Wl,--exclude-libs,ALL \
		-Wl,--version-script=plugin/exports.map -o $@ $(filter %.o,$^) $(CORE_LIBS)

.PHONY: plugin-asan plugin-asan-check
plugin-asan: deps
	@$(MAKE) --no-print-directory $(PLUGIN_ASAN_SO)
plugin-asan-check: plugin-asan
	@$(MAKE) --no-print-directory all
	@CACHEHOT_TEST_PLUGIN=$(abspath $(PLUGIN_ASAN_SO)) \
		CACHEHOT_TEST_PRELOAD=$$($(CC) -print-file-name=libasan.so) tests/run.sh plugin
