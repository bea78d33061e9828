# tests/lib.sh -- sourced by every suite (tests/*/run.sh).
# A suite reports each test case with exactly one of:
#   ok NAME            the case passed
#   fail NAME WHY      the case failed; WHY is printed
# tests/run.sh counts the lines and prints the closing "N passed, N failed".
# Paths: $TOP is the project root, $BUILD the build directory.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
RESULTS=${RESULTS:-/dev/stdout}
ok()   { echo "PASS: $1" >>"$RESULTS"; echo "  ok   $1"; }
fail() { echo "FAIL: $1" >>"$RESULTS"; echo "  FAIL $1: $2"; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		fail "$1" "expected [$2] got [$3]"; fi
}
# expect_file_eq NAME EXPECTED_FILE ACTUAL_FILE: shows a diff on failure
expect_file_eq() {
	if diff -u "$2" "$3" >/tmp/cachehot-diff.$$ 2>&1; then ok "$1"; else
		fail "$1" "output differs:"; sed 's/^/      /' /tmp/cachehot-diff.$$ | head -40; fi
	rm -f /tmp/cachehot-diff.$$
}
