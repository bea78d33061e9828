#!/bin/bash
# tests/evidence/run.sh -- one evidence model: `cachehot annotate` with the
# code's access facts and a recorded run together (--profile,
# core/infer-profile.c; docs/annotate.md "With a recorded run"), and the
# min-share rule of `annotate --profile` (core/profile.c). server.c is a
# miniature server whose threads take turns, so its run is the same on any
# machine: a struct whose limits' line is lost to every count (srv), a
# counter read with its period tick as one unit (rate), requests each
# handled by one thread (req), and an admin path the run never takes (admin).
# handoff.c: jobs handed between threads whole, nothing atomic or locked.
. "$(dirname "$0")/../lib.sh"
set -u
export LC_ALL=C CI=true
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
CH=$TOP/bin/cachehot
HERE=$TOP/tests/evidence
[ -f "$PLUGIN" ] && [ -f "$RT/libcachehot-rt.so" ] && [ -x "$CH" ] || { fail evidence-build "plugin, runtime or bin/cachehot missing"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-gcc}
lines() { grep -v '^#' "$1" | grep . | sed 's/\t.*//'; }        # the sidecar's lines, classes only
header() { grep "^# struct $2: " "$1" | sed "s/^# struct $2: //; s/:.*//"; }

# the code's facts and a recorded run of the same program
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/facts.json" -c "$HERE/server.c" -o "$T/server.o" ||
	{ fail evidence/facts "access mode failed"; exit 0; }
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-record "$HERE/server.c" -o "$T/server" \
	-L"$RT" -lcachehot-rt -Wl,-rpath,"$RT" -lpthread || { fail evidence/record-build "recording build failed"; exit 0; }
CACHEHOT_RT_SAMPLE=1 CACHEHOT_RT_QUIET=1 CACHEHOT_RT_OUT="$T/run.json" "$T/server" 20000
expect_eq evidence/run "0 1" "$? $(ls "$T"/run.json | wc -l)"

# ---- the code alone: what static inference says (the admin path counts) ---------
"$CH" annotate "$T/facts.json" -o "$T/static.sidecar"
expect_eq evidence/static-lines "admin.level read_mostly|admin.changes hot:changes|admin.mode hot:changes|srv.maxconn read_mostly|srv.timeout read_mostly|srv.served hot" \
	"$(lines "$T/static.sidecar" | tr '\n' '|' | sed 's/|$//')"

# ---- code and run together ---------------------------------------------------------
"$CH" annotate "$T/facts.json" --profile="$T/run.json" -o "$T/both.sidecar"; rc=$?
expect_eq evidence/both-exit 0 "$rc"
expect_eq evidence/both-lines "req owned|srv.maxconn read_mostly|srv.timeout read_mostly|srv.served hot|srv.bytes hot" \
	"$(lines "$T/both.sidecar" | tr '\n' '|' | sed 's/|$//')"
# admin: the run never touched it; req: no object moved between threads
expect_eq evidence/not-exercised "not exercised by the recorded run (no access to it in" "$(header "$T/both.sidecar" admin | sed 's/ [0-9.]* s)$//')"
expect_eq evidence/owned-at-run-time "owned at run time" "$(header "$T/both.sidecar" req)"
expect_eq evidence/owned-zero-transfers 1 "$(grep -c '^# struct req: owned at run time: 0 transfers between threads inside its objects in 563120 accesses (fewer than 10 per mille)' "$T/both.sidecar")"
expect_eq evidence/commented-out "3 3" "$(grep -c '^#admin\.' "$T/both.sidecar") $(grep -c '^#req\.' "$T/both.sidecar")"
# srv: the acceptor's reads of the limits are lost to every count
expect_eq evidence/srv-shared 1 "$(grep -c '^# struct srv: shared at run time: 79999 transfers between threads inside its objects (40000 false sharing) in 281561 accesses' "$T/both.sidecar")"
expect_eq evidence/run-counts 1 "$(grep -c '^srv.maxconn read_mostly.*; run: reads 60000 by 1 threads, writes 0 by 0, rmws 0 by 0; confidence high$' "$T/both.sidecar")"
# rate: the tick is read with the counter as one unit, no false sharing to remove
expect_eq evidence/read-as-one-unit "# rate.tick read_mostly by its counts, but its reads were not disturbed in the run (at most 1 false-sharing transfers, with hot 'ctr'; it was read 120780 times): no line" \
	"$(grep '^# rate.tick ' "$T/both.sidecar")"
