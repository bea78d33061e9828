#!/bin/bash
# tests/annotate/run.sh -- the plugin's access mode (exact facts of the
# fixtures' "facts:" blocks), `cachehot annotate` (merge, inference, groups,
# --only, determinism, --build over a compile_commands.json, bad input) and
# `cachehot check --annotations` on what was inferred.
. "$(dirname "$0")/../lib.sh"
set -u
export CI=true LC_ALL=C
PLUGIN=$TOP/plugin/cachehot.so
CH=$TOP/bin/cachehot
HERE=$TOP/tests/annotate
[ -f "$PLUGIN" ] && [ -x "$CH" ] || { fail annotate-build "plugin or bin/cachehot missing"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-gcc}

facts_expect() {
	awk '/facts:/ {on=1; next} on && /\*\// {on=0} on {sub(/^[ \t]*\*[ \t]?/, ""); if ($0 != "") print}' "$1" | sort
}

# ---- access mode: exact facts, at -O2 and -O0 -------------------------------
for f in access charge passed rare; do
	for o in -O2 -O0; do
		rm -f "$T/$f.json"
		out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/$f.json" $o -c "$HERE/$f.c" -o /dev/null 2>&1)
		[ -z "$out" ] || { fail "annotate/facts-$f$o" "compiler said: $out"; continue; }
		facts_expect "$HERE/$f.c" >"$T/exp"
		python3 "$HERE/flatten.py" "$T/$f.json" >"$T/act"
		expect_file_eq "annotate/facts-$f$o" "$T/exp" "$T/act"
	done
done
cp "$T/access.json" "$T/a.json"; cp "$T/charge.json" "$T/b.json"

# the file names the unit by its real path; written atomically (no temporary left)
expect_eq annotate/facts-unit "$(realpath "$HERE/access.c")" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["unit"])' "$T/a.json")"
expect_eq annotate/facts-no-temporary "" "$(ls "$T" | grep '\.tmp\.' || true)"

# directory mode: one file per unit, named after the source's real path
mkdir "$T/dir"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/dir" -O2 -c "$HERE/access.c" -o /dev/null
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/dir/" -O2 -c "$HERE/charge.c" -o /dev/null
want=$(realpath "$HERE" | sed 's#^/##; s#/#,#g')
# ... and the unit's options (16 hex digits: the same for both here)
expect_eq annotate/dir-mode-names "$want,access.c.F.access.json $want,charge.c.F.access.json" "$(ls "$T/dir" | sed 's/\.[0-9a-f]\{16\}\.access\.json$/.F.access.json/' | tr '\n' ' ' | sed 's/ $//')"

# off by default: the pass is registered only with access=
$CC -fplugin="$PLUGIN" -O2 -fdump-passes -c "$HERE/access.c" -o /dev/null 2>"$T/passes"
expect_eq annotate/off-by-default "0" "$(grep -c cachehot_access "$T/passes")"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/x.json" -O2 -fdump-passes -c "$HERE/access.c" -o /dev/null 2>"$T/passes"
expect_eq annotate/on-after-einline "tree-einline|tree-cachehot_access" \
	"$(grep -A1 'tree-einline ' "$T/passes" | awk '{print $1}' | tr '\n' '|' | sed 's/|$//')"

# make annotate-kernel's plugin flags: a finding is never an error under the
# tree's CONFIG_WERROR (-Werror), and the facts are still written
flags=$("$TOP/kernel/annotate-run.sh" --print-plugin-flags "$PLUGIN" "$T/werror.json")
out=$($CC $flags -Werror -O2 -c "$TOP/tests/plugin/cases/counter_direct.c" -o /dev/null 2>&1); rc=$?
expect_eq annotate/kernel-flags-never-werror "0|0|1" "$rc|$(echo "$out" | grep -c error)|$(ls "$T/werror.json" 2>/dev/null | wc -l)"

