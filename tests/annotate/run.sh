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
for f in access charge passed rare owned cas; do
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
expect_eq annotate/written-together-check "1 together.c:10:23: warning" "$out"

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
expect_eq annotate/check-on-inferred "pc.c:5:23: warning: read-mostly field 'max' (offset 24, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'max', 'failcnt' _Alignas(64); this costs 144 bytes per object (48 -> 192 bytes; an array of n grows by 144*n bytes) [cachehot-false-sharing]|1|0" \
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

# per-thread data others read (percpu.c): the owner's updates through its
# own element count once other functions read the field (hot, not
# read_mostly); a wait queue woken only when a test of its own value found a
# waiter (guarded.c) is written rarely, not hot. Facts at -O2 (the test is
# inlined by einline there)
for f in percpu guarded; do
	$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/$f.json" -O2 -c "$HERE/$f.c" -o /dev/null
	facts_expect "$HERE/$f.c" >"$T/exp"
	python3 "$HERE/flatten.py" "$T/$f.json" >"$T/act"
	expect_file_eq "annotate/facts-$f" "$T/exp" "$T/act"
	"$CH" annotate "$T/$f.json" | grep -v '^# cachehot annotate' >"$T/$f.sidecar"
	expect_file_eq "annotate/$f" "$HERE/expected/$f.sidecar" "$T/$f.sidecar"
done

# thin evidence (ctor.c): a constructor that tests what it just allocated is
# still an initializer (the lock it sets up is not hot on 3 lockers); a
# field one function updates and two read is written commented out
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/ctor.json" -O2 -c "$HERE/ctor.c" -o /dev/null
"$CH" annotate "$T/ctor.json" | grep -v '^# cachehot annotate' >"$T/ctor.sidecar"
expect_file_eq annotate/thin-evidence-and-constructor "$HERE/expected/ctor.sidecar" "$T/ctor.sidecar"

# ---- userspace: ownership, slow paths, noise control (owned.c) ---------------
# thresholds for one small unit; main's tools suggested thread_ctx.runs/wakeups
# hot (per-thread objects) and server.maxconn/pidfile/mode hot (startup, exit
# and signal-handler writes)
OWN="--hot-write-fns=2 --hot-rmw-fns=1 --rm-read-fns=1"
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/owned.json" -O2 -c "$HERE/owned.c" -o /dev/null
"$CH" annotate $OWN "$T/owned.json" | grep -v '^# cachehot annotate' >"$T/owned.sidecar"
expect_file_eq annotate/owned-and-slow "$HERE/expected/owned.sidecar" "$T/owned.sidecar"
# the "thread_ctx owned" line is a sidecar line check honours: hand classes
# that put hot 'runs' beside read-mostly 'idle' on line 0 of the owned
# struct are no false sharing with it, and three findings without it
printf 'thread_ctx.runs hot\nthread_ctx.wakeups hot:wake\nthread_ctx.idle read_mostly\n' >"$T/hand.ann"
cat "$T/hand.ann" "$T/owned.sidecar" >"$T/hand-owned.ann"
out=$(cd "$HERE" && "$CH" check --annotations="$T/hand-owned.ann" owned.c | grep -c "of 'struct thread_ctx'")
expect_eq annotate/owned-line-no-false-sharing "0" "$out"
out=$(cd "$HERE" && "$CH" check --annotations="$T/hand.ann" owned.c | grep -c "warning: .* of 'struct thread_ctx'")
expect_eq annotate/owned-line-without-it "3" "$out"
"$CH" annotate $OWN --explain=server.maxconn "$T/owned.json" >"$T/explain"; rc=$?
expect_eq annotate/explain "0|server.maxconn (offset 8): read_mostly, confidence high
  counted: rmw 0 fn, writes 0 fn, reads 1 fn; not counted: slow-path or initializer writes 2 fn, 0 accesses through owned objects
  rules: hot needs rmw >= 1 fn or writes >= 2 fn; read_mostly needs reads >= 1 fn, writes <= 3 fn, reads >= 3 x writes
  on_hup (owned.c:68) load 1 store 1 update 1 [slow: signal handler]
  parse_config (owned.c:53) load 1 store 1 [slow: called by main() before its first thread]
  poll_once (owned.c:32) load 1" "$rc|$(sed "s|$HERE/||" "$T/explain")"
