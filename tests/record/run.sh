#!/bin/bash
# tests/record/run.sh -- the recording build (-fplugin-arg-cachehot-record)
# and libcachehot-rt: exact counts on deterministic programs (one thread;
# two threads run one after the other: false and true sharing, the 128-byte
# prediction), fork, signals, the dump on demand; every access kind at
# -O0..-O3 and -flto; selection; off by default.
. "$(dirname "$0")/../lib.sh"
set -u
export LC_ALL=C
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
HERE=$TOP/tests/record
[ -f "$PLUGIN" ] && [ -f "$RT/libcachehot-rt.so" ] || { fail record-build "plugin or runtime missing"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-gcc}
REC="-fplugin=$PLUGIN -fplugin-arg-cachehot-record"
LINK="-L$RT -lcachehot-rt -Wl,-rpath,$RT -lpthread"
export CACHEHOT_RT_QUIET=1 CACHEHOT_RT_SAMPLE=1
summary() { python3 "$HERE/summary.py" "$1"; }
expect_block() {   # NAME FILE: the "expect:" lines of FILE's comment, sorted
	awk '/expect:/ {on=1; next} on && /\*\// {on=0} on {sub(/^[ \t]*\*[ \t]?/, ""); if ($0 != "") print}' "$2" | sort >"$T/exp"
}

# ---- off by default: no pass, no call ----------------------------------------
$CC -fplugin="$PLUGIN" -O2 -fdump-passes -c "$HERE/kinds.c" -o /dev/null 2>"$T/passes"
expect_eq record/off-by-default "0" "$(grep -c cachehot_record "$T/passes")"
$CC -fplugin="$PLUGIN" -O2 -S "$HERE/kinds.c" -o "$T/plain.s"
expect_eq record/off-no-calls "0" "$(grep -c __cachehot_rt "$T/plain.s")"
$CC $REC -O2 -fdump-passes -c "$HERE/kinds.c" -o /dev/null 2>"$T/passes"
expect_eq record/on-before-optimized "tree-cachehot_record|tree-optimized" \
	"$(grep -A1 'tree-cachehot_record ' "$T/passes" | awk '{print $1}' | tr '\n' '|' | sed 's/|$//')"
out=$($CC $REC=,x -c "$HERE/kinds.c" -o /dev/null 2>&1; echo "rc=$?")
expect_eq record/bad-spec "cc1: error: cachehot: record= takes all, annotated, or a ','-separated list of struct tags|rc=1" \
	"$(echo "$out" | tr '\n' '|' | sed 's/|$//')"

# ---- every access kind, at every optimization level and under -flto -----------
awk '/expect:/ {on=1; next} on && /\*\// {on=0} on && /^ \* [a-z]/ {sub(/^ \* /, ""); print}' "$HERE/kinds.c" \
	| sed 's/^/member /' | sort >"$T/kinds.exp"
for o in -O0 -O1 -O2 -O3 "-O2 -flto"; do
	n=record/kinds${o// /}
	rm -f "$T/k.json"
	if ! $CC $o $REC "$HERE/kinds.c" -o "$T/k" $LINK 2>"$T/err"; then fail "$n" "build: $(head -3 "$T/err")"; continue; fi
	CACHEHOT_RT_OUT="$T/k.json" "$T/k" || { fail "$n" "exit $?"; continue; }
	summary "$T/k.json" | awk '{print $1, $2, $3, $4, $5}' >"$T/k.act"
	expect_file_eq "$n" "$T/kinds.exp" "$T/k.act"
done
# -flto: the instrumentation is in the link step's code (lto1), not in the objects
$CC -O2 -flto $REC -c "$HERE/kinds.c" -o "$T/k.o"
expect_eq record/flto-object-has-no-calls "0" "$(nm "$T/k.o" 2>/dev/null | grep -c __cachehot_rt)"

# ---- selection ---------------------------------------------------------------------
for spec in all named,plain annotated named,annotated; do
	rm -f "$T/s.json"
	$CC -O2 -I"$TOP/include" -fplugin="$PLUGIN" -fplugin-arg-cachehot-record=$spec "$HERE/select.c" -o "$T/s" $LINK 2>/dev/null &&
		CACHEHOT_RT_OUT="$T/s.json" "$T/s"
	got=$(summary "$T/s.json" | awk '{print $2}' | tr '\n' ' ' | sed 's/ $//')
	case $spec in
	all) want="marked.hot named.x plain.a" ;;
	named,plain) want="named.x plain.a" ;;
	annotated) want="marked.hot" ;;
	named,annotated) want="marked.hot named.x" ;;
	esac
	expect_eq "record/select-$spec" "$want" "$got"
done

