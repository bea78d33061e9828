#!/bin/bash
# kernel/annotate-run.sh -- make annotate-kernel: 6.1 mm/ + kernel/sched/
# built with -fplugin-arg-cachehot-access=DIR (parallel-safe: one file per
# unit), then cachehot annotate over mm/ alone and over both, and the
# comparison with the kernel's own placements (docs/annotate.md).
# Outputs in build/kernel-access-facts/ and build/annotate-6.1/.
#
# annotate-run.sh --print-plugin-flags PLUGIN FACTS prints the plugin flags
# the build uses (tests/annotate compiles with them under -Werror).
set -eu
# Only access facts are wanted here: the checks that print findings on their
# own initiative are off, and werror=0 keeps any other finding a warning under
# the tree's CONFIG_WERROR (a finding must never stop the facts build).
plugin_flags() {
	echo "-fplugin=$1 -fplugin-arg-cachehot-access=$2 -fplugin-arg-cachehot-inline-addr=0" \
	     "-fplugin-arg-cachehot-counter-batch=0 -fplugin-arg-cachehot-werror=0"
}
if [ "${1:-}" = --print-plugin-flags ]; then
	plugin_flags "$2" "$3"
	exit 0
fi
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
nice -n 10 make -s -C "$SRC" O="$O" -j2 \
	KCFLAGS="$(plugin_flags "$BUILD/kernel-access-plugin/cachehot.so" "$FACTS")" mm/ kernel/sched/
echo "annotate-kernel: build $(( $(date +%s) - start )) s, $(ls "$FACTS" | wc -l) facts files" >&2
mkdir -p "$OUT/mm" "$OUT/sched"
rm -f "$OUT"/mm/* "$OUT"/sched/*
cp "$FACTS"/*,mm,*.access.json "$OUT/mm/"
cp "$FACTS"/*,kernel,sched,*.access.json "$OUT/sched/"
"$TOP/bin/cachehot" annotate "$OUT/mm" -o "$OUT/mm.sidecar"
"$TOP/bin/cachehot" annotate "$OUT/mm" "$OUT/sched" -o "$OUT/mm-sched.sidecar"
grep '^page_counter\.' "$OUT/mm.sidecar" | cut -f1
python3 "$TOP/kernel/annotate-compare.py" "$TOP/kernel/annotate-truth-6.1.txt" "$OUT/mm-sched.sidecar" \
	"$TOP/kernel/annotate-verdicts-6.1.txt" >"$OUT/compare.md"
tail -3 "$OUT/compare.md"
echo "annotate-kernel: $OUT/mm.sidecar, $OUT/mm-sched.sidecar, $OUT/compare.md" >&2