"$CH" annotate $OWN --explain=thread_ctx.runs "$T/owned.json" | grep 'owned obj\|counted' >"$T/explain"
expect_eq annotate/explain-owned "  counted: rmw 0 fn, writes 0 fn, reads 0 fn; not counted: slow-path or initializer writes 0 fn, 6 accesses through owned objects
  owned object: indexed by the thread's id, 2 accesses
  owned object: thread-context pointer, 2 accesses
  owned object: thread-local, 2 accesses" "$(cat "$T/explain")"
"$CH" annotate $OWN --explain=server.nosuch "$T/owned.json" >"$T/explain"; rc=$?
expect_eq annotate/explain-no-member "1|server.nosuch: no access to member nosuch of struct server in the facts" "$rc|$(cat "$T/explain")"
"$CH" annotate --explain=server "$T/owned.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/explain-bad "2|cachehot: annotate: --explain takes STRUCT.FIELD, not 'server'" "$rc|$(head -1 "$T/err")"
# --slow: close_one() declared a slow path: conns is then written by one
# function, below --hot-write-fns=2, but still RMW'd (hot-rmw-fns=1)
"$CH" annotate $OWN --slow='^close_' --explain=server.conns "$T/owned.json" | grep close_one >"$T/explain"
expect_eq annotate/slow-option "  close_one (owned.c:46) rmw 1 [slow: --slow]" "$(sed "s|$HERE/||" "$T/explain")"
"$CH" annotate --slow='(' "$T/owned.json" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/slow-bad-regex "2|cachehot: annotate: --slow takes a function name or an extended regular expression, not '('" "$rc|$(head -1 "$T/err")"
# a struct with no atomic or locked write: its lines are low confidence,
# written commented out (nothing for check to judge)
cat >"$T/plain.c" <<'EOC'
struct req { long a; long b; long c; long d; };
void r1(struct req *r) { r->a++; r->b = r->c; }
void r2(struct req *r) { r->a++; r->b = r->d + r->c; }
long r3(struct req *r) { return r->c + r->d; }
EOC
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/plain.json" -O2 -c "$T/plain.c" -o /dev/null
"$CH" annotate $OWN "$T/plain.json" | grep -v '^# cachehot annotate' >"$T/plain.sidecar"
expect_eq annotate/low-confidence-commented "
# struct req: low confidence, no field is written atomically or under a lock off slow paths (no sign that threads share it): lines commented out
#req.a hot:a	# rmw 0 fn; writes 2 fn (2): r1, r2; updates from own value 2 fn: r1, r2; reads 2 fn; init/slow-path writes 0 fn; confidence low
#req.b hot:a	# rmw 0 fn; writes 2 fn (2): r1, r2; reads 0 fn; init/slow-path writes 0 fn; confidence low
#req.c read_mostly	# reads 3 fn (3): r1, r2, r3; writes 0 fn; init/slow-path writes 0 fn; confidence low
#req.d read_mostly	# reads 2 fn (2): r2, r3; writes 0 fn; init/slow-path writes 0 fn; confidence low" "$(cat "$T/plain.sidecar")"
# check on an inferred sidecar: one warning per struct, its other pairs notes;
# the same lines without the "# cachehot annotate:" header: every pair a warning
cat >"$T/srv.c" <<'EOC'
struct srv {
	long served;
	long maxconn;
	long mode;
	long conns;
	long timeout;
};
struct srv g;
EOC
printf '# cachehot annotate: 1 translation unit\nsrv.served hot\nsrv.maxconn read_mostly\nsrv.mode read_mostly\nsrv.timeout read_mostly\n' >"$T/inferred.sidecar"
sed 1d "$T/inferred.sidecar" >"$T/hand.sidecar"
for e in plugin sparse; do
	out=$(cd "$T" && "$CH" check --engine=$e --annotations=inferred.sidecar srv.c | grep -v 'is aligned to' | cut -d: -f1-4 | tr '\n' ' ')
	expect_eq annotate/inferred-once-per-struct-$e "srv.c:3:14: warning srv.c:4:14: note srv.c:6:14: note " "$out"
