#!/bin/bash
# bloat/compare-pfunct.sh OBJ|DIR... -- compare cachehot-bloat's copies with
# pfunct (dwarves): sizes (pfunct -s, from DWARF low/high pc) and what
# pfunct -G ("declared inline, uninlined by compiler") lists. Prints one
# summary block; used for docs/bloat.rst and make bloat-kernel.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BLOAT=$TOP/bin/cachehot-bloat
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$BLOAT" --format=lines "$@" > "$T/copies" 2>/dev/null
agree=0 differ=0 missing=0 g_listed=0 g_total=0
cut -f1 "$T/copies" | sort -u > "$T/objs"
while read -r obj; do
	pfunct -s "$obj" 2>/dev/null | sed 's/: /\t/' > "$T/sizes"
	pfunct -G "$obj" 2>/dev/null | sed -n 's/^[^(]* \**\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' | sort -u > "$T/g"
	g_total=$((g_total + $(wc -l < "$T/g")))
	awk -F'\t' -v o="$obj" '$1 == o' "$T/copies" > "$T/mine"
	while IFS=$'\t' read -r o sym fn bytes decl how scope; do
		ps=$(awk -F'\t' -v f="$fn" '$1 == f {print $2; exit}' "$T/sizes")
		if [ -z "$ps" ]; then missing=$((missing + 1)); echo "  pfunct has no size for $o $sym" >&2
		elif [ "$ps" = "$bytes" ]; then agree=$((agree + 1))
		else differ=$((differ + 1)); echo "  size differs: $o $sym: cachehot-bloat $bytes, pfunct -s $ps" >&2; fi
		grep -qx "$fn" "$T/g" && g_listed=$((g_listed + 1))
	done < "$T/mine"
done < "$T/objs"
echo "copies: $(wc -l < "$T/copies") in $(wc -l < "$T/objs") objects"
echo "pfunct -s size: $agree agree, $differ differ, $missing not listed"
echo "pfunct -G lists $g_listed of these copies ($g_total functions in all)"
