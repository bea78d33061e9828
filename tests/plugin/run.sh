#!/bin/bash
# Plugin suite: compile every layout fixture (tests/fixtures/*.c) with the
# plugin and compare the diagnostics it prints for the fixture itself with
# the fixture's expect: block, exactly (line, column, kind, message). Any
# internal compiler error fails the case.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
# CACHEHOT_TEST_PLUGIN: another build of the plugin (make plugin-asan-check:
# the ASan and UBSan build, with CACHEHOT_TEST_PRELOAD=libasan.so preloaded
# into every program the suite starts). Its cases are the same. Every
# report aborts cc1 (abort_on_error), which gcc prints as an internal
# compiler error, so the case fails; and ASan writes each report to a file
# of SANLOG named after the program: the last case, plugin/sanitizers-silent,
# fails when cc1 or cc1plus wrote one, also for a case that drops cc1's
# messages. (Other programs run with libasan too: dd's aligned_alloc(4096,
# 1) is reported there, not the plugin's. UBSan's reports go to stderr
# only: its log_path is not honoured beside ASan's.)
PLUGIN=${CACHEHOT_TEST_PLUGIN:-$TOP/plugin/cachehot.so}
SANLOG=
if [ -n "${CACHEHOT_TEST_PRELOAD:-}" ]; then
	SANLOG=$(mktemp -d "$BUILD/plugin-sanlog.XXXXXX") || exit 2
	export LD_PRELOAD=$CACHEHOT_TEST_PRELOAD
	export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$SANLOG/asan:log_exe_name=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	export UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
fi
[ -f "$PLUGIN" ] || { fail plugin-build "$PLUGIN missing"; exit 0; }
CC=${CC:-gcc}
export LC_ALL=C

# run_plugin FILE EXTRA... -> actual lines, sorted
run_plugin() {
	local f=$1; shift
	local out; out=$(mktemp)
	$CC -fplugin="$PLUGIN" $(fixture_plugin_args "$f") "$@" -Iinclude -O2 -c "$f" -o /dev/null \
		-fdiagnostics-plain-output >"$out" 2>&1
	if grep -q "internal compiler error" "$out"; then echo "ICE"; cat "$out"; fi
	sed -n "s#^$f:\([0-9]*:[0-9]*: \(warning\|note\|error\): .*\)\$#\1#p; s#^\(cc1: \(warning\|note\|error\): .*\)\$#\1#p" "$out" |
		grep -v ': note: in \(definition\|expansion\) of macro' | sort
	rm -f "$out"
}

