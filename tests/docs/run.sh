#!/bin/bash
# tests/docs/run.sh -- the documentation's entry point: every relative link
# in docs/index.md (and in the README) names a file of the repository, every
# page under docs/ is reachable from docs/index.md, and the README sends
# readers to docs/index.md; and the code of core/, layout/, driver/, bloat/
# and sparse-checks/ can be read in an order (docs/development.md): no file
# uses a file that uses it back, directly or through others.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
links() { grep -o '](\([^)#]*\)' "$1" | sed 's/^](//' | grep -v '^[a-z]*://'; }
[ -f docs/index.md ] && ok docs/index-exists || fail docs/index-exists "no docs/index.md"
missing=""
for l in $(links docs/index.md); do [ -e "docs/$l" ] || missing="$missing $l"; done
expect_eq docs/index-links-resolve "" "$missing"
missing=""
for l in $(links README.md); do [ -e "$l" ] || missing="$missing $l"; done
expect_eq docs/readme-links-resolve "" "$missing"
# every page is in the index (docs/man pages and kernel/ files by path)
unlisted=""
for f in $(cd docs && find . -type f \( -name '*.md' -o -name '*.rst' -o -name '*.[17]' \) | sed 's|^\./||' | sort); do
	[ "$f" = index.md ] && continue
	links docs/index.md | grep -qx "$f" || unlisted="$unlisted $f"
done
expect_eq docs/every-page-indexed "" "${unlisted:+pages not linked from docs/index.md (add them there):$unlisted}"
grep -q '(docs/index.md)' README.md && ok docs/readme-points-to-index ||
	fail docs/readme-points-to-index "README.md does not link docs/index.md"

# make long-check runs every long target the README documents
documented=$(sed -n '/^## Longer targets/,/^## /p' README.md | grep -o '`make [a-z0-9-]*' | sed 's/`make //' | sort -u)
all=$(sed -n '/^ALL="/,/"$/p' scripts/long-check.sh | tr -d '"' | sed 's/^ALL=//' | tr ' ' '\n')
skip=$(sed -n 's/^NOT_LONG_CHECK="\(.*\)"$/\1/p' scripts/long-check.sh | tr ' ' '\n')
absent=""
for t in $documented; do
	grep -qx "$t" <<<"$all" || grep -qx "$t" <<<"$skip" || absent="$absent $t"
done
expect_eq docs/long-check-runs-every-documented-target "" "$absent"

# code and docs name nothing outside the repository: no tracker issue
# numbers, no planning notes
refs=$(git -C "$TOP" grep -n -I -E '[Ii]ssues? #?[0-9]+|FIELD-NOTES|/work/shared' -- . ':!third_party' ':!tests/fuzz' ':!tests/docs/run.sh' 2>/dev/null | head -3)
expect_eq docs/no-references-outside-the-repository "" "$refs"

# no dependency circle among the objects of a folder (tests/docs/deps.py)
for d in core layout driver bloat sparse-checks; do
	if ls "$BUILD/$d"/*.o >/dev/null 2>&1; then
		expect_eq "docs/no-dependency-circle-$d" "" "$(python3 "$TOP/tests/docs/deps.py" "$BUILD/$d"/*.o 2>&1)"
	else
		fail "docs/no-dependency-circle-$d" "no objects in $BUILD/$d (make)"
	fi
done
# the comparison sees a circle: two units that call each other
T=$(mktemp -d)
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$T/a.c"
printf 'int a(int);\nint b(int x) { return a(x); }\nint c(void) { return 1; }\n' >"$T/b.c"
printf 'int c(void);\nint d(void) { return c(); }\n' >"$T/d.c"
for u in a b d; do gcc -c -o "$T/$u.o" "$T/$u.c"; done
expect_eq docs/dependency-circle-seen "a b" "$(python3 "$TOP/tests/docs/deps.py" "$T"/*.o 2>&1)"
rm -rf "$T"
