#!/bin/bash
# tests/registry/run.sh -- one list per concept: the checks (core/registry.c,
# printed by "cachehot checks") and each engine's options (the plugin's
# plugin/options.c, cachehot-sparse's table, the getopt tables of
# cachehot-layout, cachehot-bloat and "cachehot check", all printed by their
# --help) against every place that lists them again: docs/checks.rst,
# cachehot(1), docs/plugin.rst, docs/sparse.rst, the man pages. A check or
# an option added in one place only fails here; the "one-sided" cases prove
# each comparison sees an addition on either side.
. "$(dirname "$0")/../lib.sh"
set -u
CH=$TOP/bin/cachehot
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# same NAME A B: the two lists (one item a line) are equal as sets
same() {
	local d
	d=$(diff <(sort -u "$2") <(sort -u "$3"))
	if [ -z "$d" ]; then ok "$1"; else fail "$1" "$(echo "$d" | grep '^[<>]' | tr '\n' ' ')"; fi
}
# differs NAME A B: a one-sided addition is seen (the comparison can fail)
differs() {
	if diff -q <(sort -u "$2") <(sort -u "$3") >/dev/null; then fail "$1" "an item in one list only went unseen"
	else ok "$1"; fi
}

# ---- checks -----------------------------------------------------------------------
"$CH" checks | cut -f1 >"$T/reg"
expect_eq registry/check-count "11" "$(wc -l <"$T/reg")"
sed -n 's/^\[\(cachehot[a-z-]*\)\]$/\1/p' "$TOP/docs/checks.rst" >"$T/doc"
same registry/checks-rst "$T/reg" "$T/doc"
# every row's doc anchor is a section of its page
"$CH" checks | cut -f3 | while IFS='#' read -r page anchor; do
	grep -qx "\[$anchor\]" "$TOP/$page" || echo "$page#$anchor"
done >"$T/anchors"
expect_eq registry/check-doc-anchors "" "$(cat "$T/anchors")"
sed -n 's/^\.B \[\(cachehot[a-z\\-]*\)\]$/\1/p' "$TOP/docs/man/cachehot.1" | sed 's/\\-/-/g' >"$T/man"
same registry/checks-man-cachehot.1 "$T/reg" "$T/man"
# SARIF: a rule with name and description for every id (one finding each)
for id in $(cat "$T/reg"); do
	printf '{"cachehot_finding": 1, "engine": "plugin", "check": "%s", "severity": "warning", "file": "x.c", "line": 1, "column": 1, "message": "a finding"}\n' "$id"
done >"$T/ids.log"
"$CH" check --log="$T/ids.log" --format=sarif | jq -r '.runs[0].tool.driver.rules[] | select(.name != null and .fullDescription != null) | .id' >"$T/sarif"
same registry/checks-sarif-rules "$T/reg" "$T/sarif"
{ cat "$T/reg"; echo cachehot-new-check; } >"$T/reg+"
differs registry/one-sided-check "$T/reg+" "$T/doc"

# ---- the plugin's arguments ---------------------------------------------------------
PLUGIN=$TOP/plugin/cachehot.so
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-help -c -x c /dev/null -o /dev/null 2>&1 |
	sed -n 's/^  \([a-z-]*\)\(=\|\[\| \).*/\1/p' >"$T/p-help"
expect_eq registry/plugin-help-count "18" "$(sort -u "$T/p-help" | wc -l)"
sed -n 's/^``\([a-z-]*\)\(=\|`\|\[\).*/\1/p' "$TOP/docs/plugin.rst" >"$T/p-doc"
same registry/plugin-args-rst "$T/p-help" "$T/p-doc"
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-no-such -c -x c /dev/null -o /dev/null 2>&1 |
	sed -n "s/.*(known: \(.*\))$/\1/p" | tr -d ' ' | tr ',' '\n' >"$T/p-known"
same registry/plugin-args-known "$T/p-help" "$T/p-known"
{ cat "$T/p-doc"; echo new-arg; } >"$T/p-doc+"
differs registry/one-sided-plugin-arg "$T/p-help" "$T/p-doc+"