for f in tests/fixtures/*.c tests/plugin/cases/*.c; do
	name=plugin/$(basename "$f" .c)
	exp=$(mktemp); act=$(mktemp)
	fixture_expect "$f" >"$exp"
	if ! fixture_has_expect "$f"; then fail "$name" "fixture has no expect: block"; continue; fi
	run_plugin "$f" >"$act"
	expect_file_eq "$name" "$exp" "$act"
	rm -f "$exp" "$act"
done

# --- cases that are not a single fixture ---------------------------------

# counter-batch: no finding of any counter fixture carries a placeholder
# ("(?)" for what a target is looked up from, "()" marking calls, "item N"
# for an item without its enumerator's name); make counter-kernel checks
# the same on 6.1 mm/ (kernel/counter-check.sh)
bad=$(for f in tests/plugin/cases/counter_*.c; do
	$CC -fplugin="$PLUGIN" -O2 -Iinclude -c "$f" -o /dev/null -fdiagnostics-plain-output 2>&1
done | grep 'cachehot-counter-batch' | grep -E '\(\?\)|\(\)|item [0-9]')
expect_eq plugin/counter-batch-no-placeholder "" "$bad"

# counter-batch's decide_cond (plugin/counter-silent.c) against GCC's
# fold_binary on every condition it decides: the plugin built with
# -DCACHEHOT_CHECK_DECIDE (plugin/rules.mk) stops with an internal error on
# any difference, and otherwise prints what the plugin prints.
# counter_decided.c reaches it (a build with its answers inverted warns on
# all three of its functions; one comparing unsigned chars as signed stops)
DECIDE=$TOP/build/plugin-check-decide/cachehot.so
if [ -f "$DECIDE" ]; then
	diffs=$(for f in tests/plugin/cases/counter_*.c; do
		a=$($CC -fplugin="$PLUGIN" -O2 -Iinclude -c "$f" -o /dev/null -fdiagnostics-plain-output 2>&1)
		# (the plain build, also in make plugin-asan-check: without libasan)
		b=$(env -u LD_PRELOAD $CC -fplugin="$DECIDE" -O2 -Iinclude -c "$f" -o /dev/null -fdiagnostics-plain-output 2>&1)
		[ "$a" = "$b" ] || echo "$f: $( (echo "$b" | grep 'internal compiler error'
			diff <(echo "$a") <(echo "$b") | grep '^[<>]') | head -1)"
	done)
	expect_eq plugin/counter-decide-checked "" "$diffs"
else
	fail plugin/counter-decide-checked "$DECIDE missing (make)"
fi

t=$(mktemp -d)
# unknown argument: an error naming it, not a crash
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-lines=64 -c tests/fixtures/page_counter_v5_10.c -Iinclude -o /dev/null 2>&1)
expect_eq plugin/unknown-argument \
	"cc1: error: cachehot: unknown plugin argument '-fplugin-arg-cachehot-lines' (known: annotations, line-size, predict, severity, manifest, unmatched, inline-addr, inline-notes, counter-batch, counter-updaters, access, record, object-records, once, findings, werror, disable, help)" \
	"$(echo "$out" | grep 'unknown plugin argument' | sed "s/[‘’]/'/g")"
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-line-size=100 -c tests/fixtures/page_counter_v5_10.c -Iinclude -o /dev/null 2>&1)
expect_eq plugin/bad-line-size \
	"cc1: error: cachehot: '-fplugin-arg-cachehot-line-size=100': expected a power of two from 8 to 4096 bytes" \
	"$(echo "$out" | grep 'line-size' | sed "s/[‘’]/'/g")"
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-predict=64 -c tests/fixtures/page_counter_v5_10.c -Iinclude -o /dev/null 2>&1 | grep predict)
expect_eq plugin/predict-not-larger "cc1: error: cachehot: predict=64 must be larger than the line size (64 bytes)" "$out"
# counter-updaters: a malformed entry is an error naming it; counter-batch=0 silences the check
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-counter-updaters=ok_fn,bad:x:1 -c tests/plugin/cases/counter_direct.c -o /dev/null 2>&1 | grep 'counter-updaters' | sed "s/[‘’]/'/g")
expect_eq plugin/counter-updaters-bad \
	"cc1: error: cachehot: '-fplugin-arg-cachehot-counter-updaters': bad entry 'bad' (want NAME or NAME:TARGET:ITEM, TARGET '-' for none)" "$out"
n=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-counter-batch=0 -O2 -c tests/plugin/cases/counter_direct.c -o /dev/null 2>&1 | grep -c 'cachehot-counter-batch')
expect_eq plugin/counter-batch-off 0 "$n"
# severity=error turns findings into errors; severity=note into notes
n=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-severity=error -c tests/fixtures/page_counter_v5_10.c -Iinclude -o /dev/null 2>&1 | grep -c ': error: .*cachehot-false-sharing')
expect_eq plugin/severity-error 5 "$n"
n=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-severity=note -Werror -c tests/fixtures/page_counter_v5_10.c -Iinclude -o /dev/null 2>&1; echo "rc=$?")
expect_eq plugin/severity-note-passes-Werror "rc=0" "$(echo "$n" | tail -1)"
# manifest: valid JSON with the real offsets, merged across two compiles
rm -f "$t/m.json"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$t/m.json" -Iinclude -c tests/fixtures/page_counter_v5_10.c -o /dev/null 2>/dev/null
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$t/m.json" -Iinclude -c tests/fixtures/page_counter_v6_0.c -o /dev/null 2>/dev/null
expect_eq plugin/manifest-fields \
	"usage:0:8:hot min:8:8:read_mostly parent:40:8:read_mostly" \
	"$(jq -r '.structs.page_counter.fields[] | select(.name=="usage" or .name=="min" or .name=="parent") | "\(.name):\(.offset):\(.size):\(.class)"' "$t/m.json" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
expect_eq plugin/manifest-merged "page_counter page_counter_v60" \
	"$(jq -r '.structs | keys | join(" ")' "$t/m.json" 2>&1)"
expect_eq plugin/manifest-findings 5 \
	"$(jq '[.structs.page_counter.findings[] | select(.check=="cachehot-false-sharing" and .severity=="warning")] | length' "$t/m.json" 2>&1)"
ls "$t" | grep -q tmp && fail plugin/manifest-no-temp "temporary file left" || ok plugin/manifest-no-temp
# two translation units, two layouts of one struct name: both kept, in one
# order (file, line) whatever order the units were compiled in
printf '#include "cachehot.h"\nstruct foo { long a __cacheline_hot; long b __cacheline_read_mostly; } x;\n' >"$t/a1.c"
printf '#include "cachehot.h"\nstruct foo { long a __cacheline_hot; char pad[64]; long b __cacheline_read_mostly; } y;\n' >"$t/a2.c"
for f in a1 a2; do (cd "$t" && $CC -fplugin="$PLUGIN" -I"$TOP/include" -fplugin-arg-cachehot-manifest=m2.json -c $f.c -o /dev/null 2>/dev/null); done
expect_eq plugin/manifest-other-definitions '{"size":16,"file":"a1.c","others":[{"file":"a2.c","line":2,"size":80,"fields":3}]}' \
	"$(jq -c '.structs.foo | {size, file, others: [.other_definitions[] | {file, line, size, fields: (.fields | length)}]}' "$t/m2.json" 2>&1)"
for f in a2 a1; do (cd "$t" && $CC -fplugin="$PLUGIN" -I"$TOP/include" -fplugin-arg-cachehot-manifest=m3.json -c $f.c -o /dev/null 2>/dev/null); done
cmp -s "$t/m2.json" "$t/m3.json" && ok plugin/manifest-order-independent || fail plugin/manifest-order-independent "$(diff <(jq . "$t/m2.json") <(jq . "$t/m3.json") | head -5)"
# record digests: 16 hex digits, distinct for distinct records; a unit whose
# records the file already holds leaves it alone (same inode: no rewrite);
# a manifest written before digests existed gains them without a second copy
expect_eq plugin/manifest-digest "16 16 distinct" \
	"$(jq -r '[.structs.foo.digest, .structs.foo.other_definitions[0].digest] | "\(.[0] | length) \(.[1] | length) \(if .[0] != .[1] then "distinct" else "same" end)"' "$t/m2.json" 2>&1)"
before=$(stat -c %i "$t/m.json"); cp "$t/m.json" "$t/m.before"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$t/m.json" -Iinclude -c tests/fixtures/page_counter_v5_10.c -o /dev/null 2>/dev/null
expect_eq plugin/manifest-known-records-kept "$before same" \
	"$(stat -c %i "$t/m.json") $(cmp -s "$t/m.json" "$t/m.before" && echo same)"
jq -cS 'del(.structs[].digest)' "$t/m.before" >"$t/m4.json"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$t/m4.json" -Iinclude -c tests/fixtures/page_counter_v5_10.c -o /dev/null 2>/dev/null
expect_eq plugin/manifest-digest-upgrade "$(jq -r .structs.page_counter.digest "$t/m.before") null" \
	"$(jq -r '.structs.page_counter | "\(.digest) \(.other_definitions)"' "$t/m4.json" 2>&1)"
# a record skipped for its digest is still written when the file is removed
# while the unit compiles (kernel/check.sh starts with rm -f): the unit
# blocks on a FIFO include after its struct was judged and the file read
rm -f "$t/m5.json"
printf '#include "cachehot.h"\nstruct page_counter { long usage __cacheline_hot; long min __cacheline_read_mostly; };\nint dummy;\n#include "gate.h"\n' >"$t/gate.c"
echo 'int z;' >"$t/gate.h"
(cd "$t" && $CC -fplugin="$PLUGIN" -I"$TOP/include" -fplugin-arg-cachehot-manifest=m5.json -c gate.c -o /dev/null 2>/dev/null)
cp "$t/m5.json" "$t/m5.before"
rm -f "$t/gate.h"; mkfifo "$t/gate.h"
# (the writer gives up after 60 s if cc1 never opens the FIFO: no hang)
timeout 60 sh -c 'exec 3>"$1/gate.h"; rm -f "$1/m5.json"; echo "int z;" >&3' sh "$t" &
(cd "$t" && timeout 60 $CC -fplugin="$PLUGIN" -I"$TOP/include" -fplugin-arg-cachehot-manifest=m5.json -c gate.c -o /dev/null 2>/dev/null)
wait
expect_eq plugin/manifest-skipped-record-rewritten "$(jq -r '.structs.page_counter.digest' "$t/m5.before") page_counter" \
	"$(jq -r '"\(.structs.page_counter.digest) \(.structs | keys | join(" "))"' "$t/m5.json" 2>&1)"
# a FIFO as manifest is refused, not read (reading it would block the build)
mkfifo "$t/fifo.json"
out=$(cd "$t" && timeout 20 $CC -fplugin="$PLUGIN" -I"$TOP/include" -fplugin-arg-cachehot-manifest=fifo.json -c a1.c -o /dev/null 2>&1; echo "rc=$?")
expect_eq plugin/manifest-fifo-refused \
	"cc1: error: cachehot: fifo.json: the manifest must be a regular file (or a new one): this is a device or FIFO rc=1" \
	"$(echo "$out" | grep 'cachehot: .*manifest\|^rc=' | tr '\n' ' ' | sed 's/ $//')"
# GCC's own warnings printed after one of ours keep the front end's input
# settings: in a file starting with a UTF-8 BOM, -Warray-bounds' column and
# caret line on line 1, printed after the counter-batch warning on the same
# line, are the same with the plugin as without (the plugin resets GCC's
# source-line cache after parsing; destroying the cache dropped the BOM
# setting: column 39 instead of 42 and the BOM bytes in the caret line)
{ printf '\xef\xbb\xbf'; printf 'struct pglist_data { long x; }; enum node_stat_item { NR_WRITTEN = 3 }; void mod_node_page_state(struct pglist_data *, enum node_stat_item, long); struct item { struct item *next; }; void drain(struct pglist_data *pgdat, struct item *it) { for (; it; it = it->next) mod_node_page_state(pgdat, NR_WRITTEN, 1); } int g(void) { int a[2] = {1, 2}; return a[3]; }\n'; } >"$t/bom.c"
plain=$(cd "$t" && $CC -O2 -Warray-bounds -c bom.c -o /dev/null 2>&1 | grep -A2 'Warray-bounds')
with=$(cd "$t" && $CC -O2 -Warray-bounds -fplugin="$PLUGIN" -c bom.c -o /dev/null 2>&1)
expect_eq plugin/late-gcc-warning-keeps-input-settings "1 $plain" \
	"$(echo "$with" | grep -c 'cachehot-counter-batch\].*$' | head -1 | sed 's/^[1-9][0-9]*$/1/') $(echo "$with" | grep -A2 'Warray-bounds')"
# a class template pattern (fields without offsets) with a per-thread
# member is never judged: the relevance test once remembered it as
# irrelevant and the per-thread path judged it (internal compiler error)
printf 'struct item { long x; };\ntemplate <class T> struct P { item *per __attribute__((cacheline_per_thread)); T x; };\nP<long> p;\n' >"$t/tp.cc"
out=$(g++ -O2 -fplugin="$PLUGIN" -c "$t/tp.cc" -o /dev/null 2>&1; echo "rc=$?")
expect_eq plugin/template-pattern-per-thread "rc=0" "$(echo "$out" | grep -c 'internal compiler error' | sed 's/^0$//')$(echo "$out" | tail -1)"
# manifest through a symlink: the link stays a link, its target is written;
# a device is refused without touching it (no /dev/null.lock)
mkdir -p "$t/real"; ln -s real/m.json "$t/mlink.json"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$t/mlink.json" -Iinclude -c examples/page_counter_v5_10.c -o /dev/null 2>/dev/null
expect_eq plugin/manifest-symlink-kept "link page_counter" \
	"$( [ -L "$t/mlink.json" ] && echo link) $(jq -r '.structs | keys | join(" ")' "$t/real/m.json" 2>&1)"
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=/dev/null -Iinclude -c examples/page_counter_v5_10.c -o /dev/null 2>&1 | grep 'cachehot:')
expect_eq plugin/manifest-device-refused \
	"cc1: error: cachehot: /dev/null: the manifest must be a regular file (or a new one): this is a device or FIFO" "$out"
# header: without the plugin the macros vanish and the file compiles warning-free
if $CC -Wall -Wextra -Werror -Iinclude -c tests/fixtures/page_counter_v6_0.c -o /dev/null 2>"$t/err"; then
	ok plugin/header-without-plugin; else fail plugin/header-without-plugin "$(cat "$t/err")"; fi
# the wrapped elements that the array-sharing fixes ask for are ISO C
if out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=tests/fixtures/array_sharing_lru.ann \
	-std=c11 -Wall -Werror -pedantic -Iinclude -c tests/fixtures/array_sharing_lru_fixed.c -o /dev/null 2>&1); then
	expect_eq plugin/array-fix-pedantic "" "$out"; else fail plugin/array-fix-pedantic "$out"; fi
if clang_bin=$(command -v clang) && [ -n "$clang_bin" ]; then
	$clang_bin -Werror -Iinclude -c tests/fixtures/page_counter_v6_0.c -o /dev/null 2>"$t/err" && ok plugin/header-clang || fail plugin/header-clang "$(cat "$t/err")"
fi
rm -rf "$t"

# fix-it: a private padding macro becomes CACHELINE_PADDING in the patch GCC generates
out=$($CC -fplugin="$PLUGIN" -Iinclude -c examples/private_padding.c -o /dev/null -fdiagnostics-generate-patch 2>&1 | grep '^[-+]	')
expect_eq plugin/fixit-private-padding "$(printf -- '-\tPC_PADDING(_pad1_);\n+\tCACHELINE_PADDING(_pad1_);')" "$out"

out=$($CC -fplugin="$PLUGIN" -Iinclude -Iexamples -c tests/plugin/fixit/zone_padding.c -o /dev/null -fdiagnostics-generate-patch 2>&1 | grep '^[-+][^-+]')
expect_eq plugin/fixit-zone-padding-kernel "$(printf -- '+#include <linux/cache.h>\n-\tZONE_PADDING(_pad1_)\n+\tCACHELINE_PADDING(_pad1_);')" "$out"

# limits: a struct embedding two copies of the previous one, 16 times (65536
# annotated fields): walked up to the limits, with a note on each struct
# past 4096 fields (s12..s16), instead of minutes and gigabytes
t=$(mktemp -d)
{ echo '#include "cachehot.h"'
  echo 'struct s0 { long a __cacheline_hot; long b __cacheline_read_mostly; };'
  for i in $(seq 1 16); do echo "struct s$i { struct s$((i-1)) x; struct s$((i-1)) y; };"; done
  echo 'struct s16 v;'; } >"$t/exp.c"
out=$($CC -fplugin="$PLUGIN" -Iinclude -c "$t/exp.c" -o /dev/null 2>&1 | grep -c "is too large to walk whole: only the first 64 elements of each array, 16 levels of nesting and 4096 fields were checked")
expect_eq plugin/limits-note "5" "$out"
rm -rf "$t"

# a big sidecar (256 bytes or more; this one is big) through its index (core/sidecar-index.c),
# as the sparse checker reads it: the first unit parses it whole and writes
# the index, later units parse only the lines of the structs they have
# ('other' here, far down the file); the diagnostics are byte for byte a
# whole parse's, also when the sidecar was edited after the index was
# written, when units run at once, and when the index is damaged
t=$(mktemp -d)
big=$t/big.ann
{ cat tests/sparse/side1.ann; echo "nosuch.x hot"
  for i in $(seq 1 1500); do echo "bench_s$i.f$((i % 3)) hot"; done
  echo "other.a exclusive"; echo "other.b read_mostly"; echo "other.zz hot"; } >"$big"
sleep 2   # no index for a file changed in the last 2 seconds
run_big() { # CACHE_DIR [UNMATCHED] -> diagnostics
	CACHEHOT_CACHE_DIR=$1 HOME=/nonexistent XDG_CACHE_HOME= $CC -fplugin="$PLUGIN" \
		-fplugin-arg-cachehot-annotations="$big" -fplugin-arg-cachehot-unmatched=${2:-note} \
		-fdiagnostics-plain-output -c tests/sparse/side.c -o /dev/null 2>&1; }
whole=$(run_big "")
first=$(run_big "$t/cache")
expect_eq plugin/sidecar-index-written 1 "$(ls "$t"/cache/sidecar-*.idx 2>/dev/null | wc -l)"
expect_eq plugin/sidecar-index-whole "2 false-sharing, 1501 unmatched, other.zz: 1" \
	"$(echo "$whole" | grep -c 'warning: .*cachehot-false-sharing') false-sharing, $(echo "$whole" | grep -c 'matched no struct') unmatched, other.zz: $(echo "$whole" | grep -c "'other.zz'")"
expect_eq plugin/sidecar-index-first-same "$whole" "$first"
expect_eq plugin/sidecar-index-lazy-same "$whole" "$(run_big "$t/cache")"
expect_eq plugin/sidecar-index-lazy-ignore-same "$(run_big "" ignore)" "$(run_big "$t/cache" ignore)"
# edited after the index was written (same size: 'other.a' commented out):
# the index is ignored and rewritten
sed -i 's/^other\.a exclusive$/#ther.a exclusive/' "$big"
sleep 2
edited=$(run_big "")
expect_eq plugin/sidecar-index-edit-changes "1 false-sharing" \
	"$(echo "$edited" | grep -c 'warning: .*cachehot-false-sharing') false-sharing"
expect_eq plugin/sidecar-index-stale-same "$edited" "$(run_big "$t/cache")"
expect_eq plugin/sidecar-index-stale-lazy-same "$edited" "$(run_big "$t/cache")"
# four units at once on an empty cache: one index, no temporary left
rm -rf "$t/cache"
for i in 1 2 3 4; do run_big "$t/cache" >"$t/par$i" & done; wait
same=0; for i in 1 2 3 4; do [ "$(cat "$t/par$i")" = "$edited" ] && same=$((same + 1)); done
expect_eq plugin/sidecar-index-concurrent "4 same, 1 index" \
	"$same same, $(ls "$t/cache" | wc -l) index"
# damaged: garbage, cut in half, another file's index: ignored, rewritten
idx=$(ls "$t"/cache/sidecar-*.idx)
cp "$idx" "$t/good.idx"
head -c 100 "$PLUGIN" >"$idx"
expect_eq plugin/sidecar-index-garbage "$edited" "$(run_big "$t/cache")"
expect_eq plugin/sidecar-index-garbage-rewritten 1 "$(cmp -s "$idx" "$t/good.idx" && echo 1)"
head -c $(( $(stat -c %s "$idx") / 2 )) "$t/good.idx" >"$idx"
expect_eq plugin/sidecar-index-truncated "$edited" "$(run_big "$t/cache")"
cp "$big" "$t/big-copy.ann"; sleep 2
CACHEHOT_CACHE_DIR=$t/cache2 $CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations="$t/big-copy.ann" \
	-c tests/sparse/side.c -o /dev/null 2>/dev/null
cp "$t"/cache2/sidecar-*.idx "$idx"
expect_eq plugin/sidecar-index-foreign "$edited" "$(run_big "$t/cache")"
# damaged behind a valid header (core/sidecar-index.c): every slot taken
# (name_len 1, no records), so that no empty slot ends a probe (a lookup
# looped without end before the probes were bounded); then one field of
# the records of 'side' changed at a time. Each damage fails a check
# (slot_check, rec_ok) when the struct's lines are wanted: the unit parses
# the lines it has not parsed (a whole parse's diagnostics) and removes the
# index, which the next unit writes again
idxmut() { # KIND: $t/good.idx damaged into $idx (header 96 bytes, slots of 20)
	python3 - "$t/good.idx" "$idx" "$big" "$1" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
text = open(sys.argv[3], 'rb').read()
nslots, nrecs = struct.unpack_from('<II', b, 72)   # magic, key (7 x 8), text_len
recs = 96 + 20 * nslots
def slot(k): return list(struct.unpack_from('<IIIII', b, 96 + 20 * k))
if sys.argv[4] == 'full':
    for k in range(nslots):
        struct.pack_into('<IIIII', b, 96 + 20 * k, 0, 1, 0, 0, 0)
else:
    k = next(k for k in range(nslots) if text[slot(k)[0]:slot(k)[0] + slot(k)[1]] == b'other')
    s = slot(k)
    r0 = recs + 8 * s[2]
    off, line = struct.unpack_from('<II', b, r0)
    if sys.argv[4] == 'count':
        s[3] -= 1
        struct.pack_into('<IIIII', b, 96 + 20 * k, *s)
    elif sys.argv[4] == 'line':
        struct.pack_into('<II', b, r0, off, line + 1)
    elif sys.argv[4] == 'off':
        struct.pack_into('<II', b, r0, off + 1, line)
    elif sys.argv[4] == 'emptied':   # a struct the unit does not have: only its unmatched notes need it
        k = next(k for k in range(nslots) if text[slot(k)[0]:slot(k)[0] + slot(k)[1]] == b'bench_s7')
        s = slot(k)
        s[1] = 0
        struct.pack_into('<IIIII', b, 96 + 20 * k, *s)
    elif sys.argv[4] == 'nlines':   # the header's line count (sequence numbers)
        struct.pack_into('<I', b, 84, 1)
    elif sys.argv[4] == 'moved':   # swapped with the next empty slot, checks kept
        e = next(e for e in list(range(k + 1, nslots)) + list(range(k)) if slot(e)[1] == 0)
        se = slot(e)
        struct.pack_into('<IIIII', b, 96 + 20 * e, *s)
        struct.pack_into('<IIIII', b, 96 + 20 * k, *se)
open(sys.argv[2], 'wb').write(b)
PY
}
for kind in full count line off moved emptied; do
	idxmut $kind
	out=$(run_big "$t/cache" 2>&1; echo "exit $?")
	expect_eq plugin/sidecar-index-damaged-$kind "$edited
exit 0, index removed" "$out, index $([ -e "$idx" ] && echo kept || echo removed)"
	expect_eq plugin/sidecar-index-damaged-$kind-rewritten "$edited" "$(run_big "$t/cache")"
	cp "$idx" "$t/good.idx"
done
# the header's counts are checked when the index is mapped (nlines set the
# sequence of what comes after the file): ignored and rewritten
idxmut nlines
expect_eq plugin/sidecar-index-damaged-nlines "$edited" "$(run_big "$t/cache")"
expect_eq plugin/sidecar-index-damaged-nlines-rewritten 1 "$(cmp -s "$idx" "$t/good.idx" && echo 1)"
# damage found inside the parse of a line: "gone owned" (line 1, parsed at
# load) looks 'gone' up, and every slot's check is off by one bit; the
# lines after line 1 are parsed when its parse ends, so the second "gone
# owned" (the last line) stays the duplicate, as in a whole parse (it took
# line 1's place when they were parsed at once)
{ echo "gone owned"; echo "side.count hot"; echo "side.limit read_mostly"
  for i in $(seq 1 1500); do echo "bench_s$i.f$((i % 3)) hot"; done
  echo "gone.q hot"; echo "gone owned"; } >"$t/dup.ann"
sleep 2
run_dup() { CACHEHOT_CACHE_DIR=$1 HOME=/nonexistent XDG_CACHE_HOME= $CC -fplugin="$PLUGIN" \
	-fplugin-arg-cachehot-annotations="$t/dup.ann" -fplugin-arg-cachehot-unmatched=note \
	-fdiagnostics-plain-output -c tests/sparse/side.c -o /dev/null 2>&1; }
dup_whole=$(run_dup "")
run_dup "$t/cache3" >/dev/null
python3 - "$(ls "$t"/cache3/sidecar-*.idx)" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
nslots = struct.unpack_from('<I', b, 72)[0]
for k in range(nslots):
    b[96 + 20 * k + 16] ^= 1
open(sys.argv[1], 'wb').write(b)
PY
expect_eq plugin/sidecar-index-damaged-nested "$dup_whole" "$(run_dup "$t/cache3")"
expect_eq plugin/sidecar-index-damaged-nested-note "1 line 1" \
	"$(echo "$dup_whole" | grep -c "sidecar entry 'gone owned'.*matched no struct") line $(echo "$dup_whole" | grep "sidecar entry 'gone owned'" | sed -n 's/.*dup.ann:\([0-9]*\)).*/\1/p')"
