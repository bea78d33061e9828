#!/bin/bash
# scripts/demo.sh -- the main job (make demo): run the plugin over the seed
# stories in examples/ and print each story's findings under a one-line
# explanation taken from the example's first comment sentence.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
export LC_ALL=C
total=0
for f in examples/*.c; do
	why=$(awk '/\/\*/ {on=1} on {sub(/^[ \t]*\/?\*+\/?[ \t]?/, ""); printf "%s ", $0} /\*\// {exit}' "$f" |
	      sed 's/\*\/.*//; s/  */ /g; s/\([.!?]\) .*/\1/')
	args=$(sed -n 's/^.*cachehot-args:\([^*]*\).*$/\1/p' "$f" | head -1 | tr ' ' '\n' | sed '/^$/d; s/^/-fplugin-arg-cachehot-/')
	echo "== $f"
	echo "   $why"
	out=$(gcc -fplugin=plugin/cachehot.so $args -Iinclude -O2 -c "$f" -o /dev/null \
		-fdiagnostics-plain-output 2>&1 | grep -E '\[cachehot-[a-z-]+\]$')
	if [ -z "$out" ]; then echo "   clean: no finding"; else
		echo "$out" | sed 's/^/   /'
		total=$((total + $(echo "$out" | grep -c ': warning: ')))
	fi
	echo
done
echo "demo: $total warnings over $(ls examples/*.c | wc -l) examples (sidecar for the real 6.1 tree: examples/linux-6.1.annotations; make kernel-check)"
