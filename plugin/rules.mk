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
$(PLUGIN_SO): $(PLUGIN_OBJS) $(CORE_CXX_OBJS) plugin/exports.map
	$(CXX) -shared -static-libstdc++ -static-libgcc -Wl,-O1 -Wl,--as-needed -Wl,--exclude-libs,ALL \
		-Wl,--gc-sections \
		-Wl,--version-script=plugin/exports.map -o $@ $(PLUGIN_OBJS) $(CORE_CXX_OBJS) $(CORE_LIBS)

.PHONY: plugin
plugin: $(PLUGIN_SO)
