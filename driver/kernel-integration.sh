#!/bin/bash
# driver/kernel-integration.sh -- "make kernel-integration [VERSION=6.12]":
# the in-tree CONFIG_GCC_PLUGIN_CACHEHOT, tested on Debian's linux-source-6.1
# (default; mm/) or linux-source-6.12 (a set of defconfig objects: 2 cores,
# not a whole kernel), out of tree (O=), or in the tree itself with INTREE=1.
#
#  1. kernel/prepare.sh unpacks build/linux-6.1 (shared, read-only);
#  2. a copy of it is made in $BUILD/kernel-integration/linux (hard links,
#     except the files the patch touches, which are real copies);
#  3. docs/kernel/*.patch is applied, plugin/ and core/ are copied to
#     scripts/gcc-plugins/cachehot/, examples/linux-6.1.annotations (if
#     present) to tools/cachehot/;
#  4. x86_64 defconfig (CONFIG_WERROR=y, as shipped) + MEMCG + LRU_GEN +
#     GCC_PLUGIN_CACHEHOT (severity warning, the version's sidecar), then
#     "make mm/" (6.1) or the objects below (6.12) at -j2: findings must not
#     stop the build;
#  5. checks that the plugin was built by kbuild and loaded for the objects,
#     that the sidecar is in their .o.cmd dependencies, that no "matched no
#     struct" note was printed, and prints the findings of the build log.
# Exit status 0 when everything held, 1 otherwise.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
JOBS=${JOBS:-2}
VER=${VERSION:-${LINUX_VERSION:-6.1}}
INTREE=${INTREE:-0}
KI=$BUILD/kernel-integration-$VER
if [ "$INTREE" = 1 ]; then KI=$KI-intree; fi
KSRC=$KI/linux
OBJ=$KI/obj
if [ "$INTREE" = 1 ]; then OBJ=$KSRC; fi
SRC=$("$TOP"/kernel/prepare.sh --version "$VER")
SRC=$(realpath "$SRC")   # build/linux-V may be a link to a shared tree: copy the tree
SIDECAR=linux-$VER.annotations
case $VER in
6.1) TARGETS=(mm/) ;;
*) TARGETS=(mm/page_counter.o mm/memcontrol.o net/ipv4/tcp.o net/ipv4/udp.o net/core/sock.o) ;;
esac
if [ "$INTREE" = 1 ] && [ "$VER" != 6.1 ]; then TARGETS=(mm/page_counter.o mm/memcontrol.o); fi
# the kernel's make must not see ours (VERSION would override the kernel's)
kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION make "$@"; }
PATCHES=("$TOP"/docs/kernel/*.patch)

say() { echo "kernel-integration: $*" >&2; }

# 2. the copy (rebuilt whenever the patch or the plugin sources change)
stamp=$( (cat "${PATCHES[@]}"; cat "$TOP"/plugin/*.[ch] "$TOP"/core/*.[ch]) | md5sum | cut -d' ' -f1)
if [ ! -f "$KSRC/.cachehot-stamp" ] || [ "$(cat "$KSRC/.cachehot-stamp")" != "$stamp" ]; then
	say "copying $SRC to $KSRC (hard links)"
	rm -rf "$KSRC" "$KI/obj"
	mkdir -p "$KI"
	cp -al "$SRC" "$KSRC"
	# the files the patch changes become real copies: build/linux-6.1 stays intact
	for p in "${PATCHES[@]}"; do
		sed -n 's|^+++ b/||p' "$p" | while read -r f; do
			[ -f "$KSRC/$f" ] && cp --remove-destination "$SRC/$f" "$KSRC/$f"
		done
	done
	for p in "${PATCHES[@]}"; do
		say "applying $(basename "$p")"
		patch -d "$KSRC" -p1 --quiet --no-backup-if-mismatch <"$p"
	done
	mkdir -p "$KSRC/scripts/gcc-plugins/cachehot/plugin" "$KSRC/scripts/gcc-plugins/cachehot/core"
	cp "$TOP"/plugin/*.c "$TOP"/plugin/*.h "$KSRC/scripts/gcc-plugins/cachehot/plugin/"
	cp "$TOP"/core/*.c "$TOP"/core/*.h "$KSRC/scripts/gcc-plugins/cachehot/core/"
	if [ -f "$TOP/examples/$SIDECAR" ]; then
		mkdir -p "$KSRC/tools/cachehot"
		cp "$TOP/examples/$SIDECAR" "$KSRC/tools/cachehot/"
	fi
	echo "$stamp" >"$KSRC/.cachehot-stamp"
fi

# 4. configure and build mm/
if [ ! -f "$OBJ/.config" ]; then
	mkdir -p "$OBJ"
	say "configuring $OBJ"
	kmake -s -C "$KSRC" O="$OBJ" x86_64_defconfig >&2
	cfg=(-e MEMCG -e LRU_GEN -e GCC_PLUGINS -e GCC_PLUGIN_CACHEHOT
	     --set-str GCC_PLUGIN_CACHEHOT_SEVERITY warning)
	if [ -f "$KSRC/tools/cachehot/$SIDECAR" ]; then
		cfg+=(--set-str GCC_PLUGIN_CACHEHOT_ANNOTATIONS tools/cachehot/$SIDECAR)
	fi
	"$KSRC"/scripts/config --file "$OBJ/.config" "${cfg[@]}"
	kmake -s -C "$KSRC" O="$OBJ" olddefconfig >&2
fi
grep -q '^CONFIG_WERROR=y' "$OBJ/.config" || say "note: CONFIG_WERROR is not set in $OBJ/.config"
grep -q '^CONFIG_GCC_PLUGIN_CACHEHOT=y' "$OBJ/.config" || {
	say "CONFIG_GCC_PLUGIN_CACHEHOT is not set after olddefconfig (GCC_PLUGINS unavailable? install gcc-12-plugin-dev)"
	exit 1
}
LOG=$KI/build.log
say "building ${TARGETS[*]} of $VER with CONFIG_GCC_PLUGIN_CACHEHOT=y, CONFIG_WERROR=$(grep -q '^CONFIG_WERROR=y' "$OBJ/.config" && echo y || echo n) (-j$JOBS, log in $LOG)"
start=$(date +%s)
# findings=-: the plugin writes its records into the log, which the CI gate
# (cachehot check --log) reads; the same KCFLAGS for prepare and the objects
RECORDS="-fplugin-arg-cachehot-findings=-"
if ! kmake -C "$KSRC" O="$OBJ" -j"$JOBS" KCFLAGS="$RECORDS" prepare >"$LOG" 2>&1 ||
   ! nice -n 10 env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION \
	make -C "$KSRC" O="$OBJ" -j"$JOBS" KCFLAGS="$RECORDS" "${TARGETS[@]}" >>"$LOG" 2>&1; then
	tail -30 "$LOG" >&2
	say "FAILED: the build of ${TARGETS[*]} failed (log: $LOG)"
	exit 1
fi
say "${TARGETS[*]} built in $(( $(date +%s) - start )) s"

# 5. the plugin was built by kbuild and loaded for mm/ objects
fail=0
[ -f "$OBJ/scripts/gcc-plugins/cachehot.so" ] || { say "FAILED: no scripts/gcc-plugins/cachehot.so"; fail=1; }
cmds=()
for t in "${TARGETS[@]}"; do
	case $t in
	*/) for c in "$OBJ/$t".*.o.cmd; do [ -f "$c" ] && cmds+=("$c"); done ;;
	*) cmds+=("$OBJ/$(dirname "$t")/.$(basename "$t").cmd") ;;
	esac
