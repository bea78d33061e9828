#!/bin/bash
# layout/kernel-run.sh -- make layout-kernel: cachehot-layout on real input.
#  1. Debian's linux-source-6.1, configured in build/kernel-layout (our own
#     OBJDIR), mm/page_counter.o mm/memcontrol.o mm/vmscan.o mm/page_alloc.o
#     built with KCFLAGS=-g (-j2: the machine is shared);
#  2. the check with examples/linux-6.1.annotations over the four objects,
#     --show for page_counter, mem_cgroup, zone, pglist_data, and
#     --reorganize for each;
#  3. the running kernel's BTF (/sys/kernel/btf/vmlinux) where readable.
# Outputs go to build/kernel-layout/cachehot-layout/; the summary is printed.
# Findings and verdicts are recorded by hand in docs/kernel-6.1.md.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-layout
OUT=$O/cachehot-layout
LT=$TOP/bin/cachehot-layout
ANN=${ANN:-$TOP/examples/linux-6.1.annotations}
OBJS="mm/page_counter.o mm/memcontrol.o mm/vmscan.o mm/page_alloc.o"
[ -f "$ANN" ] || { echo "layout-kernel: $ANN missing" >&2; exit 2; }
SRC=$(kernel/prepare.sh "$O")
start=$(date +%s)
make -s -C "$SRC" O="$O" KCFLAGS=-g -j2 $OBJS >"$O/build.log" 2>&1 || {
	tail -20 "$O/build.log" >&2; echo "layout-kernel: kernel build failed (see $O/build.log)" >&2; exit 1; }
echo "built $OBJS with -g in $(( $(date +%s) - start )) s"
rm -rf "$OUT.tmp"; mkdir -p "$OUT.tmp"
files=""; for o in $OBJS; do files="$files $O/$o"; done
set +e
"$LT" --annotations "$ANN" $files >"$OUT.tmp/check.txt" 2>"$OUT.tmp/check.err"; rc=$?
echo "check exit status $rc: $(cat "$OUT.tmp/check.err")"
for s in page_counter mem_cgroup zone pglist_data; do
	"$LT" -q --annotations "$ANN" --show "$s" $files >"$OUT.tmp/show-$s.txt" 2>&1
	"$LT" -q --annotations "$ANN" --reorganize "$s" $files >"$OUT.tmp/reorganize-$s.txt" 2>&1
	echo "$s: $(grep -o '/\* [0-9]* conflicts\{0,1\} \*/' "$OUT.tmp/show-$s.txt" | tr -d '/*' | xargs); $(head -1 "$OUT.tmp/reorganize-$s.txt" | sed 's/^\/\* cachehot-layout --reorganize [a-z_]*: //')"
done
# pahole's --reorganize on the same object, for comparison (docs/layout.rst)
pahole --reorganize -C page_counter "$O/mm/page_counter.o" >"$OUT.tmp/pahole-reorganize-page_counter.txt" 2>&1
echo "pahole --reorganize page_counter: $(sed -n 's/.*\(parent\|_pad2_\)[^;]*; *\/\* *\([0-9]*\) .*/\1 at \2/p' "$OUT.tmp/pahole-reorganize-page_counter.txt" | paste -sd, | sed 's/,/, /g'); cachehot: $(sed -n 's/^\t.*[ *(]\(parent\|usage\|_pad1_\)\(;\|);\) *\/\* *\([0-9]*\) .*/\1 at \3/p' "$OUT.tmp/reorganize-page_counter.txt" | paste -sd, | sed 's/,/, /g')"
if [ -r /sys/kernel/btf/vmlinux ]; then
	"$LT" --annotations "$ANN" /sys/kernel/btf/vmlinux >"$OUT.tmp/btf-check.txt" 2>"$OUT.tmp/btf-check.err"; rc=$?
	echo "running kernel $(uname -r) BTF: exit status $rc: $(cat "$OUT.tmp/btf-check.err")"
	"$LT" -q --annotations "$ANN" --show page_counter /sys/kernel/btf/vmlinux >"$OUT.tmp/btf-show-page_counter.txt" 2>&1
	"$LT" -q --annotations "$ANN" --diff "$O/mm/page_counter.o" /sys/kernel/btf/vmlinux >"$OUT.tmp/diff-6.1-running.txt" 2>&1
	echo "6.1 objects vs running kernel (--diff page_counter.o): $(tail -1 "$OUT.tmp/diff-6.1-running.txt")"
else
	echo "running kernel BTF: /sys/kernel/btf/vmlinux not readable, skipped"
fi
set -e
rm -rf "$OUT"; mv "$OUT.tmp" "$OUT"
echo "--- findings ($OUT/check.txt):"
cat "$OUT/check.txt"
[ -f "$OUT/btf-check.txt" ] && { echo "--- running kernel ($OUT/btf-check.txt):"; cat "$OUT/btf-check.txt"; }
exit 0
