#!/bin/bash
# tests/inline/run.sh -- the [cachehot-inline-addr] check of the GCC plugin.
#
# Every tests/inline/*.c fixture is compiled at -O2 with the plugin, from
# inside tests/inline (so file names in messages are bare), and its
# diagnostics must equal the fixture's trailing "expect:" block exactly
# (docs/development.md, "Fixture expectations"). Then the object is checked
# with nm: each function named in an expected diagnostic really has an
# out-of-line copy, and the symbols listed below are present/absent as
# stated, so that "no report" means "no copy" and not "check did nothing".
# CACHEHOT_PLUGIN overrides the plugin path (development).
. "$(dirname "$0")/../lib.sh"
DIR=$TOP/tests/inline
PLUGIN=${CACHEHOT_PLUGIN:-$TOP/plugin/cachehot.so}
CC=${CC:-gcc}
export LC_ALL=C
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ ! -f "$PLUGIN" ]; then
	fail inline-plugin "no plugin at $PLUGIN (make plugin)"
	exit 0
fi

# Symbols that must (+) or must not (-) be defined in a fixture's object.
declare -A NM_CHECK=(
	[seed-fixed.c]="-lruvec_page_state -lruvec_page_state_local"
	[addressable-attr.c]="+sock_wake +sock_bad +udplite_getfrag"
	[addressable-sidecar.c]="+sock_wake +sock_bad +udplite_getfrag"
	[folded.c]="-double_it -triple_it -inc -dec"
	[macro-arg.c]="-square -cube"
	[always-inline-callee.c]="-twice -thrice"
	[shadow.c]="+scale"
	[not-inline.c]="+plain_a +plain_b"
	[mixed.c]="+hook -sel_only"
	[local-static.c]="+a1 -a2"
	[clones.c]="+hook"
	[return-nested.c]="+op_add +op_sub +op_mul"
	[header-use.c]="+id_cmp"
	[extern-inline.c]="+op_str"
)

