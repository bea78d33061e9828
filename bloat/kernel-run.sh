#!/bin/bash
# bloat/kernel-run.sh -- "make bloat-kernel": real 6.1 input for
# cachehot-bloat and cocci/inline_fnptr.cocci.
#  1. builds mm/ and net/ipv4/udp.o with -g in build/kernel-bloat (-j2);
#  2. cachehot-bloat --census over those objects, the full copy list and the
#     inline-name list, and the pfunct comparison;
#  3. the cocci rule (report mode) over mm/ and net/ with spatch --dir -j 2,
#     timed, reading the inline list from step 2.
# Results go to build/bloat-kernel/ (summary.txt); findings with verdicts
# are kept by hand in docs/kernel-6.1.md.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
O=$TOP/build/kernel-bloat
OUT=$TOP/build/bloat-kernel
BLOAT=$TOP/bin/cachehot-bloat
JOBS=${JOBS:-2}
SRC=$("$TOP"/kernel/prepare.sh "$O")
mkdir -p "$OUT"
echo "== building mm/ net/ipv4/udp.o with -g in $O"
make -s -C "$SRC" O="$O" -j"$JOBS" KCFLAGS=-g mm/ net/ipv4/udp.o

OBJS=("$O/mm" "$O/net/ipv4/udp.o")
cd "$O"
echo "== cachehot-bloat"
start=$(date +%s%N)
"$BLOAT" --census --top 40 mm net/ipv4/udp.o > "$OUT/census.txt"
end=$(date +%s%N)
"$BLOAT" --format=lines mm net/ipv4/udp.o > "$OUT/copies.tsv"
"$BLOAT" --inline-list -o "$OUT/inline.list" mm net/ipv4/udp.o
"$TOP"/bloat/compare-pfunct.sh mm net/ipv4/udp.o > "$OUT/pfunct.txt" 2> "$OUT/pfunct-details.txt"
grep udplite_getfrag "$OUT/copies.tsv" || echo "udplite_getfrag copy NOT found" >&2

echo "== spatch (report) over mm/ and net/, -j $JOBS"
cd "$SRC"
RULE=$TOP/cocci/inline_fnptr.cocci
: > "$OUT/cocci.txt"
for d in mm net; do
	s=$(date +%s%N)
	spatch --very-quiet --no-includes --include-headers --sp-file "$RULE" -D report \
		-D inline_list="$OUT/inline.list" --dir "$d" -j "$JOBS" 2>"$OUT/cocci-$d.err" \
		| sort >> "$OUT/cocci.txt"
	e=$(date +%s%N)
	echo "spatch $d: $(( (e - s) / 1000000 )) ms wall" >> "$OUT/cocci-times.txt.new"
done
mv "$OUT/cocci-times.txt.new" "$OUT/cocci-times.txt"

{
	echo "cachehot-bloat --census (mm/ + net/ipv4/udp.o): $(( (end - start) / 1000000 )) ms"
	tail -1 "$OUT/census.txt"
	cat "$OUT/pfunct.txt"
	cat "$OUT/cocci-times.txt"
	echo "cocci findings: $(wc -l < "$OUT/cocci.txt")"
	cat "$OUT/cocci.txt"
} > "$OUT/summary.txt"
cat "$OUT/census.txt" "$OUT/summary.txt"
