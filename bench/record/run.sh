#!/bin/bash
# bench/record/run.sh [-n RUNS] [PROGRAM...] -- the recording build on the
# classic false-sharing shapes (docs/record.md, "Proof"): for each program
#   1. build it plain and as a recording build; the recording overhead:
#      CPU time (user + system, both threads) of the recording build at
#      the default sampling, at 1 in 16 and recording every access, against
#      the plain build, runs interleaved, median of RUNS each (CPU time,
#      not wall time: the machine is shared);
#   2. record it, and print what `cachehot check --profile` says (confirmed
#      findings, with the fix);
#   3. apply cachehot's own fix: the fix-it patch GCC writes for the finding
#      (-fdiagnostics-generate-patch) with the sidecar the profile gives; for
#      an array of per-thread structs (no fix-it: the message says "declare
#      the first member of 'struct S' _Alignas(64)"), that declaration;
#   4. record the fixed program and check it with the same sidecar: nothing
#      may be confirmed;
#   5. run before and after in turn, RUNS times each, and print the
#      throughput (operations per second) min/median/max and the speedup
#      (ratio of the medians).
# Step 1 also measures the floor of recording every access (CPU time
#      against the plain build, min and median of RUNS, runs interleaved;
#      printed whether or not step 2 confirms anything): the recording build
#      linked with bench/record/floor.c instead of the runtime, (a) whose
#      entry points return at once (the instrumentation and one call per
#      access), (b) which appends each address to a thread-local buffer; and
#      (c) the peer tool that models every access, GCC's -fsanitize=thread
#      (x86-64; a step that cannot build prints "-").
# PIN=CPU runs step 1's measured commands (overhead and floors) under
# `taskset -c CPU`: both threads on one CPU take turns, as valgrind runs
# them, so that each ratio is of one schedule (ring's plain build costs
# 13 ms of CPU when its threads take turns and 130-225 ms when they run at
# once and spin on each other, from run to run on a loaded machine;
# docs/record.md, "Recording overhead"); steps 2-5 need the threads at once
# and are never pinned.
# PROGRAM: accumulators ring stats (default: all). Prints a markdown table
# at the end, and one of the floors. KEEP=1 keeps the work directory;
# TRIES=N records a program up to N times (default 5) until a finding is
# confirmed (a recording in which the threads took turns confirms nothing).
# Never part of make check (timings on a shared machine).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$TOP/bench/record
CH=$TOP/bin/cachehot
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
RUNS=5
if [ "${1:-}" = "-n" ]; then RUNS=$2; shift 2; fi
PROGS=("$@")
[ ${#PROGS[@]} -gt 0 ] || PROGS=(accumulators ring stats)
[ -x "$CH" ] && [ -f "$PLUGIN" ] && [ -f "$RT/libcachehot-rt.so" ] || { echo "record bench: run make first" >&2; exit 2; }
W=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
CC=${CC:-gcc}
REC="-fplugin=$PLUGIN -fplugin-arg-cachehot-record"
LINK="-lpthread -L$RT -lcachehot-rt -Wl,-rpath,$RT"
export CACHEHOT_RT_QUIET=1
# Transfers happen only while the threads run at once: on a machine busier
# than its cores the two threads take turns and the false sharing is not
# seen (docs/record.md, "Sampling and what a count means"). Said, not hidden.
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null); cores=$(nproc 2>/dev/null || echo 1)
start_load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
if [ -n "$load" ] && awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l > c) }'; then
	echo "record bench: the machine is busy (load $load on $cores cores): the threads may rarely run at once, so" \
	     "false sharing may go unseen and the speedups are noise" >&2
fi
# work per run (REPS argument of each program): a few tenths of a second plain
declare -A REPS=([accumulators]=400 [ring]=200 [stats]=400)

# "ops secs" of N runs of CMD... -> the throughputs, one a line
runs() {
	local n=$1; shift
	for _ in $(seq "$n"); do "$@" | awk '{ printf "%.0f\n", $1 / $2 }'; done
}
# min/median/max of numbers on stdin
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3g/%.3g/%.3g\n", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
PINCMD=()
[ -z "${PIN:-}" ] || PINCMD=(taskset -c "$PIN")
cpu() {   # CPU seconds (user + system, every thread) of one run of CMD (pinned: PIN)
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.4f" % (r.ru_utime + r.ru_stime))' "${PINCMD[@]}" "$@"
}