done
$CC -g -c "$T/srv.c" -o "$T/srv.o"
out=$("$CH" check --engine=layout --annotations="$T/inferred.sidecar" "$T/srv.o" | grep -v 'is aligned to' | sed 's/^[^:]*://' | cut -d: -f1-3 | tr '\n' ' ')
expect_eq annotate/inferred-once-per-struct-layout "3:14: warning 4:14: note 6:14: note " "$out"
out=$(cd "$T" && "$CH" check --annotations=hand.sidecar srv.c | grep -v 'is aligned to' | cut -d: -f1-4 | tr '\n' ' ')
expect_eq annotate/hand-every-pair "srv.c:3:14: warning srv.c:4:14: warning srv.c:6:14: warning " "$out"
# member paths: a field of an embedded struct, in one container only
# (annotate's per-member lines); every engine reads them
cat >"$T/fc.c" <<'EOC'
struct freq_ctr { unsigned int curr_tick, curr_ctr, prev_ctr; };
struct proxy {
	struct freq_ctr sess_rate;
	long maxconn;
	struct freq_ctr comp_rate;
	long mode;
};
struct proxy px;
EOC
printf 'proxy.sess_rate.curr_ctr hot\nproxy.maxconn read_mostly\nproxy.mode read_mostly\n' >"$T/fc.sidecar"
for e in plugin sparse; do
	out=$(cd "$T" && "$CH" check --engine=$e --annotations=fc.sidecar fc.c | grep -v 'is aligned to' | sed 's/ one fix for all.*//' | tr '\n' '|')
	expect_eq annotate/member-path-$e "fc.c:4:14: warning: read-mostly field 'maxconn' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct proxy' with hot field 'sess_rate.curr_ctr' (offset 4, size 4);|fc.c:6:14: warning: read-mostly field 'mode' (offset 40, size 8) shares cache line 0 (64-byte lines) of 'struct proxy' with hot field 'sess_rate.curr_ctr' (offset 4, size 4);|" "$out"
done
$CC -g -c "$T/fc.c" -o "$T/fc.o"
out=$("$CH" check --engine=layout --annotations="$T/fc.sidecar" "$T/fc.o" | grep -v 'is aligned to' | sed 's/^[^:]*://; s/ one fix for all.*//' | tr '\n' '|')
expect_eq annotate/member-path-layout "4:14: warning: read-mostly field 'maxconn' (offset 16, size 8) shares cache line 0 (64-byte lines) of 'struct proxy' with hot field 'sess_rate.curr_ctr' (offset 4, size 4);|6:14: warning: read-mostly field 'mode' (offset 40, size 8) shares cache line 0 (64-byte lines) of 'struct proxy' with hot field 'sess_rate.curr_ctr' (offset 4, size 4);|" "$out"
printf 'proxy.sess_rate.nosuch hot\nproxy.maxconn read_mostly\n' >"$T/fc2.sidecar"
out=$(cd "$T" && "$CH" check --annotations=fc2.sidecar fc.c 2>&1 | grep -c "names no member")
expect_eq annotate/member-path-no-member "1" "$out"
# per-member context: freq_ctr judged per containing member (member.c)
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/member.json" -O2 -c "$HERE/member.c" -o /dev/null
"$CH" annotate --hot-rmw-fns=2 --rm-read-fns=2 "$T/member.json" >"$T/member.sidecar"
grep -v '^# cachehot annotate' "$T/member.sidecar" >"$T/member.lines"
expect_file_eq annotate/per-member-paths "$HERE/expected/member.sidecar" "$T/member.lines"
# ... and check reads them: sess_rate's line 0 conflicts, comp_rate (only
# read) is no hot field; one warning per struct
out=$(cd "$HERE" && "$CH" check --annotations="$T/member.sidecar" member.c | grep -v 'is aligned to' | sed 's/ one fix for all.*//' | tr '\n' '|')
expect_eq annotate/per-member-check "2 warnings (proxy line 15, global line 23); comp_rate 0" "$(echo "$out" | tr '|' '\n' | grep -c ': warning: ') warnings (proxy line $(echo "$out" | tr '|' '\n' | grep ': warning: .*struct proxy' | cut -d: -f2), global line $(echo "$out" | tr '|' '\n' | grep ': warning: .*struct global' | cut -d: -f2)); comp_rate $(echo "$out" | grep -c comp_rate)"
# one program at a time: two programs of one tree define different struct
# http; their facts never mix (the second layout is kept apart), and
# --units/--exclude-units select a program
mkdir -p "$T/progs"
cat >"$T/progs/daemon.c" <<'EOC'
struct http { long hits; long limit; long mode; };
void serve(struct http *h) { if (h->mode) __atomic_fetch_add(&h->hits, 1, 0); }
void serve2(struct http *h) { if (h->hits < h->limit + h->mode) __atomic_fetch_add(&h->hits, 1, 0); }
long peek(struct http *h) { return h->limit + h->mode; }
int main(void) { return 0; }
EOC
cat >"$T/progs/testdrv.c" <<'EOC'
struct http { int fd; long limit; };
void t1(struct http *h) { __atomic_fetch_add(&h->limit, 1, 0); }
void t2(struct http *h) { __atomic_fetch_add(&h->limit, 1, 0); h->fd = 0; }
int main(void) { return 0; }
EOC
for p in daemon testdrv; do
	$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/progs/$p.access.json" -O2 -c "$T/progs/$p.c" -o /dev/null