rm -rf "$t"

# a small sidecar (256 bytes or more, as the shipped ones) goes through an
# index too, a smaller one never; the struct-name filter (one bit per name,
# core/internal.h) lets through every struct whose lines wait in the
# index: 'other' here has an "owned" line, parsed at once, and field lines
# that wait; the diagnostics are a whole parse's
t=$(mktemp -d)
small=$t/small.ann
{ echo "# sidecar for tests/sparse/side.c, read through its index"; cat tests/sparse/side1.ann
  echo "other owned"; echo "other.a exclusive"; echo "other.b read_mostly"
  echo "gone.x hot"; echo "gone.y read_mostly"; echo "# padding to more than 256 bytes: ------------"; } >"$small"
cp tests/sparse/side1.ann "$t/tiny.ann"
sleep 2   # no index for a file changed in the last 2 seconds
run_small() { # SIDECAR CACHE_DIR -> diagnostics
	CACHEHOT_CACHE_DIR=$2 HOME=/nonexistent XDG_CACHE_HOME= $CC -fplugin="$PLUGIN" \
		-fplugin-arg-cachehot-annotations="$1" -fplugin-arg-cachehot-unmatched=note \
		-fdiagnostics-plain-output -c tests/sparse/side.c -o /dev/null 2>&1; }
