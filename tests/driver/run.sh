#!/bin/bash
# tests/driver/run.sh -- bin/cachehot: exit statuses, the four output formats
# (SARIF validated against the SARIF 2.1.0 schema), engine merging, patch-only
# mode, baselines, progress, compile_commands.json, make install.
# Uses the real plugin (plugin/cachehot.so) and, for sparse and spatch, fake
# engines that print fixed lines (tests/driver/fake-*.sh).
. "$(dirname "$0")/../lib.sh"
set -u
unset CACHEHOT_PLUGIN CACHEHOT_SPARSE CACHEHOT_SPATCH CACHEHOT_COCCI_DIR CACHEHOT_LAYOUT CACHEHOT_CC
export CI=true   # no progress line, whatever the runner's stderr is
CH=$TOP/bin/cachehot
FX=$TOP/tests/driver/fixtures
HERE=$TOP/tests/driver
SCHEMA=$TOP/third_party/sarif/sarif-2.1.0-rtm.5.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$FX"/*.c "$T"/
cd "$T"
INC="-I $TOP/include"

MSG="read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct stats' with hot field 'hits' (offset 0, size 8); one fix for all of 'struct stats': declare 'limit' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes)"
LINE="hot.c:7:23: warning: $MSG [cachehot-false-sharing]"
PLUGIN=$TOP/plugin/cachehot.so
# rec FILE LINE COL CHECK SEVERITY MESSAGE [STRUCT FIELD OTHER FUNCTION]: a
# record line as an engine writes it into a build log with findings=-
rec() {
	jq -cn --arg f "$1" --argjson l "$2" --argjson c "$3" --arg k "$4" --arg s "$5" \
		--arg m "$6" --arg st "${7:-}" --arg fd "${8:-}" --arg o "${9:-}" --arg fn "${10:-}" \
		'def n: if . == "" then null else . end;
		 {cachehot_finding: 1, engine: "plugin", check: $k, severity: $s, file: $f, line: $l,
		  column: $c, struct: ($st|n), function: ($fn|n), field: ($fd|n), other: ($o|n),
		  line_size: 64, message: $m}'
}

# ---- version, usage -------------------------------------------------------
out=$("$CH" version); expect_eq version-prints "cachehot 0.1.0" "$out"
"$CH" check >/dev/null 2>"$T/err"; expect_eq usage-no-input-exit 2 $?
expect_eq usage-no-input-message "cachehot: nothing to check: name source files, objects, -p compile_commands.json or --objects FILE" "$(head -1 "$T/err")"
"$CH" check --format=xml hot.c >/dev/null 2>"$T/err"; rc=$?
expect_eq usage-bad-format "2|cachehot: unknown format 'xml' (gcc, checkpatch, json, sarif, html)" "$rc|$(head -1 "$T/err")"
"$CH" check $INC --patch=hot.c hot.c 2>"$T/err"; rc=$?
expect_eq usage-patch-not-a-diff "2|cachehot: hot.c is not a unified diff (no '+++ FILE' line)" "$rc|$(head -1 "$T/err")"
"$CH" check nosuch.c >/dev/null 2>"$T/err"; rc=$?
expect_eq usage-missing-file "2|cachehot: no such file: 'nosuch.c'" "$rc|$(head -1 "$T/err")"
"$CH" check --engine=plugin,magic hot.c >/dev/null 2>"$T/err"; rc=$?
expect_eq usage-bad-engine "2|cachehot: unknown engine 'magic' (plugin, sparse, cocci, layout, all)" "$rc|$(head -1 "$T/err")"
"$CH" frobnicate >/dev/null 2>&1; expect_eq usage-unknown-command 2 $?
"$CH" annotate hot.c >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate-not-access-facts "2|cachehot: annotate: hot.c:1: '[' or '{' expected near '/'" "$rc|$(cat "$T/err")"

# ---- default format, exit statuses ------------------------------------------
out=$("$CH" check $INC hot.c); rc=$?
expect_eq gcc-hot-exit 1 $rc
expect_eq gcc-hot-line "$LINE" "$out"
out=$("$CH" check $INC clean.c); rc=$?
expect_eq gcc-clean "0|" "$rc|$out"
out=$("$CH" check hot.c $INC --format gcc); rc=$?
expect_eq options-after-files "1|$LINE" "$rc|$out"
out=$("$CH" check $INC --engine=plugin,layout --severity=error --format=json hot.c | jq -r '.findings[] | "\(.severity) \(.engines|join(","))"'); rc=$?
expect_eq severity-error "error plugin,layout" "$out"
printf '#include "cachehot.h"\n' >pre.h
grep -v '#include' hot.c >noinc.c
out=$("$CH" check -include pre.h -isystem "$TOP/include" -DUNUSED=1 -UOTHER noinc.c); rc=$?
expect_eq compiler-flags "1|${LINE/hot.c:7:/noinc.c:6:}" "$rc|$out"
out=$("$CH" check $INC --severity=note hot.c); rc=$?
expect_eq severity-note-exit-0 "0|hot.c:7:23: note: $MSG [cachehot-false-sharing]" "$rc|$out"

# ---- checkpatch -------------------------------------------------------------
"$CH" check $INC --format=checkpatch hot.c clean.c >"$T/cp"; rc=$?
printf '%s\n' "WARNING:CACHEHOT_FALSE_SHARING: $MSG" "#7: FILE: hot.c:7:" \
	"+	unsigned long limit __cacheline_read_mostly;" "" \
	"total: 0 errors, 1 warnings, 26 lines checked" >"$T/cp.want"
expect_eq checkpatch-exit 1 $rc
expect_file_eq checkpatch-output "$T/cp.want" "$T/cp"
out=$("$CH" check $INC --format=checkpatch --terse hot.c)
expect_eq checkpatch-terse "hot.c:7: WARNING:CACHEHOT_FALSE_SHARING: $MSG
total: 0 errors, 1 warnings, 10 lines checked" "$out"
out=$("$CH" check $INC --format=checkpatch clean.c); rc=$?
expect_eq checkpatch-clean "0|total: 0 errors, 0 warnings, 16 lines checked" "$rc|$out"

# ---- json -------------------------------------------------------------------
"$CH" check $INC --format=json hot.c >"$T/j.json"; rc=$?
expect_eq json-exit 1 $rc
out=$(jq -r '.findings[] | [.file, .line, .column, .severity, .check, .struct, .field, (.engines|join(","))] | join("|")' "$T/j.json")
expect_eq json-finding "hot.c|7|23|warning|cachehot-false-sharing|stats|limit|plugin" "$out"
expect_eq json-message "$MSG" "$(jq -r '.findings[0].message' "$T/j.json")"
expect_eq json-summary "0 1 0" "$(jq -r '.summary | "\(.errors) \(.warnings) \(.notes)"' "$T/j.json")"
out=$("$CH" check $INC --format=json clean.c | jq -c '[.findings, .summary.warnings]')
expect_eq json-clean '[[],0]' "$out"