expect_eq evidence/one-line-left 1 "$(grep -c "^# struct rate: shared at run time: .*; the run leaves 1 line, 1 hot (a struct needs 2, one hot): no line$" "$T/both.sidecar")"
# the option order does not matter (--profile first goes to the same place with --build);
# the sidecar is the same run after run
"$CH" annotate --profile="$T/run.json" "$T/facts.json" >"$T/again.sidecar" 2>&1
expect_eq evidence/profile-first-is-profile-only 2 "$?"
"$CH" annotate "$T/facts.json" --profile="$T/run.json" >"$T/again.sidecar"
expect_eq evidence/deterministic "" "$(diff "$T/both.sidecar" "$T/again.sidecar")"
# --explain says what the run saw
"$CH" annotate "$T/facts.json" --profile="$T/run.json" --explain=rate.tick >"$T/explain"
expect_eq evidence/explain "  run: reads 120780 by 2 threads, writes 1 by 1, rmws 39 by 1: read_mostly by its counts, but its reads not disturbed by a hot field: no suggestion" \
	"$(grep '^  run: reads' "$T/explain")"

# ---- check with what was inferred: one warning, srv, the one the run measured -------
"$CH" check --annotations="$T/static.sidecar" "$HERE/server.c" >"$T/static.out" 2>&1
"$CH" check --annotations="$T/both.sidecar" "$HERE/server.c" >"$T/both.out" 2>&1
expect_eq evidence/check-static-warnings "tests/evidence/server.c:20:14: warning: hot field 'served' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct srv' with read-mostly field 'maxconn' (offset 0, size 4)|tests/evidence/server.c:40:14: warning: hot field (group 'changes') 'changes' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct admin' with read-mostly field 'level' (offset 0, size 4)" \
	"$(grep ': warning: ' "$T/static.out" | sed "s|$TOP/||; s/;.*//" | tr '\n' '|' | sed 's/|$//')"
expect_eq evidence/check-both-warnings "tests/evidence/server.c:20:14: warning: hot field 'served' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct srv' with read-mostly field 'maxconn' (offset 0, size 4)" \
	"$(grep ': warning: ' "$T/both.out" | sed "s|$TOP/||; s/;.*//" | tr '\n' '|' | sed 's/|$//')"

# ---- objects handed over whole: the run's transfers are no sharing evidence -----------
# handoff.c: two threads take turns on a ring of jobs, each job used by one
# thread at a time, nothing written atomically or under a lock (Apache's
# event MPM: a connection from the listener to a worker, pools reused)
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/hfacts.json" -c "$HERE/handoff.c" -o "$T/handoff.o" &&
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-record "$HERE/handoff.c" -o "$T/handoff" \
	-L"$RT" -lcachehot-rt -Wl,-rpath,"$RT" -lpthread || { fail evidence/handoff-build "handoff.c did not build"; exit 0; }
CACHEHOT_RT_SAMPLE=1 CACHEHOT_RT_QUIET=1 CACHEHOT_RT_OUT="$T/hrun.json" "$T/handoff" 4000
expect_eq evidence/handoff-run "0" "$?"
"$CH" annotate "$T/hfacts.json" --profile="$T/hrun.json" -o "$T/handoff.sidecar"
# every handover is seen: 11988 of the 11996 transfers are false sharing
expect_eq evidence/handoff-header "shared at run time: 11996 transfers between threads inside its objects (11988 false sharing) in 24033 accesses; classes from the run's counts; but no field is written atomically or under a lock, in the code or in the run: threads take turns on its objects (handed over whole through a queue, memory reused after free, or a lock the code reaches elsewhere) and the run counts each turn as transfers: low confidence, lines commented out" \
	"$(grep '^# struct job: ' "$T/handoff.sidecar" | sed 's/^# struct job: //')"
expect_eq evidence/handoff-lines-commented-out "#job.limit read_mostly|#job.stage hot|#job.done hot" \
	"$(grep '^#job\.' "$T/handoff.sidecar" | sed 's/\t.*//' | tr '\n' '|' | sed 's/|$//')"