# ---- the runtime: exact counts on deterministic programs ---------------------------
$CC -O2 $REC "$HERE/cases.c" -o "$T/cases" $LINK 2>"$T/err" || fail record/cases-build "$(head -3 "$T/err")"
runcase() {   # MODE: runs it, the summary in $T/MODE.sum
	rm -f "$T/$1".*.json
	(cd "$T" && CACHEHOT_RT_OUT="$T/$1.%p.json" ./cases "$1" >"$T/$1.out")
	summary "$(ls "$T/$1".*.json | head -1)" >"$T/$1.sum"
}
runcase single
expect_eq record/single-thread "member pair.a 15 10 0 1 1 0|member pair.b 0 1 0 0 1 0" "$(tr '\n' '|' <"$T/single.sum" | sed 's/|$//')"
runcase false
expect_eq record/false-sharing "member pair.a 0 3 0 0 1 0|member pair.b 0 2 0 0 1 0|share128 pair.b pair.a 1 0|share64 pair.b pair.a 1 0" \
	"$(tr '\n' '|' <"$T/false.sum" | sed 's/|$//')"
runcase true
expect_eq record/true-sharing "member pair.a 1 1 1 1 1 1|member pair.b 0 2 0 0 1 0|share128 pair.a pair.a 0 1|share128 pair.b pair.a 2 0|share64 pair.a pair.a 0 1|share64 pair.b pair.a 2 0" \
	"$(tr '\n' '|' <"$T/true.sum" | sed 's/|$//')"
runcase predict
expect_eq record/predict-128 "member wide.a 0 1 0 0 1 0|member wide.b 0 1 0 0 1 0|share128 wide.b wide.a 1 0" \
	"$(tr '\n' '|' <"$T/predict.sum" | sed 's/|$//')"
# the line itself: which bytes each member covers, which threads touched it
expect_eq record/line-bytes '[{"member": "pair.a", "from": 0, "to": 8}, {"member": "pair.b", "from": 8, "to": 16}]|2|1' \
	"$(python3 -c '
import json,sys
l=json.load(open(sys.argv[1]))["line64"]["lines"][0]
base=min(m["from"] for m in l["members"])
print(json.dumps([dict(member=m["member"],frm=m["from"]-base,to=m["to"]-base) for m in l["members"]]).replace("frm","from") + "|%d|%d" % (l["writer_threads"], l["transfers"]))' "$(ls "$T"/false.*.json)")"

# fork: one profile per process; the child counts from the fork on
rm -f "$T"/fork.*.json
(cd "$T" && CACHEHOT_RT_OUT="$T/fork.%p.json" ./cases fork >"$T/fork.out")
read -r ppid cpid <"$T/fork.out"
expect_eq record/fork-parent "member pair.a 0 3 0 0 1 0" "$(summary "$T/fork.$ppid.json" 2>&1)"
expect_eq record/fork-child "member pair.a 0 0 0 0 0 0|member pair.b 0 3 0 0 1 0" \
	"$(summary "$T/fork.$cpid.json" 2>&1 | tr '\n' '|' | sed 's/|$//')"
expect_eq record/no-temporary "" "$(ls "$T" | grep '\.tmp\.' || true)"

# signals: a handler run by raise() is recorded exactly; a timer's handler
# that interrupts the runtime never deadlocks, and is recorded or dropped
runcase signal
expect_eq record/signal-handler "member sig.x 4 4 0 1 1 0" "$(cat "$T/signal.sum")"
rm -f "$T"/stress.*.json
(cd "$T" && CACHEHOT_RT_OUT="$T/stress.%p.json" timeout 60 ./cases stress >"$T/stress.out")
expect_eq record/signal-stress-exit "0" "$?"
f=$(ls "$T"/stress.*.json | head -1)
expect_eq record/signal-stress-accounted "2000000 ok" "$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); h=int(open(sys.argv[2]).read())
m={x["member"]:x for x in d["members"] if x["struct"]=="sig"}
x=m.get("x",{"reads":0,"writes":0})
print(m["y"]["writes"], "ok" if x["reads"]+x["writes"]+d["dropped_in_signal"]==2*h else "bad: %r %d" % (x, d["dropped_in_signal"]))' "$f" "$T/stress.out")"
# the dump on demand (CACHEHOT_RT_SIGNAL): written at the next access
rm -f "$T/dump.json" "$T/dump.json.snap"
(cd "$T" && CACHEHOT_RT_SIGNAL=USR2 CACHEHOT_RT_OUT="$T/dump.json" ./cases dump)
expect_eq record/dump-on-signal "member pair.a 0 6 0 0 1 0|member pair.a 0 10 0 0 1 0" \
	"$(summary "$T/dump.json.snap")|$(summary "$T/dump.json")"
# sampling: 1 in 16 on average, loads and stores alike (a fixed gap would
# see only one of a loop's load and store); the same run samples the same
rm -f "$T"/loop.*.json
(cd "$T" && CACHEHOT_RT_SAMPLE=16 CACHEHOT_RT_OUT="$T/loop.%p.json" ./cases loop)
expect_eq record/sampling "16 ok ok" "$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); m=d["members"][0]
near=lambda n: "ok" if abs(n-62500) < 62500*0.03 else "off: %d" % n
print(d["sample"], near(m["reads"]), near(m["writes"]))' "$T"/loop.*.json)"
