#!/bin/bash
# tests/run.sh [SUITE...] -- run the test suites (tests/*/run.sh, or the named
# ones) and print the closing line "N passed, N failed".
# Exit status 0 only when nothing failed and at least one case ran.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP BUILD=${BUILD:-$TOP/build}
export RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
if [ $# -gt 0 ]; then suites=("$@"); else
	suites=(); for s in "$TOP"/tests/*/run.sh; do suites+=("$(basename "$(dirname "$s")")"); done
fi
for s in "${suites[@]}"; do
	echo "== $s"
	start=$(date +%s)
	if ! bash "$TOP/tests/$s/run.sh"; then
		echo "FAIL: suite $s exited non-zero" >>"$RESULTS"
		echo "  FAIL suite $s exited non-zero"
	fi
	echo "   ($s: $(( $(date +%s) - start )) s)"
done
p=$(grep -c '^PASS: ' "$RESULTS"); f=$(grep -c '^FAIL: ' "$RESULTS")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