done
nobj=${#cmds[@]}
nload=$(grep -l -- '-fplugin=./scripts/gcc-plugins/cachehot.so' "${cmds[@]}" 2>/dev/null | wc -l)
say "$nobj objects, $nload compiled with -fplugin=./scripts/gcc-plugins/cachehot.so"
[ "$nload" -gt 0 ] && [ "$nload" -ge "$((nobj - 1))" ] || { say "FAILED: the plugin was not loaded"; fail=1; }
if [ -f "$KSRC/tools/cachehot/$SIDECAR" ]; then
	ndep=$(grep -l '^  *[^ ]*tools/cachehot/'"$SIDECAR"' \\$' "${cmds[@]}" 2>/dev/null | wc -l)
	say "$ndep of $nobj .o.cmd files list the sidecar as a dependency"
	[ "$ndep" -ge "$nload" ] || { say "FAILED: the sidecar is not in the .o.cmd dependencies"; fail=1; }
fi
nunm=$(grep -c 'matched no struct' "$LOG" || true)
say "$nunm 'matched no struct' notes (unmatched=ignore)"
[ "$nunm" -eq 0 ] || { say "FAILED: unmatched sidecar entries were listed"; fail=1; }
nfind=$(grep -c '\[cachehot-' "$LOG" || true)
nerr=$(grep -c 'error: .*\[cachehot-' "$LOG" || true)
say "$nfind cachehot diagnostics, $nerr of them errors, the build went on"
[ "$nerr" -eq 0 ] || { say "FAILED: a finding became an error"; fail=1; }
say "$nfind cachehot diagnostics in the build log; once each (cachehot check --log):"
(cd "$KSRC" && "$TOP"/bin/cachehot check --no-progress --log "$LOG" --format=checkpatch --terse) >&2 || true
# 6. the driver on the same build: its compile database, plugin + sparse
CCDB=$KI/compile_commands.json
python3 "$KSRC/scripts/clang-tools/gen_compile_commands.py" -d "$OBJ" -o "$CCDB"
if [ "$VER" = 6.1 ] && [ "$INTREE" != 1 ] && [ -x "$TOP/bin/cachehot-sparse" ] && [ -f "$TOP/examples/linux-6.1.annotations" ]; then
	say "cachehot check -p compile_commands.json --engine=plugin,sparse on mm/{page_counter,memcontrol,vmscan}.c"
	set +e
	(cd "$OBJ" && "$TOP"/bin/cachehot check -j"$JOBS" --no-progress -p "$CCDB" \
		--annotations="$TOP/examples/linux-6.1.annotations" --engine=plugin,sparse \
		--format=json "$KSRC"/mm/page_counter.c "$KSRC"/mm/memcontrol.c "$KSRC"/mm/vmscan.c) >"$KI/check.json"
	rc=$?
	set -e
	both=$(jq '[.findings[] | select(.engines == ["plugin","sparse"])] | length' "$KI/check.json")
	total=$(jq '.findings | length' "$KI/check.json")
	say "exit status $rc, $total findings, $both reported by both plugin and sparse"
	jq -r '.findings[] | "  \(.file):\(.line): \(.check) \(.struct).\(.field) [\(.engines|join(","))]"' "$KI/check.json" >&2
	[ "$rc" -le 1 ] && [ "$both" -ge 1 ] || { say "FAILED: cachehot check on the kernel's compile database"; fail=1; }
fi
[ "$fail" -eq 0 ] && say "OK"
exit "$fail"
