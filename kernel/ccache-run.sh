#!/bin/bash
# kernel/ccache-run.sh -- make ccache-kernel: 6.1 mm/ with the access mode
# through ccache twice. The first build misses on every unit (each object is
# compiled: an uncached build); the objects are deleted and the second build
# is served entirely from the cache (every unit a hit). cachehot annotate
# over the objects of each build must give the same suggestion, and the
# same as over the first build's facts directory (docs/plugin.rst, "Builds,
# caches and compile farms"). Outputs in build/ccache-6.1/.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-ccache
OUT=$BUILD/ccache-6.1
export CCACHE_DIR=$OUT/cache CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=2G
command -v ccache >/dev/null || { echo "ccache-kernel: ccache is not installed (make deps)" >&2; exit 2; }
SRC=$("$TOP"/kernel/prepare.sh "$O")
mkdir -p "$OUT/plugin"
cp "$TOP/plugin/cachehot.so" "$OUT/plugin/cachehot.so"   # fixed for both builds
rm -rf "$OUT/facts" "$CCACHE_DIR" "$OUT"/*.sidecar
ccache -z >/dev/null
KC="-fplugin=$OUT/plugin/cachehot.so -fplugin-arg-cachehot-access=$OUT/facts \
-fplugin-arg-cachehot-inline-addr=0 -fplugin-arg-cachehot-werror=0"
build() {
	find "$O/mm" -name '*.o' -delete 2>/dev/null || true
	local start=$(date +%s)
	nice -n 10 make -s -C "$SRC" O="$O" -j2 CC="ccache gcc" KCFLAGS="$KC" mm/
	echo "ccache-kernel: $1 build $(( $(date +%s) - start )) s" >&2
}
stat_of() { ccache --print-stats | awk -F'\t' -v k="$1" '$1==k {print $2}'; }
build first
miss1=$(stat_of cache_miss); hit1=$(( $(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit) ))
nfacts=$(ls "$OUT/facts" | grep -c ',mm,' || true)
"$TOP/bin/cachehot" annotate "$O/mm" -o "$OUT/uncached.sidecar"
# the facts files of mm/ (the directory also holds prepare's units: bounds.c,
# asm-offsets.c, kbuild's cc-option probes of /dev/null)
rm -rf "$OUT/facts-mm"; mkdir -p "$OUT/facts-mm"
cp "$OUT/facts"/*,mm,*.access.json "$OUT/facts-mm/"
"$TOP/bin/cachehot" annotate "$OUT/facts-mm" -o "$OUT/facts.sidecar"
rm -rf "$OUT/facts"
ccache -z >/dev/null
build second
miss2=$(stat_of cache_miss); hit2=$(( $(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit) ))
nfacts2=$(ls "$OUT/facts" 2>/dev/null | grep -c ',mm,' || true)
"$TOP/bin/cachehot" annotate "$O/mm" -o "$OUT/cached.sidecar"
objs=$(find "$O/mm" -name '*.o' | wc -l)
echo "first build: $miss1 misses, $hit1 hits, $nfacts facts files under mm/"
echo "second build: $miss2 misses, $hit2 hits, $nfacts2 facts files written (hits write none), $objs objects"
echo "suggestion lines: $(grep -vc '^#\|^$' "$OUT/uncached.sidecar" || true)"
rc=0
if cmp -s "$OUT/uncached.sidecar" "$OUT/cached.sidecar"; then
	echo "ccache-kernel: the annotate output of the cached build equals the uncached build's"
else
	echo "ccache-kernel: FAIL: cached and uncached annotate outputs differ:" >&2
	diff "$OUT/uncached.sidecar" "$OUT/cached.sidecar" | head -20 >&2; rc=1
fi
if cmp -s "$OUT/uncached.sidecar" "$OUT/facts.sidecar"; then
	echo "ccache-kernel: the objects give the same output as the mm/ facts files"
else
	echo "ccache-kernel: FAIL: objects and facts directory differ:" >&2
	diff "$OUT/facts.sidecar" "$OUT/uncached.sidecar" | head -20 >&2; rc=1
fi
[ "$miss2" = 0 ] || { echo "ccache-kernel: FAIL: the second build missed $miss2 times" >&2; rc=1; }
exit $rc
