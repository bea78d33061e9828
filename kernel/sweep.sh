#!/bin/bash
# kernel/sweep.sh -- make kernel-sweep VERSION=V (default 6.1): the whole
# kernel, every compile with the plugin, then every file through
# cachehot-sparse, and a count of what broke.
#
#   phase "plugin": make -k all of x86_64 defconfig + MEMCG + LRU_GEN
#     (kernel/prepare.sh) with KCFLAGS loading the plugin and the sidecar;
#   phase "sparse": make -k C=2 CHECK=bin/cachehot-sparse over the same tree
#     (same KCFLAGS, so objects stay built and only the checker runs);
#   phase "report": prints, per phase, objects compiled (C compiles whose
#     .cmd file names the plugin; files checked for sparse), internal
#     compiler errors, signals, and the failed targets; each failed object is
#     recompiled with the same command minus the plugin: one that then
#     builds is a plugin-caused failure.
#
# -Werror: findings are reported with severity=note (notes are never
# promoted by -Werror) and unmatched sidecar entries with unmatched=ignore.
# CONFIG_WERROR (y in defconfig) is switched off in the sweep's OBJDIR: a
# 6.1 sidecar on 6.12 names members 6.12 removed, the plugin says so as a
# warning whatever severity is, and with -Werror the
# first compile (asm-offsets.c) would stop the whole build. Instead the
# report counts every cachehot diagnostic printed as a warning or error
# under severity=note ("severity escapes": each would fail a -Werror build)
# and lists them.
#
# Environment: VERSION, PHASES (default "plugin sparse report"), J (jobs,
# at most 2), NICE (default 19), ANN (sidecar; default
# examples/linux-V.annotations, else the 6.1 one). The plugin and checker
# are copied into OBJDIR first so that rebuilding them mid-run changes
# nothing. Output in build/kernel-sweep-V/: sweep-plugin.log,
# sweep-sparse.log, sweep-*.time (GNU time: wall and CPU), sweep-report.txt,
# sweep-findings-*.txt (unique findings). Exit 1 if any count is non-zero.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
V=${VERSION:-6.1}
PHASES=${PHASES:-plugin sparse report}
J=${J:-2}; [ "$J" -gt 2 ] && J=2
NICE=${NICE:-19}
O=$(realpath -m "$BUILD/kernel-sweep-$V")
SRC=$(VERSION=$V "$TOP"/kernel/prepare.sh "$O") || { echo "kernel-sweep: kernel/prepare.sh failed" >&2; exit 1; }
if grep -q '^CONFIG_WERROR=y' "$O/.config"; then
	"$SRC"/scripts/config --file "$O/.config" -d WERROR
	env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION \
		make -s -C "$SRC" O="$O" olddefconfig >&2
fi
if [ -z "${ANN:-}" ]; then
	ANN=$TOP/examples/linux-$V.annotations
	[ -f "$ANN" ] || ANN=$TOP/examples/linux-6.1.annotations
fi
# the kernel's make must not see our command line (VERSION=...)
kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION nice -n "$NICE" make "$@"; }
PL=$O/sweep-plugin/cachehot.so   # the file name is the plugin name
CK=$O/cachehot-sweep-sparse
KC="-fplugin=$PL -fplugin-arg-cachehot-annotations=$ANN"
KC="$KC -fplugin-arg-cachehot-severity=note -fplugin-arg-cachehot-unmatched=ignore"
CF="-fcachehot-annotations=$ANN -fcachehot-severity=note -fcachehot-unmatched=ignore"
TIMEF='wall %e s, user %U s, sys %S s, max rss %M KB, exit %x'

for ph in $PHASES; do
	case $ph in
	plugin)
		[ -f "$TOP/plugin/cachehot.so" ] || { echo "kernel-sweep: make plugin first" >&2; exit 1; }
		mkdir -p "${PL%/*}" && cp "$TOP/plugin/cachehot.so" "$PL"
		git -C "$TOP" rev-parse HEAD >"$O/sweep-plugin.rev" 2>/dev/null
		echo "cachehot: kernel-sweep $V: make -k all with the plugin in $O (log: sweep-plugin.log)"
		/usr/bin/time -f "$TIMEF" -o "$O/sweep-plugin.time" \
			env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION \
			nice -n "$NICE" make -C "$SRC" O="$O" -k -j"$J" KCFLAGS="$KC" all \
			>"$O/sweep-plugin.log" 2>&1
		cat "$O/sweep-plugin.time" ;;
	sparse)
		[ -x "$TOP/bin/cachehot-sparse" ] || { echo "kernel-sweep: make sparse first" >&2; exit 1; }
		cp "$TOP/bin/cachehot-sparse" "$CK"
		echo "cachehot: kernel-sweep $V: make -k C=2 CHECK=cachehot-sparse in $O (log: sweep-sparse.log)"
		/usr/bin/time -f "$TIMEF" -o "$O/sweep-sparse.time" \
			env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION \
			nice -n "$NICE" make -C "$SRC" O="$O" -k -j"$J" V=1 C=2 CHECK="$CK" CF="$CF" \
			KCFLAGS="$KC" all >"$O/sweep-sparse.log" 2>&1
		cat "$O/sweep-sparse.time" ;;
	report) ;;
	*) echo "kernel-sweep: unknown phase '$ph' (plugin, sparse, report)" >&2; exit 2 ;;
	esac