done
"$CH" annotate --rm-read-fns=2 "$T/progs/daemon.access.json" "$T/progs/testdrv.access.json" | grep -v '^# cachehot annotate' >"$T/progs.out"
expect_eq annotate/programs-apart "
# struct http
http.hits hot	# rmw 2 fn (2): serve, serve2; writes 2 fn (2): serve, serve2; reads 1 fn; init/slow-path writes 0 fn; confidence medium
http.limit read_mostly	# reads 2 fn (2): peek, serve2; writes 0 fn; init/slow-path writes 0 fn; confidence high
http.mode read_mostly	# reads 3 fn (3): peek, serve, serve2; writes 0 fn; init/slow-path writes 0 fn; confidence high

# struct http defined again at $T/progs/testdrv.c:1 (another program of the tree?): judged apart, no line (cachehot annotate --program=BINARY, or --units/--exclude-units, for one program)" "$(cat "$T/progs.out")"
"$CH" annotate --rm-read-fns=2 --min-fields=1 --exclude-units='daemon' "$T/progs" | grep '^http' >"$T/progs.out"
expect_eq annotate/programs-exclude "http.limit hot	# rmw 2 fn (2): t1, t2; writes 2 fn (2): t1, t2; reads 0 fn; init/slow-path writes 0 fn; confidence medium" "$(cat "$T/progs.out")"
"$CH" annotate --rm-read-fns=2 --units='/daemon\.c$' "$T/progs" | grep -c '^http' >"$T/progs.out"
expect_eq annotate/programs-units "3" "$(cat "$T/progs.out")"
"$CH" annotate --units='(' "$T/progs" >/dev/null 2>"$T/err"; rc=$?
expect_eq annotate/units-bad-regex "2|cachehot: annotate: --units/--exclude-units take an extended regular expression, not '('" "$rc|$(head -1 "$T/err")"
# inferred hot fields of two groups on one line: a note (the groups are a
# guess from writer sets); the hot/read-mostly pair stays the warning
printf '# cachehot annotate: 1 translation unit\nsrv.served hot:served\nsrv.maxconn read_mostly\nsrv.conns hot:conns\n' >"$T/hh.sidecar"
out=$(cd "$T" && "$CH" check --annotations=hh.sidecar srv.c | grep -v 'is aligned to' | cut -d: -f1-4 | tr '\n' ' ')
expect_eq annotate/inferred-hot-pair-note "srv.c:3:14: warning srv.c:5:14: note srv.c:5:14: note " "$out"
# a struct whose only sign of sharing is a lock: its lines are not low
# confidence ("locked" facts: the address handed to a *lock* function)
cat >"$T/locked.c" <<'EOC'
struct lk { int lock; long a; long b; long c; };
void spin_lock(int *l);
void l1(struct lk *k) { spin_lock(&k->lock); k->a++; k->b = k->c; }
void l2(struct lk *k) { spin_lock(&k->lock); k->a++; k->b = k->c + 1; }
long l3(struct lk *k) { return k->c; }
EOC
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/locked.json" -O2 -c "$T/locked.c" -o /dev/null
expect_eq annotate/locked-facts "l1=1 l2=1" "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["structs"]["lk"]["lock"]["functions"]; print(" ".join("%s=%d" % (k, f[k].get("locked", 0)) for k in sorted(f)))' "$T/locked.json")"
out=$("$CH" annotate $OWN "$T/locked.json" | grep -c '^lk\.')
expect_eq annotate/locked-not-low "4" "$out"

