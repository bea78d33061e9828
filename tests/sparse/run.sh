#!/bin/bash
# Sparse suite: bin/cachehot-sparse against every layout fixture
# (tests/fixtures/*.c, and tests/sparse/agree-*.c), two ways:
#   sparse/expect/NAME  its diagnostics for the fixture file equal the
#                       fixture's expect: block (line, column, kind, message);
#   sparse/agree/NAME   engine agreement: its findings equal the GCC plugin's
#                       on the same fixture with the same arguments, line for
#                       line (struct, fields, offsets, line index and check id
#                       are all in the message text; the line:col must match).
# Then cases of its own (tests/sparse/*.c): argument pass-through, sidecar
# option, bad input, inline-addr, attributes, kernel-style -include.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
CK=$TOP/bin/cachehot-sparse
PLUGIN=$TOP/plugin/cachehot.so
CC=${CC:-gcc}
[ -x "$CK" ] || { fail sparse/build "$CK missing (make sparse)"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# normalise FILE: the fixture's own diagnostics as "L:C: kind: message" and
# tool-level ones (no position) as the fixtures write them, "cc1: kind: ...",
# with the plugin's "cachehot: " prefix on errors; GCC's quotes ‘’ as '.
normalise() {
	local f=$1
	sed "s/[‘’]/'/g" | sed -n \
		-e "s#^$f:\([0-9]*:[0-9]*: \(warning\|note\|error\): .*\)\$#\1#p" \
		-e "s#^\(cc1: \(warning\|note\|error\): .*\)\$#\1#p" \
		-e "s#^cachehot-sparse: error: \(.*\)\$#cc1: error: cachehot: \1#p" \
		-e "s#^cachehot-sparse: \(warning\|note\): \(.*\)\$#cc1: \1: \2#p" | sort
}
# GCC adds "note: in definition of macro 'X'" / "in expansion of macro" to a
# diagnostic at a macro-expanded token: presentation, not a finding; sparse
# keeps no expansion history. Dropped before comparing.
no_macro_ctx() { grep -v ": note: in \(definition\|expansion\) of macro "; }
# run_sparse FILE EXTRA... -> normalised diagnostics. -Wno-decl: fixtures
# define globals without a header, which stock sparse would remark on.
run_sparse() {
	local f=$1; shift
	"$CK" -Wno-decl $(fixture_keys "$f" | sed 's/^/-fcachehot-/') "$@" -Iinclude "$f" 2>&1 | normalise "$f"
	[ "${PIPESTATUS[0]}" -ge 128 ] && echo "CRASH: signal $((PIPESTATUS[0] - 128))"
}
run_plugin() {
	local f=$1; shift
	$CC -fplugin="$PLUGIN" $(fixture_plugin_args "$f") "$@" \
		-Iinclude -O2 -c "$f" -o /dev/null -fdiagnostics-plain-output 2>&1 | normalise "$f"
}

nfix=0
# the lead's layout fixtures, then shapes of our own (agree-*.c: compared
# with the plugin only)
for f in tests/fixtures/*.c tests/sparse/agree-*.c; do
	name=$(basename "$f" .c)
	nfix=$((nfix + 1))
	run_sparse "$f" >"$T/sparse"
	if grep -q '^CRASH' "$T/sparse"; then fail "sparse/expect/$name" "$(cat "$T/sparse")"; continue; fi
	if fixture_has_expect "$f"; then
		fixture_expect "$f" | no_macro_ctx >"$T/exp"
		expect_file_eq "sparse/expect/$name" "$T/exp" "$T/sparse"
	fi
	if [ -f "$PLUGIN" ]; then
		run_plugin "$f" | no_macro_ctx >"$T/plugin"
		expect_file_eq "sparse/agree/$name" "$T/plugin" "$T/sparse"
	else
		fail "sparse/agree/$name" "$PLUGIN missing (make plugin): engines not compared"
	fi
done
[ "$nfix" -gt 0 ] || fail sparse/fixtures "no tests/fixtures/*.c"

# --- cases of the sparse checker itself -------------------------------------
S=tests/sparse

# sparse's own checks and arguments pass through unchanged: same output as
# stock sparse (built from the same source) on a file with no cachehot content
# but stock warnings (-Wshadow, -D, -I, -include, -m64, -std, -o ignored).
args=(-Wshadow -D__CHK_DEFINED=3 -I"$S" -include "$S/passthru-inc.h" -m64 -std=gnu11 -O2 -fno-strict-aliasing -Wno-unknown-attribute)
stock=$(sparse "${args[@]}" "$S/passthru.c" 2>&1)
ours=$("$CK" "${args[@]}" "$S/passthru.c" 2>&1)
expect_eq sparse/passthru-same-as-stock "$stock" "$ours"
expect_eq sparse/passthru-real-warnings \
	"$S/passthru.c:7:19: warning: symbol 'x' shadows an earlier one|$S/passthru.c:5:12: originally declared here|$S/passthru.c:12:22: error: undefined identifier 'not_defined'" \
	"$(echo "$ours" | tr '\n' '|' | sed 's/|$//')"
# -E still preprocesses
expect_eq sparse/passthru-E "int v = 3;" \
	"$("$CK" -E -D__CHK_DEFINED=3 "$S/passthru-E.c" 2>&1 | grep -v '^$' | sed 's/^[ \t]*//; s/[ \t]*$//' | tr -s ' \n' ' ' | sed 's/ $//')"

# several input files in one run (sparse allows it): each judged as alone
a=tests/fixtures/nested.c; b=tests/fixtures/page_counter_v5_10.c
both=$("$CK" -Wno-decl -Iinclude "$a" "$b" 2>&1 | sort)
apart=$( { "$CK" -Wno-decl -Iinclude "$a"; "$CK" -Wno-decl -Iinclude "$b"; } 2>&1 | sort)
expect_eq sparse/two-files-in-one-run "$apart" "$both"
expect_eq sparse/two-files-count 9 "$(echo "$both" | grep -c 'cachehot-false-sharing')"

# __has_attribute sees the attributes; an -include'd header defining an
# annotated struct is judged once (builtin scope), in header coordinates
out=$("$CK" -Wno-decl -include "$S/hdr-struct.h" -Iinclude "$S/has_attr.c" 2>&1)
expect_eq sparse/has-attribute \
	"$S/has_attr.c:4:2: warning: \"cachehot attributes registered\"|$S/hdr-struct.h:5:23: warning: read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct incl' with hot field 'count' (offset 0, size 8); one fix for all of 'struct incl': declare 'limit' _Alignas(64); this costs 112 bytes per object (16 -> 128 bytes; an array of n grows by 112*n bytes) [cachehot-false-sharing]" \
	"$(echo "$out" | grep -v 'note:' | grep -v 'is aligned to' | sort | tr '\n' '|' | sed 's/|$//')"

# the sidecar option, with sparse's -f style; also several sidecars
out=$("$CK" -Wno-decl -fcachehot-annotations=$S/side1.ann -fcachehot-annotations=$S/side2.ann "$S/side.c" 2>&1 | grep -c 'warning: .*cachehot-false-sharing')
expect_eq sparse/sidecar-two-files 2 "$out"
out=$("$CK" -Wno-decl -fcachehot-annotations=$S/side1.ann "$S/side.c" 2>&1 | grep 'warning:')
expect_eq sparse/sidecar-one-file \
	"$S/side.c:4:23: warning: read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct side' with hot field 'count' (offset 0, size 8); one fix for all of 'struct side': declare 'limit' _Alignas(64); this costs 112 bytes per object (16 -> 128 bytes; an array of n grows by 112*n bytes) [cachehot-false-sharing]" \
	"$out"

# a big sidecar (256 bytes or more; this one is big) through its index (core/sidecar-index.c):
# the first run parses it whole and writes the index, later runs parse only
# the lines of the structs they see ('other' here, far down the file);
# findings and unmatched notes (in file order) equal a whole parse's, and a
# damaged index is ignored and rewritten
big=$T/big.ann
{ cat "$S/side1.ann"; echo "g_var hot"; echo "nosuch.x hot"
  for i in $(seq 1 1500); do echo "bench_s$i.f$((i % 3)) hot"; done
  echo "other.a exclusive"; echo "other.b read_mostly"; echo "other.zz hot"; } >"$big"
sleep 2   # no index for a file changed in the last 2 seconds
run_big() { CACHEHOT_CACHE_DIR=$1 HOME=/nonexistent XDG_CACHE_HOME= "$CK" -Wno-decl \
	-fcachehot-annotations="$big" "$S/side.c" 2>&1; }
whole=$(run_big "")
first=$(run_big "$T/cache")
second=$(run_big "$T/cache")
expect_eq sparse/sidecar-index-written 1 "$(ls "$T"/cache/sidecar-*.idx 2>/dev/null | wc -l)"
expect_eq sparse/sidecar-index-whole "2 false-sharing, 1501 unmatched, other.zz: 1" \
	"$(echo "$whole" | grep -c 'warning: .*cachehot-false-sharing') false-sharing, $(echo "$whole" | grep -c 'matched no struct') unmatched, other.zz: $(echo "$whole" | grep -c "'other.zz'")"
expect_eq sparse/sidecar-index-first-same "$whole" "$first"
expect_eq sparse/sidecar-index-lazy-same "$whole" "$second"
for f in "$T"/cache/sidecar-*.idx; do head -c 100 "$CK" >"$f"; done
expect_eq sparse/sidecar-index-damaged "$whole" "$(run_big "$T/cache")"
expect_eq sparse/sidecar-index-rewritten "$whole" "$(run_big "$T/cache")"
# an inferred sidecar (cachehot annotate's header line): the lines after it
# keep their mark through the index (findings once per struct)
{ echo "# cachehot annotate: test"; cat "$big"; } >"$T/big2.ann"; mv "$T/big2.ann" "$big"
sleep 2
whole=$(run_big "")
run_big "$T/cache" >/dev/null
expect_eq sparse/sidecar-index-inferred-same "$whole" "$(run_big "$T/cache")"

# bad input: clear errors, exit status 1, never a crash
check_err() { # NAME EXPECTED-FIRST-LINE ARGS...
	local name=$1 exp=$2; shift 2
	local out rc
	out=$("$CK" "$@" 2>&1); rc=$?
	if [ $rc -ge 128 ]; then fail "$name" "crashed (signal $((rc - 128)))"; return; fi
	if [ $rc -eq 0 ]; then fail "$name" "exit status 0 for bad input: $out"; return; fi
	expect_eq "$name" "$exp" "$(echo "$out" | head -1)"
}
check_err sparse/bad-option "cachehot-sparse: error: unknown option -fcachehot-lines=64 (known: annotations, line-size, predict, severity, manifest, unmatched, inline-addr, inline-notes, smp, layout, findings, sidecar)" \
	-fcachehot-lines=64 "$S/side.c"
check_err sparse/bad-line-size "cachehot-sparse: error: '-fcachehot-line-size=100': expected a power of two from 8 to 4096 bytes" \
	-fcachehot-line-size=100 "$S/side.c"
check_err sparse/missing-sidecar "cachehot-sparse: error: $S/no-such.ann: cannot open annotations file: No such file or directory" \
	-fcachehot-annotations=$S/no-such.ann "$S/side.c"
check_err sparse/bad-sidecar "cachehot-sparse: error: tests/fixtures/bad_sidecar.ann:2: unknown class 'warm' (expected hot, exclusive or read_mostly)" \
	-fcachehot-annotations=tests/fixtures/bad_sidecar.ann "$S/side.c"
check_err sparse/missing-input "No such file: $S/nonexistent.c" "$S/nonexistent.c"
# a broken C file: sparse's errors, no crash
out=$("$CK" -Iinclude "$S/broken.c" 2>&1); rc=$?
if [ $rc -ge 128 ]; then fail sparse/broken-c "crashed (signal $((rc - 128)))"; else
	expect_eq sparse/broken-c "$S/broken.c:6:9: error: expected ; at end of declaration" "$(echo "$out" | head -1)"; fi
# a binary file as input: no crash
head -c 4096 "$CK" >"$T/binary.c"
"$CK" "$T/binary.c" >/dev/null 2>&1; rc=$?
[ $rc -lt 128 ] && ok sparse/binary-input || fail sparse/binary-input "crashed (signal $((rc - 128)))"

# inline-addr: only static inline functions used as values, at the definition
out=$("$CK" -Wno-decl -fcachehot-inline-addr=1 -fcachehot-annotations=$S/inline.ann "$S/inline.c" 2>&1 | grep 'cachehot-inline-addr')
expect_eq sparse/inline-addr \
	"$S/inline.c:3:19: note: inline function 'used_as_value' is used as a value (its address is taken); sparse cannot tell whether the compiler emits an out-of-line copy: the GCC plugin (call graph) or \`cachehot-bloat OBJ\` (symbol table) can [cachehot-inline-addr]|$S/inline.c:5:19: note: inline function 'in_table' is used as a value (its address is taken); sparse cannot tell whether the compiler emits an out-of-line copy: the GCC plugin (call graph) or \`cachehot-bloat OBJ\` (symbol table) can [cachehot-inline-addr]" \
	"$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
n=$("$CK" -Wno-decl -fcachehot-inline-addr=0 "$S/inline.c" 2>&1 | grep -c 'cachehot-inline-addr')
expect_eq sparse/inline-addr-off 0 "$n"
# opt-in: without the flag sparse says nothing about inline functions (it
# cannot know whether a copy is emitted; on 6.1, 11 of 232 notes were real)
n=$("$CK" -Wno-decl "$S/inline.c" 2>&1 | grep -c 'cachehot-inline-addr')
expect_eq sparse/inline-addr-opt-in 0 "$n"
n=$("$CK" -Wno-decl -fcachehot-inline-addr=1 -fcachehot-inline-notes=0 "$S/inline.c" 2>&1 | grep -c 'warning: .*cachehot-inline-addr')
expect_eq sparse/inline-addr-warnings 3 "$n"

# __cachehot_addressable silences it (on a redeclaration or the definition);
# before the type it applies to the type: GCC's error, at the same place
out=$("$CK" -Wno-decl -fcachehot-inline-addr=1 -Iinclude "$S/inline-attr.c" 2>&1 | cut -d" " -f1-5)
expect_eq sparse/inline-addressable-attr \
	"$S/inline-attr.c:6:19: error: attribute 'cachehot_addressable' applies|$S/inline-attr.c:6:42: note: inline function 'leading'|$S/inline-attr.c:7:19: note: inline function 'unmarked'" \
	"$(echo "$out" | tr '\n' '|' | sed 's/|$//')"

# member positions: pointer and function-pointer members are reported at the
# name (GCC's column), a tab-indented member at its display column
out=$("$CK" -Wno-decl -Iinclude "$S/columns.c" 2>&1 | grep 'warning:' | cut -d: -f2,3 | tr '\n' ' ')
expect_eq sparse/columns "5:24 6:26 7:42 " "$out"   # = the plugin's; sparse alone: 23 24 41

# randomize_layout: not judged (sparse's layout is declaration order)
out=$("$CK" -Wno-decl -Iinclude "$S/randstruct.c" 2>&1)
expect_eq sparse/randstruct \
	"$S/randstruct.c:4:8: note: 'struct rnd' is laid out by randstruct: its cache-line layout is not judged (mark it __no_randomize_layout to check it) [cachehot-false-sharing]" \
	"$out"

# severity and -Wsparse-error
n=$("$CK" -Wno-decl -fcachehot-severity=error -Iinclude tests/fixtures/page_counter_v5_10.c 2>&1 | grep -c ': error: .*cachehot-false-sharing')
expect_eq sparse/severity-error 5 "$n"
# sparse's exit status ignores errors (kernel C=1 builds go on); with
# -Wsparse-error, cachehot warnings fail the run like any sparse warning
"$CK" -Wno-decl -Iinclude tests/fixtures/page_counter_v5_10.c >/dev/null 2>&1
expect_eq sparse/status-warnings 0 "$?"
"$CK" -Wno-decl -Wsparse-error -Iinclude tests/fixtures/page_counter_v5_10.c >/dev/null 2>&1
expect_eq sparse/status-Wsparse-error 1 "$?"

# manifest: JSON with real offsets
rm -f "$T/m.json"
"$CK" -Wno-decl -fcachehot-manifest="$T/m.json" -Iinclude tests/fixtures/page_counter_v5_10.c >/dev/null 2>&1
expect_eq sparse/manifest-fields "usage:0:8:hot min:8:8:read_mostly parent:40:8:read_mostly" \
	"$(jq -r '.structs.page_counter.fields[] | select(.name=="usage" or .name=="min" or .name=="parent") | "\(.name):\(.offset):\(.size):\(.class)"' "$T/m.json" 2>&1 | tr '\n' ' ' | sed 's/ $//')"
# a manifest that cannot be written (no such folder; a full file system when
# a tmpfs can be mounted): "error:" and exit 2 (was the bare reason, exit 0)
out=$("$CK" -Wno-decl -fcachehot-manifest="$T/no-such-dir/m.json" -Iinclude tests/fixtures/page_counter_v5_10.c 2>&1 >/dev/null | grep '^cachehot-sparse: error')
rc=$("$CK" -Wno-decl -fcachehot-manifest="$T/no-such-dir/m.json" -Iinclude tests/fixtures/page_counter_v5_10.c >/dev/null 2>&1; echo $?)
expect_eq sparse/manifest-unwritable "2|cachehot-sparse: error: $T/no-such-dir/m.json.lock: cannot lock manifest: No such file or directory" "$rc|$out"
mkdir "$T/full"
if mount -t tmpfs -o size=8k tmpfs "$T/full" 2>/dev/null; then
	cat /dev/zero >"$T/full/fill" 2>/dev/null   # the file system is full
	: >"$T/full/m.json.lock"
	rc=$("$CK" -Wno-decl -fcachehot-manifest="$T/full/m.json" -Iinclude tests/fixtures/page_counter_v5_10.c 2>"$T/full.err" >/dev/null; echo $?)
	expect_eq sparse/manifest-disk-full "2|1|" "$rc|$(grep -c "^cachehot-sparse: error: $T/full/m.json" "$T/full.err")|$(ls "$T/full" | grep -v '^fill$\|^m.json.lock$')"
	umount "$T/full"
fi
# attribute per-thread marks in the manifest, named as the plugin names them
# (cachehot-layout reads them: DWARF and BTF carry no attributes)
rm -f "$T/pt.json"
"$CK" -Wno-decl -fcachehot-annotations=tests/fixtures/array_sharing.ann -fcachehot-manifest="$T/pt.json" \
	-Iinclude tests/fixtures/array_sharing.c >/dev/null 2>&1
expect_eq sparse/manifest-per-thread "heap_workers2 padded_stats pool.workers slab_class stats" \
	"$(jq -r '.per_thread | keys | join(" ")' "$T/pt.json" 2>&1)"
# What the sparse checker cannot see (docs/sparse.rst): each shape gives
# exactly its expect: block (a "not judged" note instead of findings on
# wrong offsets); sparse's own diagnostics on the file are part of it.
for f in tests/sparse/cannot/*.c; do
	name=sparse/cannot-$(basename "$f" .c)
	fixture_expect "$f" >"$T/exp"
	"$CK" -Wno-decl -Wno-vla -Iinclude "$f" 2>&1 | normalise "$f" | grep -v "aligned to [0-9]* bytes, less than" >"$T/act"
	expect_file_eq "$name" "$T/exp" "$T/act"
done

# sparse's warning limit (-fmax-warnings, 100 by default) does not apply to
# cachehot's findings: 150 ordinary sparse warnings first, then the struct
{ for i in $(seq 1 150); do echo "int g$i;"; done
  echo '#include "cachehot.h"'
  echo 'struct late { long a __cacheline_hot; long b __cacheline_read_mostly; };'
  echo 'struct late l;'; } >"$T/maxw.c"
out=$("$CK" -Iinclude "$T/maxw.c" 2>&1)
expect_eq sparse/max-warnings-not-applied "99 1 $T/maxw.c:152:44: warning: read-mostly field 'b' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct late' with hot field 'a' (offset 0, size 8); one fix for all of 'struct late': declare 'b' _Alignas(64); this costs 112 bytes per object (16 -> 128 bytes; an array of n grows by 112*n bytes) [cachehot-false-sharing]" \
	"$(echo "$out" | grep -c 'not declared') $(echo "$out" | grep -c 'too many warnings') $(echo "$out" | grep 'cachehot-false-sharing' | grep warning)"

# a big struct's fix searched once per build, as in the plugin
# (core/fix-cache.c): the same diagnostics without the cache, cold and
# warm, one file kept, and a warm check uses it as it is (same inode)
fc=$(mktemp -d)
{ echo '#include "cachehot.h"'; echo 'struct big {'
  for i in $(seq 0 23); do echo "	long h$i __cacheline_hot;"; echo "	long r$i __cacheline_read_mostly;"; done
  echo '};'; echo 'struct big v;'; } >"$fc/big.c"
sp_fc() { CACHEHOT_CACHE_DIR=$1 HOME=/nonexistent XDG_CACHE_HOME= "$CK" -I"$TOP/include" "$fc/big.c" 2>&1; }
plain=$(sp_fc "")
expect_eq sparse/fix-cache-fix "132" "$(echo "$plain" | grep -c "one fix for all of 'struct big'.*(384 -> 1728 bytes")"
expect_eq sparse/fix-cache-cold-same "$plain" "$(sp_fc "$fc/cache")"
expect_eq sparse/fix-cache-one-file "1" "$(ls "$fc"/cache/fix-*.cfx 2>/dev/null | wc -l)"
ino=$(stat -c %i "$fc"/cache/fix-*.cfx 2>/dev/null)
expect_eq sparse/fix-cache-warm-same "$plain" "$(sp_fc "$fc/cache")"
expect_eq sparse/fix-cache-warm-used "$ino" "$(stat -c %i "$fc"/cache/fix-*.cfx 2>/dev/null)"
rm -rf "$fc"

exit 0