# ---- cachehot-sparse's options --------------------------------------------------------
SP=$TOP/bin/cachehot-sparse
if [ -x "$SP" ]; then
	"$SP" --help | sed -n 's/^  -fcachehot-\([a-z-]*\).*/\1/p' >"$T/s-help"
	expect_eq registry/sparse-help-count "12" "$(wc -l <"$T/s-help")"
	sed -n 's/^``-fcachehot-\([a-z-]*\).*/\1/p' "$TOP/docs/sparse.rst" >"$T/s-doc"
	same registry/sparse-options-rst "$T/s-help" "$T/s-doc"
	grep -o '\\-fcachehot\\-[a-z\\-]*' "$TOP/docs/man/cachehot-sparse.1" | sed 's/\\-fcachehot\\-//; s/\\-/-/g' | grep . >"$T/s-man"
	same registry/sparse-options-man "$T/s-help" "$T/s-man"
	"$SP" -fcachehot-no-such x.c 2>&1 | sed -n "s/.*(known: \(.*\))$/\1/p" | tr -d ' ' | tr ',' '\n' >"$T/s-known"
	same registry/sparse-options-known "$T/s-help" "$T/s-known"
	out=$("$SP" --version); rc=$?
	expect_eq registry/sparse-version "0|cachehot-sparse 0.1.0 (sparse 0.6.4)" "$rc|$out"
	"$SP" -fcachehot-no-such x.c >/dev/null 2>&1
	expect_eq registry/sparse-bad-option-exit 2 $?
fi

# ---- long options of the other tools: --help against the man page ----------------------
longopts() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
manopts() { grep -o '\\-\\-[a-z][a-z\\-]*' "$1" | sed 's/\\-/-/g' | sort -u; }
"$TOP/bin/cachehot-layout" --help | longopts >"$T/l-help"
manopts "$TOP/docs/man/cachehot-layout.1" >"$T/l-man"
same registry/layout-options-man "$T/l-help" "$T/l-man"
"$TOP/bin/cachehot-bloat" --help | longopts >"$T/b-help"
manopts "$TOP/docs/man/cachehot-bloat.1" >"$T/b-man"
same registry/bloat-options-man "$T/b-help" "$T/b-man"
{ cat "$T/l-help"; echo --new-option; } >"$T/l-help+"
differs registry/one-sided-layout-option "$T/l-help+" "$T/l-man"
# the driver's commands: every long option "cachehot --help" and "cachehot
# COMMAND --help" show is in cachehot(1), and every one cachehot(1) names is
# shown by some --help (it names a few of cachehot-layout's, which "cachehot
# layout" runs; --git is checkpatch.pl's)
{ "$CH" --help; for c in check report annotate asserts checks; do "$CH" "$c" --help; done; } 2>&1 |
	longopts >"$T/d-help"
manopts "$TOP/docs/man/cachehot.1" | grep -vx -- '--git' >"$T/d-man"
# missing A B: the items of list A that list B lacks
missing() { comm -23 <(sort -u "$1") <(sort -u "$2") | tr '\n' ' ' | sed 's/ $//'; }
expect_eq registry/driver-options-in-man "" "$(missing "$T/d-help" "$T/d-man")"
cat "$T/d-help" "$T/l-help" "$T/b-help" >"$T/all-help"
expect_eq registry/driver-man-options-shown "" "$(missing "$T/d-man" "$T/all-help")"
echo --new-option >>"$T/d-help"
expect_eq registry/one-sided-driver-option "--new-option" "$(missing "$T/d-help" "$T/d-man")"

# ---- the same conventions in every tool ------------------------------------------------
for tool in cachehot cachehot-layout cachehot-bloat; do
	out=$("$TOP/bin/$tool" --version); rc=$?
	expect_eq "registry/version-$tool" "0|$tool 0.1.0" "$rc|$out"
	"$TOP/bin/$tool" --help >/dev/null; expect_eq "registry/help-$tool" 0 $?
done
"$TOP/bin/cachehot-bloat" --no-such-option >/dev/null 2>&1; expect_eq registry/bloat-bad-option-exit 2 $?
"$TOP/bin/cachehot-layout" --no-such-option >/dev/null 2>&1; expect_eq registry/layout-bad-option-exit 2 $?
"$CH" check --no-such-option >/dev/null 2>&1; expect_eq registry/check-bad-option-exit 2 $?
exit 0