whole=$(run_small "$small" "")
expect_eq plugin/sidecar-index-small-whole "$(stat -c %s "$small") bytes, 1 false-sharing, 2 unmatched" \
	"$(stat -c %s "$small") bytes, $(echo "$whole" | grep -c 'warning: .*cachehot-false-sharing') false-sharing, $(echo "$whole" | grep -c 'matched no struct') unmatched"
expect_eq plugin/sidecar-index-small-first-same "$whole" "$(run_small "$small" "$t/cache")"
expect_eq plugin/sidecar-index-small-written 1 "$(ls "$t"/cache/sidecar-*.idx 2>/dev/null | wc -l)"
expect_eq plugin/sidecar-index-small-lazy-same "$whole" "$(run_small "$small" "$t/cache")"
# a small index is checked whole when mapped (small_index_ok): a line
# number changed in any record, or a slot's count, makes it ignored and
# rewritten, with a whole parse's diagnostics
sidx=$(ls "$t"/cache/sidecar-*.idx)
cp "$sidx" "$t/small-good.idx"
for kind in line count; do
	python3 - "$t/small-good.idx" "$sidx" "$kind" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
nslots, nrecs = struct.unpack_from('<II', b, 72)   # header 96 bytes, slots of 20
k = next(k for k in range(nslots) if struct.unpack_from('<I', b, 96 + 20 * k + 12)[0] > 1)
if sys.argv[3] == 'count':
    struct.pack_into('<I', b, 96 + 20 * k + 12, struct.unpack_from('<I', b, 96 + 20 * k + 12)[0] - 1)
