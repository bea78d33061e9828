#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh [N [SEED [BATCH]]] -- differential testing of the engines on N
# generated structs (default 300), in batches of BATCH (default 100) per
# translation unit, seeds SEED, SEED+1, ... (default 1). `make fuzz-engines
# N=... SEED=...` runs it; docs/reliability.md records the long runs.
#
# Per batch: tests/fuzz-engines/gen.py writes fz.c (+ fz.ann sidecar, truth.c);
# the GCC plugin compiles it (-g3: the object for the DWARF reader, and a
# manifest), bin/cachehot-sparse checks it (and writes its manifest),
# bin/cachehot-layout reads the object against the plugin's manifest, and
# truth.c prints GCC's own offsetof/sizeof. compare.py reports any difference
# in findings or layout. A failing struct is reduced (members dropped one at a
# time while the same difference persists) and printed with its differences.
# Exit 0 when nothing differs. KEEP=DIR keeps the batches' files in DIR.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
HERE=$TOP/tests/fuzz-engines
N=${1:-300} SEED=${2:-1} BATCH=${3:-100}
PLUGIN=${FUZZ_PLUGIN:-$TOP/plugin/cachehot.so} CK=${FUZZ_SPARSE:-$TOP/bin/cachehot-sparse}
LT=${FUZZ_LAYOUT:-$TOP/bin/cachehot-layout}
CC=${CC:-gcc}
export LC_ALL=C
for x in "$PLUGIN" "$CK" "$LT"; do [ -e "$x" ] || { echo "fuzz.sh: $x missing (make)" >&2; exit 2; }; done
W=${KEEP:-$(mktemp -d)}
mkdir -p "$W"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

# engines DIR: run the three engines and the truth program in DIR
engines() {
	local d=$1
	( cd "$d" || exit 2
	  rm -f plugin.json sparse.json   # manifests merge: start afresh
	  $CC -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=fz.ann \
		-fplugin-arg-cachehot-manifest=plugin.json -I"$TOP/include" \
		-g3 -fno-eliminate-unused-debug-types -O2 -c fz.c -o fz.o \
		-fdiagnostics-plain-output >plugin.txt 2>&1
	  "$CK" -Wno-decl -fcachehot-annotations=fz.ann -fcachehot-manifest=sparse.json \
		-I"$TOP/include" fz.c >sparse.txt 2>&1
	  rc=$?; [ $rc -ge 128 ] && echo "sparse: signal $((rc - 128))" >>sparse.txt
	  if [ -f fz.o ]; then
		"$LT" -q --manifest plugin.json --annotations fz.ann fz.o >layout.txt 2>&1
		rc=$?; [ $rc -ge 128 ] && echo "layout: signal $((rc - 128))" >>layout.txt
	  else echo "layout: error: no object (the plugin compile failed)" >layout.txt; fi
	  $CC -w -I"$TOP/include" -o truth truth.c >truth-cc.txt 2>&1 && ./truth >truth.txt ||
		{ echo "truth: error: $(head -3 truth-cc.txt)" >>plugin.txt; : >truth.txt; }
	  rm -f fz.o truth )
}

# reduce SEED UNIT: drop members of UNIT while the first difference persists
reduce() {
	local seed=$1 k=$2 d=$W/reduce-$1-$2 drop="" p key first
	rm -rf "$d"; mkdir -p "$d"
	python3 "$HERE/gen.py" --seed "$seed" --count "$BATCH" --dir "$d" --only "$k" || return
	engines "$d"
	key=$(python3 "$HERE/compare.py" "$d" | head -1 | sed 's/[0-9]\+/#/g')
	[ -n "$key" ] || { echo "  (unit $k does not fail alone: it depends on its batch)"; return; }
	for p in $(awk -v k="$k" '$1 == k {print $2}' "$d/members.txt"); do
		case ",$drop," in *",$k:${p%.*},"*) continue ;; esac
		python3 "$HERE/gen.py" --seed "$seed" --count "$BATCH" --dir "$d" --only "$k" \
			--drop "$drop${drop:+,}$k:$p" >/dev/null 2>&1 || continue
		engines "$d"
		first=$(python3 "$HERE/compare.py" "$d" | head -1 | sed 's/[0-9]\+/#/g')
		[ "$first" = "$key" ] && drop="$drop${drop:+,}$k:$p"
	done
	python3 "$HERE/gen.py" --seed "$seed" --count "$BATCH" --dir "$d" --only "$k" --drop "$drop"
	engines "$d"
	echo "  reduced: gen.py --seed $seed --count $BATCH --only $k --drop '$drop'"
	sed 's/^/  | /' "$d/fz.c"
	[ -s "$d/fz.ann" ] && grep -v '^#' "$d/fz.ann" | sed 's/^/  ann | /'
	python3 "$HERE/compare.py" "$d" | sed 's/^/  /'
}

done_n=0 nd=0 nb=0 seed=$SEED
while [ "$done_n" -lt "$N" ]; do
	n=$BATCH; [ $((N - done_n)) -lt "$n" ] && n=$((N - done_n))
	d=$W/b$seed; mkdir -p "$d"
	# unit k depends only on (seed, k): a short last batch is a prefix
	python3 "$HERE/gen.py" --seed "$seed" --count "$n" --dir "$d" >/dev/null || { echo "gen.py failed"; exit 2; }
	engines "$d"
	if ! python3 "$HERE/compare.py" "$d" >"$d/diff.txt"; then
		nb=$((nb + 1))
		echo "batch seed $seed: $(wc -l <"$d/diff.txt") differences"
		head -${SHOW:-20} "$d/diff.txt" | sed 's/^/  /'
		for k in $(awk '$2 >= 0 {print $2}' "$d/diff.txt" | sort -un | head -${REDUCE:-3}); do
			echo " unit $k:"; reduce "$seed" "$k"
		done
		nd=$((nd + $(wc -l <"$d/diff.txt")))
	fi
	# documented exceptions (docs/sparse.rst, docs/layout.rst), by reason
	sed 's/^\(sparse\|layout\): [^:]*: /\1: /; s/'"'"'[^'"'"']*'"'"'/T/g' "$d/exceptions.txt" >>"$W/exceptions.all" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$d"
	done_n=$((done_n + n)); seed=$((seed + 1))
	# PROGRESS=1: one line per batch (long runs stopped early still count)
	[ -z "${PROGRESS:-}" ] || echo "progress: $done_n structs, seeds $SEED..$((seed - 1)), $nd differences"
done
[ -s "$W/exceptions.all" ] && { echo "documented exceptions (structs), by reason:"
	sort "$W/exceptions.all" | uniq -c | sort -rn | sed 's/^/  /'; }
echo "fuzz-engines: $done_n structs in $((seed - SEED)) batches (seeds $SEED..$((seed - 1))): $nd differences in $nb batches"
[ "$nd" -eq 0 ]