# ---- sarif ------------------------------------------------------------------
validate() { /usr/bin/python3 -m jsonschema -i "$1" "$SCHEMA" 2>&1; }
"$CH" check $INC --format=sarif hot.c >"$T/r.sarif"; rc=$?
expect_eq sarif-exit 1 $rc
if [ ! -f "$SCHEMA" ]; then fail sarif-validates "no schema at $SCHEMA (third_party/sarif)"
elif v=$(validate "$T/r.sarif"); then ok sarif-validates
else fail sarif-validates "$v"; fi
out=$(jq -r '.runs[0].results[] | [.ruleId, .level, .locations[0].physicalLocation.artifactLocation.uri, .locations[0].physicalLocation.region.startLine, .locations[0].physicalLocation.region.startColumn, .partialFingerprints["cachehotKey/v3"]] | join("|")' "$T/r.sarif")
expect_eq sarif-result "cachehot-false-sharing|warning|hot.c|7|23|hot.c:cachehot-false-sharing:stats:limit:hits:64:-" "$out"
out=$(jq -r '[.version, (.runs[0].tool.driver.rules | map(.id) | join(",")), (.runs[0].tool.driver.rules[0].help.text | length > 100)] | join("|")' "$T/r.sarif")
expect_eq sarif-srcroot "file://$T/" "$(jq -r '.runs[0].originalUriBaseIds["%SRCROOT%"].uri' "$T/r.sarif")"
expect_eq sarif-rules "2.1.0|cachehot-false-sharing,cachehot-padding-macro,cachehot-inline-addr,cachehot-counter-batch,cachehot-group-span,cachehot-group-markers,cachehot-array-sharing,cachehot-global-sharing|true" "$out"
# the validator really rejects a broken log (a result without a message)
jq 'del(.runs[0].results[0].message)' "$T/r.sarif" >"$T/bad.sarif"
if validate "$T/bad.sarif" >/dev/null; then fail sarif-validator-rejects "a result without message validated"
else ok sarif-validator-rejects; fi
"$CH" check $INC --format=sarif clean.c >"$T/c.sarif"
if v=$(validate "$T/c.sarif"); then
	expect_eq sarif-clean 0 "$(jq '.runs[0].results | length' "$T/c.sarif")"
else fail sarif-clean "$v"; fi