else:
    r = 96 + 20 * nslots + 8 * (nrecs - 1)
    struct.pack_into('<I', b, r + 4, struct.unpack_from('<I', b, r + 4)[0] + 1)
open(sys.argv[2], 'wb').write(b)
PY
	expect_eq plugin/sidecar-index-small-damaged-$kind "$whole" "$(run_small "$small" "$t/cache")"
	expect_eq plugin/sidecar-index-small-damaged-$kind-rewritten 1 "$(cmp -s "$sidx" "$t/small-good.idx" && echo 1)"
done
run_small "$t/tiny.ann" "$t/cache2" >/dev/null
expect_eq plugin/sidecar-index-tiny-none "72 bytes, 0" \
	"$(stat -c %s "$t/tiny.ann") bytes, $(ls "$t"/cache2/sidecar-*.idx 2>/dev/null | wc -l)"
# "STRUCT owned" is parsed at load, and its duplicate check parses
# STRUCT's waiting lines inside its own parse (a review found both): the
# owned entry keeps its line's place in the unmatched notes, and lines
# before "# cachehot annotate:" are not marked inferred by an owned line
# after it (inferred findings are notes after the first)
{ echo "# owned lines and the lines they make the index parse -------------"
  echo "gone owned"; echo "side.count hot"; echo "gone.x hot"; echo "gone.y read_mostly"
  echo "side.limit read_mostly"; echo "# padding ---------------------------------"
  echo "# padding ---------------------------------------------------------"; } >"$t/order.ann"