# ---- one program of a tree at a time: --program=BINARY (its DWARF's units) -------
mkdir -p "$T/programs"
for p in web tool; do
	$CC -g -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/programs" -c "$HERE/programs/$p.c" -o "$T/programs/$p.o"
	$CC "$T/programs/$p.o" -o "$T/programs/$p"
done
"$CH" annotate "$T/programs" >"$T/both-programs.sidecar" 2>&1
expect_eq annotate/two-programs-apart "2 1" "$(grep -c '^http\.' "$T/both-programs.sidecar") $(grep -c '^# struct http defined again at .*(cachehot annotate --program=BINARY, or --units/--exclude-units, for one program)$' "$T/both-programs.sidecar")"
"$CH" annotate "$T/programs" --program="$T/programs/web" >"$T/web.sidecar"
expect_eq annotate/program-web "http.hits hot|http.limit read_mostly|0" \
	"$(grep '^http\.' "$T/web.sidecar" | sed 's/\t.*//' | tr '\n' '|')$(grep -c 'defined again' "$T/web.sidecar")"
"$CH" annotate "$T/programs" --program="$T/programs/tool" >"$T/tool.sidecar"
expect_eq annotate/program-tool "http.sent hot|http.window read_mostly|0" \
	"$(grep '^http\.' "$T/tool.sidecar" | sed 's/\t.*//' | tr '\n' '|')$(grep -c 'defined again' "$T/tool.sidecar")"
expect_eq annotate/program-left-out 1 "$(grep -c '; units of other programs left out' "$T/tool.sidecar")"
$CC -O2 "$HERE/programs/web.c" -o "$T/programs/web-nog"
out=$("$CH" annotate "$T/programs" --program="$T/programs/web-nog" 2>&1 >/dev/null; echo "rc=$?")
expect_eq annotate/program-needs-g "cachehot: annotate: $T/programs/web-nog: no DWARF (no DWARF information): --program needs a binary built with -g|rc=2" \
	"$(echo "$out" | tr '\n' '|' | sed 's/|$//')"

# ---- robustness of the inference -------------------------------------------
# a 70-deep chain of static functions under one __init function: all slow
# (the slow-path closure has no round limit; 64 rounds left 5 "hot" writers)
python3 - "$T/chain.c" <<'PY'
import sys
n = 70
with open(sys.argv[1], "w") as o:
    o.write("struct chain_s { long hits; long spare[7]; long limit; };\nstruct chain_s *cs;\n")
    o.write("".join("static void f%d(void);\n" % i for i in range(n)))
    o.write('__attribute__((section(".init.text"), noinline)) void chain_init(void) { f%d(); }\n' % (n - 1))
    for i in range(n):
        o.write("static __attribute__((noinline)) void f%d(void) { cs->hits++;%s }\n"
                % (i, " if (cs->limit) f%d();" % (i - 1) if i else ""))
PY
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/chain.json" -O2 -c "$T/chain.c" -o /dev/null
expect_eq annotate/slow-chain-70-deep "chain_s.hits (offset 0): no suggestion
  counted: rmw 0 fn, writes 0 fn, reads 0 fn; not counted: slow-path or initializer writes 70 fn, 0 accesses through owned objects" \
	"$("$CH" annotate "$T/chain.json" --explain=chain_s.hits | head -2)"
