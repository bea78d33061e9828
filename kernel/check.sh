#!/bin/bash
# kernel/check.sh -- build real 6.1 objects with the plugin and the shipped
# sidecar (make kernel-check). Objects: mm/page_counter.o mm/memcontrol.o
# mm/vmscan.o mm/page_alloc.o first, then all of mm/, and net/ipv4/udp.o
# for the inline-addr check (OBJS= overrides).
# Output in $BUILD/kernel-plugin: cachehot-build.log (the whole build),
# cachehot-findings.txt (unique findings), cachehot-manifest.json,
# pahole-<struct>.txt and the pahole cross-check of every annotated member.
# Exit status 1 on any internal compiler error or build failure.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-plugin
SRC=$("$TOP"/kernel/prepare.sh "$O") || exit 1
ANN=${ANN:-$TOP/examples/linux-6.1.annotations}
OBJS=${OBJS:-"mm/page_counter.o mm/memcontrol.o mm/vmscan.o mm/page_alloc.o mm/ net/ipv4/udp.o"}
J=${J:-$(nproc)}
rm -f "$O/cachehot-manifest.json"
# Kbuild tracks command lines, not the plugin binary: drop the objects so a
# rebuilt plugin really runs over them.
for o in $OBJS; do
	case "$o" in
	*/) [ -d "$O/$o" ] && find "$O/$o" -name '*.o' -delete ;;
	*) rm -f "$O/$o" ;;
	esac
done
KC="-g -fplugin=$TOP/plugin/cachehot.so -fplugin-arg-cachehot-annotations=$ANN"
KC="$KC -fplugin-arg-cachehot-severity=note -fplugin-arg-cachehot-unmatched=ignore"
KC="$KC -fplugin-arg-cachehot-manifest=$O/cachehot-manifest.json"
start=$(date +%s)
echo "cachehot: building $OBJS in $O with the plugin (log: $O/cachehot-build.log)"
make -C "$SRC" O="$O" -j"$J" KCFLAGS="$KC" $OBJS >"$O/cachehot-build.log" 2>&1
rc=$?
echo "cachehot: build finished in $(( $(date +%s) - start )) s, exit $rc"
if grep -q "internal compiler error" "$O/cachehot-build.log"; then
	grep -B2 -A8 "internal compiler error" "$O/cachehot-build.log" | head -40
	echo "cachehot: INTERNAL COMPILER ERROR (release blocker)"; exit 1
fi
[ $rc -eq 0 ] || { tail -30 "$O/cachehot-build.log"; exit 1; }
objs=$(find "$O/mm" -name '*.o' ! -name '*.mod.o' | wc -l)
# unique findings, paths relative to the source tree
grep -h '\[cachehot' "$O/cachehot-build.log" | sed "s|^$SRC/||; s|^\.\./||" | sort -u >"$O/cachehot-findings.txt"
echo "cachehot: $objs objects under mm/; $(grep -c ': warning:\|: note:' "$O/cachehot-findings.txt") unique findings:"
sed 's/^/  /' "$O/cachehot-findings.txt"

# Cross-check with pahole: the offset of every annotated member in the
# manifest must equal pahole's on the object.
echo "cachehot: pahole cross-check"
bad=0
for s in page_counter mem_cgroup zone pglist_data; do
	obj=$O/mm/memcontrol.o; [ "$s" = page_counter ] && obj=$O/mm/page_counter.o
	pahole -C "$s" "$obj" >"$O/pahole-$s.txt" 2>/dev/null || { echo "  $s: pahole failed on $obj"; bad=1; continue; }
	jq -r --arg s "$s" '.structs[$s].annotations[]?.field' "$O/cachehot-manifest.json" | while read -r f; do
		want=$(jq -r --arg s "$s" --arg f "$f" '.structs[$s].fields[] | select(.name==$f) | .offset' "$O/cachehot-manifest.json")
		got=$(grep -E "[ *]$f(\[[^]]*\])*;" "$O/pahole-$s.txt" | head -1 | sed -n 's|.*/\* *\([0-9]*\)[ :].*|\1|p')
		if [ "$want" = "$got" ]; then echo "  $s.$f: offset $want (plugin) = $got (pahole)";
		else echo "  $s.$f: MISMATCH plugin $want, pahole $got"; fi
	done
done | tee "$O/pahole-crosscheck.txt"
grep -q MISMATCH "$O/pahole-crosscheck.txt" && exit 1
"$TOP"/kernel/randstruct-check.sh || exit 1
exit $bad
