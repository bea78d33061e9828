# tests/lib.sh -- sourced by every suite (tests/*/run.sh).
# A suite reports each test case with exactly one of:
#   ok NAME            the case passed
#   fail NAME WHY      the case failed; WHY is printed
# tests/run.sh counts the lines and prints the closing "N passed, N failed".
# Paths: $TOP is the project root, $BUILD the build directory.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
RESULTS=${RESULTS:-/dev/stdout}
# selected NAME: true unless make check T=SUITE/CASE picked other cases
# (CACHEHOT_TEST_CASE, a shell pattern matched against NAME with or without
# its "suite/" prefix); a suite may test it to skip an expensive case.
selected() {
	[ -z "${CACHEHOT_TEST_CASE:-}" ] && return 0
	# shellcheck disable=SC2254
	case "$1" in $CACHEHOT_TEST_CASE | */$CACHEHOT_TEST_CASE) return 0 ;; esac
	return 1
}
ok()   { selected "$1" || return 0; echo "PASS: $1" >>"$RESULTS"; echo "  ok   $1"; }
fail() { selected "$1" || return 0; echo "FAIL: $1" >>"$RESULTS"; echo "  FAIL $1: $2"; }
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

# ---- the fixture format (docs/development.md "Fixture expectations"): one
# parser for every runner. A fixture's trailing comment holds
#   cachehot-args: KEY[=VAL] ...      (the first such line counts)
#   expect:  then one "LINE:COL: KIND: MESSAGE" a line, or  expect-none
# fixture_keys FILE: the KEY[=VAL] words of its cachehot-args: line, one a line
fixture_keys() {
	sed -n 's/^.*cachehot-args:\([^*]*\).*$/\1/p' "$1" | head -1 | tr ' \t' '\n\n' | sed '/^$/d'
}
# fixture_plugin_args FILE: the same keys as -fplugin-arg-cachehot-KEY[=VAL]
fixture_plugin_args() {
	fixture_keys "$1" | sed 's/^/-fplugin-arg-cachehot-/'
}
# fixture_expect FILE: its expected diagnostics, sorted
fixture_expect() {
	awk '/expect:/ {on=1; next} on && /\*\// {on=0} on {sub(/^[ \t]*\*[ \t]?/, ""); if ($0 != "") print}' "$1" | sort
}
# fixture_has_expect FILE: true when it states an expectation (expect: or expect-none)
fixture_has_expect() {
	grep -q 'expect-none\|expect:' "$1"
}