# every result has its own fingerprint, over the whole fixture set
(cd "$TOP" && "$CH" check -I include -j 2 --format=sarif tests/fixtures/*.c 2>/dev/null) >"$T/all.sarif"
out=$(jq -r '[.runs[0].results[].partialFingerprints["cachehotKey/v3"]] | "\(length > 50) \(length - (unique | length))"' "$T/all.sarif")
expect_eq sarif-fingerprints-unique "true 0" "$out"

# ---- scratch files: none left behind, also when interrupted --------------------------
mkdir "$T/scratch"
TMPDIR=$T/scratch "$CH" check $INC --engine=plugin,layout -j 2 hot.c clean.c >/dev/null
expect_eq scratch-removed "" "$(ls -A "$T/scratch")"
printf '#!/bin/sh\nsleep 3\n' >"$T/slow.sh"; chmod +x "$T/slow.sh"
TMPDIR=$T/scratch CACHEHOT_SPARSE=$T/slow.sh "$CH" check $INC --engine=plugin,sparse hot.c >/dev/null 2>&1 &
pid=$!; sleep 1; kill -TERM $pid; wait $pid; rc=$?
expect_eq interrupted-status-and-cleanup "143|" "$rc|$(ls -A "$T/scratch")"
# -j 2, killed (SIGTERM, then SIGINT as from a terminal's kill -INT): the
# workers and their engine processes stop with the driver, the scratch
# directory goes (workers and their compiles kept running, leaving files)
printf '#!/bin/sh\necho $$ >>"%s/engines"\nexec sleep 30\n' "$T" >"$T/slow2.sh"; chmod +x "$T/slow2.sh"
for sig in TERM INT; do
	: >"$T/engines"
	TMPDIR=$T/scratch CACHEHOT_SPARSE=$T/slow2.sh "$CH" check $INC --engine=sparse -j 2 hot.c clean.c >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 50); do [ "$(wc -l <"$T/engines")" -ge 2 ] && break; sleep 0.1; done
	kill -$sig $pid; wait $pid; rc=$?
	sleep 0.2
	alive=0; for p in $(cat "$T/engines"); do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
	expect_eq "interrupted-j2-stops-engines-$sig" "$((128 + $(kill -l $sig)))|2|0|" \
		"$rc|$(wc -l <"$T/engines")|$alive|$(ls -A "$T/scratch")"
	for p in $(cat "$T/engines"); do kill "$p" 2>/dev/null; done
done

# check --log: findings naming a device or a FIFO are reported as they are;
# the file is never read (/dev/zero ran out of memory, a FIFO hung)
mkfifo "$T/log.fifo"
{ rec /dev/zero 1 1 cachehot-false-sharing warning x "" a
  rec "$T/log.fifo" 1 1 cachehot-false-sharing warning y "" b; } >"$T/dev.log"
out=$( (ulimit -v 4000000; exec timeout 20 "$CH" check --log "$T/dev.log") 2>&1); rc=$?
expect_eq log-names-device-or-fifo "1|/dev/zero:1:1: warning: x [cachehot-false-sharing] log.fifo:1:1: warning: y [cachehot-false-sharing]" \
	"$rc|$(echo $out)"

# ---- -o: report written whole, or not at all --------------------------------
"$CH" check $INC --format=json -o "$T/out.json" hot.c; rc=$?
expect_eq output-file "1|1" "$rc|$(jq '.findings | length' "$T/out.json")"
# killed while writing (SIGXFSZ here, as SIGKILL would: not catchable by
# the driver): no partial FILE.tmp.* left beside the target
mkdir "$T/kill"
for i in $(seq 1 3000); do printf '{"cachehot_finding": 1, "engine": "plugin", "check": "cachehot-false-sharing", "severity": "warning", "file": "hot.c", "line": %d, "column": 1, "field": "f%d", "message": "finding %d of a report long enough to pass the file size limit"}\n' $i $i $i; done >"$T/kill/big.log"
(cd "$T/kill" && ulimit -f 64 && exec "$CH" check --log big.log -o out.txt) 2>/dev/null; rc=$?
expect_eq output-killed-leaves-nothing "153|big.log" "$rc|$(ls "$T/kill" | tr '\n' ' ' | sed 's/ $//')"
# an output directory nobody may write: exit 2, the reason, nothing left.
# Root writes into a mode-555 directory anyway: as root the directory is a
# read-only tmpfs instead, and without mount(2) the case says it is skipped
mkdir "$T/ro"; chmod 555 "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
	"$CH" check $INC -o "$T/ro/r.txt" hot.c 2>"$T/ro.err"; rc=$?
	expect_eq output-unwritable "2|cachehot: cannot create a file beside $T/ro/r.txt: Permission denied|" \
		"$rc|$(cat "$T/ro.err")|$(ls "$T/ro")"
elif mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" 2>/dev/null; then
	"$CH" check $INC -o "$T/ro/r.txt" hot.c 2>"$T/ro.err"; rc=$?
	expect_eq output-unwritable "2|cachehot: cannot create a file beside $T/ro/r.txt: Read-only file system|" \
		"$rc|$(cat "$T/ro.err")|$(ls "$T/ro")"
	umount "$T/ro"
else
	echo "  --   driver/output-unwritable: skipped: running as root (a mode-555 directory does not stop root) and mount(2) of a read-only tmpfs is not allowed here"
fi
# a symlink stays a link (its target gets the report); a pipe behind
# /dev/stdout is written in place, never replaced by a regular file
mkdir -p "$T/real"; ln -s real/report.txt "$T/link.txt"
"$CH" check $INC -o "$T/link.txt" hot.c; rc=$?
expect_eq output-symlink-kept "1|link|1" "$rc|$( [ -L "$T/link.txt" ] && echo link)|$(grep -c cachehot-false-sharing "$T/real/report.txt")"
n=$("$CH" check $INC -o /dev/stdout hot.c | grep -c cachehot-false-sharing)
expect_eq output-dev-stdout "1|char-or-link" "$n|$( [ -L /dev/stdout ] || [ -c /dev/stdout ] && echo char-or-link)"

# ---- inline-addr: the use site, both names and the copies' sizes from the
# object, equal to nm -S on the same compile (the seed shape)
SEED=$TOP/tests/inline/seed.c
out=$("$CH" check -O2 "$SEED"); rc=$?
gcc -O2 -c "$SEED" -o "$T/seed.o"
want=$(nm -S "$T/seed.o" | while read -r a sz ty n; do
	case "$ty:$n" in t:lruvec_page_state*) printf '%s:%d ' "$n" "$((16#$sz))" ;; esac; done)
got=$(echo "$out" | sed -n "s/.*inline function '\([a-z_]*\)'.*call lruvec_page_state\/lruvec_page_state_local directly; its out-of-line copy is \([0-9]*\) bytes in seed.o.*/\1:\2/p" | tr '\n' ' ')
expect_eq inline-sizes-match-nm "1|$want" "$rc|$got"
"$CH" check -O2 "$TOP/tests/inline/seed-fixed.c" >/dev/null; rc=$?
expect_eq inline-fixed-form-clean 0 "$rc"

# ---- merging engines ----------------------------------------------------------
export CACHEHOT_SPARSE=$HERE/fake-sparse.sh CACHEHOT_SPATCH=$HERE/fake-spatch.sh
mkdir -p "$T/rules"; echo "// fake rule" >"$T/rules/counter_batch.cocci"
export CACHEHOT_COCCI_DIR=$T/rules
out=$("$CH" check $INC --engine=plugin,sparse,cocci hot.c); rc=$?
expect_eq merge-exit 1 $rc
expect_eq merge-lines "hot.c:6:17: warning: counter 'hits' updated in a loop [cachehot-counter_batch]
hot.c:6:23: note: sparse-only note on 'hits' [cachehot-false-sharing]
$LINE" "$out"
out=$("$CH" check $INC --engine=sparse,plugin --format=json hot.c | jq -r '.findings[] | "\(.line):\(.column):\(.engines|join(","))"' | tr '\n' ' ')
expect_eq merge-engines "6:23:sparse 7:23:plugin,sparse " "$out"
"$CH" check $INC --engine=plugin,sparse,cocci --format=sarif hot.c >"$T/m.sarif"
if v=$(validate "$T/m.sarif"); then
	out=$(jq -r '[.runs[0].tool.driver.rules[8].id, (.runs[0].results | map("\(.ruleIndex):\(.level)") | join(","))] | join("|")' "$T/m.sarif")
	expect_eq sarif-merged "cachehot-counter_batch|8:warning,0:note,0:warning" "$out"
else fail sarif-merged "$v"; fi
unset CACHEHOT_SPARSE CACHEHOT_SPATCH CACHEHOT_COCCI_DIR
# every check id has its SARIF rule (name and description, not the fallback
# for Coccinelle rules): the ids of docs/checks.rst and of core/ctx.c, one
# finding each through --log, so the next id added without a rule fails here
doc_ids=$(sed -n 's/^\[\(cachehot-[a-z-]*\)\]$/\1/p' "$TOP/docs/checks.rst" | sort -u)
core_ids=$(sed -n 's/^\t{ CH_CHECK_[A-Z_]*, "\(cachehot-[a-z-]*\)".*/\1/p' "$TOP/core/registry.c" | sort -u)
expect_eq check-ids-documented "$core_ids" "$doc_ids"
for id in $core_ids; do rec hot.c 7 23 "$id" warning "a finding"; done >"$T/ids.log"
"$CH" check --log="$T/ids.log" --format=sarif >"$T/ids.sarif"
out=$(jq -r '.runs[0].tool.driver.rules[] | select(.name == null or .fullDescription == null) | .id' "$T/ids.sarif" | tr '\n' ' ')
expect_eq sarif-rule-per-check-id "10|" "$(jq '.runs[0].tool.driver.rules | length' "$T/ids.sarif")|$out"

# ---- the real engines agree: one finding, three engines ------------------------------
out=$("$CH" check $INC --engine=plugin,sparse,layout --format=json hot.c | jq -r '.findings[] | "\(.line):\(.column):\(.engines|join(","))"')
expect_eq real-engines-merge "7:23:plugin,sparse,layout" "$out"
# members a macro declares: every engine gives the same place (the macro's
# line in the struct), so two engines print three findings, not six (the
# plugin pointed into the macro's definition)
cp "$TOP/tests/fixtures/macro_members.c" mm.c
out=$("$CH" check $INC --engine=plugin,sparse --format=json mm.c | jq -r '.findings[] | "\(.line):\(.column):\(.field):\(.engines|join(","))"' | tr '\n' ' ')
expect_eq macro-members-one-place "16:9:limit:plugin,sparse 16:9:max:plugin,sparse 17:36:cap:plugin,sparse " "$out"
# one header spelt two ways in a build log ("./" or not, a file that is not
# here to be resolved): one finding
for p in ./cache/cache.h cache/cache.h cache//cache.h; do
	rec "$p" 3 5 cachehot-false-sharing warning "a finding" s f; done >spell.log
"$CH" check --log spell.log --format=json >spell.json; rc=$?
out=$(jq -r '.findings[] | "\(.file):\(.line)"' spell.json)
expect_eq log-path-spellings-one-finding "1|cache/cache.h:3" "$rc|$out"
# a sidecar entry naming a typedef instead of the tag: a warning from every
# engine, one finding, exit 1 (it was a note, or nothing from layout: exit 0)
cp "$TOP/tests/fixtures/sidecar_typedef.c" td.c
printf 'WQ.head read_mostly\n' >td.ann
out=$("$CH" check --annotations=td.ann --engine=plugin,sparse,layout --format=json td.c | jq -r '.findings[] | "\(.line):\(.column):\(.severity):\(.engines|join(",")):\(.message)"'); rc=$?
"$CH" check --annotations=td.ann --engine=plugin,sparse,layout td.c >/dev/null; rc=$?
expect_eq sidecar-typedef-name-fails "1|9:27:warning:plugin,sparse,layout:sidecar entry 'WQ.head' ($T/td.ann:1) names typedef 'WQ' of 'struct work_queue': a sidecar names the struct tag; write 'work_queue.head'" "$rc|$out"
out=$("$CH" check $INC --engine=all --format=json hot.c loop.c | jq -r '.findings[] | "\(.file):\(.line):\(.engines|join(","))"' | tr '\n' ' ')
expect_eq engine-all "hot.c:7:plugin,sparse,layout loop.c:10:cocci " "$out"
# sidecar annotations instead of attributes, for every engine
printf '# test sidecar\nstats.hits hot\nstats.limit read_mostly\n' >side.ann
sed 's/ __cacheline_[a-z_]*//' hot.c >plain.c
out=$("$CH" check $INC --engine=plugin,sparse,layout --annotations=side.ann --format=json plain.c | jq -r '.findings[] | "\(.line):\(.column):\(.engines|join(","))"')
expect_eq sidecar-all-engines "7:23:plugin,sparse,layout" "$out"
gcc -g -c $INC plain.c -o plain.o
out=$("$CH" check --engine=layout --annotations=side.ann plain.o); rc=$?
expect_eq layout-object "1|${LINE/hot.c/plain.c}" "$rc|$out"
printf '%s\n' "$T/plain.o" >objs.txt
out=$("$CH" check --engine=layout --annotations=side.ann --objects=objs.txt); rc=$?
expect_eq layout-object-list "1|${LINE/hot.c/plain.c}" "$rc|$out"
mkdir -p objdir/sub objdir/empty && cp plain.o objdir/sub/
out=$("$CH" check --engine=layout --annotations=side.ann objdir); rc=$?
expect_eq layout-object-dir "1|${LINE/hot.c/plain.c}" "$rc|$out"
"$CH" check --engine=layout objdir/empty 2>"$T/err"; rc=$?
expect_eq layout-empty-dir "2|cachehot: no object files (*.o) under 'objdir/empty'" "$rc|$(head -1 "$T/err")"
"$CH" check plain.o >/dev/null 2>"$T/err"; rc=$?
expect_eq objects-need-layout "2|cachehot: object files need --engine=layout" "$rc|$(head -1 "$T/err")"
"$CH" check --annotations=nosuch.ann hot.c >/dev/null 2>"$T/err"; rc=$?
expect_eq annotations-missing "2|cachehot: no such annotations file: 'nosuch.ann'" "$rc|$(head -1 "$T/err")"
# layout and bloat front the tools of the same names (arguments, output, status)
"$CH" layout --show stats plain.o >"$T/a" 2>&1; rc1=$?
"$TOP/bin/cachehot-layout" --show stats plain.o >"$T/b" 2>&1; rc2=$?
expect_eq layout-front-status "0 0" "$rc1 $rc2"
expect_file_eq layout-front-output "$T/b" "$T/a"
expect_eq layout-front-has-struct "struct stats {	/* DWARF: plain.o */" "$(head -1 "$T/a")"
"$CH" bloat plain.o >"$T/a" 2>&1; rc1=$?
"$TOP/bin/cachehot-bloat" plain.o >"$T/b" 2>&1; rc2=$?
expect_eq bloat-front "0 0|Total: 0 copies, 0 bytes, in 0 of 1 objects" "$rc1 $rc2|$(cat "$T/a")"
"$CH" layout --no-such-option >/dev/null 2>&1; rc1=$?
"$TOP/bin/cachehot-layout" --no-such-option >/dev/null 2>&1; rc2=$?
expect_eq layout-front-error-status "$rc2" "$rc1"
CACHEHOT_LAYOUT=$T/none "$CH" layout x.o 2>"$T/err"; rc=$?
expect_eq layout-front-missing "2|cachehot: CACHEHOT_LAYOUT=$T/none: no such file
cachehot: cachehot-layout not found next to cachehot (run 'make layout', or set CACHEHOT_LAYOUT)" "$rc|$(cat "$T/err")"
# Coccinelle in report mode (0-based columns become 1-based), check id from the rule
out=$("$CH" check --engine=cocci --format=checkpatch --terse loop.c); rc=$?
expect_eq cocci-real "1|loop.c:10: WARNING:CACHEHOT_COUNTER_BATCH: __mod_zone_page_state(z, 3) in the loop at line 9: target and item do not change in the loop; accumulate in a local and apply once after the loop
total: 0 errors, 1 warnings, 11 lines checked" "$rc|$out"
out=$("$CH" check --engine=cocci loop.c | cut -d: -f1-4)
expect_eq cocci-column "loop.c:10:3: warning" "$out"

# ---- tool errors ----------------------------------------------------------------
printf 'struct broken {\n\tint x;\n};\nint y = ;\n' >broken.c
"$CH" check $INC hot.c broken.c >"$T/o" 2>"$T/err"; rc=$?
expect_eq tool-error-exit 2 $rc
expect_eq tool-error-still-reports "$LINE" "$(cat "$T/o")"
if grep -q "^cachehot: engine plugin failed (exit status 1)" "$T/err" && grep -q "broken.c:4:9: error: expected expression before" "$T/err"
then ok tool-error-message; else fail tool-error-message "$(head -3 "$T/err")"; fi
# -j: the same findings, order and exit status as one at a time
"$CH" check $INC --engine=plugin,sparse --format=json hot.c clean.c plain.c loop.c >"$T/j1" 2>/dev/null; rc1=$?
"$CH" check $INC --engine=plugin,sparse --format=json -j 2 hot.c clean.c plain.c loop.c >"$T/j2" 2>/dev/null; rc2=$?
expect_eq parallel-same-exit "1 1" "$rc1 $rc2"
expect_file_eq parallel-same-report "$T/j1" "$T/j2"
"$CH" check $INC -j 2 hot.c broken.c clean.c >"$T/o" 2>/dev/null; rc=$?
expect_eq parallel-tool-error "2|$LINE" "$rc|$(cat "$T/o")"
CACHEHOT_PLUGIN=$T/nosuch.so "$CH" check $INC hot.c >/dev/null 2>"$T/err"; expect_eq plugin-missing 2 $?

# ---- --log: the record lines a build wrote (findings=-), once each ---------------
# two units print the same finding (a header's, in a real build): the
# records in the log, among make's and GCC's other lines, give one finding
{ echo "  CC      hot.o"
  gcc $INC -fplugin="$PLUGIN" -fplugin-arg-cachehot-findings=- -c hot.c -o /dev/null 2>&1
  echo "  CC      hot2.o"
  gcc $INC -fplugin="$PLUGIN" -fplugin-arg-cachehot-findings=- -c "$T/hot.c" -o /dev/null 2>&1
} >build.log
expect_eq log-has-records "2|2" "$(grep -c '^{"cachehot_finding":' build.log)|$(grep -cF "[cachehot-false-sharing]" build.log)"
out=$("$CH" check --log build.log --format=json | jq -r '.findings[] | "\(.file):\(.line):\(.column):\(.engines|join(","))"'); rc=$?
expect_eq log-deduped "hot.c:7:23:plugin" "$out"
out=$(cat build.log | "$CH" check --log - --format=checkpatch --terse); rc=$?
expect_eq log-stdin "1|hot.c:7: WARNING:CACHEHOT_FALSE_SHARING: $MSG
total: 0 errors, 1 warnings, 0 lines checked" "$rc|$out"
out=$("$CH" check --log build.log); rc=$?
expect_eq log-same-as-check "1|$LINE" "$rc|$out"
# a log of cachehot's diagnostics without records (the build lacked
# findings=-): exit 2 and what to add, never a clean gate
grep -v '^{' build.log >plain.log
"$CH" check --log plain.log >"$T/o" 2>"$T/err"; rc=$?
expect_eq log-without-records "2||cachehot: plain.log: 2 lines of cachehot diagnostics (the first at line 2) and no record line
cachehot: add findings=- to the engines and build again:
  kernel:     make KCFLAGS=\"... -fplugin-arg-cachehot-findings=-\"
  userspace:  CFLAGS=\"... -fplugin-arg-cachehot-findings=-\"
  sparse:     make C=1 CHECK=\"cachehot-sparse -fcachehot-findings=-\"
  coccicheck: make coccicheck MODE=report SPFLAGS=\"-D cachehot_records\"
  (docs/findings.md, \"Records in a build log\")" "$rc|$(cat "$T/o")|$(cat "$T/err")"
# records from one engine, tagged lines of another without (make C=1 with
# CHECK="cachehot-sparse" but no -fcachehot-findings=-): exit 2, not a
# finding lost in silence
{ cat build.log; echo "hot.c:6:23: warning: sparse-only finding [cachehot-false-sharing]"; } >mixed.log
"$CH" check --log mixed.log >"$T/o" 2>"$T/err"; rc=$?
expect_eq log-engine-without-records "2||cachehot: mixed.log: 3 lines with a cachehot check tag but 2 record lines: an engine of the build wrote no records" \
	"$rc|$(cat "$T/o")|$(head -1 "$T/err")"
# coccicheck's report lines (FILE:L:C-C: ..., no check tag) count too
printf '  CHECK   mm/page_alloc.c\nmm/page_alloc.c:3100:3-24: __mod_zone_page_state(zone, NR_FREE_CMA_PAGES) in the loop\n' >cocci.log
"$CH" check --log cocci.log 2>"$T/err" >/dev/null; rc=$?
expect_eq log-coccicheck-without-records "2|cachehot: cocci.log: 1 lines of cachehot diagnostics (the first at line 2) and no record line" "$rc|$(head -1 "$T/err")"
# a log with neither (nothing printed): clean
printf '  CC      clean.o\n' >empty.log
out=$("$CH" check --log empty.log 2>&1); rc=$?
expect_eq log-clean "0|" "$rc|$out"
# a record line cut short (a record longer than PIPE_BUF written into a
# pipe shared with another compile), or with other text before it: exit 2
# naming the line, no finding dropped silently, no crash
{ sed -n 1,2p build.log; grep -m1 '^{' build.log | cut -c1-150; } >half.log
"$CH" check --log half.log >"$T/o" 2>"$T/err"; rc=$?
expect_eq log-half-record "2||cachehot: half.log:3: a malformed record line (unexpected newline near '\"fu'): cut short or mixed with other output (a record longer than PIPE_BUF, 4096 bytes, written by one of several parallel compiles into one pipe?)" "$rc|$(cat "$T/o")|$(cat "$T/err")"
{ printf 'In file included from x.c:1:'; grep -m1 '^{' build.log; } >glued.log
"$CH" check --log glued.log >"$T/o" 2>"$T/err"; rc=$?
expect_eq log-record-glued "2||cachehot: glued.log:1: a record line with other text before it on its line (two processes wrote into one line of the log?)" "$rc|$(cat "$T/o")|$(cat "$T/err")"
{ grep -m1 '^{' build.log | sed 's/}$/}{"cachehot_finding": 1/'; } >twice.log
"$CH" check --log twice.log >/dev/null 2>"$T/err"; rc=$?
expect_eq log-two-records-one-line "2|cachehot: twice.log:1: a malformed record line (end of file expected near '{'): cut short or mixed with other output (a record longer than PIPE_BUF, 4096 bytes, written by one of several parallel compiles into one pipe?)" "$rc|$(cat "$T/err")"
printf '{"cachehot_finding": 1, "engine": "plugin", "check": "cachehot-nonsense", "severity": "warning"}\n' >badid.log
"$CH" check --log badid.log >/dev/null 2>"$T/err"; rc=$?
expect_eq log-unknown-check "2|cachehot: badid.log:1: unknown check id" "$rc|$(cat "$T/err")"
# rewording: the log's records with another message give the same baseline
# and fingerprint (the identity is the record's fields, never the text)
sed 's/shares cache line/is on cache line/' build.log >reworded.log
"$CH" check --log build.log --baseline lbase --update-baseline 2>/dev/null
out=$("$CH" check --log reworded.log --baseline lbase); rc=$?
expect_eq log-reworded-baseline-holds "0|" "$rc|$out"
fp1=$("$CH" check --log build.log --format=sarif | jq -r '.runs[0].results[0].partialFingerprints["cachehotKey/v3"]')
fp2=$("$CH" check --log reworded.log --format=sarif | jq -r '.runs[0].results[0].partialFingerprints["cachehotKey/v3"]')
expect_eq log-reworded-fingerprint "hot.c:cachehot-false-sharing:stats:limit:hits:64:-|$fp1" "$fp2|$fp1"

# function scopes (names with "__" too) in patch-only mode: the record names
# the function; --patch keeps a finding whose function the diff touches
printf 'static int helper(int x)\n{\n\treturn x + 1;\n}\n\nint __other_fn(int y)\n{\n\tint z = y;\n\treturn z;\n}\n' >func.c
{ rec func.c 3 2 cachehot-inline-addr warning "probe one" "" "" "" helper
  rec func.c 8 6 cachehot-inline-addr warning "probe two" "" z "" __other_fn; } >func.log
printf -- '--- a/func.c\n+++ b/func.c\n@@ -9 +9 @@\n-\treturn z;\n+\treturn z * 2;\n' >func.patch
out=$("$CH" check --log func.log --patch func.patch --format=json | jq -r '.findings[] | "\(.line) \(.struct) \(.field)"'); rc=$?
expect_eq patch-function-scope "8 __other_fn z" "$out"
out=$("$CH" check --log func.log --format=json | jq -r '.findings[] | "\(.line) \(.struct)"' | tr '\n' ' ')
expect_eq function-scopes "3 helper 8 __other_fn " "$out"

# ---- compile_commands.json ----------------------------------------------------------
mkdir -p "$T/proj/src"; cp "$FX/hot.c" "$FX/clean.c" "$T/proj/src/"
cat >"$T/proj/compile_commands.json" <<EOF
[ { "directory": "$T/proj", "file": "src/hot.c",
    "command": "gcc -O2 -I$TOP/include -Wp,-MMD,src/.hot.o.d -fplugin=/nonexistent/cachehot.so -fplugin-arg-cachehot-severity=error -c -o src/hot.o src/hot.c" },
  { "directory": "$T/proj", "file": "src/clean.c",
    "arguments": ["gcc", "-I", "$TOP/include", "-c", "src/clean.c", "-o", "src/clean.o"] } ]
EOF
out=$("$CH" check -p "$T/proj/compile_commands.json"); rc=$?
expect_eq ccdb-finding "1|proj/src/hot.c:7:23: warning: $MSG [cachehot-false-sharing]" "$rc|$out"
expect_eq ccdb-no-side-files "" "$(ls "$T/proj/src" | grep -v '\.c$')"
# every generator's shape: the source passed once, flags kept
PROJ_LINE="proj/src/hot.c:7:23: warning: $MSG [cachehot-false-sharing]"
ccdb_case() {   # NAME DB [RUN-DIR]
	out=$(cd "${3:-$T}" && "$CH" check -p "$2" 2>&1); rc=$?
	expect_eq "$1" "1|$PROJ_LINE" "$rc|$out"
}
# bear: absolute "file", relative source argument, "arguments", -o present
if command -v bear >/dev/null; then
	(cd "$T/proj" && bear --output "$T/proj/bear.json" -- gcc -I"$TOP/include" -c src/hot.c -o "$T/hot-bear.o" >/dev/null 2>&1)
	expect_eq ccdb-bear-shape "/|src/hot.c" "$(jq -r '.[0] | "\(.file[0:1])|\(.arguments | map(select(endswith(".c"))) | join(","))"' "$T/proj/bear.json")"
	ccdb_case ccdb-bear "$T/proj/bear.json"
else fail ccdb-bear "bear is not installed"; fi
# CMake: "command", absolute file, -o and -c present, include dirs via -I
if command -v cmake >/dev/null; then
	mkdir -p "$T/proj/cm"
	printf 'cmake_minimum_required(VERSION 3.10)\nproject(p C)\ninclude_directories(%s/include)\nadd_library(p OBJECT ../src/hot.c)\n' "$TOP" >"$T/proj/cm/CMakeLists.txt"
	(cd "$T/proj/cm" && cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null 2>&1)
	expect_eq ccdb-cmake-shape "true" "$(jq -r '.[0] | has("command")' "$T/proj/cm/build/compile_commands.json")"
	ccdb_case ccdb-cmake "$T/proj/cm/build/compile_commands.json"
else fail ccdb-cmake "cmake is not installed"; fi
# the kernel's scripts/clang-tools/gen_compile_commands.py from a .cmd file
GEN=
for v in 6.12 6.1; do
	f=$TOP/build/linux-$v/scripts/clang-tools/gen_compile_commands.py
	if [ -f "$f" ]; then GEN=$f; break; fi
done
if [ -n "$GEN" ]; then
	mkdir -p "$T/proj/kout/src"
	# cmd_: 6.1's script matches only cmd_, 6.12's (saved)?cmd_
	printf 'cmd_src/hot.o := gcc -Wp,-MMD,src/.hot.o.d -nostdinc -I%s/include -O2 -c -o src/hot.o ../src/hot.c\n' "$TOP" >"$T/proj/kout/src/.hot.o.cmd"
	(cd "$T/proj/kout" && python3 "$GEN" -d . -o "$T/proj/kout/compile_commands.json" >/dev/null 2>&1)
	expect_eq ccdb-kernel-shape "true" "$(jq -r '.[0] | has("command")' "$T/proj/kout/compile_commands.json")"
	ccdb_case ccdb-kernel-script "$T/proj/kout/compile_commands.json"
else echo "  --   ccdb-kernel-script: skipped, no unpacked kernel tree (kernel/prepare.sh)"; fi
# relative "directory" (from the database's folder), relative "file", no -o, no -c
cat >"$T/proj/rel.json" <<EOF
[ { "directory": ".", "file": "src/hot.c", "arguments": ["cc", "-I$TOP/include", "./src/hot.c"] } ]
EOF
ccdb_case ccdb-relative-no-o-no-c "$T/proj/rel.json"
# absolute directory and file, a wrapper, "-o" glued, the source spelt absolutely
cat >"$T/proj/abs.json" <<EOF
[ { "directory": "$T/proj/src", "file": "$T/proj/src/hot.c",
    "command": "ccache gcc -I $TOP/include -osrc/hot.o -c $T/proj/src/hot.c" } ]
EOF
ccdb_case ccdb-absolute-wrapper "$T/proj/abs.json"
# a unit whose directory is gone: the directory is named, not "cannot run gcc"
printf '[{"directory": "%s/gone", "file": "hot.c", "arguments": ["gcc", "-c", "hot.c"]}]\n' "$T" >"$T/gone.json"
"$CH" check -p "$T/gone.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq ccdb-missing-directory "2|cachehot: cannot run gcc in $T/gone: No such file or directory" "$rc|$(head -1 "$T/err")"
# -w would hide every finding: dropped, and said; a preprocessing-only entry
# (-E) is skipped, and said (both gave 0 findings, exit 0, no message)
cat >"$T/proj/wE.json" <<EOF
[ { "directory": "$T/proj", "file": "src/hot.c", "arguments": ["gcc", "-w", "-I$TOP/include", "-c", "src/hot.c"] },
  { "directory": "$T/proj", "file": "src/clean.c", "command": "gcc -E -I$TOP/include src/clean.c -o src/clean.i" } ]
EOF
out=$(cd "$T" && "$CH" check -p "$T/proj/wE.json" 2>&1); rc=$?
expect_eq ccdb-w-dropped-E-skipped "1|cachehot: $T/proj/wE.json: entry 0 (src/hot.c): -w dropped: it would hide every cachehot finding
cachehot: $T/proj/wE.json: entry 1 (src/clean.c): skipped: it only preprocesses (-E/-M/-MM), there is no compile to check
$PROJ_LINE" "$rc|$out"
# a command no shell could split: the entry and the reason
printf '[{"directory": "%s/proj", "file": "src/hot.c", "command": "gcc -c \\"src/hot.c"}]\n' "$T" >"$T/unsplit.json"
out=$("$CH" check -p "$T/unsplit.json" 2>&1 >/dev/null); rc=$?
expect_eq ccdb-unsplittable-reason "2|cachehot: $T/unsplit.json: entry 0 (src/hot.c): cannot split command: unbalanced quotes or parentheses" "$rc|$out"
# an object without annotations through the driver: nothing judged is said
gcc -g -c -I"$TOP/include" "$FX/hot.c" -o "$T/attr.o"
"$CH" check --engine=layout "$T/attr.o" >/dev/null 2>"$T/err"; rc=$?
expect_eq layout-nothing-judged-shown "0|1" "$rc|$(grep -c '^cachehot-layout: warning: no annotated struct judged' "$T/err")"
echo '{"not": "an array"}' >"$T/bad.json"
"$CH" check -p "$T/bad.json" 2>"$T/err"; rc=$?
expect_eq ccdb-bad "2|cachehot: $T/bad.json: not a compile_commands.json (expected an array)" "$rc|$(cat "$T/err")"

# ---- patch-only mode: --diff and --patch ------------------------------------------
mkdir "$T/repo"; cd "$T/repo"
git init -q . && git config user.email t@example.org && git config user.name test
cat >mod.c <<'EOF'
#include "cachehot.h"

struct old_stats {
	unsigned long hits __cacheline_hot;
	unsigned long limit __cacheline_read_mostly;
} __attribute__((aligned(64)));

struct old_stats a;
EOF
git add mod.c && git commit -qm old && git tag old
cat >>mod.c <<'EOF'

struct new_stats {
	unsigned long misses __cacheline_hot;
	unsigned long max __cacheline_read_mostly;
} __attribute__((aligned(64)));

struct new_stats b;
EOF
git commit -qam new
OLDL="mod.c:5:23: warning: read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct old_stats' with hot field 'hits' (offset 0, size 8); one fix for all of 'struct old_stats': declare 'limit' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]"
NEWL="mod.c:12:23: warning: read-mostly field 'max' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct new_stats' with hot field 'misses' (offset 0, size 8); one fix for all of 'struct new_stats': declare 'max' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]"
out=$("$CH" check $INC mod.c); expect_eq diff-full-run "$OLDL
$NEWL" "$out"
out=$("$CH" check $INC --diff HEAD~1 mod.c); rc=$?
expect_eq diff-new-only "1|$NEWL" "$rc|$out"
out=$("$CH" check $INC --diff HEAD~1); rc=$?
expect_eq diff-files-from-change "1|$NEWL" "$rc|$out"
out=$("$CH" check $INC --diff HEAD mod.c); rc=$?
expect_eq diff-nothing-changed "0|" "$rc|$out"
git format-patch -q -1 -o "$T/patches"
out=$("$CH" check $INC --patch "$T"/patches/0001-new.patch mod.c); rc=$?
expect_eq patch-new-only "1|$NEWL" "$rc|$out"
mkdir -p sub && out=$(cd sub && "$CH" check $INC --patch "$T"/patches/0001-new.patch ../mod.c); rc=$?
expect_eq patch-from-subdir "1|${NEWL/mod.c/../mod.c}" "$rc|$out"
rmdir sub
# touching a field of the old struct brings its finding into scope
sed -i 's/unsigned long hits __cacheline_hot;/unsigned long hits __cacheline_hot; \/* edited *\//' mod.c
out=$("$CH" check $INC --diff HEAD mod.c); expect_eq diff-touched-struct "$OLDL" "$out"
git checkout -q mod.c
"$CH" check $INC --diff no-such-rev mod.c >/dev/null 2>&1; expect_eq diff-bad-rev 2 $?
# a header change is seen through a unit that includes it
sed -n '1,8p' mod.c | sed 's/old_stats/hdr_stats/g' >hdr.h
printf '#include "hdr.h"\nint user;\n' >user.c
git add hdr.h user.c && git commit -qm header
printf '\nstruct hdr_new {\n\tunsigned long a __cacheline_hot;\n\tunsigned long b __cacheline_read_mostly;\n} __attribute__((aligned(64)));\n' >>hdr.h
out=$("$CH" check $INC --diff HEAD user.c | cut -d' ' -f1-5); rc=$?
expect_eq diff-header-change "hdr.h:12:23: warning: read-mostly field 'b'" "$out"
out=$("$CH" check $INC --diff HEAD 2>"$T/err"); rc=$?
expect_eq diff-header-no-unit "2||cachehot: hdr.h: changed header not checked: no unit that includes it is named (name the units, or give -p compile_commands.json)" "$rc|$out|$(cat "$T/err")"
git checkout -q hdr.h
# diffs in every shape git and diff(1) write: a finding in
# a subdirectory, reached through --no-prefix, diff.noprefix, CRLF, a quoted
# path, a rename and a plain "diff -u"
mkdir -p sub && cp mod.c "sub/my file.c" && git add sub && git commit -qm sub
sed -i 's/unsigned long max __cacheline_read_mostly;/& \/* touched *\//' "sub/my file.c"
SUBL="sub/my file.c:12:23: warning: read-mostly field 'max' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct new_stats' with hot field 'misses' (offset 0, size 8); one fix for all of 'struct new_stats': declare 'max' _Alignas(64); this costs 64 bytes per object (64 -> 128 bytes; an array of n grows by 64*n bytes) [cachehot-false-sharing]"
git diff --no-prefix >"$T/np.diff"
out=$("$CH" check $INC --patch "$T/np.diff" "sub/my file.c"); rc=$?
expect_eq patch-no-prefix "1|$SUBL" "$rc|$out"
out=$(git -c diff.noprefix=true diff | head -1)
expect_eq patch-noprefix-config-shape 'diff --git sub/my file.c sub/my file.c' "$out"
git config diff.noprefix true
out=$("$CH" check $INC --diff HEAD); rc=$?
expect_eq diff-noprefix-config "1|$SUBL" "$rc|$out"
git config --unset diff.noprefix
git diff | sed 's/$/\r/' >"$T/crlf.diff"
out=$("$CH" check $INC --patch "$T/crlf.diff" "sub/my file.c"); rc=$?
expect_eq patch-crlf "1|$SUBL" "$rc|$out"
git -c core.quotePath=true diff --src-prefix=a/ --dst-prefix=b/ | sed 's|a/sub/my file.c|"a/sub/my\\040file.c"|; s|b/sub/my file.c|"b/sub/my\\040file.c"|' >"$T/q.diff"
grep -q '^+++ "b/sub/my\\040file.c"' "$T/q.diff" && ok patch-quoted-shape || fail patch-quoted-shape "$(head -4 "$T/q.diff")"
out=$("$CH" check $INC --patch "$T/q.diff" "sub/my file.c"); rc=$?
expect_eq patch-quoted "1|$SUBL" "$rc|$out"
(cd sub && diff -u "$T/repo/mod.c" "my file.c" | sed "1s|^--- .*|--- a/sub/my file.c	2026-01-01 00:00:00|; 2s|^+++ .*|+++ b/sub/my file.c	2026-01-01 00:00:00|") >"$T/plain.diff"
out=$("$CH" check $INC --patch "$T/plain.diff" "sub/my file.c"); rc=$?
expect_eq patch-plain-diff-u "1|$SUBL" "$rc|$out"
git checkout -q "sub/my file.c"
git mv "sub/my file.c" sub/renamed.c && sed -i 's/unsigned long max __cacheline_read_mostly;/& \/* touched *\//' sub/renamed.c && git add -A
git diff --cached -M HEAD >"$T/ren.diff"
grep -q '^rename to sub/renamed.c' "$T/ren.diff" && ok patch-rename-shape || fail patch-rename-shape "$(head -6 "$T/ren.diff")"
out=$("$CH" check $INC --patch "$T/ren.diff" sub/renamed.c 2>&1); rc=$?
expect_eq patch-rename "1|${SUBL/my file.c/renamed.c}" "$rc|$out"
git reset -q --hard

# ---- baselines ------------------------------------------------------------------------
git checkout -q old
"$CH" check $INC --baseline "$T/base" --update-baseline mod.c 2>"$T/err"; rc=$?
expect_eq baseline-update "0|cachehot: wrote 1 findings to $T/base" "$rc|$(cat "$T/err")"
expect_eq baseline-content "# cachehot baseline v2|cachehot-false-sharing old_stats limit hits 64 -" "$(head -1 "$T/base" | cut -d: -f1)|$(grep -v '^#' "$T/base")"
git checkout -q -
out=$("$CH" check $INC --baseline "$T/base" mod.c); rc=$?
expect_eq baseline-suppresses-old "1|$NEWL" "$rc|$out"
# unrelated edits move the old finding down: still suppressed (no line numbers)
{ printf '/* a comment\n * that moves\n * everything */\n'; cat mod.c; } >mod2.c && mv mod2.c mod.c
out=$("$CH" check $INC --baseline "$T/base" mod.c)
expect_eq baseline-survives-edits "${NEWL/mod.c:12:/mod.c:15:}" "$out"
git checkout -q mod.c
git checkout -q old
out=$("$CH" check $INC --baseline "$T/base" mod.c); rc=$?
expect_eq baseline-all-known "0|" "$rc|$out"
git checkout -q -
printf 'false-sharing old_stats\n' >"$T/badbase"
"$CH" check $INC --baseline "$T/badbase" mod.c >/dev/null 2>"$T/err"; rc=$?
expect_eq baseline-malformed "2|cachehot: $T/badbase:1: expected 'CHECK STRUCT FIELD OTHER LINES' (a baseline without the '# cachehot baseline v2' line is of the older form; write it again with --update-baseline)" "$rc|$(cat "$T/err")"
printf '# cachehot baseline v2\ncachehot-false-sharing old_stats limit hits 64\n' >"$T/badbase"
"$CH" check $INC --baseline "$T/badbase" mod.c >/dev/null 2>"$T/err"; rc=$?
expect_eq baseline-malformed-v2 "2|cachehot: $T/badbase:2: expected 'CHECK STRUCT FIELD OTHER LINES IDENT' (e.g. 'cachehot-false-sharing page_counter min usage 64 -')" "$rc|$(cat "$T/err")"
# a new partner of a known field is a new finding
printf '#include "cachehot.h"\nstruct old_stats {\n\tunsigned long hits __cacheline_hot;\n\tunsigned long extra __cacheline_hot_group(g2);\n\tunsigned long limit __cacheline_read_mostly;\n} __attribute__((aligned(64)));\nstruct old_stats a;\n' >partner.c
"$CH" check $INC --baseline "$T/base" --format=json partner.c >"$T/p.json"; rc=$?
out=$(jq -r '.findings[] | "\(.line):\(.field):\(.message | test("with hot field .group .g2.. .extra."))"' "$T/p.json" | tr '\n' ' ')
expect_eq baseline-new-partner "1|4:extra:false 5:limit:true " "$rc|$out"
# the old three-word form still reads (any partner), with a note to rewrite
printf 'cachehot-false-sharing old_stats limit\n' >"$T/oldbase"
out=$("$CH" check $INC --baseline "$T/oldbase" --format=json partner.c 2>"$T/err" | jq -r '.findings[] | "\(.line):\(.field)"' | tr '\n' ' ')
expect_eq baseline-old-form "cachehot: $T/oldbase: 1 entries in an older baseline form (words from the message text) match by check, struct and field; rewrite the file with --update-baseline|4:extra " "$(cat "$T/err")|$out"
# the five-word form of the text-keyed baselines still reads too
printf '# cachehot baseline: known findings\ncachehot-false-sharing old_stats limit hits 64\n' >"$T/oldbase"
out=$("$CH" check $INC --baseline "$T/oldbase" --format=json partner.c 2>/dev/null | jq -r '.findings[] | "\(.line):\(.field)"' | tr '\n' ' ')
expect_eq baseline-v1-form "4:extra 5:limit " "$out"
cd "$T"
# rewording a message changes no baseline and no SARIF fingerprint: the
# driver keys on the records' fields (the plugin's records of hot.c, and the
# same records with the message reworded)
gcc -fplugin="$TOP/plugin/cachehot.so" -fplugin-arg-cachehot-findings="$T/r1.jsonl" $INC -c hot.c -o /dev/null 2>/dev/null
sed 's/shares cache line/is on cache line/; s/ of .struct stats. with / of the stats struct with /' "$T/r1.jsonl" >"$T/r2.jsonl"
"$CH" check --findings "$T/r1.jsonl" --baseline "$T/rbase" --update-baseline 2>/dev/null
out=$("$CH" check --findings "$T/r2.jsonl"); rc=$?
expect_eq reworded-message-read "1|hot.c:7:23: warning: read-mostly field 'limit' (offset 8, size 8) is on cache line 0 (64-byte lines) of the stats struct with hot field 'hits'" "$rc|${out%% (offset 0*}"
out=$("$CH" check --findings "$T/r2.jsonl" --baseline "$T/rbase"); rc=$?
expect_eq reworded-baseline-holds "0|" "$rc|$out"
fp1=$("$CH" check --findings "$T/r1.jsonl" --format=sarif | jq -r '.runs[0].results[0].partialFingerprints["cachehotKey/v3"]')
fp2=$("$CH" check --findings "$T/r2.jsonl" --format=sarif | jq -r '.runs[0].results[0].partialFingerprints["cachehotKey/v3"]')
expect_eq reworded-fingerprint "hot.c:cachehot-false-sharing:stats:limit:hits:64:-|$fp1" "$fp2|$fp1"
printf '{"cachehot_finding": 2, "check": "cachehot-false-sharing"}\n' >"$T/r3.jsonl"
"$CH" check --findings "$T/r3.jsonl" 2>"$T/err"; rc=$?
expect_eq records-other-version "2|cachehot: $T/r3.jsonl:1: a record of schema version 2, this cachehot reads version 1: use engines and driver of one cachehot" "$rc|$(cat "$T/err")"

# ---- progress: on a terminal only, and not under CI ----------------------------------
if command -v script >/dev/null; then
	env -u CI script -qec "$CH check $INC hot.c clean.c" /dev/null >"$T/tty" 2>&1
	if grep -q '\[1/2\] plugin hot.c' "$T/tty" && grep -q '\[2/2\] plugin clean.c' "$T/tty"
	then ok progress-on-tty; else fail progress-on-tty "$(cat -v "$T/tty" | head -3)"; fi
	CI=true script -qec "$CH check $INC hot.c clean.c" /dev/null >"$T/tty" 2>&1
	if grep -q '\[1/2\]' "$T/tty"; then fail progress-off-under-ci "$(cat -v "$T/tty" | head -3)"
	else ok progress-off-under-ci; fi
	env -u CI "$CH" check $INC hot.c clean.c >/dev/null 2>"$T/err"
	expect_eq progress-off-when-not-tty "" "$(cat "$T/err")"
else
	fail progress-on-tty "no 'script' (bsdutils)"
fi

# ---- make install / uninstall into a DESTDIR -----------------------------------------
# the plugin where -fplugin=cachehot finds it, GCC's own
# plugin folder; a man page for every installed tool; uninstall removes all
GPD=$(gcc -print-file-name=plugin)
D=$(mktemp -d)
if make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr >"$T/inst" 2>&1; then
	ok install-runs
	(cd "$D" && find . \( -type f -o -type l \) | sort) >"$T/files"
	want=".$GPD/cachehot.so ./usr/bin/cachehot ./usr/include/cachehot.h ./usr/lib/cachehot/cachehot.so ./usr/share/doc/cachehot/cachehot.rst ./usr/share/man/man1/cachehot.1 ./usr/share/man/man7/cachehot-annotations.7 ./usr/share/cachehot/kernel/0001-gcc-plugins-add-cachehot.patch ./usr/lib/libcachehot-rt.so ./usr/lib/libcachehot-rt.so.0 ./usr/lib/libcachehot-rt.a ./usr/include/cachehot-rt.h"
	missing=""
	for f in $want; do grep -qx "$f" "$T/files" || missing="$missing $f"; done
	for b in "$TOP"/bin/*; do
		grep -qx "./usr/bin/$(basename "$b")" "$T/files" || missing="$missing bin/$(basename "$b")"
		grep -qx "./usr/share/man/man1/$(basename "$b").1" "$T/files" || missing="$missing man:$(basename "$b")"
	done
	for c in "$TOP"/cocci/*.cocci; do [ -f "$c" ] || continue
		grep -qx "./usr/share/cachehot/cocci/$(basename "$c")" "$T/files" || missing="$missing $c"; done
	expect_eq install-file-list "" "$missing"
	expect_eq install-nothing-else "" "$(grep -v -e '^./usr/bin/' -e '^./usr/share/cachehot/cocci/' -e '^./usr/share/cachehot/kernel/' -e '^./usr/share/man/' -e '^./usr/share/doc/cachehot/' -e '^./usr/include/cachehot.h$' -e '^./usr/include/cachehot-rt.h$' -e '^./usr/lib/libcachehot-rt\.\(a\|so\|so\.0\)$' -e '^./usr/lib/cachehot/cachehot.so$' -e "^.$GPD/cachehot.so\$" "$T/files")"
	cmp -s "$TOP/plugin/cachehot.so" "$D/usr/lib/cachehot/cachehot.so" && ok install-plugin-link || fail install-plugin-link "$(ls -l "$D/usr/lib/cachehot/")"
	expect_eq install-version "cachehot 0.1.0" "$("$D/usr/bin/cachehot" version 2>&1)"
	# the installed command finds the installed plugin and header
	out=$(cd "$T" && "$D/usr/bin/cachehot" check -I "$D/usr/include" hot.c); rc=$?
	expect_eq install-check-works "1|$LINE" "$rc|$out"
	if command -v man >/dev/null; then
		for m in "$D"/usr/share/man/man1/*.1; do
			out=$(MANWIDTH=80 man -l "$m" 2>&1 >/dev/null)
			n=$(MANWIDTH=80 man -l "$m" 2>/dev/null | grep -c 'SYNOPSIS')
			expect_eq "install-man-renders-$(basename "$m")" "1|" "$n|$out"
		done
	fi
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr >"$T/inst" 2>&1
	expect_eq uninstall-removes-all "" "$(cd "$D" && find . \( -type f -o -type l \))"
else
	fail install-runs "$(tail -5 "$T/inst")"
fi
rm -rf "$D"