# the floor (step 1): min/median ratios against the plain build's min/median
floor() {   # PROGRAM REPS: prints "rec/empty/append/tsan" as xMIN/xMEDIAN each
	local p=$1 reps=$2 v out=""
	$CC -O2 -DFLOOR_EMPTY -c "$HERE/floor.c" -o "$W/floor-empty.o" 2>/dev/null &&
		$CC -O2 $REC "$HERE/$p.c" "$W/floor-empty.o" -o "$W/$p.empty" -lpthread 2>/dev/null || rm -f "$W/$p.empty"
	$CC -O2 -DFLOOR_APPEND -c "$HERE/floor.c" -o "$W/floor-append.o" 2>/dev/null &&
		$CC -O2 $REC "$HERE/$p.c" "$W/floor-append.o" -o "$W/$p.append" -lpthread 2>/dev/null || rm -f "$W/$p.append"
	$CC -O2 -fsanitize=thread "$HERE/$p.c" -o "$W/$p.tsan" -lpthread 2>/dev/null || rm -f "$W/$p.tsan"
	for v in plain rec empty append tsan; do : >"$W/f.$v"; done
	for _ in $(seq "$RUNS"); do
		cpu "$W/$p.before" "$reps" >>"$W/f.plain"
		CACHEHOT_RT_SAMPLE=1 CACHEHOT_RT_OUT="$W/o.json" cpu "$W/$p.rec" "$reps" >>"$W/f.rec"
		for v in empty append; do [ -x "$W/$p.$v" ] && cpu "$W/$p.$v" "$reps" >>"$W/f.$v"; done
		[ -x "$W/$p.tsan" ] && TSAN_OPTIONS=report_bugs=0 cpu "$W/$p.tsan" "$reps" >>"$W/f.tsan"
	done
	local pmin pmed
	pmin=$(sort -n "$W/f.plain" | head -1); pmed=$(median <"$W/f.plain")
	for v in rec empty append tsan; do
		if [ -s "$W/f.$v" ]; then
			out="$out$(printf 'x%.1f/x%.1f' "$(echo "$(sort -n "$W/f.$v" | head -1) / $pmin" | bc -l)" \
				"$(echo "$(median <"$W/f.$v") / $pmed" | bc -l)") | "
		else
			out="$out- | "
		fi
	done
	echo "${out% | }"
}

bad=""
ftable="| program | plain CPU s min/med | recording, every access | (a) empty call per access | (b) append to a thread-local buffer | (c) -fsanitize=thread |
|---|---|---|---|---|---|"
table="| program | finding (cachehot check --profile) | fix | before ops/s min/med/max | after ops/s min/med/max | speedup | fixed: confirmed | CPU overhead default / 1 in 16 / every access |
|---|---|---|---|---|---|---|---|"
for p in "${PROGS[@]}"; do
	src=$HERE/$p.c
	reps=${REPS[$p]:-200}
	[ -f "$src" ] || { echo "record bench: no $src" >&2; exit 2; }
	echo "== $p"
	$CC -O2 "$src" -o "$W/$p.before" -lpthread || exit 1
	$CC -O2 $REC "$src" -o "$W/$p.rec" $LINK || exit 1
	# 1. overhead: CPU time against the plain build, runs interleaved
	: >"$W/tp"; : >"$W/td"; : >"$W/t16"; : >"$W/ta"
	for _ in $(seq "$RUNS"); do
		cpu "$W/$p.before" "$reps" >>"$W/tp"
		CACHEHOT_RT_OUT="$W/o.json" cpu "$W/$p.rec" "$reps" >>"$W/td"
		CACHEHOT_RT_SAMPLE=16 CACHEHOT_RT_OUT="$W/o.json" cpu "$W/$p.rec" "$reps" >>"$W/t16"
		CACHEHOT_RT_SAMPLE=1 CACHEHOT_RT_OUT="$W/o.json" cpu "$W/$p.rec" "$reps" >>"$W/ta"
	done
	tp=$(median <"$W/tp"); td=$(median <"$W/td"); t16=$(median <"$W/t16"); ta=$(median <"$W/ta")
	ov=$(printf 'x%.2f / x%.1f / x%.1f' "$(echo "$td / $tp" | bc -l)" "$(echo "$t16 / $tp" | bc -l)" "$(echo "$ta / $tp" | bc -l)")
	echo "  CPU overhead (median of $RUNS, plain $tp s${PIN:+, pinned to CPU $PIN}): default sampling / 1 in 16 / every access: $ov"
	fl=$(floor "$p" "$reps")
	echo "  every access, CPU xmin/xmedian against plain (min/median of $RUNS): recording / (a) empty call / (b) append / (c) tsan: $fl"
	ftable="$ftable
