# core/rules.mk -- the shared core, built once per language.
CORE_SRCS     := $(wildcard core/*.c)
CORE_OBJS     := $(patsubst core/%.c,$(BUILD)/core/%.o,$(CORE_SRCS))
# core/objsec.c reads objects with libelf: the tools' part, not the plugin's
CORE_CXX_OBJS := $(patsubst core/%.c,$(BUILD)/core-cxx/%.o,$(filter-out core/objsec.c,$(CORE_SRCS)))
CORE_LIBS     := -ljansson -lelf
CORE_LIB      := $(BUILD)/core/libcachehot-core.a
CORE_HDRS     := $(wildcard core/*.h)
ALL_TARGETS   += $(CORE_LIB) $(BUILD)/core/test-core

$(BUILD)/core/%.o: core/%.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -fPIC -c -o $@ $<

# the same sources as C++, for the plugin (the core must stay valid C++)
$(BUILD)/core-cxx/%.o: core/%.c $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CXX) -x c++ -std=gnu++11 $(CFLAGS) $(WARN) -fPIC -fno-rtti -ffunction-sections -fdata-sections \
		-c -o $@ $<

$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/core/test-core: $(wildcard tests/core/*.c tests/core/*.h) $(CORE_LIB)
	$(CC) -std=gnu99 $(CFLAGS) $(WARN) -Icore -Itests/core -o $@ $(filter %.c,$^) $(CORE_LIB) $(CORE_LIBS)

.PHONY: core
core: $(CORE_LIB) $(CORE_CXX_OBJS)