# bad arguments: a clear error, no crash
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access -c "$HERE/access.c" -o /dev/null 2>&1 | grep access | sed "s/[‘’]/'/g")
expect_eq annotate/arg-needs-value "cc1: error: cachehot: '-fplugin-arg-cachehot-access' needs a file or directory name" "$out"
out=$($CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/no/such/dir/x.json" -c "$HERE/access.c" -o /dev/null 2>&1; echo "rc=$?")
expect_eq annotate/arg-unwritable "cc1: error: cachehot: $T/no/such/dir/x.json: cannot write access facts: No such file or directory|rc=1" \
	"$(echo "$out" | grep -v '^$' | tr '\n' '|' | sed 's/|$//')"

# ---- cachehot annotate ----------------------------------------------------------
"$CH" annotate "$T/a.json" "$T/b.json" --rm-read-fns=2 >"$T/merged" 2>"$T/err"
expect_eq annotate/merged-exit "0|" "$?|$(cat "$T/err")"
expect_file_eq annotate/merged "$HERE/expected/merged.sidecar" "$T/merged"
"$CH" annotate "$T/b.json" "$T/a.json" --rm-read-fns=2 >"$T/merged2"
expect_file_eq annotate/merged-order-independent "$T/merged" "$T/merged2"
"$CH" annotate "$T/dir" --rm-read-fns=2 >"$T/merged3"
expect_file_eq annotate/merged-from-directory "$T/merged" "$T/merged3"
"$CH" annotate "$T/a.json" "$T/b.json" --rm-read-fns=2 --hot-write-fns=1 >"$T/groups"
expect_file_eq annotate/hot-groups "$HERE/expected/groups.sidecar" "$T/groups"
# defaults: one unit is thin evidence: nothing suggested
"$CH" annotate "$T/a.json" >"$T/thin"
expect_eq annotate/thin-evidence-nothing "1" "$(wc -l <"$T/thin")"
out=$("$CH" annotate "$T/a.json" "$T/b.json" --hot-rmw-fns=1 --min-fields=1 --only=mem_cgroup | grep -v '^#' | grep -v '^$')
expect_eq annotate/only "mem_cgroup.events hot	# rmw 1 fn (1): memcg_event; writes 1 fn (1): memcg_event; reads 0 fn; init/slow-path writes 0 fn; confidence medium" "$out"
"$CH" annotate "$T/a.json" "$T/b.json" --rm-read-fns=2 -o "$T/out.sidecar"
expect_file_eq annotate/output-file "$T/merged" "$T/out.sidecar"

# writes through an address: the run queue handed to tree_insert() (defined
# nowhere: written) is hot, the lock handle handed to lck_lock() (which only
# loads it) is read_mostly; an atomic two calls down (hand -> bump) is an RMW
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/sess.json" -O2 -c "$HERE/sess.c" -o /dev/null
"$CH" annotate "$T/passed.json" "$T/sess.json" >"$T/passed.sidecar"
expect_file_eq annotate/written-through-address "$HERE/expected/passed.sidecar" "$T/passed.sidecar"
out=$("$CH" annotate "$T/passed.json" "$T/sess.json" --hot-rmw-fns=1 --min-fields=1 | grep '^sess\.hits' | cut -d'	' -f1 | cut -d: -f1)
expect_eq annotate/rmw-through-two-calls "sess.hits hot" "$out"

# written together: a field with exactly a hot field's writers joins its
# group (never read_mostly opposite it); check then reports only 'size'
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/together.json" -O2 -c "$HERE/together.c" -o /dev/null
"$CH" annotate "$T/together.json" >"$T/together.sidecar"
expect_file_eq annotate/written-together "$HERE/expected/together.sidecar" "$T/together.sidecar"
out=$(cd "$HERE" && "$CH" check --annotations="$T/together.sidecar" together.c | grep -c "warning: .*'head_stamp' (offset 8, size 8) shares")
expect_eq annotate/written-together-no-conflict "0" "$out"
out=$(cd "$HERE" && "$CH" check --annotations="$T/together.sidecar" together.c | grep warning | cut -d: -f1-4 | sort | uniq -c | sed 's/^ *//')
expect_eq annotate/written-together-check "2 together.c:10:23: warning" "$out"

# paths marked unlikely and updates from a field's own value: a counter or
# clock written by one function is hot, never read_mostly; writes made only
# by functions called under unlikely()/behind likely() are evidence, not
# writes; a call under unlikely() is not a caller
"$CH" annotate "$T/rare.json" >"$T/rare.sidecar"
expect_file_eq annotate/rare-and-updates "$HERE/expected/rare.sidecar" "$T/rare.sidecar"

# the suggestion is a valid sidecar: every existing check runs on it
cat >"$T/pc.c" <<'EOC'
struct page_counter {
	long usage;
	unsigned long min;
	unsigned long low;
	unsigned long max;
	unsigned long failcnt;
	unsigned long watermark;
};
struct page_counter pc;
EOC
out=$(cd "$T" && "$CH" check --annotations=merged pc.c)
expect_eq annotate/check-on-inferred "pc.c:5:23: warning: read-mostly field 'max' (offset 24, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'max', 'failcnt' _Alignas(64); this costs 144 bytes per object (48 -> 192 bytes; an array of n grows by 144*n bytes) [cachehot-false-sharing]|5|0" \
	"$(echo "$out" | grep "warning: read-mostly field 'max'")|$(echo "$out" | grep -c warning)|$(echo "$out" | grep -c 'names no member')"

# --build: compile_commands.json -> cachehot check -A access=... -> merge
mkdir "$T/proj"
cp "$HERE/access.c" "$HERE/charge.c" "$T/proj/"
cat >"$T/proj/compile_commands.json" <<EOC
[ { "directory": "$T/proj", "file": "access.c", "arguments": ["gcc", "-O2", "-c", "access.c", "-o", "access.o"] },
  { "directory": "$T/proj", "file": "charge.c", "command": "gcc -O2 -c charge.c -o charge.o" } ]
EOC
"$CH" annotate --build "$T/proj" --rm-read-fns=2 -j 2 --keep-facts="$T/kept" >"$T/built" 2>"$T/err"
expect_eq annotate/build-exit "0|" "$?|$(cat "$T/err")"
expect_file_eq annotate/build-equals-merge "$T/merged" "$T/built"
expect_eq annotate/build-keeps-facts "2" "$(ls "$T/kept" | grep -c '\.access\.json$')"
"$CH" annotate --build "$T" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/build-no-ccdb "2|cachehot: annotate: no $T/compile_commands.json (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; make: bear -- make; kernel: make compile_commands.json, or build with KCFLAGS=-fplugin-arg-cachehot-access=DIR and name DIR)" "$rc|$(cat "$T/err")"

# --build on a kernel O= tree without compile_commands.json: the tree's own
# scripts/clang-tools/gen_compile_commands.py makes one (a stand-in here that
# maps X.o to X.c in $T/proj), for every object or those of --objects
mkdir -p "$T/ktree/source/scripts/clang-tools"
cat >"$T/ktree/source/scripts/clang-tools/gen_compile_commands.py" <<EOC
import argparse, json, os
p = argparse.ArgumentParser(); p.add_argument('-d'); p.add_argument('-o'); p.add_argument('paths', nargs='*')
a = p.parse_args()
objs = [os.path.basename(o) for o in a.paths] or ['access.o', 'charge.o']
json.dump([{"directory": "$T/proj", "file": o[:-2] + ".c", "arguments": ["gcc", "-O2", "-c", o[:-2] + ".c"]} for o in objs], open(a.o, 'w'))
EOC
"$CH" annotate --build "$T/ktree" --rm-read-fns=2 >"$T/kbuilt" 2>"$T/err"
expect_eq annotate/build-kernel-tree "0|" "$?|$(cat "$T/err")"
expect_file_eq annotate/build-kernel-tree-equals-merge "$T/merged" "$T/kbuilt"
echo "charge.o" >"$T/objs"
"$CH" annotate --build "$T/ktree" --objects="$T/objs" --keep-facts="$T/kept2" >/dev/null 2>"$T/err"
expect_eq annotate/build-kernel-objects "0||charge.c.access.json" \
	"$?|$(cat "$T/err")|$(ls "$T/kept2" | grep '\.access\.json$' | sed 's/.*,//; s/\.[0-9a-f]\{16\}\.access/.access/')"
"$CH" annotate --build "$T/proj" --objects="$T/objs" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/build-objects-not-kernel "2|cachehot: annotate: --objects: $T/proj is not a kernel tree (no scripts/clang-tools/gen_compile_commands.py)" "$rc|$(cat "$T/err")"

# bad input: clear errors, exit 2
printf '{"cachehot_access": 1, "unit": \n' >"$T/broken.json"
"$CH" annotate "$T/broken.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/bad-json "2|cachehot: annotate: $T/broken.json:2: unexpected token near end of file" "$rc|$(cat "$T/err")"
echo '{"cachehot_manifest": 1, "structs": {}}' >"$T/manifest.json"
"$CH" annotate "$T/manifest.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/not-access-file "2|cachehot: annotate: $T/manifest.json: not a cachehot access file: no \"cachehot_access\": 1" "$rc|$(cat "$T/err")"
"$CH" annotate "$T/nosuch.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/missing-file "2|cachehot: annotate: no such file: '$T/nosuch.json'" "$rc|$(cat "$T/err")"
"$CH" annotate >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/no-input "2|cachehot: annotate: nothing to merge: name ACCESS.json files or directories, or --build DIR" "$rc|$(head -1 "$T/err")"
"$CH" annotate --group-overlap=150 "$T/a.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/bad-threshold "2|cachehot: annotate: --group-overlap takes a percentage from 0 to 100, not '150'" "$rc|$(head -1 "$T/err")"
