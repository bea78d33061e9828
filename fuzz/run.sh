#!/bin/bash
# fuzz/run.sh [NAME...] -- run the libFuzzer harnesses built by `make
# fuzz-build` (all, or the named ones: sidecar sidecar_index eval dwarf btf census manifest
# driver access netcl asserts), each for FUZZ_SECONDS at nice 19, over its corpus tests/fuzz/NAME
# (kept in the repository; new inputs are added there) and seeds generated
# under $BUILD/fuzz/seeds/NAME. Crashing inputs go to
# $BUILD/fuzz/crashes/NAME/; copy each into tests/fuzz/crashes/NAME/ once
# fixed: tests/fuzz/run.sh replays them in `make check`.
# Prints one line per harness: execs, coverage, corpus, crashes, CPU seconds
# (of the fuzzer and its children). FUZZ_FLAGS adds libFuzzer options, e.g.
# FUZZ_FLAGS=-fork=2: two fuzzing processes of one harness.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
BUILD=${BUILD:-build}
SECS=${FUZZ_SECONDS:-60}
names=("$@"); [ ${#names[@]} -gt 0 ] || names=(sidecar sidecar_index eval dwarf btf census manifest driver access netcl asserts)
S=$BUILD/fuzz/seeds
export FUZZ_MANIFEST_OBJ=$TOP/$S/manifest-obj.o

seeds() {   # small, from the tests' own inputs
	[ -e "$S/.done" ] && [ -d "$S/sidecar_index" ] && return   # (seeds of newer harnesses: again)
	rm -rf "$S"; mkdir -p "$S"/{sidecar,sidecar_index,eval,dwarf,btf,census,manifest,driver,access,netcl,asserts}
	cp examples/*.annotations tests/fixtures/*.ann "$S/sidecar/"
	printf '(1 << L1_CACHE_SHIFT)\nL1_CACHE_SHIFT (CONFIG_X86_L1_CACHE_SHIFT)\nCONFIG_X86_L1_CACHE_SHIFT 6\n' >"$S/eval/x86"
	printf '(_AC(1,UL) << 7)\n' >"$S/eval/ac"
	printf '((-9223372036854775807LL - 1) / -1)\n' >"$S/eval/min"
	printf 'A\nA (B * 2 %% 7 - ~3)\nB (1 << 62 >> 60)\n' >"$S/eval/ops"
	for f in tests/fixtures/*.c; do
		b=$(basename "$f" .c)
		gcc -Iinclude -Itests/fixtures -g -O2 -c "$f" -o "$S/dwarf/$b.o" 2>/dev/null || continue
		cp "$S/dwarf/$b.o" "$S/census/"
		pahole --btf_encode_detached="$S/btf/$b.btf" "$S/dwarf/$b.o" 2>/dev/null
		gcc -fplugin=plugin/cachehot.so -fplugin-arg-cachehot-manifest="$S/manifest/$b.json" \
			-Iinclude -Itests/fixtures -g -c "$f" -o /dev/null 2>/dev/null
	done
	gcc -Iinclude -g3 -c tests/fixtures/line_size_macro.c -o "$S/dwarf/g3.o"
	for f in tests/globals/*.c; do   # symbol tables: object, program, no -g
		b=$(basename "$f" .c)
		gcc -Iinclude -O2 -c "$f" -o "$S/dwarf/globals-$b.o" &&
			gcc -Iinclude -O2 -g -fdata-sections -c "$f" -o "$S/dwarf/globals-$b-ds.o" || continue
		gcc "$S/dwarf/globals-$b.o" -o "$S/dwarf/globals-$b" 2>/dev/null
	done
	cp "$S/dwarf/page_counter_v6_0.o" "$FUZZ_MANIFEST_OBJ"
	for c in self-zero ptr-cycle int-size-0 huge-hole; do python3 tests/btf/mkbtf.py $c "$S/btf/$c.btf"; done
	python3 tests/btf/mkbtf.py many-structs "$S/btf/structs.btf" 3
	python3 fuzz/btf-slice.py /sys/kernel/btf/vmlinux page_counter "$S/btf/vmlinux-page_counter.btf" 2>/dev/null
	python3 fuzz/btf-slice.py /sys/kernel/btf/vmlinux mem_cgroup "$S/btf/vmlinux-mem_cgroup.btf" 2>/dev/null
	{ printf '\0'; printf -- '--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n@@ -9 +10,0 @@\n-d\n'; } >"$S/driver/diff"
	{ printf '\1'; printf '# c\ncachehot-false-sharing page_counter usage\ncachehot-padding-macro page_counter -\n'; } >"$S/driver/baseline"
	{ printf '\2'; printf "a.c:3:5: warning: m [cachehot-false-sharing]\nb.c:1:2-4: spatch msg\na.c:3:5: warning: m [cachehot-false-sharing]\n"; } >"$S/driver/diag"
	{ printf '\3'; cat examples/page_counter_v5_10.c; } >"$S/driver/scope"
	# access facts: the annotate suite's fixtures compiled in the access mode
	for f in tests/annotate/*.c; do
		gcc -fplugin=plugin/cachehot.so -fplugin-arg-cachehot-access="$S/access/$(basename "$f" .c).json" \
			-O2 -c "$f" -o /dev/null 2>/dev/null
	done
	# net_cachelines: the kvocab tables (byte 0: RST) and their sidecar (byte 1)
	for f in tests/kvocab/*.rst; do { printf '\0'; cat "$f"; } >"$S/netcl/$(basename "$f")"; done
	{ printf '\1'; cat tests/kvocab/nc_dev.netcl.expected; } >"$S/netcl/nc_dev.netcl"
	# -E asserts: the kvocab fixture preprocessed with the asserts header
	gcc -E -include include/cachehot-asserts.h -Itests/kvocab tests/kvocab/ga_asserts.c \
		-o "$S/asserts/ga_asserts.i" 2>/dev/null
	# the sidecar index: the good indexes of the harness's own sidecars,
	# written by one run of an empty input (a regular file: libFuzzer reads
	# any other argument as a corpus folder)
	mkdir -p "$S/sidecar_index"
	: >"$S/empty"
	[ -x "$BUILD/fuzz/fuzz-sidecar_index" ] &&
		FUZZ_SIDX_SEEDS=$S/sidecar_index "$BUILD/fuzz/fuzz-sidecar_index" "$S/empty" >/dev/null 2>&1
	rm -f "$S/empty"
	[ -f "$S/sidecar_index/big-forged" ] || { echo "fuzz/run.sh: no sidecar_index seeds (fuzz-sidecar_index built?)" >&2; return; }
	touch "$S/.done"
}
seeds

printf '%-9s %12s %8s %8s %8s %8s\n' harness execs cov ft corpus crashes
for n in "${names[@]}"; do
	bin=$BUILD/fuzz/fuzz-$n
	[ -x "$bin" ] || { echo "$n: $bin missing (make fuzz-build)"; continue; }
	mkdir -p "tests/fuzz/$n" "$BUILD/fuzz/corpus/$n" "$BUILD/fuzz/crashes/$n"
	log=$BUILD/fuzz/$n.log
	start=$(awk '{print $14+$15}' /proc/self/stat)
	/usr/bin/time -f '%U %S' -o "$BUILD/fuzz/$n.time" nice -n 19 "$bin" \
		-max_total_time="$SECS" -timeout="${FUZZ_TIMEOUT:-120}" -rss_limit_mb=2048 -max_len=262144 \
		-print_final_stats=1 -artifact_prefix="$BUILD/fuzz/crashes/$n/" ${FUZZ_FLAGS:-} \
		"$BUILD/fuzz/corpus/$n" "tests/fuzz/$n" "$S/$n" >"$log" 2>&1
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	[ -n "$execs" ] && [ "$execs" != 0 ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")   # -fork=N: no final stats
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
	crashes=$(ls "$BUILD/fuzz/crashes/$n" | wc -l)
	# the kept corpus: only inputs that add coverage (libFuzzer -merge)
	nice -n 19 "$bin" -merge=1 -timeout="${FUZZ_TIMEOUT:-120}" -rss_limit_mb=2048 -max_len=262144 \
		"tests/fuzz/$n" "$BUILD/fuzz/corpus/$n" >"$BUILD/fuzz/$n.merge.log" 2>&1
	printf '%-9s %12s %8s %8s %8s %8s  cpu %s s\n' "$n" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$crashes" "$(tail -n 1 "$BUILD/fuzz/$n.time" | awk '{print $1+$2}')"
done
