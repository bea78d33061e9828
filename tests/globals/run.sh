#!/bin/bash
# Globals suite: [cachehot-global-sharing] -- hot global variables sharing a
# cache line with other data, judged by cachehot-layout from the ELF symbol
# table of objects and linked programs (layout/symbols.c, core/globals.c).
#  1. userspace (tests/globals/server.c): attributes through the plugin's
#     manifest, with and without -fdata-sections, object and executable;
#     the suggested fix (-DFIXED) is clean; -fcommon; a function's static
#     (calls.c: the fix names 'calls', not the symbol 'calls.0'); a plain object (no
#     -g, no plugin) annotated by a sidecar; sparse's manifest agrees;
#  2. kernel vocabulary (tests/globals/kstats.c, -mcmodel=kernel) and its fix;
#  3. cachehot check passes the findings through in gcc, json and SARIF;
#  4. a sidecar variable entry that names no variable (charge.c, uncharge.c,
#     charge.ann: "page_counterusage hot" for "page_counter.usage hot"):
#     a note per unit from the plugin and sparse, one finding from
#     cachehot check over the run (a warning with the "did you mean" hint
#     or over a whole database: the gate fails), the same text from
#     cachehot-layout; a variable of another unit is not reported.
#  9. a const annotated hot (rodata.c): in .rodata, a note that the
#     annotation is wrong, no sharing warning.
#  8. command-line macros of a -g3 linked program (cmdline.c): -D__KERNEL__
#     gives the kernel fix, -DSMP_CACHE_BYTES=128 the line size
#     (DW_MACRO_import followed); in an object libdw cannot reach them.
#  7. function statics of one name (dup.c): distinct manifest records,
#     matched by DWARF declaration line; one warning, plugin and sparse alike;
#     a manifest of one record per name (before) still reads.
#  6. C++ (nsvars.cc): mangled symbols matched by their demangled names,
#     printed demangled, the fix names the declared name; a manifest
#     variable no symbol has is reported, never silently passed.
#  5. per_thread entries that name no array (a member that is neither an
#     array nor a pointer, a name nothing has): "matched no array" from
#     every engine and the driver, not "no such struct"; FUNCTION()
#     entries: "matched no inline function whose address is taken".
# Expected texts are exact for Debian 12's gcc 12 and binutils 2.40.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
LT=$TOP/bin/cachehot-layout
CH=$TOP/bin/cachehot
SP=$TOP/bin/cachehot-sparse
PLUGIN=$TOP/plugin/cachehot.so
export LC_ALL=C
[ -x "$LT" ] || { fail globals/build "$LT missing (make layout)"; exit 0; }
[ -f "$PLUGIN" ] || { fail globals/plugin "$PLUGIN missing (make plugin)"; exit 0; }
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
cp tests/globals/server.c tests/globals/calls.c tests/globals/kstats.c tests/globals/kstats.ann tests/globals/charge.c \
	tests/globals/uncharge.c tests/globals/charge.ann tests/globals/nsvars.cc tests/globals/dup.c tests/globals/cmdline.c tests/globals/rodata.c "$T/"
cd "$T"
INC=-I$TOP/include
# run CMD...: "rc|stdout" of cachehot-layout (the summary line is on stderr)
run() { local out rc; out=$("$@" 2>/dev/null); rc=$?; printf '%s|%s' "$rc" "$out"; }

# ---- 1. userspace ---------------------------------------------------------------
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=s.json $INC -O2 -g -fno-common -c server.c -o s.o &&
	gcc s.o -o s || fail globals/build-server "gcc failed"
expect_eq object-plugin "1|server.c:14:26: warning: hot global 'requests_served' (8 bytes at offset 16 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'queue_tail' (8 bytes at offset 0, line 0) and 'queue_head' (8 bytes at offset 8, line 0): every write to 'requests_served' takes the line from the CPUs using them; declare 'requests_served' _Alignas(64); at this placement that costs 48 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]" \
	"$(run "$LT" --manifest s.json s.o)"
