#!/bin/bash
# tests/run.sh [SUITE...] -- run the test suites (tests/*/run.sh, or the named
# ones) and print the closing line "N passed, N failed".
# tests/run.sh --only SUITE[/CASE] -- one suite, or the cases of one suite
# whose names match the shell pattern CASE (make check T=SUITE/CASE): the
# suite still runs, but only matching cases are counted and printed, and
# suites that test selected() skip the work of the others.
# Exit status 0 only when nothing failed and at least one case ran.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP BUILD=${BUILD:-$TOP/build}
export RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
if [ "${1:-}" = --only ]; then
	[ $# -eq 2 ] && [ -n "$2" ] || { echo "tests/run.sh: --only takes SUITE or SUITE/CASE" >&2; exit 2; }
	suite=${2%%/*}
	[ -f "$TOP/tests/$suite/run.sh" ] || { echo "tests/run.sh: no suite '$suite' (tests/$suite/run.sh)" >&2; exit 2; }
	[ "$suite" != "$2" ] && export CACHEHOT_TEST_CASE=${2#*/}
	set -- "$suite"
fi
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
