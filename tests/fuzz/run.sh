#!/bin/bash
# Replays every input fuzzing found crashing (tests/fuzz/crashes/NAME/*,
# one file per fixed bug, named after it) through the harness NAME built
# without libFuzzer but with ASan and UBSan ($BUILD/fuzz-replay/replay-NAME,
# see fuzz/rules.mk): each must now run clean. The corpora next to this file
# (tests/fuzz/NAME/) are make fuzz's, not replayed here.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
export FUZZ_MANIFEST_OBJ=
for d in tests/fuzz/crashes/*/; do
	n=$(basename "$d")
	bin=$BUILD/fuzz-replay/replay-$n
	for f in "$d"*; do
		[ -f "$f" ] || continue
		if [ ! -x "$bin" ]; then fail "fuzz/$n/$(basename "$f")" "$bin missing (make)"; continue; fi
		out=$(timeout 120 "$bin" "$f" 2>&1); rc=$?
		if [ $rc -ne 0 ] || grep -q 'ERROR: AddressSanitizer\|runtime error' <<<"$out"; then
			fail "fuzz/$n/$(basename "$f")" "exit $rc: $(grep -m3 'ERROR\|runtime error\|#[0-4] ' <<<"$out")"
		else
			ok "fuzz/$n/$(basename "$f")"
		fi
	done
done
