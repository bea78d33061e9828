#!/bin/bash
# driver/kernel-integration.sh -- "make kernel-integration": the in-tree
# CONFIG_GCC_PLUGIN_CACHEHOT, tested on Debian's linux-source-6.1.
#
#  1. kernel/prepare.sh unpacks build/linux-6.1 (shared, read-only);
#  2. a copy of it is made in $BUILD/kernel-integration/linux (hard links,
#     except the files the patch touches, which are real copies);
#  3. docs/kernel/*.patch is applied, plugin/ and core/ are copied to
#     scripts/gcc-plugins/cachehot/, examples/linux-6.1.annotations (if
#     present) to tools/cachehot/;
#  4. x86_64 defconfig + MEMCG + LRU_GEN + GCC_PLUGIN_CACHEHOT (severity
#     warning, CONFIG_WERROR off so that findings are reported, not fatal),
#     then "make mm/" at -j2;
#  5. checks that the plugin was built by kbuild and loaded for mm/ objects,
#     and prints the cachehot findings of the build log.
# Exit status 0 when mm/ built with the plugin loaded, 1 otherwise.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
JOBS=${JOBS:-2}
KI=$BUILD/kernel-integration
KSRC=$KI/linux
OBJ=$KI/obj
SRC=$("$TOP"/kernel/prepare.sh)
PATCHES=("$TOP"/docs/kernel/*.patch)

say() { echo "kernel-integration: $*" >&2; }

# 2. the copy (rebuilt whenever the patch or the plugin sources change)
stamp=$( (cat "${PATCHES[@]}"; cat "$TOP"/plugin/*.[ch] "$TOP"/core/*.[ch]) | md5sum | cut -d' ' -f1)
if [ ! -f "$KSRC/.cachehot-stamp" ] || [ "$(cat "$KSRC/.cachehot-stamp")" != "$stamp" ]; then
	say "copying $SRC to $KSRC (hard links)"
	rm -rf "$KSRC" "$OBJ"
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
	if [ -f "$TOP/examples/linux-6.1.annotations" ]; then
		mkdir -p "$KSRC/tools/cachehot"
		cp "$TOP/examples/linux-6.1.annotations" "$KSRC/tools/cachehot/"
	fi
	echo "$stamp" >"$KSRC/.cachehot-stamp"
fi

# 4. configure and build mm/
if [ ! -f "$OBJ/.config" ]; then
	mkdir -p "$OBJ"
	say "configuring $OBJ"
	make -s -C "$KSRC" O="$OBJ" x86_64_defconfig >&2
	cfg=(-e MEMCG -e LRU_GEN -e GCC_PLUGINS -e GCC_PLUGIN_CACHEHOT -d WERROR
	     --set-str GCC_PLUGIN_CACHEHOT_SEVERITY warning)
	if [ -f "$KSRC/tools/cachehot/linux-6.1.annotations" ]; then
		cfg+=(--set-str GCC_PLUGIN_CACHEHOT_ANNOTATIONS tools/cachehot/linux-6.1.annotations)
	fi
	"$KSRC"/scripts/config --file "$OBJ/.config" "${cfg[@]}"
	make -s -C "$KSRC" O="$OBJ" olddefconfig >&2
fi
grep -q '^CONFIG_GCC_PLUGIN_CACHEHOT=y' "$OBJ/.config" || {
	say "CONFIG_GCC_PLUGIN_CACHEHOT is not set after olddefconfig (GCC_PLUGINS unavailable? install gcc-12-plugin-dev)"
	exit 1
}
LOG=$KI/build.log
say "building mm/ with CONFIG_GCC_PLUGIN_CACHEHOT=y (-j$JOBS, log in $LOG)"
start=$(date +%s)
if ! make -C "$KSRC" O="$OBJ" -j"$JOBS" prepare >"$LOG" 2>&1 ||
   ! make -C "$KSRC" O="$OBJ" -j"$JOBS" mm/ >>"$LOG" 2>&1; then
	tail -30 "$LOG" >&2
	say "FAILED: the build of mm/ failed (log: $LOG)"
	exit 1
fi
say "mm/ built in $(( $(date +%s) - start )) s"

# 5. the plugin was built by kbuild and loaded for mm/ objects
fail=0
[ -f "$OBJ/scripts/gcc-plugins/cachehot.so" ] || { say "FAILED: no scripts/gcc-plugins/cachehot.so"; fail=1; }
nobj=$(ls "$OBJ"/mm/*.o 2>/dev/null | wc -l)
nload=$(grep -l -- '-fplugin=./scripts/gcc-plugins/cachehot.so' "$OBJ"/mm/.*.o.cmd 2>/dev/null | wc -l)
say "$nobj objects in mm/, $nload compiled with -fplugin=./scripts/gcc-plugins/cachehot.so"
[ "$nload" -gt 0 ] && [ "$nload" -ge "$((nobj - 1))" ] || { say "FAILED: the plugin was not loaded for mm/"; fail=1; }
nfind=$(grep -c '\[cachehot-' "$LOG" || true)
say "$nfind cachehot diagnostics in the build log; once each (cachehot check --log):"
(cd "$KSRC" && "$TOP"/bin/cachehot check --no-progress --log "$LOG" --format=checkpatch --terse) >&2 || true
# 6. the driver on the same build: its compile database, plugin + sparse
CCDB=$KI/compile_commands.json
python3 "$KSRC/scripts/clang-tools/gen_compile_commands.py" -d "$OBJ" -o "$CCDB"
if [ -x "$TOP/bin/cachehot-sparse" ] && [ -f "$TOP/examples/linux-6.1.annotations" ]; then
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
