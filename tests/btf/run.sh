#!/bin/bash
# Crafted raw BTF, generated here by mkbtf.py (nothing big
# is committed): cachehot-layout refuses malformed input with a clear error
# and exit status 2 in every mode, never a signal inside libbpf or itself,
# and --show output stays bounded.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
LT=$TOP/bin/cachehot-layout
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ -x "$LT" ] || { fail btf-build "$LT missing"; exit 0; }

# CASE|expected error after "cachehot-layout: FILE: "
cases=(
"self-zero|malformed BTF: a struct contains itself"
"self-array|malformed BTF: a struct contains itself"
"ptr-cycle|malformed BTF: type 2 refers to itself through pointers, modifiers or anonymous members"
"ptr-self|malformed BTF: type 2 refers to itself through pointers, modifiers or anonymous members"
"int-size-0|malformed BTF: type 2 has an impossible size (0 bytes)"
"member-void|malformed BTF: member 0 of type 2 has no layout (void, a function or a forward declaration)"
"member-fwd|malformed BTF: member 1 of type 3 has no layout (void, a function or a forward declaration)"
"typedef-chain|malformed BTF: member type 2 does not resolve to a type of known size (more than 32 typedefs or modifiers: libbpf's limit)"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name want <<<"$c"
	python3 tests/btf/mkbtf.py "$name" "$T/$name.btf" || { fail "btf/$name" "mkbtf failed"; continue; }
	for mode in check show reorganize; do
		args=(); [ $mode = check ] || args=(--$mode pc)
		# the guard only catches a hang; the case asserts the message
		timeout 120 "$LT" -q "${args[@]}" "$T/$name.btf" >"$T/out" 2>&1
		rc=$?
		expect_eq "btf/$name/$mode" "2|cachehot-layout: $T/$name.btf: $want" "$rc|$(cat "$T/out")"
	done
done

# aligned(1 << 28): 4194304 boundaries in one hole, printed as three lines
python3 tests/btf/mkbtf.py huge-hole "$T/hh.btf"
timeout 120 "$LT" --show pc "$T/hh.btf" >"$T/out" 2>&1
rc=$?
expect_eq btf/huge-hole/status 0 $rc
expect_eq btf/huge-hole/lines 13 "$(wc -l <"$T/out")"
expect_eq btf/huge-hole/boundaries "	/* --- cacheline 1 boundary (64 bytes) --- */
	/* --- 4194302 more cacheline boundaries in the hole --- */
	/* --- cacheline 4194304 boundary (268435456 bytes) --- */
	long max;                                               /* 268435456     8 */ aligned(4096)" \
	"$(sed -n '6,9p' "$T/out")"

# a short hole keeps every boundary (as pahole prints them)
python3 tests/btf/mkbtf.py many-fields "$T/mf.btf" 20
"$LT" --show wide --line-size 64 "$T/mf.btf" >"$T/out" 2>&1
expect_eq btf/boundaries-kept 2 "$(grep -c 'cacheline [12] boundary' "$T/out")"

# [cachehot-array-sharing] from BTF: VARs of a DATASEC (vmlinux has them;
# pahole 1.24 encodes only per-CPU ones in an object), marked in a sidecar:
# an array and a heap array with exact element size, line and cost; an
# extern VAR is judged where it is defined (its entry stays unmatched); the
# fix is the kernel's (BTF is kernel code)
python3 tests/btf/mkbtf.py per-thread-vars "$T/ptv.btf"
printf 'workers[] per_thread\nheap_workers[16] per_thread\next_workers[] per_thread\n' >"$T/ptv.ann"
"$LT" -q --annotations "$T/ptv.ann" "$T/ptv.btf" >"$T/out" 2>&1
rc=$?
expect_eq btf/array-sharing-vars "1|$T/ptv.btf: warning: array 'workers' of per-thread 72-byte elements: field 'spare' of element 0 (offset 16 in the element, byte 16 of the array) shares cache line 1 of the array (64-byte lines) with 'fd' of element 1 (byte 72), written by another thread; mark 'struct worker' ____cacheline_aligned_in_smp; this costs element 72 -> 128 bytes: 56 bytes per element, 224 bytes for the 4 elements [cachehot-array-sharing]
$T/ptv.btf: warning: heap array 'heap_workers' of per-thread 72-byte elements: field 'spare' of element 0 (offset 16 in the element, byte 16 of the array) shares cache line 1 of the array (64-byte lines) with 'fd' of element 1 (byte 72), written by another thread; mark 'struct worker' ____cacheline_aligned_in_smp; this costs element 72 -> 128 bytes: 56 bytes per element, 896 bytes for the 16 elements [cachehot-array-sharing]
cachehot-layout: note: sidecar entry 'ext_workers[]' (/tmp/ptv.ann:3) matched no array in the input: a per_thread entry names an array variable (or a pointer to a heap array) or a struct tag (every array of that type), STRUCT.FIELD an array or pointer member [cachehot]" \
	"$rc|$(sed "s#$T/ptv.ann#/tmp/ptv.ann#" "$T/out")"

# the layout fixture through BTF (pahole -J, DWARF stripped): the member
# arrays, the member pointer and the marked type give the plugin's findings
# for kernel code (-D__KERNEL__ -DCONFIG_SMP: BTF is the kernel's), at the input path;
# the variables are not in an object's BTF (pahole 1.24), their sidecar
# entry stays unmatched
PLUGIN=$TOP/plugin/cachehot.so
f=tests/fixtures/array_sharing.c
if [ -f "$PLUGIN" ] && gcc -fplugin="$PLUGIN" -fplugin-arg-cachehot-annotations=tests/fixtures/array_sharing.ann \
	-fplugin-arg-cachehot-manifest="$T/as.json" -D__KERNEL__ -DCONFIG_SMP -Iinclude -g -O2 -c "$f" -o "$T/as.o" \
	-fdiagnostics-plain-output 2>"$T/as-plugin.txt" && pahole -J "$T/as.o" 2>/dev/null &&
	objcopy --strip-debug "$T/as.o" 2>/dev/null; then
	"$LT" -q --manifest "$T/as.json" --annotations tests/fixtures/array_sharing.ann "$T/as.o" >"$T/as-btf.txt" 2>&1
	expect_eq btf/array-sharing-fixture \
		"$( { grep -v "array 'stats'\|array 'heap_workers2\{0,1\}'" "$T/as-plugin.txt" | sed "s#^$f:[0-9]*:[0-9]*: ##"
		      echo "note: sidecar entry 'heap_workers[]' (tests/fixtures/array_sharing.ann:3) matched no array in the input: a per_thread entry names an array variable (or a pointer to a heap array) or a struct tag (every array of that type), STRUCT.FIELD an array or pointer member [cachehot]"
		      echo "note: sidecar entry 'heap_workers2[]' (tests/fixtures/array_sharing.ann:5) matched no array in the input: a per_thread entry names an array variable (or a pointer to a heap array) or a struct tag (every array of that type), STRUCT.FIELD an array or pointer member [cachehot]"; } | sort)" \
		"$(sed "s#^$T/as.o: ##; s#^cachehot-layout: ##" "$T/as-btf.txt" | sort)"
	expect_eq btf/array-sharing-fixture-count 3 "$(grep -c 'cachehot-array-sharing' "$T/as-btf.txt")"
else
	fail btf/array-sharing-fixture "the fixture did not compile to a BTF-only object"
fi