EXE_MSG="server.c:14:26: warning: hot global 'requests_served' (8 bytes at 0x4030, offset 24 of '.bss') shares cache line 0 of '.bss' (64-byte lines, 0x4000-0x403f) with 'max_conns' (read-mostly, 4 bytes at 0x4010, offset 16 of '.data', line 0), 'completed.0' (1 byte at 0x4018, offset 0, line 0), 'queue_tail' (8 bytes at 0x4020, offset 8, line 0) and 'queue_head' (8 bytes at 0x4028, offset 16, line 0): every write to 'requests_served' takes the line from the CPUs using them; declare 'requests_served' _Alignas(64); at this placement that costs 16 bytes of padding [cachehot-global-sharing]"
expect_eq executable-plugin "1|$EXE_MSG" "$(run "$LT" --manifest s.json s)"
"$LT" --manifest s.json s >/dev/null 2>err.txt
expect_eq executable-summary "cachehot-layout: 0 structs read, 1 annotated judged, 1 warnings, binary matches the manifest" "$(cat err.txt)"

gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=ds.json $INC -O2 -g -fno-common -fdata-sections -c server.c -o ds.o &&
	gcc ds.o -o ds || fail globals/build-data-sections "gcc failed"
expect_eq data-sections-object "0|server.c:14:26: note: hot global 'requests_served' (8 bytes at offset 0 of '.bss.requests_served') has its cache lines to itself in this relocatable object, but the link decides what else shares them: '.bss.requests_served' is aligned to 8 bytes, so data before it may share the first line; '.bss.requests_served' ends at byte 8, inside the variable's last line, so data after it may share that line; judge the linked file, or declare 'requests_served' _Alignas(64) and pad it to a multiple of 64 bytes [cachehot-global-sharing]" \
	"$(run "$LT" --manifest ds.json ds.o)"
expect_eq data-sections-executable "1|$EXE_MSG" "$(run "$LT" --manifest ds.json ds)"

# the fix the warning gives, applied: clean in the object and the program
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=f.json $INC -O2 -g -fno-common -DFIXED -c server.c -o f.o &&
	gcc f.o -o f || fail globals/build-fixed "gcc failed"
# the object cannot tell what the link puts after the end of its .bss
expect_eq fixed-object-tail-open "0|server.c:14:26: note: hot global 'requests_served' (8 bytes at offset 64 of '.bss') has its cache lines to itself in this relocatable object, but the link decides what else shares them: '.bss' ends at byte 72, inside the variable's last line, so data after it may share that line; judge the linked file, or declare 'requests_served' _Alignas(64) and pad it to a multiple of 64 bytes [cachehot-global-sharing]" \
	"$(run "$LT" --manifest f.json f.o)"
expect_eq fixed-executable-clean "0|" "$(run "$LT" --manifest f.json f)"
expect_eq fixed-executable-placement "00000000000040c0 0000000000000008 B requests_served" \
	"$(nm -S f | grep ' requests_served$')"

# -fcommon: the link places it
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=c.json $INC -O2 -g -fcommon -c server.c -o c.o ||
	fail globals/build-common "gcc failed"
expect_eq common-object "0|server.c:14:26: note: hot global 'requests_served' is a common symbol in c.o (-fcommon): the link decides where it goes, so its neighbours are not known here; build with -fno-common or judge the linked file [cachehot-global-sharing]" \
	"$(run "$LT" --manifest c.json c.o)"

# a plain object (no plugin, no -g): the sidecar alone, found by symbol name;
# a stale entry is a note
gcc $INC -O2 -fno-common -c server.c -o plain.o
printf 'requests_served hot\nmax_conns read_mostly\nrequests_dropped hot\n' >server.ann
expect_eq sidecar-plain-object "1|plain.o: warning: hot global 'requests_served' (8 bytes at offset 16 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'queue_tail' (8 bytes at offset 0, line 0) and 'queue_head' (8 bytes at offset 8, line 0): every write to 'requests_served' takes the line from the CPUs using them; declare 'requests_served' _Alignas(64); at this placement that costs 48 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]
cachehot-layout: note: sidecar entry 'requests_dropped hot' (server.ann:3) names no variable of the input: no variable or data symbol has that name (a stale or misspelt entry, or a variable the compiler removed) [cachehot]" \
	"$(run "$LT" --annotations server.ann plain.o)"
