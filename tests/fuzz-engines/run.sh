#!/bin/bash
# Engine-agreement suite.
#  1. every layout fixture (tests/fixtures/*.c) that annotates by attribute,
#     turned into its sidecar form (the attributes blanked out, column for
#     column; the entries taken from the plugin's manifest of the attribute
#     form): the plugin, the sparse checker and cachehot-layout must print
#     exactly the fixture's expect: block again (a sidecar-only bug
#     passed every attribute fixture);
#  2. a short differential run: tests/fuzz-engines/fuzz.sh on FUZZ_N
#     generated structs (default 300, seeds from 1; `make fuzz-engines` runs
#     long ones), which must find no difference.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
PLUGIN=$TOP/plugin/cachehot.so CK=$TOP/bin/cachehot-sparse LT=$TOP/bin/cachehot-layout
CC=${CC:-gcc}
export LC_ALL=C
for x in "$PLUGIN" "$CK" "$LT"; do [ -e "$x" ] || { fail fuzz-engines/build "$x missing"; exit 0; }; done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# pos FILE: "L:C: kind: message" of diagnostics in FILE (any engine's output)
pos() {
	sed "s/[‘’]/'/g" | sed -n "s#^$1:\([0-9]*:[0-9]*: \(warning\|note\|error\): .*\)\$#\1#p" |
		grep -v ': note: in \(definition\|expansion\) of macro ' | sort
}

for f in tests/fixtures/*.c; do
	base=$(basename "$f" .c)
	keys=$(fixture_keys "$f")
	# sidecar fixtures already are; attribute-error fixtures have no sidecar form
	echo "$keys" | grep -q '^annotations=' && continue
	grep -q '__cacheline_\(hot\|exclusive\|read_mostly\)' "$f" || continue
	rm -f "$T/m.json"
	$CC -fplugin="$PLUGIN" $(printf "%s\n" $keys | sed "/^$/d" | sed 's/^/-fplugin-arg-cachehot-/') \
		-fplugin-arg-cachehot-manifest="$T/m.json" -Iinclude -Itests/fixtures -c "$f" -o /dev/null 2>/dev/null || continue
	# a uniprocessor unit writes no manifest (nothing to judge): no sidecar form
	[ "$(jq '.structs | length' "$T/m.json" 2>/dev/null)" -gt 0 ] 2>/dev/null || { echo "  --   fuzz-engines/sidecar-form-$base: no manifest (uniprocessor)"; continue; }
	d=$T/$base; mkdir -p "$d"
	# blank the annotation macros (same columns), keep everything else
	perl -pe 's/(__cacheline_hot_group\([^()]*\)|__cacheline_(?:hot|exclusive|read_mostly)\b)/" " x length($1)/ge' "$f" >"$d/$base.c" 2>/dev/null
	jq -r '.structs | to_entries[] | .key as $s | .value.fields[] |
		select(.class != "none" and (.name | test("[.\\[]") | not)) |
		"\($s).\(.name) \(.class)\(if .group then ":" + .group else "" end)"' "$T/m.json" | sort -u >"$d/$base.ann"
	if grep -q '__cacheline_\(hot\|exclusive\|read_mostly\)' "$d/$base.c" || [ ! -s "$d/$base.ann" ]; then
		fail "fuzz-engines/sidecar-form-$base" "no sidecar form made"; continue
	fi
	cp tests/fixtures/*.h "$d/" 2>/dev/null
	fixture_expect "$f" >"$d/exp"
	sf=$d/$base.c
	# plugin
	$CC -fplugin="$PLUGIN" $(printf "%s\n" $keys | sed "/^$/d" | sed 's/^/-fplugin-arg-cachehot-/') \
		-fplugin-arg-cachehot-annotations="$d/$base.ann" -fplugin-arg-cachehot-manifest="$d/m.json" \
		-Iinclude -g3 -fno-eliminate-unused-debug-types -O2 -c "$sf" -o "$d/o.o" \
		-fdiagnostics-plain-output 2>&1 | pos "$sf" >"$d/plugin"
	expect_file_eq "fuzz-engines/sidecar-form-plugin-$base" "$d/exp" "$d/plugin"
	"$CK" -Wno-decl $(printf "%s\n" $keys | sed "/^$/d" | sed 's/^/-fcachehot-/') -fcachehot-annotations="$d/$base.ann" \
		-Iinclude "$sf" 2>&1 | pos "$sf" >"$d/sparse"
	expect_file_eq "fuzz-engines/sidecar-form-sparse-$base" "$d/exp" "$d/sparse"
	largs=$(printf "%s\n" $keys | sed "/^$/d" | sed -n 's/^\(predict\|line-size\|severity\)=/--\1=/p')
	"$LT" -q --manifest "$d/m.json" --annotations "$d/$base.ann" $largs "$d/o.o" 2>&1 | pos "$sf" >"$d/layout"
	expect_file_eq "fuzz-engines/sidecar-form-layout-$base" "$d/exp" "$d/layout"
done

# ---- 2. the short differential run --------------------------------------
if out=$(bash tests/fuzz-engines/fuzz.sh "${FUZZ_N:-300}" 1 100 2>&1); then
	ok "fuzz-engines/differential-${FUZZ_N:-300}"
else
	fail "fuzz-engines/differential-${FUZZ_N:-300}" "differences found:"
	echo "$out" | head -60 | sed 's/^/      /'
fi
echo "   $(echo "$out" | tail -1)"