printf 'struct S { unsigned long a; unsigned long b; };\nstruct T { struct S s; unsigned long x; unsigned long y; };\nstruct T t;\n' >"$t/inf.c"
{ echo "S.a hot"; echo "S.b hot:g2"; echo "T.x read_mostly"; echo "T.y read_mostly"
  echo "# padding ---------------------------------------------------------"
  echo "# padding ---------------------------------------------------------"
  echo "# cachehot annotate: inferred lines follow ------------------------"
  echo "S owned"; } >"$t/inf.ann"
sleep 2
run_file() { # C_FILE SIDECAR CACHE_DIR -> diagnostics
	CACHEHOT_CACHE_DIR=$3 HOME=/nonexistent XDG_CACHE_HOME= $CC -fplugin="$PLUGIN" \
		-fplugin-arg-cachehot-annotations="$2" -fplugin-arg-cachehot-unmatched=note \
		-fdiagnostics-plain-output -c "$1" -o /dev/null 2>&1; }
whole=$(run_file tests/sparse/side.c "$t/order.ann" "")
run_file tests/sparse/side.c "$t/order.ann" "$t/cache3" >/dev/null
expect_eq plugin/sidecar-index-owned-order "$(echo "$whole" | grep -o "'gone[^']*'" | tr '\n' ' ')" \
	"$(run_file tests/sparse/side.c "$t/order.ann" "$t/cache3" | grep -o "'gone[^']*'" | tr '\n' ' ')"
expect_eq plugin/sidecar-index-owned-order-same "$whole" "$(run_file tests/sparse/side.c "$t/order.ann" "$t/cache3")"
whole=$(run_file "$t/inf.c" "$t/inf.ann" "")
expect_eq plugin/sidecar-index-owned-inferred-whole 4 "$(echo "$whole" | grep -c 'warning: .*cachehot-false-sharing')"
run_file "$t/inf.c" "$t/inf.ann" "$t/cache4" >/dev/null
expect_eq plugin/sidecar-index-owned-inferred-same "$whole" "$(run_file "$t/inf.c" "$t/inf.ann" "$t/cache4")"
rm -rf "$t"

# a big struct's fix searched once per build (core/fix-cache.c): the
# search's answer kept in the cache directory, the diagnostics byte for
# byte the same with and without it, cold and warm; a warm unit uses the
# file as it is (not rewritten: same inode); an edited struct gets its new
# fix; a damaged or foreign file is ignored and rewritten
t=$(mktemp -d)
gen_big() { # NPAIRS [CLASS OF r0] -> struct big: hot and read-mostly members in turn
	echo '#include "cachehot.h"'; echo 'struct big {'
	for i in $(seq 0 $(($1 - 1))); do
		echo "	long h$i __cacheline_hot;"
		[ $i = 0 ] && echo "	long r0 ${2:-__cacheline_read_mostly};" || echo "	long r$i __cacheline_read_mostly;"
	done
	echo '};'; echo 'struct small { long a __cacheline_hot; long b __cacheline_read_mostly; };'
	echo 'struct big v; struct small w;'; }
gen_big 24 >"$t/big.c"
run_fc() { # CACHE_DIR -> diagnostics
	CACHEHOT_CACHE_DIR=$1 HOME=/nonexistent XDG_CACHE_HOME= $CC -fplugin="$PLUGIN" -Iinclude \
		-fdiagnostics-plain-output -c "$t/big.c" -o /dev/null 2>&1; }
plain=$(run_fc "")
expect_eq plugin/fix-cache-fix "132 warnings, 1 listing 46 edits" \
	"$(echo "$plain" | grep -c "one fix for all of 'struct big'.*(384 -> 1728 bytes") warnings, $(echo "$plain" | grep -c "move 'r23' after 'r22'; this costs 1344") listing 46 edits"
cold=$(run_fc "$t/cache")
expect_eq plugin/fix-cache-cold-same "$plain" "$cold"
expect_eq plugin/fix-cache-one-file "1" "$(ls "$t"/cache/fix-*.cfx 2>/dev/null | wc -l)"
f=$(ls "$t"/cache/fix-*.cfx)
ino=$(stat -c %i "$f")
expect_eq plugin/fix-cache-warm-same "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-warm-used "$ino" "$(stat -c %i "$f")"
cp "$f" "$t/good.cfx"
# damaged: garbage, cut short, one byte of the answer out of range, another
# struct's file (the small struct's key in the big one's name)
head -c 300 "$PLUGIN" >"$f"
expect_eq plugin/fix-cache-garbage "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-garbage-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" && echo 1)"
head -c $(( $(stat -c %s "$f") - 7 )) "$t/good.cfx" >"$f"
expect_eq plugin/fix-cache-truncated "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-truncated-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" && echo 1)"
cp "$t/good.cfx" "$f"; printf '\377' | dd of="$f" bs=1 seek=$(( $(stat -c %s "$f") - 1 )) conv=notrunc 2>/dev/null
expect_eq plugin/fix-cache-bad-answer "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-bad-answer-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" && echo 1)"
# an answer still well formed: the last member's move flag flipped (0 <-> 1);
# caught by the answer's check (a wrong fix was printed before it)
cp "$t/good.cfx" "$f"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-1] ^= 1; open(sys.argv[1], "wb").write(b)' "$f"
expect_eq plugin/fix-cache-flipped-move "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-flipped-move-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" && echo 1)"
mkdir "$t/other"; gen_big 23 >"$t/other/big.c"
CACHEHOT_CACHE_DIR=$t/cache2 $CC -fplugin="$PLUGIN" -Iinclude -c "$t/other/big.c" -o /dev/null 2>/dev/null
cp "$t"/cache2/fix-*.cfx "$f"
expect_eq plugin/fix-cache-foreign "$plain" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-foreign-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" && echo 1)"
# the struct edited (r0 hot now; same size and members, so the same file
# name): the new fix, as without the cache, never the old one
gen_big 24 __cacheline_hot >"$t/big.c"
edited=$(run_fc "")
expect_eq plugin/fix-cache-edit-changes 1 "$([ "$edited" != "$plain" ] && echo 1)"
expect_eq plugin/fix-cache-edit-same "$edited" "$(run_fc "$t/cache")"
expect_eq plugin/fix-cache-edit-rewritten 1 "$(cmp -s "$f" "$t/good.cfx" || echo 1)"
expect_eq plugin/fix-cache-edit-warm-same "$edited" "$(run_fc "$t/cache")"
# four units at once on an empty cache: the same diagnostics, one file
rm -rf "$t/cache"
for i in 1 2 3 4; do run_fc "$t/cache" >"$t/par$i" & done; wait
same=0; for i in 1 2 3 4; do [ "$(cat "$t/par$i")" = "$edited" ] && same=$((same + 1)); done
expect_eq plugin/fix-cache-concurrent "4 same, 1 file" "$same same, $(ls "$t/cache" | wc -l) file"
rm -rf "$t"

