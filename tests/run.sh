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
# The results file lives in the build directory, not in /tmp where another
# job's cleanup can remove it mid-run, and is checked after every suite,
# so results lost that way fail the run instead of shrinking the counts (a
# run once printed "168 passed, 0 failed" and exit status 0 after 1753 cases,
# 7 of them failed, when its /tmp file was moved away during the last suite).
# Its first line, written here, is checked after every suite (an inode
# number is not enough: a file made again at the path gets the freed one).
mkdir -p "$BUILD" || exit 2
RESULTS=$(mktemp "$BUILD/test-results.XXXXXX") || exit 2
export RESULTS
trap 'rm -f "$RESULTS"' EXIT
results_mark="# tests/run.sh $$ $RANDOM$RANDOM"
echo "$results_mark" >"$RESULTS" || exit 2
results_kept() {
	[ "$(head -1 "$RESULTS" 2>/dev/null)" = "$results_mark" ] && return 0
	echo "tests/run.sh: $RESULTS was removed or replaced during suite $1: its results are lost" >&2
	echo "0 passed, 1 failed"
	exit 2
}
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
	results_kept "$s"
done
p=$(grep -c '^PASS: ' "$RESULTS"); f=$(grep -c '^FAIL: ' "$RESULTS")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
