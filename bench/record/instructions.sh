#!/bin/bash
# bench/record/instructions.sh [PROGRAM...] -- the recording overhead of
# bench/record's programs in instructions (valgrind, exact and repeatable,
# unlike CPU time on a shared machine; docs/record.md, "Recording
# overhead"): each program built plain and as a recording build, run under
# callgrind at a few repetitions, the recording build at the default
# sampling (1 in 1024), at 1 in 16 and recording every access, and the
# floors of recording every access (bench/record/floor.c: (a) entry points
# that return at once, (b) an append of the address to a thread-local
# buffer); each as a ratio to the plain build's instructions.
# Counted: the work the program does per repetition, without its start and
# exit (the runtime's setup and profile): the difference between a run of
# 2R and one of R repetitions; and only the threads whose work is fixed
# (accumulators: both workers; stats: the checking thread, bench_run and
# what it calls: the charging thread spins as long as the checker runs;
# ring: both threads, whose spinning on a full or empty ring varies from
# run to run). Valgrind runs the threads one at a time: they take long
# turns, so the model's slow case (another thread touched the line) is
# rarer than on a machine that runs both at once; run.sh measures that case
# in CPU time.
# PROGRAM: accumulators ring stats (default: all). Never part of make check.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$TOP/bench/record
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
PROGS=("$@")
[ ${#PROGS[@]} -gt 0 ] || PROGS=(accumulators ring stats)
[ -f "$PLUGIN" ] && [ -f "$RT/libcachehot-rt.so" ] || { echo "record instructions: run make first" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "record instructions: no valgrind" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CC=${CC:-gcc}
REC="-fplugin=$PLUGIN -fplugin-arg-cachehot-record"
export CACHEHOT_RT_QUIET=1 CACHEHOT_RT_OUT=$W/o.json
declare -A REPS=([accumulators]=8 [ring]=4 [stats]=10)
declare -A ONLY=([accumulators]=worker [stats]=bench_run)
ins1() {   # PROG REPS CMD: instructions of one run
	local p=$1 r=$2; shift 2
	valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" \
		${ONLY[$p]:+--toggle-collect=${ONLY[$p]}} "$@" "$r" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
ins() {   # PROG REPS CMD: instructions of REPS repetitions (2R run less R run)
	echo $(( $(ins1 "$1" $(( $2 * 2 )) "$3") - $(ins1 "$1" "$2" "$3") ))
}
$CC -O2 -DFLOOR_EMPTY -c "$HERE/floor.c" -o "$W/floor-empty.o" || exit 1
$CC -O2 -DFLOOR_APPEND -c "$HERE/floor.c" -o "$W/floor-append.o" || exit 1
echo "| program (reps) | plain instructions | default (1 in 1024) | 1 in 16 | every access | (a) empty call per access | (b) append to a thread-local buffer |"
echo "|---|---|---|---|---|---|---|"
for p in "${PROGS[@]}"; do
	src=$HERE/$p.c r=${REPS[$p]:-4}
	$CC -O2 "$src" -o "$W/$p.plain" -lpthread || exit 1
	$CC -O2 $REC "$src" -o "$W/$p.rec" -lpthread -L"$RT" -lcachehot-rt -Wl,-rpath,"$RT" || exit 1
	$CC -O2 $REC "$src" "$W/floor-empty.o" -o "$W/$p.empty" -lpthread || exit 1
	$CC -O2 $REC "$src" "$W/floor-append.o" -o "$W/$p.append" -lpthread || exit 1
	base=$(ins "$p" "$r" "$W/$p.plain")
	row="| $p ($r) | $base |"
	for v in "rec 1024" "rec 16" "rec 1" "empty 1" "append 1"; do
		set -- $v
		n=$(CACHEHOT_RT_SAMPLE=$2 ins "$p" "$r" "$W/$p.$1")
		row="$row x$(echo "scale=3; $n / $base" | bc | sed 's/^\./0./') |"
	done
	echo "$row"
done