expect_eq sidecar-stale-ignored "0" "$("$LT" --annotations server.ann --unmatched ignore plain.o 2>/dev/null | grep -c requests_dropped)"
gcc plain.o -o plain
expect_eq sidecar-plain-executable "1|plain: warning: hot global 'requests_served' (8 bytes at 0x4030, offset 24 of '.bss') shares cache line 0 of '.bss' (64-byte lines, 0x4000-0x403f) with 'max_conns' (read-mostly, 4 bytes at 0x4010, offset 16 of '.data', line 0), 'completed.0' (1 byte at 0x4018, offset 0, line 0), 'queue_tail' (8 bytes at 0x4020, offset 8, line 0) and 'queue_head' (8 bytes at 0x4028, offset 16, line 0): every write to 'requests_served' takes the line from the CPUs using them; declare 'requests_served' _Alignas(64); at this placement that costs 16 bytes of padding [cachehot-global-sharing]" \
	"$(run "$LT" --annotations server.ann --unmatched ignore plain)"
# with -g the finding is at the variable's definition (DWARF)
gcc $INC -O2 -g -fno-common -c server.c -o plaing.o
expect_eq sidecar-dwarf-location "server.c:14:26:" "$("$LT" --annotations server.ann plaing.o 2>/dev/null | head -1 | cut -d' ' -f1)"

# thread-local and kernel per-CPU variables: a copy per thread / CPU, not
# judged; their entries still name a variable of the input (no note)
printf '__thread long tls_hits;\nlong tls_a, tls_b;\nlong pcpu_hits __attribute__((section(".data..percpu")));\nlong pcpu_b __attribute__((section(".data..percpu")));\nint f(void);\nint f(void) { return (int)(tls_hits + tls_a + tls_b + pcpu_hits + pcpu_b); }\n' >local.c
gcc -O2 -fno-common -c local.c -o local.o
printf 'tls_hits hot\npcpu_hits hot\n' >local.ann
expect_eq thread-and-cpu-local-not-judged "0|" "$(run "$LT" --annotations local.ann local.o)"

# the attribute on a variable: the plugin and sparse accept it and write the
# same manifest entry; cachehot-layout judges alike from either
out=$(gcc -fplugin="$PLUGIN" $INC -Wall -Werror -O2 -c server.c -o /dev/null 2>&1); rc=$?
expect_eq plugin-accepts-variables "0|" "$rc|$out"
if [ -x "$SP" ]; then
	out=$("$SP" $INC -fcachehot-manifest=sp.json server.c 2>&1 | grep cachehot); rc=$?
	expect_eq sparse-accepts-variables "" "$out"
	expect_eq sparse-manifest-globals '{"class": "hot", "col": 26, "file": "server.c", "group": null, "line": 14}|{"class": "hot", "col": 26, "file": "server.c", "group": null, "line": 14}' \
		"$(jq -cS '.globals.requests_served | del(.tool)' sp.json | sed 's/,/, /g; s/:/: /g')|$(jq -cS '.globals.requests_served | del(.tool)' s.json | sed 's/,/, /g; s/:/: /g')"
	# sidecar VARIABLE lines reach both manifests alike; the attribute wins
	printf 'requests_served exclusive\nqueue_head read_mostly\n' >sv.ann
	"$SP" $INC -fcachehot-annotations=sv.ann -fcachehot-manifest=sps.json server.c >/dev/null 2>&1
	gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=sv.ann -fplugin-arg-cachehot-manifest=pls.json \
		$INC -c server.c -o /dev/null
	expect_eq sparse-sidecar-manifest "hot 14 read_mostly 15|hot 14 read_mostly 15" \
		"$(jq -r '.globals | "\(.requests_served.class) \(.requests_served.line) \(.queue_head.class) \(.queue_head.line)"' sps.json)|$(jq -r '.globals | "\(.requests_served.class) \(.requests_served.line) \(.queue_head.class) \(.queue_head.line)"' pls.json)"
	expect_eq sparse-manifest-agrees "$(run "$LT" --manifest s.json s)" "$(run "$LT" --manifest sp.json s | sed 's/, binary/, binary/')"
fi

# a function's static: the symbol is 'calls.0', the fix names 'calls' as declared
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=cs.json $INC -O2 -g -fno-common -c calls.c -o c.o ||
	fail globals/build-calls "gcc failed"