expect_eq evidence/handoff-no-line "" "$(lines "$T/handoff.sidecar")"
"$CH" check --annotations="$T/handoff.sidecar" "$HERE/handoff.c" >"$T/handoff.out" 2>&1
expect_eq evidence/handoff-check-silent 0 "$(grep -c ': warning: ' "$T/handoff.out")"
"$CH" annotate "$T/hfacts.json" --profile="$T/hrun.json" --explain=job.stage >"$T/hexplain"
expect_eq evidence/handoff-explain "  run: reads 0 by 0 threads, writes 4008 by 3, rmws 0 by 0: hot" "$(grep '^  run: reads' "$T/hexplain")"
expect_eq evidence/handoff-explain-why 1 "$(grep -c '^  run: struct job shared at run time: .*: low confidence$' "$T/hexplain")"
# the same struct with an atomic add in the run is shared: its lines stay
sed 's/j->stage = k;/__atomic_fetch_add(\&j->stage, k, __ATOMIC_RELAXED);/' "$HERE/handoff.c" >"$T/handoff-atomic.c"
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-access="$T/hafacts.json" -c "$T/handoff-atomic.c" -o "$T/handoff-atomic.o" &&
$CC -O2 -fplugin="$PLUGIN" -fplugin-arg-cachehot-record "$T/handoff-atomic.c" -o "$T/handoff-atomic" \
	-L"$RT" -lcachehot-rt -Wl,-rpath,"$RT" -lpthread || { fail evidence/handoff-atomic-build "did not build"; exit 0; }
CACHEHOT_RT_SAMPLE=1 CACHEHOT_RT_QUIET=1 CACHEHOT_RT_OUT="$T/harun.json" "$T/handoff-atomic" 4000
"$CH" annotate "$T/hafacts.json" --profile="$T/harun.json" -o "$T/handoff-atomic.sidecar"
expect_eq evidence/handoff-atomic-shared "job.limit read_mostly|job.stage hot|job.done hot" \
	"$(lines "$T/handoff-atomic.sidecar" | tr '\n' '|' | sed 's/|$//')"

# ---- bad input: a clear error -----------------------------------------------------------
echo '{"x":1}' >"$T/bad.json"
out=$("$CH" annotate "$T/facts.json" --profile="$T/bad.json" 2>&1 >/dev/null; echo "rc=$?")
expect_eq evidence/bad-profile "cachehot: annotate: $T/bad.json: not a cachehot profile (no \"cachehot_profile\": 1, \"members\", \"line64\", \"line128\"; written by libcachehot-rt)|rc=2" \
	"$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
out=$("$CH" annotate "$T/facts.json" --profile="$T/run.json" --min-share=1001 2>&1 >/dev/null; echo "rc=$?")
expect_eq evidence/bad-min-share "rc=2" "$(echo "$out" | tail -1)"

# ---- annotate --profile alone: false sharing too rare to pay is no line (min-share) ------
python3 - "$T/rare.json" <<'PY'
import json, sys
line = lambda ls, fs: {"line_size": ls, "lines_dropped": 0, "lines": [],
                   "sharing": [{"a": "hub.hits", "b": "hub.limit", "objects": "one", "false_sharing": fs, "true_sharing": 0}]}
m = lambda f, off, r, w, rm: {"struct": "hub", "member": f, "offset": off, "size": 8, "struct_size": 16,
                              "reads": r, "writes": w, "rmws": rm, "reader_threads": 2, "writer_threads": 2 if w else 0, "rmw_threads": 2 if rm else 0}
json.dump({"cachehot_profile": 1, "program": "hub", "pid": 1, "seconds": 1.0, "sample": 1, "threads": 2,
           "dropped_in_signal": 0, "members": [m("limit", 0, 990000, 0, 0), m("hits", 8, 0, 0, 10000)],
           "line64": line(64, 500), "line128": line(128, 500)}, open(sys.argv[1], "w"))
PY
"$CH" annotate --profile "$T/rare.json" >"$T/rare.sidecar"
expect_eq evidence/min-share-too-rare "# struct hub: 500 false-sharing transfers between its fields, 0 between objects of it, in 1000000 accesses: fewer than 10 per mille, too few to pay for a layout change (min-share)" \
	"$(grep '^# struct hub' "$T/rare.sidecar")"
