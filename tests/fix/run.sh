#!/bin/bash
# Fix suite: the one fix per struct, applied.
#  1. every fixture whose findings carry a struct fix (tests/fixtures/*.c and
#     tests/fix/*.c, userspace and kernel vocabulary; breaks, split
#     declarations and moves) is compiled with the plugin and
#     -fdiagnostics-parseable-fixits; the fix-its are applied
#     (tests/fix/apply-fixits.py); the patched file compiles, the plugin finds
#     no false sharing in it any more, and pahole gives the struct exactly the
#     size the message promised;
#  2. a fix that must not split a hot group moves a field instead, and the
#     layout it describes (written out here) is clean at the promised size;
#  3. the userspace fixes compile under gcc -std=c11 -Wall -Werror -pedantic.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
PLUGIN=$TOP/plugin/cachehot.so
CC=${CC:-gcc}
export LC_ALL=C
[ -f "$PLUGIN" ] || { fail fix/plugin "$PLUGIN missing (make plugin)"; exit 0; }
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

n=0
for f in tests/fixtures/*.c tests/fix/*.c; do
	grep -q 'one fix for all of' "$f" || [ "${f#tests/fix/}" != "$f" ] || continue
	base=$(basename "$f" .c)
	d=$T/$base; mkdir -p "$d"
	cp -L tests/fixtures/*.h tests/fixtures/*.ann "$d"/ 2>/dev/null
	cp -L "$f" "$d/$base.c"
	# sidecar arguments name tests/fixtures/X: run from a copy of that layout
	mkdir -p "$d/tests/fixtures"; cp -L tests/fixtures/*.ann "$d/tests/fixtures/" 2>/dev/null
	args=$(fixture_plugin_args "$f")
	(cd "$d" && $CC -fplugin="$PLUGIN" $args -I"$TOP/include" -c "$base.c" -o /dev/null \
		-fdiagnostics-plain-output -fdiagnostics-parseable-fixits) >"$d/out.txt" 2>&1
	fixes=$(grep -o "one fix for all of '[^']*[^']*': [^[]*" "$d/out.txt" | sort -u)
	[ -n "$fixes" ] || continue
	n=$((n + 1))
	name=fix/applied-$base
	grep '^fix-it:"'"$base"'.c"' "$d/out.txt" >"$d/fixits.txt"
	if ! [ -s "$d/fixits.txt" ] || ! (cd "$d" && python3 "$TOP/tests/fix/apply-fixits.py" <fixits.txt >/dev/null); then
		fail "$name" "no fix-it, or it did not apply: $(head -3 "$d/fixits.txt")"; continue
	fi
	if ! (cd "$d" && $CC -fplugin="$PLUGIN" $args -I"$TOP/include" -g -c "$base.c" -o "$base.o" \
		-fdiagnostics-plain-output) >"$d/after.txt" 2>&1; then
		fail "$name" "patched file does not compile: $(grep error "$d/after.txt" | head -2)"; continue
	fi
	bad=""
	nfix=$(printf '%s\n' "$fixes" | wc -l)
	while IFS= read -r fx; do
		st=$(printf '%s\n' "$fx" | sed -n "s/^one fix for all of '\(struct \)\{0,1\}\([A-Za-z0-9_]*\)'.*/\2/p")
		want=$(printf '%s\n' "$fx" | sed -n 's/.* -> \([0-9]*\) bytes.*/\1/p')
		[ -n "$want" ] || want=$(printf '%s\n' "$fx" | sed -n 's/.*stays \([0-9]*\) bytes.*/\1/p')
		if grep -q "warning: .* of '\(struct \)\{0,1\}$st' .*\[cachehot-false-sharing\]" "$d/after.txt"; then
			bad="$bad $st: still shares lines: $(grep -m1 "of '\(struct \)\{0,1\}$st'" "$d/after.txt");"
		fi
		# the promised size holds for this fix alone (a struct embedding another
		# fixed struct grows with it) and at this build's line size
		if [ "$nfix" -eq 1 ] && ! printf '%s\n' "$fx" | grep -q 'with [0-9]*-byte lines'; then
			got=$(pahole -C "$st" "$d/$base.o" 2>/dev/null | sed -n 's/.*size: \([0-9]*\),.*/\1/p' | head -1)
			[ "$got" = "$want" ] || bad="$bad $st: size $got, promised $want;"
		fi
	done <<<"$fixes"
	if [ -z "$bad" ]; then ok "$name"; else fail "$name" "$bad"; fi
	# userspace fixes are standard C
	if ! grep -q '__KERNEL__' "$d/$base.c"; then
		if grep -q '_Alignas' "$d/$base.c"; then
			if $CC -std=c11 -Wall -Werror -pedantic -I"$TOP/include" -c "$d/$base.c" -o /dev/null 2>"$d/ped.txt"; then
				ok "fix/pedantic-$base"
			elif grep -q '_Alignas' "$d/ped.txt"; then
				fail "fix/pedantic-$base" "$(head -3 "$d/ped.txt")"
			fi
		fi
	else
		# a fix with breaks writes them as CACHELINE_PADDING (a reorder has none)
		if grep -q "one fix for all of [^:]*: insert CACHELINE_PADDING" "$d/out.txt"; then
			grep -q 'CACHELINE_PADDING(_pad' "$d/$base.c" && ok "fix/kernel-vocabulary-$base" ||
				fail "fix/kernel-vocabulary-$base" "kernel fixture patched without CACHELINE_PADDING"
		fi
	fi