expect_eq function-static-fix "1|calls.c:9:23: warning: hot global 'calls.0' (8 bytes at offset 0 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'tally' (8 bytes at offset 8, line 0): every write to 'calls' takes the line from the CPUs using it; declare 'calls' _Alignas(64), and 'tally', the first variable after it on its line, _Alignas(64) too; at this placement that costs 56 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]" \
	"$(run "$LT" --manifest cs.json c.o)"
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=ck.json $INC -O2 -g -fno-pie -mcmodel=kernel -fno-common -D__KERNEL__ -DCONFIG_SMP -c calls.c -o ck.o ||
	fail globals/build-calls-kernel "gcc failed"
expect_eq function-static-kernel-fix "mark 'calls' __cacheline_aligned_in_smp" \
	"$("$LT" --manifest ck.json ck.o 2>/dev/null | grep -o "mark '[^']*' __cacheline_aligned_in_smp")"

# ---- 2. kernel vocabulary ------------------------------------------------------------
KFLAGS="-O2 -g -fno-pie -mcmodel=kernel -fno-common -D__KERNEL__ -DCONFIG_SMP"
gcc $KFLAGS -c kstats.c -o k.o && gcc $KFLAGS -DFIXED -c kstats.c -o kf.o ||
	fail globals/build-kstats "gcc failed"
expect_eq kernel-object "1|kstats.c:13:15: warning: hot global 'total_forks' (8 bytes at offset 8 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'max_threads' (read-mostly, 4 bytes at offset 0, line 0) and 'nr_threads' (4 bytes at offset 4, line 0): every write to 'total_forks' takes the line from the CPUs using them; mark 'total_forks' __cacheline_aligned_in_smp (it moves to .data..cacheline_aligned, where every variable starts a line of its own); this costs 56 bytes (its 8 bytes take 64) (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]" \
	"$(run "$LT" --annotations kstats.ann k.o)"
expect_eq kernel-fixed-clean "0|" "$(run "$LT" --annotations kstats.ann kf.o)"
expect_eq kernel-fixed-section ".data..cacheline_aligned 64" \
	"$(readelf -SW kf.o | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".data..cacheline_aligned" {print $1, $NF}')"

# ---- 3. the driver ---------------------------------------------------------------------
if [ -x "$CH" ]; then
	out=$("$CH" check --engine=layout --annotations=server.ann plain 2>/dev/null); rc=$?
	expect_eq driver-gcc "1|$(echo "$EXE_MSG" | sed 's/^server.c:14:26:/plain:0:/')
server.ann:3: note: sidecar entry 'requests_dropped hot' ($T/server.ann:3) names no variable of the input: no variable or data symbol has that name (a stale or misspelt entry, or a variable the compiler removed) [cachehot]" "$rc|$(echo "$out" | sort)"
	out=$("$CH" check --engine=layout --annotations=server.ann --format=json s 2>/dev/null); rc=$?
	expect_eq driver-json "1|server.c:14:26 warning cachehot-global-sharing requests_served" \
		"$rc|$(echo "$out" | jq -r '.findings[] | select(.check == "cachehot-global-sharing") | "\(.file):\(.line):\(.column) \(.severity) \(.check) \(.field)"')"
	out=$("$CH" check --engine=layout --annotations=server.ann --format=sarif s 2>/dev/null); rc=$?
	expect_eq driver-sarif "1|cachehot-global-sharing warning server.c 14 26|GlobalSharing" \
		"$rc|$(echo "$out" | jq -r '.runs[0] as $r | $r.results[] | select(.ruleId == "cachehot-global-sharing") | "\(.ruleId) \(.level) \(.locations[0].physicalLocation.artifactLocation.uri) \(.locations[0].physicalLocation.region.startLine) \(.locations[0].physicalLocation.region.startColumn)|\($r.tool.driver.rules[.ruleIndex].name)"')"
	out=$("$CH" check --engine=layout --annotations=server.ann --format=sarif plain.o 2>/dev/null); rc=$?
	expect_eq driver-sarif-no-debug-info "1|plain.o null" \
		"$rc|$(echo "$out" | jq -r '.runs[0].results[] | select(.ruleId == "cachehot-global-sharing") | "\(.locations[0].physicalLocation.artifactLocation.uri) \(.locations[0].physicalLocation.region)"')"
	printf 'requests_served hot\n' >one.ann
	out=$("$CH" check --engine=layout --annotations=one.ann f 2>&1); rc=$?
	expect_eq driver-fixed-clean "0|" "$rc|$out"
fi