expect_eq evidence/min-share-no-line "" "$(lines "$T/rare.sidecar")"
"$CH" annotate --profile "$T/rare.json" --min-share=0 >"$T/rare0.sidecar"
expect_eq evidence/min-share-0 "hub.hits hot|hub.limit read_mostly" "$(lines "$T/rare0.sidecar" | tr '\n' '|' | sed 's/|$//')"

# ---- sampled runs: an estimate from a handful of sampled transfers is no evidence -------
# At 1 in 1024 (the runtime's default) one sampled transfer is an estimate of
# 1024: 3 sampled transfers in 100 sampled accesses pass min-transfers and
# min-share (3072 in 102400: 30 per mille) but not min-samples (10).
python3 - "$T/few.json" "$T/req.json" <<'PY'
import json, sys
line = lambda ls, fs: {"line_size": ls, "lines_dropped": 0, "lines": [],
                   "sharing": [{"a": "hub.hits", "b": "hub.limit", "objects": "one", "false_sharing": fs, "true_sharing": 0}] if fs else []}
def m(s, f, off, r, w, rm, ss=16, th=2):
    return {"struct": s, "member": f, "offset": off, "size": 8, "struct_size": ss, "reads": r, "writes": w, "rmws": rm,
            "reader_threads": th if r else 0, "writer_threads": th if w else 0, "rmw_threads": th if rm else 0}
prof = lambda ms, fs: {"cachehot_profile": 1, "program": "p", "pid": 1, "seconds": 1.0, "sample": 1024, "threads": 2,
                       "dropped_in_signal": 0, "members": ms, "line64": line(64, fs), "line128": line(128, fs)}
json.dump(prof([m("hub", "limit", 0, 90, 0, 0), m("hub", "hits", 8, 0, 0, 10)], 3), open(sys.argv[1], "w"))
# req, a struct of server.c that the run sampled 60 times, with no transfer seen
json.dump(prof([m("req", "flags", 0, 20, 10, 0, 24, 1), m("req", "sent", 8, 20, 10, 0, 24, 1)], 0), open(sys.argv[2], "w"))
PY
"$CH" annotate --profile "$T/few.json" >"$T/few.sidecar"
expect_eq evidence/min-samples-too-few "# struct hub: 3072 false-sharing transfers between its fields, 0 between objects of it, estimated from 3 and 0 sampled: fewer than 10 sampled, too few to judge (min-samples; record longer or with a lower CACHEHOT_RT_SAMPLE)" \
	"$(grep '^# struct hub' "$T/few.sidecar")"
expect_eq evidence/min-samples-no-line "" "$(lines "$T/few.sidecar")"
"$CH" annotate --profile "$T/few.json" --min-samples=3 >"$T/few3.sidecar"
expect_eq evidence/min-samples-3 "hub.hits hot|hub.limit read_mostly" "$(lines "$T/few3.sidecar" | tr '\n' '|' | sed 's/|$//')"
# with the code's facts: 60 sampled accesses cannot show 10 per mille in 10
# sampled transfers (that needs 1000): not judged, not "owned"
"$CH" annotate "$T/facts.json" --profile "$T/req.json" >"$T/req.sidecar"
expect_eq evidence/min-samples-not-judged "# struct req: too few samples to judge: the run sampled 60 of its accesses (estimated 61440); seeing 10 per mille of them in at least 10 sampled transfers needs 1000; lines commented out (record longer, or with a lower CACHEHOT_RT_SAMPLE)" \
	"$(grep '^# struct req: ' "$T/req.sidecar")"
expect_eq evidence/min-samples-no-owned 0 "$(grep -c '^req owned' "$T/req.sidecar")"
"$CH" annotate "$T/facts.json" --profile "$T/req.json" --min-samples=0 >"$T/req0.sidecar"
expect_eq evidence/min-samples-0-owned 1 "$(grep -c '^req owned' "$T/req0.sidecar")"
out=$("$CH" annotate --profile "$T/few.json" --min-samples=x 2>&1 >/dev/null; echo "rc=$?")
expect_eq evidence/bad-min-samples "cachehot: annotate: thresholds are whole numbers, not 'x'|rc=2" "$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
