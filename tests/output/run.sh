#!/bin/bash
# Determinism and output safety.
#  1. the same input gives byte-identical reports (gcc, json, sarif) run
#     after run and at -j1 / -j2, and byte-identical plugin manifests
#     whatever order (or concurrency) the units are compiled in;
#  2. a process SIGKILLed at random points while it writes its report (-o)
#     or merges its manifest never leaves a truncated file in place of the
#     old one: the file is the old bytes or a complete new report.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
CH=$TOP/bin/cachehot PLUGIN=$TOP/plugin/cachehot.so
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for x in "$CH" "$PLUGIN"; do [ -e "$x" ] || { fail output-build "$x missing"; exit 0; }; done
FIX="tests/fixtures/page_counter_v5_10.c tests/fixtures/nested.c tests/fixtures/arrays.c
     tests/fixtures/groups.c tests/fixtures/private_padding.c tests/fixtures/unions.c"

# ---- 1. determinism -----------------------------------------------------------
for fmt in gcc json sarif; do
	for j in 1 2 2b; do
		"$CH" check --no-progress --engine=plugin,sparse --format=$fmt -j ${j%b} -Iinclude $FIX \
			>"$T/r.$fmt.$j" 2>/dev/null
	done
	[ -s "$T/r.$fmt.1" ] || { fail "output/determinism-$fmt" "empty report"; continue; }
	if cmp -s "$T/r.$fmt.1" "$T/r.$fmt.2" && cmp -s "$T/r.$fmt.2" "$T/r.$fmt.2b"; then
		ok "output/determinism-$fmt"
	else
		fail "output/determinism-$fmt" "-j1 / -j2 / -j2 again differ: $(diff "$T/r.$fmt.1" "$T/r.$fmt.2" | head -3)"
	fi
done

man() {   # OUT FILE...: compile each with the plugin writing manifest OUT
	local out=$1; shift
	for f in "$@"; do
		gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$out" -Iinclude -c "$f" \
			-o /dev/null 2>/dev/null
	done
}
man "$T/m.fwd" $FIX
# shellcheck disable=SC2046
man "$T/m.rev" $(printf '%s\n' $FIX | tac)
for f in $FIX; do man "$T/m.par" "$f" & done; wait
if [ -s "$T/m.fwd" ] && cmp -s "$T/m.fwd" "$T/m.rev" && cmp -s "$T/m.fwd" "$T/m.par"; then
	ok output/manifest-order-independent
else
	fail output/manifest-order-independent "forward / reverse / parallel manifests differ"
fi

# A unit whose records the manifest already holds leaves the file alone (not
# rewritten: same inode, same bytes); one with a changed record still merges.
man "$T/m.keep" $FIX
cp "$T/m.keep" "$T/m.keep0"
i1=$(stat -c %i "$T/m.keep")
man "$T/m.keep" $FIX
if [ "$(stat -c %i "$T/m.keep")" = "$i1" ] && cmp -s "$T/m.keep" "$T/m.keep0"; then
	ok output/manifest-kept-when-unchanged
else
	fail output/manifest-kept-when-unchanged "rewritten although every record was there"
fi
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$T/m.keep" -fplugin-arg-cachehot-line-size=128 \
	-Iinclude -c tests/fixtures/page_counter_v5_10.c -o /dev/null 2>/dev/null
if [ "$(jq -c '.structs.page_counter | [.line_size, .other_definitions[].line_size] | sort' \
	"$T/m.keep")" = "[64,128]" ] &&
	[ "$(jq '.structs | length' "$T/m.keep")" = "$(jq '.structs | length' "$T/m.keep0")" ]; then
	ok output/manifest-changed-record-merged
else
	fail output/manifest-changed-record-merged "the 128-byte record of page_counter was not merged"
fi

# ... but a unit with annotated variables adds its "globals" to a manifest
# that holds all of its (here: no) struct records
printf '{"cachehot_manifest":1,"structs":{}}\n' >"$T/m.glob"
gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-manifest="$T/m.glob" -Iinclude \
	-c tests/fixtures/global_attr.c -o /dev/null 2>/dev/null
if [ "$(jq -c '.globals | keys' "$T/m.glob")" = '["calls","hits","limit"]' ]; then
	ok output/manifest-globals-merged
else
	fail output/manifest-globals-merged "globals: $(jq -c '.globals' "$T/m.glob")"
fi

# ---- 2. SIGKILL at random points -----------------------------------------------
# KILLS kills per writer (default 15): each at a random delay while the
# process writes; the target must then be the old bytes or a whole report.
KILLS=${KILLS:-15}
valid_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
killer() {   # NAME OLD-CONTENT-FILE TARGET CHECK-FN CMD...: KILLS random SIGKILLs
	local name=$1 old=$2 target=$3 check=$4 bad=0 i pid d t0 t1 dur kept=0 new=0; shift 4
	# kill points spread over one whole run's wall time
	t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
	dur=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) * 1.1 }')
	for ((i = 0; i < KILLS; i++)); do
		cp "$old" "$target"
		setsid "$@" >/dev/null 2>&1 &
		pid=$!
		d=$(awk -v s=$RANDOM -v t="$dur" 'BEGIN { srand(s); printf "%.3f", rand() * t }')
		sleep "$d"
		kill -KILL -- -$pid 2>/dev/null; wait $pid 2>/dev/null
		if cmp -s "$old" "$target"; then kept=$((kept + 1))
		elif $check "$target"; then new=$((new + 1))
		else bad=1; cp "$target" "$T/bad.$name"; break
		fi
	done
	echo "      $name: $KILLS kills over ${dur}s: $kept left the old file, $new a whole new one"
	if [ $bad = 0 ]; then ok "output/sigkill-$name"; else
		fail "output/sigkill-$name" "after a kill: neither the old file nor a whole report ($(wc -c <"$T/bad.$name") bytes)"; fi
}
echo '{"old": true}' >"$T/old.json"
full_report() { valid_json "$1" && cmp -s "$1" "$T/r.json.1"; }
killer report "$T/old.json" "$T/out.json" full_report \
	"$CH" check --no-progress --engine=plugin,sparse --format=json -j 2 -Iinclude -o "$T/out.json" $FIX
# the old manifest holds one unit's records: the others are merged (written)
man "$T/old.manifest" tests/fixtures/nested.c
whole_manifest() { valid_json "$1"; }
killer manifest "$T/old.manifest" "$T/kill.manifest" whole_manifest \
	bash -c "for f in $(echo $FIX); do gcc -fplugin=$PLUGIN -fplugin-arg-cachehot-manifest=$T/kill.manifest -Iinclude -c \$f -o /dev/null; done"