# ---- 4. variable entries that name no variable ---------------------------------------
NOVAR="names no variable of the input: no variable or data symbol has that name (a stale or misspelt entry, or a variable the compiler removed)"
HINT="; did you mean 'page_counter.usage'? ('page_counter' has a member 'usage': a field is written STRUCT.FIELD)"
# one unit, no driver: notes (a -Werror build is unaffected), the hint where
# the unit sees the struct
out=$(gcc -Werror -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=charge.ann -c charge.c -o /dev/null 2>&1); rc=$?
expect_eq novar-plugin-unit-notes "0|cc1: note: sidecar entry 'page_counterusage hot' (charge.ann:2) matched no variable in this translation unit$HINT [cachehot]
cc1: note: sidecar entry 'nr_uncharges hot' (charge.ann:4) matched no variable in this translation unit [cachehot]
cc1: note: sidecar entry 'no_such_counter hot' (charge.ann:6) matched no variable in this translation unit [cachehot]" "$rc|$out"
out=$(gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=charge.ann -fplugin-arg-cachehot-unmatched=ignore -c charge.c -o /dev/null 2>&1); rc=$?
expect_eq novar-plugin-unmatched-ignore "0|" "$rc|$out"
if [ -x "$SP" ]; then
	out=$("$SP" -fcachehot-annotations=charge.ann charge.c 2>&1 | grep cachehot); rc=$?
	expect_eq novar-sparse-unit-notes "cachehot-sparse: note: sidecar entry 'page_counterusage hot' (charge.ann:2) matched no variable in this translation unit$HINT [cachehot]
cachehot-sparse: note: sidecar entry 'nr_uncharges hot' (charge.ann:4) matched no variable in this translation unit [cachehot]
cachehot-sparse: note: sidecar entry 'no_such_counter hot' (charge.ann:6) matched no variable in this translation unit [cachehot]" "$out"
fi
if [ -x "$CH" ]; then
	# the default engine over both units: nr_uncharges (other unit) and
	# calls (function-static) are matched; the typo fails the gate, the
	# entry without a hint is a note on a run over some files
	out=$("$CH" check charge.c uncharge.c --annotations=charge.ann 2>/dev/null); rc=$?
	expect_eq novar-driver-typo-fails "1|charge.ann:2: warning: sidecar entry 'page_counterusage hot' ($T/charge.ann:2) $NOVAR$HINT [cachehot]
charge.ann:6: note: sidecar entry 'no_such_counter hot' ($T/charge.ann:6) $NOVAR [cachehot]" "$rc|$out"
	# over a whole compile database every such entry is a warning
	printf '[{"directory": "%s", "file": "charge.c", "arguments": ["gcc", "-c", "charge.c"]},\n {"directory": "%s", "file": "uncharge.c", "arguments": ["gcc", "-c", "uncharge.c"]}]\n' "$T" "$T" >cc.json
	out=$("$CH" check -p cc.json --annotations=charge.ann 2>/dev/null); rc=$?
	expect_eq novar-driver-database "1|charge.ann:2: warning: sidecar entry 'page_counterusage hot' ($T/charge.ann:2) $NOVAR$HINT [cachehot]
charge.ann:6: warning: sidecar entry 'no_such_counter hot' ($T/charge.ann:6) $NOVAR [cachehot]" "$rc|$out"
	if [ -x "$SP" ]; then
		out=$("$CH" check --engine=sparse charge.c uncharge.c --annotations=charge.ann 2>/dev/null); rc=$?
		expect_eq novar-driver-sparse "1|charge.ann:2: warning: sidecar entry 'page_counterusage hot' ($T/charge.ann:2) $NOVAR$HINT [cachehot]
charge.ann:6: note: sidecar entry 'no_such_counter hot' ($T/charge.ann:6) $NOVAR [cachehot]" "$rc|$out"
	fi
	# a build log (no unit count): the hinted entry still fails the gate
	gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=charge.ann -fplugin-arg-cachehot-findings=- -c charge.c -o /dev/null 2>build.log
	gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=charge.ann -fplugin-arg-cachehot-findings=- -c uncharge.c -o /dev/null 2>>build.log
	out=$("$CH" check --log build.log 2>/dev/null); rc=$?
	expect_eq novar-driver-log "1|charge.ann:2: warning: sidecar entry 'page_counterusage hot' ($T/charge.ann:2) $NOVAR$HINT [cachehot]" \
		"$rc|$(echo "$out" | grep page_counterusage)"
	# a typo-free sidecar: nothing to report
	grep -v -e page_counterusage -e no_such_counter charge.ann >charge-ok.ann
	out=$("$CH" check charge.c uncharge.c --annotations=charge-ok.ann 2>&1); rc=$?
	expect_eq novar-driver-clean "0|" "$rc|$out"