# -flto: the plugin on the link line reaches lto1, which must load it and stay
# quiet (it once failed: "undefined symbol: parse_in"); the compile-time
# finding is printed exactly once; C++ the same through cc1plus.
t=$(mktemp -d)
printf '#include <cachehot.h>\nstruct s { int a __cacheline_hot; int b __cacheline_read_mostly; };\nint f(struct s *p) { return p->a; }\n' >"$t/a.c"
cp "$t/a.c" "$t/a.cc"
printf 'struct s;\nint f(struct s *p);\nint main(void) { return f(0) == 1; }\n' >"$t/b.c"
for lang in c cc; do
	c=$CC; kw=_Alignas; [ $lang = cc ] && c=g++ && kw=alignas   # the fix in C, in C++
	out=$(cd "$t" && $c -O2 -flto -fplugin="$PLUGIN" -I"$TOP/include" -fdiagnostics-plain-output -o prog-$lang a.$lang b.c 2>&1; echo "rc=$?")
	expect_eq plugin/lto-link-$lang "a.$lang:2:39: warning: read-mostly field 'b' (offset 4, size 4) shares cache line 0 (64-byte lines) of 'struct s' with hot field 'a' (offset 0, size 4); one fix for all of 'struct s': declare 'b' $kw(64); this costs 120 bytes per object (8 -> 128 bytes; an array of n grows by 120*n bytes) [cachehot-false-sharing]
rc=0 prog" "$(echo "$out" | grep 'warning\|error\|rc=' | sed "s/[‘’]/'/g" | tr '\n' '@' | sed 's/@rc=/\nrc=/; s/@$//') $(ls "$t" | grep -x prog-$lang | sed 's/-.*//')"
done
# inline-addr under slim LTO is decided at link time: with -ffat-lto-objects
# the compile step still reports it
n=$($CC -fplugin="$PLUGIN" -Iinclude -O2 -flto -ffat-lto-objects -c tests/inline/seed.c -o "$t/seed.o" 2>&1 | grep -c 'cachehot-inline-addr')
expect_eq plugin/lto-fat-inline-addr 2 "$n"
rm -rf "$t"