| $p | $(sort -n "$W/f.plain" | head -1)/$(median <"$W/f.plain") | $fl |"
	# 2. record and check, at 1 in 16 (SAMPLE=N): a run of these programs
	# lasts 0.04-0.5 s, and at the runtime's default (1 in 1024) it samples
	# a few hundred accesses per struct, below what min-samples judges
	# (docs/record.md, "Sampling and what a count means")
	# A recording in which the two threads took turns instead of running
	# at once shows no transfer at all (bimodal on a loaded machine: 4.5,
	# 0.02, 10.3 per mille false sharing in three recordings of
	# accumulators at load 10): up to TRIES (5) recordings, each said
	for try in $(seq "${TRIES:-5}"); do
		CACHEHOT_RT_SAMPLE=${SAMPLE:-16} CACHEHOT_RT_OUT="$W/$p.json" "$W/$p.rec" "$reps" >/dev/null
		(cd "$HERE" && "$CH" check --profile "$W/$p.json" "$p.c") >"$W/$p.check" 2>&1
		grep -q '(confirmed: ' "$W/$p.check" && break
		echo "  recording $try: nothing confirmed (the threads may not have run at once; load $(cut -d' ' -f1 /proc/loadavg))"
	done
	grep '(confirmed: ' "$W/$p.check" | head -3 | sed 's/^/  /'
	first=$(grep -m1 '(confirmed: ' "$W/$p.check")
	[ -n "$first" ] || { echo "  no confirmed finding"; table="$table
| $p | none confirmed | - | - | - | - | - | $ov |"; bad="$bad $p(none-confirmed)"; continue; }
	# 3. apply cachehot's fix
	"$CH" annotate --profile "$W/$p.json" -o "$W/$p.side"
	cp "$src" "$W/$p.c"
	cp "$HERE/harness.h" "$W/"
	(cd "$W" && $CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations="$W/$p.side" -c "$p.c" -o /dev/null \
		-fdiagnostics-generate-patch 2>&1 | sed -n '/^--- /,$p' >"$W/$p.patch")
	if [ -s "$W/$p.patch" ]; then
		(cd "$W" && patch -s -p0 <"$W/$p.patch") || { echo "  the fix-it patch does not apply"; exit 1; }
		fix=$(grep -o "one fix for all of '[^']*': [^;]*" <<<"$first" | head -1)
	else
		st=$(grep -o "declare the first member of 'struct [a-z_0-9]*' _Alignas([0-9]*)" <<<"$first" | head -1)
		[ -n "$st" ] || { echo "  no fix to apply: $first"; exit 1; }
		tag=$(sed -E "s/.*'struct ([a-z_0-9]+)'.*/\1/" <<<"$st"); al=$(grep -o '_Alignas([0-9]*)' <<<"$st")
		python3 - "$W/$p.c" "$tag" "$al" <<'EOF' || exit 1
import re, sys
path, tag, al = sys.argv[1:]
s = open(path).read()
m = re.search(r"struct\s+%s\s*\{\s*\n(\s*)" % re.escape(tag), s)
if not m:
    sys.exit("no struct %s in %s" % (tag, path))
s = s[:m.end()] + al + " " + s[m.end():]
open(path, "w").write(s)
EOF
		fix=$st
	fi
	echo "  fix: $fix"
	diff -u "$src" "$W/$p.c" | grep '^[-+][^-+]' | sed 's/^/    /'
	$CC -O2 "$W/$p.c" -o "$W/$p.after" -lpthread || exit 1
	# 4. the fixed program, recorded and checked with the same sidecar
	$CC -O2 $REC "$W/$p.c" -o "$W/$p.fixrec" $LINK || exit 1
	CACHEHOT_RT_SAMPLE=${SAMPLE:-16} CACHEHOT_RT_OUT="$W/$p.fixed.json" "$W/$p.fixrec" "$reps" >/dev/null
	left=$( (cd "$W" && "$CH" check --annotations="$W/$p.side" --profile "$W/$p.fixed.json" "$p.c") 2>&1 | grep -c '(confirmed: ')
	echo "  after the fix: $left confirmed findings"
	[ "$left" = 0 ] || bad="$bad $p(fixed-still-confirmed)"
	# 5. throughput, before and after in turn
	: >"$W/b"; : >"$W/a"
	for _ in $(seq "$RUNS"); do
		runs 1 "$W/$p.before" "$reps" >>"$W/b"
		runs 1 "$W/$p.after" "$reps" >>"$W/a"
	done
	bs=$(stats <"$W/b"); as=$(stats <"$W/a")
	sp=$(echo "$(median <"$W/a") / $(median <"$W/b")" | bc -l)
	printf '  throughput before %s, after %s ops/s (min/median/max of %d): speedup x%.2f\n' "$bs" "$as" "$RUNS" "$sp"
	short=$(sed -E 's/^[^:]*:[0-9]+:[0-9]+: warning: //; s/; one fix for all.*\(confirmed/ (confirmed/; s/; declare the first.*\(confirmed/ (confirmed/' <<<"$first" | cut -c1-160)
	table="$table
| $p | $short | \`$fix\` | $bs | $as | x$(printf '%.2f' "$sp") | $left | $ov |"
done
echo
echo "record bench: load at the end $(cut -d' ' -f1-3 /proc/loadavg) (at the start $start_load) on $cores cores"
echo "$table"
echo
echo "$ftable"
# a benchmark with planted false sharing whose finding is not confirmed, or
# is still confirmed after cachehot's fix, is a failure, not a table row
[ -z "$bad" ] || { echo "record bench: failed:$bad" >&2; exit 1; }
