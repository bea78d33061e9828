# runtime/rules.mk -- libcachehot-rt, the runtime a recording build
# (-fplugin-arg-cachehot-record) links with: runtime/libcachehot-rt.so and
# runtime/libcachehot-rt.a; installed as PREFIX/lib/libcachehot-rt.{so,a}
# and PREFIX/include/cachehot-rt.h (driver/rules.mk's install recipe).
RT_SO      := runtime/libcachehot-rt.so
RT_A       := runtime/libcachehot-rt.a
RT_CFLAGS   = -std=gnu99 -O2 -g -fPIC -fvisibility=hidden $(WARN) -Wno-missing-field-initializers -Wno-format-truncation
ALL_TARGETS += $(RT_SO) $(RT_A)
CLEAN_FILES += $(RT_SO) $(RT_A)

$(BUILD)/runtime/rt.o: runtime/rt.c runtime/cachehot-rt.h
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -c -o $@ $<

$(RT_SO): $(BUILD)/runtime/rt.o
	$(CC) -shared -Wl,-soname,libcachehot-rt.so -o $@ $^ -lpthread

$(RT_A): $(BUILD)/runtime/rt.o
	@rm -f $@
	ar rcs $@ $^

.PHONY: runtime
runtime: $(RT_SO) $(RT_A)
