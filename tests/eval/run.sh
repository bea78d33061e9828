#!/bin/bash
# Crafted line-size macros: every front-end reads
# SMP_CACHE_BYTES through the core's total evaluation. For each body that
# cannot be evaluated, the plugin, the sparse checker and cachehot-layout
# (macro table of the -g3 object) must finish without a signal or an ICE,
# print the same note at the macro's line, and judge with 64-byte lines.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
PLUGIN=$TOP/plugin/cachehot.so SP=$TOP/bin/cachehot-sparse LT=$TOP/bin/cachehot-layout
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for x in "$PLUGIN" "$SP" "$LT"; do [ -e "$x" ] || { fail eval-build "$x missing"; exit 0; }; done

# NAME|DEFINES (';'-separated, the last one is SMP_CACHE_BYTES)|REASON
cases=(
"llong-min-div|#define SMP_CACHE_BYTES ((-9223372036854775807LL - 1) / -1)|overflow"
"llong-min-mod|#define SMP_CACHE_BYTES ((-9223372036854775807LL - 1) % -1)|overflow"
"div-zero|#define SMP_CACHE_BYTES (64 / (1 - 1))|division by zero"
"mod-zero|#define SMP_CACHE_BYTES (64 % 0)|division by zero"
"shift-64|#define SMP_CACHE_BYTES (1 << 64)|shift count out of range"
"shift-neg|#define SMP_CACHE_BYTES (1 << -1)|shift count out of range"
"shl-overflow|#define SMP_CACHE_BYTES (3 << 62)|overflow"
"mul-overflow|#define SMP_CACHE_BYTES (4294967296 * 4294967296)|overflow"
"add-overflow|#define SMP_CACHE_BYTES (9223372036854775807 + 1)|overflow"
"neg-min|#define SMP_CACHE_BYTES (-(-9223372036854775807LL - 1))|overflow"
"too-big|#define SMP_CACHE_BYTES 99999999999999999999|integer constant out of range"
"deep-parens|#define SMP_CACHE_BYTES $(printf '(%.0s' {1..200})64$(printf ')%.0s' {1..200})|operators or parentheses nested more than 64 deep"
"deep-unary|#define SMP_CACHE_BYTES $(printf -- '- %.0s' {1..200})64|operators or parentheses nested more than 64 deep"
"recursion|#define CH_A CH_B;#define CH_B CH_A;#define SMP_CACHE_BYTES CH_A|macros nested more than 16 deep at 'CH_A'"
"fan-out|#define F0 1;$(for i in $(seq 1 15); do printf '#define F%d (F%d+F%d+F%d+F%d);' $i $((i-1)) $((i-1)) $((i-1)) $((i-1)); done)#define SMP_CACHE_BYTES F15|more than 100000 operands"
"non-constant|#define SMP_CACHE_BYTES (sizeof(long) * 8)|'sizeof' is not an object-like macro with a constant value"
"function-like|#define CH_F(x) (x);#define SMP_CACHE_BYTES CH_F(64)|'CH_F' is not an object-like macro with a constant value"
"empty|#define SMP_CACHE_BYTES|not a constant expression"
"float|#define SMP_CACHE_BYTES 64.0|not an integer constant"
"not-a-line-size|#define SMP_CACHE_BYTES (3 * 32)|96 is not a line size (a power of two, 8 to 4096 bytes)"
"negative|#define SMP_CACHE_BYTES (-64)|-64 is not a line size (a power of two, 8 to 4096 bytes)"
)

gen() {   # gen FILE DEFINES: the defines, then a struct judged with the line size
	{
		echo '#include "cachehot.h"'
		echo "$2" | tr ';' '\n'
		cat <<'C'
struct big_line {
	unsigned long usage __cacheline_hot;
	char gap[32];
	unsigned long max __cacheline_read_mostly;
};
struct big_line b;
C
	} >"$1"
}
signal_free() { [ "$1" -lt 128 ] && ! grep -q 'internal compiler error\|Floating point\|Segmentation' "$2"; }

printf 'big_line.usage hot\nbig_line.max read_mostly\n' >"$T/s.ann"
for c in "${cases[@]}" "control-128|#define CH_SHIFT 7;#define SMP_CACHE_BYTES (_AC(1,UL) << CH_SHIFT)|"; do
	IFS='|' read -r name defs why <<<"$c"
	f=$T/$name.c
	gen "$f" "$defs"
	nd=$(($(echo "$defs" | tr ';' '\n' | wc -l) + 1))   # line of SMP_CACHE_BYTES
	if [ -n "$why" ]; then
		lines=64
		note="note: cannot take the cache line size from 'SMP_CACHE_BYTES' ($why): using the default, 64 bytes; give the line size explicitly to choose another [cachehot]"
	else
		lines=128 note=
	fi
	warn="read-mostly field 'max' (offset 40, size 8) shares cache line 0 ($lines-byte lines)"
	# plugin (also builds the -g3 object for cachehot-layout)
	gcc -fplugin="$PLUGIN" -Iinclude -g3 -c "$f" -o "$T/$name.o" -fdiagnostics-plain-output >"$T/p.txt" 2>&1
	rc=$?
	for engine in plugin sparse layout; do
		case $engine in
		sparse) "$SP" -Iinclude "$f" >"$T/p.txt" 2>&1; rc=$? ;;
		layout) "$LT" --annotations "$T/s.ann" "$T/$name.o" >"$T/p.txt" 2>&1; rc=$? ;;
		esac
		if ! signal_free $rc "$T/p.txt"; then
			fail "eval/$engine/$name" "exit $rc: $(head -3 "$T/p.txt")"; continue
		fi
		# the line of the definition; columns differ (DWARF has none)
		got=$(sed 's/^\([^:]*:[0-9]*:\)[0-9]*: /\1 /' "$T/p.txt" | grep -cxF "$f:$nd: $note")
		[ -z "$note" ] && got=$(grep -c "cannot take the cache line size" "$T/p.txt")
		want=1; [ -z "$note" ] && want=0
		if [ "$got" != $want ]; then
			fail "eval/$engine/$name" "note at line $nd: $want expected, $got found: $(head -4 "$T/p.txt")"
		elif ! grep -qF "$warn" "$T/p.txt"; then
			fail "eval/$engine/$name" "not judged with $lines-byte lines: $(head -3 "$T/p.txt")"
		else
			ok "eval/$engine/$name"
		fi
	done
done