# static functions keyed by the canonical path of their file: one header
# helper reached as ../inc and ../sub/../inc is one function (writes 1 fn,
# not 2), two util.c in two directories are two (writes 2 fn, not 1)
mkdir -p "$T/canon/a" "$T/canon/b" "$T/canon/inc" "$T/canon/sub" "$T/canon/facts"
cat >"$T/canon/inc/count.h" <<'EOC'
struct cs { long hits; long spare[7]; long limit; };
static __attribute__((noinline)) void bump(struct cs *c) { c->hits++; }
EOC
for d in a b; do
	printf '#include "count.h"\nstatic __attribute__((noinline)) void touch(struct cs *c) { c->limit++; }\nvoid %s_entry(struct cs *c) { touch(c); bump(c); }\n' $d >"$T/canon/$d/util.c"
done
(cd "$T/canon/a" && $CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/canon/facts" -O2 -I../inc -c util.c -o /dev/null)
(cd "$T/canon/b" && $CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/canon/facts" -O2 -I../sub/../inc -c util.c -o /dev/null)
expect_eq annotate/static-key-one-header-two-spellings "  counted: rmw 0 fn, writes 1 fn, reads 1 fn; not counted: slow-path or initializer writes 0 fn, 0 accesses through owned objects" \
	"$("$CH" annotate "$T/canon/facts" --explain=cs.hits | sed -n 2p)"
expect_eq annotate/static-key-two-util-c "  counted: rmw 0 fn, writes 2 fn, reads 2 fn; not counted: slow-path or initializer writes 0 fn, 0 accesses through owned objects
  touch ($T/canon/a/util.c:2) load 1 store 1 update 1
  touch ($T/canon/b/util.c:2) load 1 store 1 update 1" \
	"$("$CH" annotate "$T/canon/facts" --explain=cs.limit | sed -n '2p;4,$p')"
# names no sidecar line can hold: GCC's nested-function frame 'FRAME.walk',
# a newline in a struct or member name (a damaged facts file) -- left out,
# said once, never a line of their own
$CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/nested.json" -O2 -c "$HERE/nested.c" -o /dev/null
expect_eq annotate/frame-struct-left-out "# left out 1 struct or member whose name is no C identifier ('FRAME.walk') (no sidecar line can name it)" \
	"$("$CH" annotate --min-fields=1 "$T/nested.json" | grep -i frame)"
python3 - "$T/chain.json" "$T/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["structs"]["evil\nx hot"] = d["structs"]["chain_s"]
d["structs"]["chain_s"]["bad\nname"] = d["structs"]["chain_s"]["hits"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$CH" annotate --min-fields=1 --slow=none "$T/evil.json" >"$T/evil.out"; rc=$?
expect_eq annotate/newline-in-names-left-out "0|# left out 2 structs or members whose name is no C identifier (no sidecar line can name them)|0" \
	"$rc|$(grep 'left out' "$T/evil.out")|$(grep -cv '^#\|^$' "$T/evil.out")"

# ---- a state machine (a loop around a big switch, as memcached's event
# handler): the walk from a store's value back to a load of the same field
# branches at every PHI; bounded, it is instant (unbounded: 25 s here, and
# memcached.c never finished)
python3 - "$T/machine.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("struct conn { int state; long n; long total; };\nlong h(long, int);\n")
    f.write("void drive(struct conn *c)\n{\n\tlong v = c->n, w = 1;\n\tint stop = 0;\n\twhile (!stop) {\n\t\tswitch (c->state) {\n")
    for k in range(100):
        f.write(f"\t\tcase {k}: v = h(v, {k}) + w; w = h(w, v); c->state = (int)v; break;\n")
    f.write("\t\tdefault: stop = 1;\n\t\t}\n\t}\n\tc->total = v + c->total;\n}\n")
PY
timeout 20 $CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/machine.json" -c "$T/machine.c" -o /dev/null
expect_eq annotate/state-machine-bounded "0 conn total drive load=1,store=1,update=1" \
	"$? $(python3 "$HERE/flatten.py" "$T/machine.json" 2>/dev/null | grep '^conn total')"