# plugin/dispatch.c: cc1's pass events are not dispatched while cachehot is
# the only plugin (valgrind's callgrind counts cc1's calls of
# invoke_plugin_callbacks_full from execute_one_pass: none); with a second
# plugin (tests/plugin/probe/events.c) every one is, and that plugin sees
# the same events of GCC's own passes as without cachehot.
t=$(mktemp -d)
printf 'static inline int sq(int x) { return x * x; }\nint (*pick)(int) = sq;\nint g(int y) { int s = 0; for (int i = 0; i < y; i++) s += sq(i); return s; }\n' >"$t/two.c"
if g++ -shared -fPIC -O1 -I"$($CC -print-file-name=plugin)/include" -o "$t/probe.so" \
	tests/plugin/probe/events.c 2>"$t/probe.err"; then
	probe() { $CC "$@" -O2 -c "$t/two.c" -o /dev/null 2>&1 | grep '^probe:'; }
	alone=$(probe -fplugin="$t/probe.so")
	first=$(probe -fplugin="$PLUGIN" -fplugin="$t/probe.so")
	second=$(probe -fplugin="$t/probe.so" -fplugin="$PLUGIN")
	others() { echo "$1" | sed 's/.*\(other-gates=\)/\1/'; }
	expect_eq plugin/dispatch-second-plugin "$(others "$alone") / $(others "$alone")" \
		"$(others "$first") / $(others "$second")"
	if [ -z "$SANLOG" ]; then   # valgrind and ASan do not mix
		printf '#!/bin/sh\ncase "$1" in */cc1) exec valgrind -q --tool=callgrind --callgrind-out-file="$CGOUT" "$@" ;; *) exec "$@" ;; esac\n' >"$t/cg"
		chmod +x "$t/cg"
		calls() {   # calls of invoke_plugin_callbacks_full from execute_one_pass
			awk 'function nm(s,  id, rest) { id = s; sub(/\).*/, ")", id); rest = s
				sub(/^\([0-9]+\) ?/, "", rest); if (rest != "") name[id] = rest; return name[id] }
			/^fn=/ { fn = nm(substr($0, 4)) }
			/^cfn=/ { cfn = nm(substr($0, 5)) }
			/^calls=/ { split($0, a, /[= ]/)
				if (fn ~ /^execute_one_pass/ && cfn ~ /^invoke_plugin_callbacks_full/) n += a[2] }
			END { print n + 0 }' "$1"
		}
		CGOUT=$t/alone.cg $CC -wrapper "$t/cg" -fplugin="$PLUGIN" -O2 -c "$t/two.c" -o /dev/null 2>/dev/null
		both=$(CGOUT=$t/both.cg $CC -wrapper "$t/cg" -fplugin="$PLUGIN" -fplugin="$t/probe.so" -O2 \
			-c "$t/two.c" -o /dev/null 2>&1 | grep '^probe:')
		g=$(echo "$both" | sed -n 's/.*gates=\([0-9]*\) passes=\([0-9]*\).*/\1 \2/p')
		expect_eq plugin/dispatch-off "alone 0, with a second plugin $(( ${g% *} + ${g#* } )) (> 0: ${g:+yes})" \
			"alone $(calls "$t/alone.cg"), with a second plugin $(calls "$t/both.cg") (> 0: $([ "${g% *}" -gt 0 ] 2>/dev/null && echo yes))"
	fi
else
	fail plugin/dispatch-second-plugin "probe plugin does not build: $(head -3 "$t/probe.err")"
fi
# the events cachehot wants after the switch: PLUGIN_FINISH after an error
# raised while expanding (its findings= file is written), and under
# -fsyntax-only (no switch: nothing follows the parse)
printf '#include <cachehot.h>\nstruct s { int a __cacheline_hot; int b __cacheline_read_mostly; };\nextern void bad(void) __attribute__((error("do not call")));\nint f(struct s *p) { if (p->a == 42) bad(); return p->b; }\n' >"$t/err.c"
for m in -c -fsyntax-only; do
	rm -f "$t/rec.json"
	$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-findings="$t/rec.json" -Iinclude -O2 $m "$t/err.c" \
		-o "$t/err.o" >/dev/null 2>&1
	echo "rc=$? $(jq -r '"\(.check) \(.line):\(.column) \(.field)"' "$t/rec.json" 2>&1 | tr '\n' ' ')"
done >"$t/finish"
expect_eq plugin/dispatch-finish-after-error "rc=1 cachehot-false-sharing 2:8 null cachehot-false-sharing 2:39 b 
rc=0 cachehot-false-sharing 2:8 null cachehot-false-sharing 2:39 b " "$(cat "$t/finish")"
rm -rf "$t"

# robustness: broken and C++ inputs may fail to compile, but never crash cc1
for f in tests/plugin/robust/*; do
	case "$f" in *.cc) c=g++ ;; *) c=$CC ;; esac
	out=$($c -fplugin="$PLUGIN" -Iinclude -c "$f" -o /dev/null 2>&1)
	if echo "$out" | grep -q "internal compiler error\|Segmentation"; then
		fail "plugin/robust-$(basename "$f")" "$(echo "$out" | grep -m3 'internal compiler error\|Segmentation')"
	else ok "plugin/robust-$(basename "$f")"; fi
done

# make plugin-asan-check: no sanitizer report anywhere in the suite
if [ -n "$SANLOG" ]; then
	reports=$(ls "$SANLOG" | grep -E '^asan\.cc1(plus)?\.')
	if [ -z "$reports" ]; then
		ok plugin/sanitizers-silent
	else
		fail plugin/sanitizers-silent "$(echo "$reports" | wc -l) report(s): $(cd "$SANLOG" && cat $reports | grep -m4 'ERROR: AddressSanitizer\|runtime error\|#[0-3] ')"
	fi
	rm -rf "$SANLOG"
fi