fi
# cachehot-layout: the same text and hint (structs from DWARF)
gcc -O2 -g -fno-common -c charge.c -o charge.o && gcc -O2 -g -fno-common -c uncharge.c -o uncharge.o ||
	fail globals/build-charge "gcc failed"
out=$("$LT" --annotations charge.ann charge.o uncharge.o 2>/dev/null | grep 'sidecar entry'); rc=$?
expect_eq novar-layout "cachehot-layout: warning: sidecar entry 'page_counterusage hot' (charge.ann:2) $NOVAR$HINT [cachehot]
cachehot-layout: note: sidecar entry 'no_such_counter hot' (charge.ann:6) $NOVAR [cachehot]" "$out"
# the hinted entry alone fails the run, an entry without a hint does not
grep page_counterusage charge.ann >typo.ann; grep no_such_counter charge.ann >stale.ann
"$LT" --annotations typo.ann charge.o uncharge.o >/dev/null 2>&1; rc=$?
"$LT" --annotations stale.ann charge.o uncharge.o >/dev/null 2>&1
expect_eq novar-layout-exit "1 0" "$rc $?"

# ---- 5. per_thread entries that name no array -----------------------------------------
# 'page_counter.max' exists but is no array or pointer: "matched no struct"
# (which the per-unit note said) and "the tree has no such struct" (the
# driver's verdict) were wrong; the note says what such an entry names
printf '# a member that is no array, and a name nothing has\npage_counter.max[] per_thread\nno_such_pool[] per_thread\n' >pt.ann
PTN="a per_thread entry names an array variable (or a pointer to a heap array) or a struct tag (every array of that type), STRUCT.FIELD an array or pointer member [cachehot]"
out=$(gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=pt.ann -c charge.c -o /dev/null 2>&1); rc=$?
expect_eq perthread-unmatched-plugin "0|cc1: note: sidecar entry 'page_counter.max[]' (pt.ann:2) matched no array in this translation unit: $PTN
cc1: note: sidecar entry 'no_such_pool[]' (pt.ann:3) matched no array in this translation unit: $PTN" "$rc|$out"
if [ -x "$SP" ]; then
	out=$("$SP" -fcachehot-annotations=pt.ann charge.c 2>&1 | grep cachehot)
	expect_eq perthread-unmatched-sparse "cachehot-sparse: note: sidecar entry 'page_counter.max[]' (pt.ann:2) matched no array in this translation unit: $PTN
cachehot-sparse: note: sidecar entry 'no_such_pool[]' (pt.ann:3) matched no array in this translation unit: $PTN" "$out"
fi
out=$("$LT" --annotations pt.ann charge.o 2>/dev/null | grep 'sidecar entry')
expect_eq perthread-unmatched-layout "cachehot-layout: note: sidecar entry 'page_counter.max[]' (pt.ann:2) matched no array in the input: $PTN
cachehot-layout: note: sidecar entry 'no_such_pool[]' (pt.ann:3) matched no array in the input: $PTN" "$out"
if [ -x "$CH" ]; then
	PTS="the tree has no such array variable, struct or array or pointer member (a stale or misspelt entry, a typedef name where the struct tag is needed, or a member that is neither an array nor a pointer); delete or correct it [cachehot]"
	out=$("$CH" check -p cc.json --annotations=pt.ann 2>/dev/null); rc=$?
	expect_eq perthread-unmatched-database "1|pt.ann:2: warning: sidecar entry 'page_counter.max[]' ($T/pt.ann:2) matched no array in any of the 2 units checked: $PTS