done
[ "$n" -ge 8 ] && ok fix/fixtures-with-struct-fixes || fail fix/fixtures-with-struct-fixes "only $n fixtures carried a struct fix"

# ---- 2. a hot group is never split: the read-mostly fields move together -------
out=$($CC -fplugin="$PLUGIN" -Iinclude -c tests/fix/one_fix.c -o /dev/null -fdiagnostics-plain-output 2>&1)
want="one fix for all of 'struct conn': declare 'rx', 'drops' _Alignas(64), and move 'flags' after 'id', move 'limit' after 'flags'; this costs 128 bytes per object (64 -> 192 bytes; an array of n grows by 128*n bytes)"
expect_eq fix/group-not-split "11|1|$want" \
	"$(grep -c 'cachehot-false-sharing' <<<"$out")|$(grep -o "one fix for all of [^[]*" <<<"$out" | sort -u | wc -l)|$(grep -o "one fix for all of [^[]*" <<<"$out" | sort -u | sed 's/ $//')"
cat >"$T/conn_fixed.c" <<'EOC'
#include "cachehot.h"
struct conn {
	unsigned long id __cacheline_read_mostly;
	unsigned long flags __cacheline_read_mostly;
	unsigned long limit __cacheline_read_mostly;
	_Alignas(64) unsigned long rx __cacheline_hot_group(io);
	unsigned long tx __cacheline_hot_group(io);
	_Alignas(64) unsigned long drops __cacheline_hot;
} __attribute__((aligned(64)));
struct conn c;
EOC
out=$($CC -fplugin="$PLUGIN" -Iinclude -g -c "$T/conn_fixed.c" -o "$T/conn_fixed.o" -fdiagnostics-plain-output 2>&1)
expect_eq fix/group-fix-applied-clean "0|192" \
	"$(grep -c 'cachehot-false-sharing' <<<"$out")|$(pahole -C conn "$T/conn_fixed.o" | sed -n 's/.*size: \([0-9]*\),.*/\1/p')"

# ---- 3. the five-minute start (docs/cachehot.rst) compiles as written ----------
qs=examples/quickstart.c
$CC -std=c11 -Wall -Werror -pedantic -Iinclude -c "$qs" -o /dev/null 2>"$T/qs.txt"; rc=$?
expect_eq fix/quickstart-pedantic "0|" "$rc|$(head -2 "$T/qs.txt")"
code=$(sed -n '/^#include <cachehot.h>/,$p' "$qs" | expand | sed '/^$/d')
doc=$(sed -n '/^Userspace C/,/^Check it/p' docs/cachehot.rst | sed -n 's/^    //p' | sed '/^$/d')
expect_eq fix/quickstart-docs-equal-example "$code" "$doc"
out=$(bin/cachehot check -I include "$qs" 2>&1); rc=$?
expect_eq fix/quickstart-finding "1|1" "$rc|$(grep -c "8:23: warning: read-mostly field 'limit' (offset 8, size 8) shares cache line 0 (64-byte lines) of 'struct stats' with hot field 'hits' (offset 0, size 8); one fix for all of 'struct stats': declare 'limit' _Alignas(64); this costs 112 bytes per object (16 -> 128 bytes; an array of n grows by 112\*n bytes) \[cachehot-false-sharing\]" <<<"$out")"
exit 0