for src in "$DIR"/*.c; do
	name=$(basename "$src")
	case=inline-${name%.c}
	obj=$TMP/${name%.c}.o
	fixture_expect "$src" >"$TMP/expect"
	if ! fixture_has_expect "$src"; then
		fail "$case" "fixture has no expect block"; continue
	fi
	mapfile -t args < <(fixture_plugin_args "$src")
	(cd "$DIR" && $CC -O2 -c -fno-diagnostics-show-caret -fdiagnostics-color=never \
		-fplugin="$PLUGIN" "${args[@]}" "$name" -o "$obj") >"$TMP/out" 2>&1
	rc=$?
	if grep -q 'internal compiler error' "$TMP/out"; then
		fail "$case" "internal compiler error: $(grep -m1 'internal compiler error' "$TMP/out")"
		continue
	fi
	# this file's diagnostics, without macro-expansion trace notes
	grep -E "^$name:[0-9]+:[0-9]+: (warning|note|error): " "$TMP/out" |
		grep -vE ': note: (in expansion of|in definition of|expanded from) macro' |
		sed "s/^$name://" | sort >"$TMP/got"
	expect_file_eq "$case" "$TMP/expect" "$TMP/got"
	if grep -q ': error: ' "$TMP/expect"; then
		[ $rc -ne 0 ] && ok "$case-fails" || fail "$case-fails" "compiled although errors are expected"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "$case-compiles" "exit $rc: $(head -3 "$TMP/out")"; continue
	fi
	# every reported function has a copy in the object
	defined=$(nm "$obj" | awk '$2 ~ /^[tT]$/ {print $3}')
	missing=
	for f in $(sed -n "s/^.*inline function '\([A-Za-z0-9_]*\)'.*$/\1/p" "$TMP/expect" | sort -u); do
		grep -qx "$f" <<<"$defined" || missing="$missing $f"
	done
	for want in ${NM_CHECK[$name]:-}; do
		f=${want#?}
		if [ "${want:0:1}" = + ]; then
			grep -qx "$f" <<<"$defined" || missing="$missing $f"
		else
			grep -qx "$f" <<<"$defined" && missing="$missing (unexpected copy of $f)"
		fi
	done
	if [ -z "$missing" ]; then ok "$case-nm"; else fail "$case-nm" "nm:$missing"; fi
done

# The seed: the reported functions' copies are what makes the pointer form
# bigger than the fixed form.
if [ -f "$TMP/seed.o" ] && [ -f "$TMP/seed-fixed.o" ]; then
	t1=$(size -A "$TMP/seed.o" | awk '$1==".text"{print $2}')
	t2=$(size -A "$TMP/seed-fixed.o" | awk '$1==".text"{print $2}')
	if [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" -gt "$t2" ]; then ok inline-seed-text-shrinks
	else fail inline-seed-text-shrinks "text seed=$t1 fixed=$t2"; fi
fi

# Cross-check with the object: compiled with -g, the functions the plugin
# reports (name and definition) are exactly the out-of-line copies of inline
# functions that bin/cachehot-bloat finds, and its byte sizes are nm -S's.
BLOAT=$TOP/bin/cachehot-bloat
if [ ! -x "$BLOAT" ]; then
	fail inline-bloat-crosscheck "no $BLOAT (make bloat)"
else
	for src in "$DIR"/*.c; do
		name=$(basename "$src")
		# extern-inline.c: a global definition, not a copy of an inline
		# body; cachehot-bloat counts local copies only (docs/bloat.rst)
		case $name in addressable-*|bad-attr.c|severity-error.c|extern-inline.c) continue;; esac
		obj=$TMP/g-${name%.c}.o
		mapfile -t args < <(fixture_plugin_args "$src")
		(cd "$DIR" && $CC -O2 -g -c -fno-diagnostics-show-caret -fplugin="$PLUGIN" \
			"${args[@]}" "$name" -o "$obj") >"$TMP/out" 2>&1
		[ -f "$obj" ] || { fail "inline-bloat-${name%.c}" "compile failed: $(grep -m2 -v "^ " "$TMP/out")"; continue; }
		sed -n "s/^.*inline function '\([A-Za-z0-9_]*\)' (defined at \([^)]*\)).*$/\1 \2/p" \
			"$TMP/out" | sort -u >"$TMP/plugin"
		(cd "$DIR" && "$BLOAT" --format=lines "$obj") | awk -F'\t' '{print $3, $5}' |
			sort -u >"$TMP/bloat"
		expect_file_eq "inline-bloat-${name%.c}" "$TMP/plugin" "$TMP/bloat"
		(cd "$DIR" && "$BLOAT" --format=lines "$obj") | awk -F'\t' '{print $3, $4}' |
			sort -k1,1 >"$TMP/bsize"
		nm -S -t d "$obj" | awk '$3 ~ /^[tT]$/ {print $4, $2 + 0}' | sort -k1,1 |
			join - "$TMP/bsize" >"$TMP/joined"
		if [ "$(wc -l <"$TMP/joined")" -ne "$(wc -l <"$TMP/bsize")" ] ||
		   awk '$2 != $3 {bad=1} END {exit !bad}' "$TMP/joined"; then
			fail "inline-bloat-${name%.c}-size" "bloat vs nm -S: $(tr '\n' ';' <"$TMP/joined")"
		else
			ok "inline-bloat-${name%.c}-size"
		fi
	done
	# the seed's exact costs (gcc 12.2, -O2 -g)
	expect_eq inline-seed-bytes "lruvec_page_state 41
lruvec_page_state_local 18" "$("$BLOAT" --format=lines "$TMP/g-seed.o" | awk -F'\t' '{print $3, $4}' | sort)"
fi

# inline-addr=0 turns the check off (the attribute stays known)
(cd "$DIR" && $CC -O2 -c -fno-diagnostics-show-caret -fplugin="$PLUGIN" \
	-fplugin-arg-cachehot-inline-addr=0 seed.c -o "$TMP/off.o") >"$TMP/out" 2>&1
expect_eq inline-off "0" "$(grep -c 'cachehot-inline-addr' "$TMP/out")"
exit 0