done

# ---- report ----
SIGRE='signal terminated program|Segmentation fault|Floating point exception|Bus error|Illegal instruction|Aborted|core dumped|Killed|Error 13[0-9]'
bad=0
# Recompile OBJ (relative to O) with its own command line minus -fplugin*:
# prints "plugin-caused" when that builds, "fails without the plugin" else.
confirm() {
	local obj=$1 cmd
	cmd=$(kmake -C "$SRC" O="$O" V=1 KCFLAGS="$KC" "$obj" 2>&1 |
		grep -E "(^| )-c -o $obj " | head -1 | sed 's/ ; .*//')
	[ -n "$cmd" ] || { echo "no compile command found"; return; }
	cmd=$(printf '%s\n' "$cmd" | sed -E 's/ -fplugin[^ ]*//g; s/-o [^ ]+\.o /-o \/dev\/null /')
	if (cd "$O" && eval "$cmd") >/dev/null 2>&1; then echo "plugin-caused"
	else echo "fails without the plugin too"; fi
}
{
echo "kernel-sweep $V ($(cat "$O/sweep-plugin.rev" 2>/dev/null || echo '?')), sidecar $(basename "$ANN")"
for ph in plugin sparse; do
	log=$O/sweep-$ph.log
	[ -f "$log" ] || { echo "$ph: not run"; continue; }
	if [ $ph = plugin ]; then
		n=$(find "$O" -name '.*.o.cmd' -print0 | xargs -0 grep -l -F -- "-fplugin=$PL" | wc -l)
		what="C objects compiled with the plugin"
	else
		n=$(grep -c -F "$CK " "$log")
		what="files checked by cachehot-sparse"
	fi
	ice=$(grep -c 'internal compiler error' "$log")
	sig=$(grep -cE "$SIGRE" "$log")
	grep -oE '\*\*\* \[[^]]*: [^]]+\] Error [0-9]+' "$log" | sed -E 's/.*: ([^]]+)\] Error ([0-9]+)/\1 \2/' |
		grep -vE '^(__sub-make|all|vmlinux|modules|bzImage|[^ ]*/) ' | sort -u >"$O/sweep-$ph-failed.txt"
	nfail=$(wc -l <"$O/sweep-$ph-failed.txt")
	pc=0
	echo "$ph: $what: $n; internal compiler errors: $ice; signals: $sig; failed targets: $nfail"
	echo "$ph: time: $(cat "$O/sweep-$ph.time" 2>/dev/null)"
	while read -r t code; do
		case $t in
		*.o) if [ $ph = plugin ]; then v=$(confirm "$t"); else v="checker exit $code"; fi ;;
		*) v="not an object" ;;
		esac
		case $v in plugin-caused|checker*) pc=$((pc + 1)) ;; esac
		echo "  failed: $t (Error $code): $v"
	done <"$O/sweep-$ph-failed.txt"
	echo "$ph: plugin-caused failures: $pc"
	grep -hE '(warning|error): .*\[cachehot[a-z-]*\]' "$log" | sed -E "s|^.*/linux-$V/||; s| \[-W[a-z=-]*\]$||" |
		sort -u >"$O/sweep-$ph-escapes.txt"
	echo "$ph: severity escapes (warnings/errors under severity=note; each fails a -Werror build): $(wc -l <"$O/sweep-$ph-escapes.txt") unique"
	sed 's/^/  /' "$O/sweep-$ph-escapes.txt" | head -20
	[ $((ice + sig + pc)) -eq 0 ] || bad=1
	grep -E "$SIGRE|internal compiler error" "$log" | head -20 | sed 's/^/  /'
	grep -h '\[cachehot' "$log" | sed "s|^$SRC/||; s|^\.\./linux-$V/||; s|^\./||; s|^\.\./||" | sort -u \
		>"$O/sweep-findings-$ph.txt"
	echo "$ph: $(wc -l <"$O/sweep-findings-$ph.txt") unique findings by check id:"
	grep -oE '\[cachehot[a-z-]*\]' "$O/sweep-findings-$ph.txt" | sort | uniq -c | sed 's/^/  /'
done
} | tee "$O/sweep-report.txt"
exit $bad
