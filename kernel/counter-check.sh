#!/bin/bash
# kernel/counter-check.sh -- build Debian's 6.1 mm/ with the plugin and list
# every [cachehot-counter-batch] finding (make counter-kernel). Objects in
# $BUILD/kernel-counter (its own O= dir: other flags than kernel-check);
# output there: counter-build.log (the whole build) and counter-findings.txt
# (unique findings with their notes, paths relative to the source tree).
# Runs at nice 10 with J=2 jobs unless J= says otherwise; OBJS= overrides
# the objects (default mm/). -Wno-error: defconfig sets CONFIG_WERROR.
# The config adds CONFIG_CMA and CONFIG_TRANSPARENT_HUGEPAGE to
# kernel/prepare.sh's (defconfig + MEMCG + LRU_GEN): without CMA
# is_migrate_cma() is constant false and rmqueue_bulk()'s NR_FREE_CMA_PAGES
# update is folded away before any GIMPLE pass sees it; without THP
# mm/khugepaged.c is not compiled.
# Exit status 1 on an internal compiler error, a failed build, or a finding
# that carries a placeholder. With CACHEHOT_COUNTER_EXPLAIN=1 the plugin
# also says which updates it kept silent and why (counter-silent.txt).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-counter
SRC=$("$TOP"/kernel/prepare.sh "$O") || exit 1
if ! grep -q '^CONFIG_CMA=y' "$O/.config" || ! grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$O/.config"; then
	echo "cachehot: enabling CONFIG_CMA and CONFIG_TRANSPARENT_HUGEPAGE in $O" >&2
	"$SRC"/scripts/config --file "$O/.config" -e CMA -e TRANSPARENT_HUGEPAGE >&2
	make -s -C "$SRC" O="$O" olddefconfig >&2
	nice -n 10 make -s -C "$SRC" O="$O" -j2 prepare >&2 || exit 1
fi
OBJS=${OBJS:-mm/}
J=${J:-2}
for o in $OBJS; do
	case "$o" in
	*/) [ -d "$O/$o" ] && find "$O/$o" -name '*.o' -delete ;;
	*) rm -f "$O/$o" ;;
	esac
done
# a private copy of the plugin: rebuilding plugin/ during the run does not
# mix two versions into one result
# (same base name: GCC names a plugin after its file)
mkdir -p "$O/plugin-copy" && cp "$TOP/plugin/cachehot.so" "$O/plugin-copy/cachehot.so" || exit 1
KC="-fplugin=$O/plugin-copy/cachehot.so -fplugin-arg-cachehot-inline-addr=0 -Wno-error"
start=$(date +%s)
echo "cachehot: building $OBJS in $O with the counter-batch pass (log: $O/counter-build.log)"
nice -n 10 make -C "$SRC" O="$O" -j"$J" KCFLAGS="$KC" $OBJS >"$O/counter-build.log" 2>&1
rc=$?
echo "cachehot: build finished in $(( $(date +%s) - start )) s, exit $rc"
if grep -q "internal compiler error" "$O/counter-build.log"; then
	grep -B2 -A8 "internal compiler error" "$O/counter-build.log" | head -40
	echo "cachehot: INTERNAL COMPILER ERROR (release blocker)"; exit 1
fi
[ $rc -eq 0 ] || { tail -30 "$O/counter-build.log"; exit 1; }
# paths relative to the tree, whether GCC saw it through the symlink or not
RSRC=$(cd "$SRC" && pwd -P)
grep -h 'cachehot-counter-batch' "$O/counter-build.log" |
	sed "s|$RSRC/||g; s|$SRC/||g; s|^\.\./||" |
	awk '!seen[$0]++' >"$O/counter-findings.txt"
# CACHEHOT_COUNTER_EXPLAIN=1 in the environment: the silenced ones, with why
grep -h '^cachehot: counter-batch: silent' "$O/counter-build.log" | sed "s|$RSRC/||g; s|$SRC/||g" |
	sort -u >"$O/counter-silent.txt"
echo "cachehot: $(grep -c ': warning:' "$O/counter-findings.txt") warnings, $(grep -c ': note: statistics\|: note: the loop at' "$O/counter-findings.txt") notes:"
sed 's/^/  /' "$O/counter-findings.txt"
# a finding must never carry a placeholder: "(?)" for what a target is
# looked up from, "()" marking calls, "item N" for an unnamed item
bad=$(grep -cE '\(\?\)|\(\)|item [0-9]' "$O/counter-findings.txt")
if [ "$bad" -gt 0 ]; then
	echo "cachehot: $bad counter-batch lines carry a placeholder ((?), () or item N)"; exit 1
fi
