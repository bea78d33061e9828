#!/bin/bash
# Replays every input fuzzing found crashing (tests/fuzz/crashes/NAME/*,
# one file per fixed bug, named after it) through the harness NAME built
# without libFuzzer but with ASan and UBSan ($BUILD/fuzz-replay/replay-NAME,
# see fuzz/rules.mk): each must now run clean (leak-* inputs with
# LeakSanitizer on). Then the corpora next to this
# file (tests/fuzz/NAME/, make fuzz's: only inputs that add coverage) are
# replayed through the same harnesses, 200 inputs a process, one case a
# corpus (about 45 s of CPU for all seven): a corpus input that crashes the
# gcc-built harness names its file.
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
		# a leak found by fuzzing (libFuzzer's "leak-" prefix, kept as
		# leak-*) replays with LeakSanitizer on
		case $(basename "$f") in
		leak-*) out=$(ASAN_OPTIONS=detect_leaks=1 timeout 120 "$bin" "$f" 2>&1); rc=$? ;;
		*) out=$(timeout 120 "$bin" "$f" 2>&1); rc=$? ;;
		esac
		if [ $rc -ne 0 ] || grep -q 'ERROR: AddressSanitizer\|runtime error' <<<"$out"; then
			fail "fuzz/$n/$(basename "$f")" "exit $rc: $(grep -m3 'ERROR\|runtime error\|#[0-4] ' <<<"$out")"
		else
			ok "fuzz/$n/$(basename "$f")"
		fi
	done
done

# the corpora: every input of every harness, one case per harness
for d in tests/fuzz/*/; do
	n=$(basename "$d")
	[ "$n" = crashes ] && continue
	bin=$BUILD/fuzz-replay/replay-$n
	if [ ! -x "$bin" ]; then fail "fuzz/corpus-$n" "$bin missing (make)"; continue; fi
	count=$(find "$d" -maxdepth 1 -type f | wc -l)
	if out=$(find "$d" -maxdepth 1 -type f -print0 | sort -z | timeout 600 xargs -0 -n 200 "$bin" 2>&1) &&
		! grep -q 'ERROR: AddressSanitizer\|runtime error' <<<"$out"; then
		ok "fuzz/corpus-$n ($count inputs)"
	else
		# name the input: replay the corpus one file at a time
		bad=$(find "$d" -maxdepth 1 -type f | sort | while read -r f; do
			timeout 120 "$bin" "$f" >/dev/null 2>&1 || { echo "$f"; break; }; done)
		fail "fuzz/corpus-$n ($count inputs)" "${bad:-an input} fails: $(grep -m3 'ERROR\|runtime error\|#[0-3] ' <<<"$out")"
	fi
done