pt.ann:3: warning: sidecar entry 'no_such_pool[]' ($T/pt.ann:3) matched no array in any of the 2 units checked: $PTS" "$rc|$out"
fi
# FUNCTION() addressable entries match an inline function whose address is
# taken (they silence [cachehot-inline-addr]), not a struct; cachehot-layout
# does not judge inline-addr, so it reports none of them
printf 'static inline int helper(int x) { return x + 1; }\nint (*hook)(int) = helper;\nint use(void) { return helper(1); }\n' >ia.c
printf 'helper() addressable\nno_such_helper() addressable\n' >ia.ann
FNT="matched no inline function whose address is taken in this translation unit [cachehot]"
out=$(gcc -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=ia.ann -c ia.c -o /dev/null 2>&1); rc=$?
expect_eq function-unmatched-plugin "0|cc1: note: sidecar entry 'no_such_helper()' (ia.ann:2) $FNT" "$rc|$out"
if [ -x "$SP" ]; then
	out=$("$SP" -fcachehot-inline-addr=1 -fcachehot-annotations=ia.ann ia.c 2>&1 | grep cachehot)
	expect_eq function-unmatched-sparse "cachehot-sparse: note: sidecar entry 'no_such_helper()' (ia.ann:2) $FNT" "$out"
fi
gcc -g -c ia.c -o ia.o || fail globals/build-ia "gcc failed"
expect_eq function-unmatched-layout "" "$("$LT" --annotations ia.ann ia.o 2>/dev/null | grep 'sidecar entry')"
if [ -x "$CH" ]; then
	printf '[{"directory": "%s", "file": "ia.c", "arguments": ["gcc", "-O2", "-c", "ia.c"]}]\n' "$T" >ia-cc.json
	out=$("$CH" check -p ia-cc.json --annotations=ia.ann 2>/dev/null); rc=$?
	expect_eq function-unmatched-database "1|ia.ann:2: warning: sidecar entry 'no_such_helper()' ($T/ia.ann:2) matched no inline function whose address is taken in any of the 1 units checked: it silences nothing (a stale or misspelt entry); delete or correct it [cachehot]" "$rc|$out"
fi

# ---- 6. C++: mangled symbol names; manifest variables no symbol has ----------------
g++ -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=ns.json $INC -O2 -g -fno-common -c nsvars.cc -o ns.o ||
	fail globals/build-cxx "g++ failed"
expect_eq cxx-mangled-judged "1|nsvars.cc:8:15: warning: hot global 'ns::nshot' (8 bytes at offset 8 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'ns::other' (8 bytes at offset 0, line 0) and 'main::calls' (hot, 8 bytes at offset 16, line 0): every write to 'nshot' takes the line from the CPUs using them; declare 'nshot' alignas(64), and 'calls', the first variable after it on its line, alignas(64) too; at this placement that costs 112 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]
nsvars.cc:14:14: warning: hot global 'main::calls' (8 bytes at offset 16 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'ns::other' (8 bytes at offset 0, line 0) and 'ns::nshot' (hot, 8 bytes at offset 8, line 0): every write to 'calls' takes the line from the CPUs using them; declare 'calls' alignas(64); at this placement that costs 48 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]" \
	"$(run "$LT" --manifest ns.json ns.o)"
