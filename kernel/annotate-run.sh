#!/bin/bash
# kernel/annotate-run.sh -- make annotate-kernel: 6.1 mm/ + kernel/sched/
# built with -fplugin-arg-cachehot-access=DIR (parallel-safe: one file per
# unit), then cachehot annotate over mm/ alone and over both, and the
# comparison with the kernel's own placements (docs/annotate.md).
# Outputs in build/kernel-access-facts/ and build/annotate-6.1/.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-access
FACTS=$BUILD/kernel-access-facts
OUT=$BUILD/annotate-6.1
SRC=$("$TOP"/kernel/prepare.sh "$O")
# the plugin is copied: a rebuild during the kernel build must not change it
mkdir -p "$BUILD/kernel-access-plugin" "$OUT"
cp "$TOP/plugin/cachehot.so" "$BUILD/kernel-access-plugin/cachehot.so"
rm -rf "$FACTS"; mkdir -p "$FACTS"
find "$O/mm" "$O/kernel/sched" -name '*.o' -delete 2>/dev/null || true
start=$(date +%s)
nice -n 10 make -s -C "$SRC" O="$O" -j2 KCFLAGS="-fplugin=$BUILD/kernel-access-plugin/cachehot.so \
	-fplugin-arg-cachehot-access=$FACTS -fplugin-arg-cachehot-inline-addr=0 \
	-fplugin-arg-cachehot-werror=0" mm/ kernel/sched/
echo "annotate-kernel: build $(( $(date +%s) - start )) s, $(ls "$FACTS" | wc -l) facts files" >&2
mkdir -p "$OUT/mm" "$OUT/sched"
rm -f "$OUT"/mm/* "$OUT"/sched/*
cp "$FACTS"/*,mm,*.access.json "$OUT/mm/"
cp "$FACTS"/*,kernel,sched,*.access.json "$OUT/sched/"
"$TOP/bin/cachehot" annotate "$OUT/mm" -o "$OUT/mm.sidecar"
"$TOP/bin/cachehot" annotate "$OUT/mm" "$OUT/sched" -o "$OUT/mm-sched.sidecar"
grep '^page_counter\.' "$OUT/mm.sidecar" | cut -f1
python3 "$TOP/kernel/annotate-compare.py" "$TOP/kernel/annotate-truth-6.1.txt" "$OUT/mm-sched.sidecar" \
	>"$OUT/compare.md"
tail -2 "$OUT/compare.md"
echo "annotate-kernel: $OUT/mm.sidecar, $OUT/mm-sched.sidecar, $OUT/compare.md" >&2
