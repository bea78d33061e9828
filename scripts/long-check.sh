#!/bin/bash
# scripts/long-check.sh [TARGET...] -- every documented long target, one after
# the other (make long-check; never part of make check): each runs as
# "make TARGET" with its output in build/long-check/TARGET.log, and is
# reported as "ok TARGET (N s)" or "FAIL TARGET (exit N, N s): last lines".
# The closing line is "N passed, N failed"; exit 0 only when all passed.
# Run it before calling work that touches an engine or a check done: a long
# target that a new check starts failing is noticed here, not by a user.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LOG=$BUILD/long-check
# The documented long targets (README "Longer targets"), cheapest first.
# Not here: make fuzz (time-boxed search, FUZZ_SECONDS) and make kernel-sweep
# (the whole kernel twice: hours of CPU); tests/docs checks that every other
# target the README documents is listed.
ALL="plugin-asan-check kernel-check sparse-kernel layout-kernel bloat-kernel cocci-kernel counter-kernel
annotate-kernel ccache-kernel kernel-groups kernel-integration userspace-check userspace-haproxy userspace-apache2 deb-check
record-demo record-memcached record-haproxy"
NOT_LONG_CHECK="check fuzz kernel-sweep deb long-check record-bench"
targets=${*:-$ALL}
mkdir -p "$LOG" || exit 2
cd "$TOP" || exit 2
pass=0; failed=0
for t in $targets; do
	start=$(date +%s)
	make --no-print-directory "$t" >"$LOG/$t.log" 2>&1; rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		echo "ok   $t ($secs s)"; pass=$((pass + 1))
	else
		echo "FAIL $t (exit $rc, $secs s): $LOG/$t.log"; tail -5 "$LOG/$t.log" | sed 's/^/       /'
		failed=$((failed + 1))
	fi
done
echo "$pass passed, $failed failed"
[ $failed -eq 0 ]