"$LT" --manifest ns.json ns.o >/dev/null 2>err.txt
expect_eq cxx-summary "cachehot-layout: 0 structs read, 2 annotated judged, 2 warnings, binary matches the manifest" "$(cat err.txt)"
# the manifest's variables in a file that does not hold them: said, and the
# summary does not claim a match
printf 'long unrelated;\n' >unrelated.c
gcc -O2 -c unrelated.c -o unrelated.o
expect_eq manifest-variable-no-symbol "0|cachehot-layout: note: annotated variable 'calls' (nsvars.cc:14, manifest \"globals\") matched no data symbol of the input: it was not judged (a variable the compiler removed, an input that does not hold it, or a symbol name the manifest does not know) [cachehot]
cachehot-layout: note: annotated variable 'nshot' (nsvars.cc:8, manifest \"globals\") matched no data symbol of the input: it was not judged (a variable the compiler removed, an input that does not hold it, or a symbol name the manifest does not know) [cachehot]" \
	"$(run "$LT" --manifest ns.json unrelated.o)"
"$LT" --manifest ns.json unrelated.o >/dev/null 2>err.txt
expect_eq manifest-variable-no-symbol-summary "cachehot-layout: 0 structs read, 0 annotated judged, 0 warnings, binary matches the manifest's structs, not all of its annotated variables" "$(cat err.txt)"
expect_eq manifest-variable-no-symbol-ignored "0|" "$(run "$LT" --manifest ns.json --unmatched ignore unrelated.o)"

# ---- 7. function statics of one name -----------------------------------------------
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=dup.json $INC -O2 -g -fno-common -c dup.c -o dup.o ||
	fail globals/build-dup "gcc failed"
DUP_MSG="dup.c:9:28: warning: hot global 'calls.2' (8 bytes at offset 8 of '.bss') shares cache line 0 of '.bss' (64-byte lines) with 'calls.1' (8 bytes at offset 0, line 0): every write to 'calls' takes the line from the CPUs using it; declare 'calls' _Alignas(64); at this placement that costs 56 bytes of padding (lines counted as if '.bss' started on a line: in this relocatable object it is aligned to 8 bytes and the link decides where it starts, so judge the linked file) [cachehot-global-sharing]"
expect_eq statics-one-name "1|$DUP_MSG" "$(run "$LT" --manifest dup.json dup.o)"
expect_eq statics-one-name-manifest "hot 9 read_mostly 11" \
	"$(jq -r '.globals.calls | "\(.class) \(.line) \([.other_definitions[] | "\(.class) \(.line)"] | join(" "))"' dup.json)"
if [ -x "$SP" ]; then
	"$SP" $INC -fcachehot-manifest=dupsp.json dup.c >/dev/null 2>&1
	expect_eq statics-one-name-sparse "1|$DUP_MSG" "$(run "$LT" --manifest dupsp.json dup.o)"
fi
# a manifest written before "other_definitions" still reads: its one record
# names every 'calls' (what it knew then: all three taken as f's hot one)
jq '.globals.calls |= del(.other_definitions)' dup.json >dupold.json
expect_eq statics-one-name-old-manifest "cachehot-layout: 0 structs read, 3 annotated judged, 2 warnings, binary matches the manifest" \
	"$("$LT" --manifest dupold.json dup.o 2>&1 >/dev/null)"

# ---- 8. command-line macros in a -g3 linked program ------------------------------
printf 'total_forks hot\n' >cmdline.ann
gcc $INC -O2 -g3 -D__KERNEL__ -DCONFIG_SMP -fno-common cmdline.c -o cmdk && gcc $INC -O2 -g3 -DSMP_CACHE_BYTES=128 -fno-common cmdline.c -o cmd128 ||
	fail globals/build-cmdline "gcc failed"
expect_eq cmdline-kernel "1|cmdline.c:6:15: warning: hot global 'total_forks' (8 bytes at 0x4018, offset 8 of '.bss') shares cache line 0 of '.bss' (64-byte lines, 0x4000-0x403f) with 'completed.0' (1 byte at 0x4010, offset 0, line 0) and 'nr_forks' (8 bytes at 0x4020, offset 16, line 0): every write to 'total_forks' takes the line from the CPUs using them; mark 'total_forks' __cacheline_aligned_in_smp (it moves to .data..cacheline_aligned, where every variable starts a line of its own); this costs 56 bytes (its 8 bytes take 64) [cachehot-global-sharing]" \
	"$(run "$LT" --annotations cmdline.ann cmdk)"
expect_eq cmdline-line-size "1|cmdline.c:6:15: warning: hot global 'total_forks' (8 bytes at 0x4018, offset 8 of '.bss') shares cache line 0 of '.bss' (128-byte lines, 0x4000-0x407f) with 'completed.0' (1 byte at 0x4010, offset 0, line 0) and 'nr_forks' (8 bytes at 0x4020, offset 16, line 0): every write to 'total_forks' takes the line from the CPUs using them; declare 'total_forks' _Alignas(128), and 'nr_forks', the first variable after it on its line, _Alignas(128) too; at this placement that costs 224 bytes of padding [cachehot-global-sharing]" \
	"$(run "$LT" --annotations cmdline.ann cmd128)"

# ---- 9. a const annotated hot ---------------------------------------------------------
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest=ro.json $INC -O2 -g -fno-common -c rodata.c -o ro.o ||
	fail globals/build-rodata "gcc failed"
expect_eq rodata-hot-note "0|rodata.c:4:21: note: hot global 'ro_limit' (8 bytes in '.rodata') is in a read-only section: it is never written (a const), so no write takes its cache line from other CPUs and the hot annotation is wrong; annotate 'ro_limit' read-mostly or drop the annotation [cachehot-global-sharing]" \
	"$(run "$LT" --manifest ro.json ro.o)"

exit 0
