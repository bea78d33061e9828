#!/bin/bash
# sparse-checks/kernel-run.sh OBJDIR SIDECAR -- make sparse-kernel.
#
# Runs bin/cachehot-sparse as the kernel's checker over 6.1 mm/:
#   make O=OBJDIR C=2 CHECK=bin/cachehot-sparse CF="-fcachehot-annotations=SIDECAR ..." mm/
# with the same settings as the plugin's make kernel-check (severity=note,
# unmatched=ignore), V=1 so that every checker command line is in the log
# (bench/sparse replays them). Objects are compiled on the first run
# (kernel/prepare.sh configures OBJDIR); later runs only re-run the checker.
# Output in OBJDIR: cachehot-sparse.log (whole build), cachehot-sparse-cmds.txt
# (checker command lines), cachehot-sparse-findings.txt (unique findings),
# cachehot-sparse-vs-plugin.txt (layout findings compared with
# build/kernel-plugin/cachehot-findings.txt when that exists).
# Exit status 1 on a checker crash or a build failure.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$(realpath -m "${1:-$BUILD/kernel-sparse}")
ANN=${2:-$TOP/examples/linux-6.1.annotations}
CK=$TOP/bin/cachehot-sparse
OBJS=${OBJS:-mm/}
J=${J:-2}
[ "$J" -gt 2 ] && J=2          # the machine is shared: -j2 at most
[ -x "$CK" ] || { echo "sparse-kernel: $CK missing (make sparse)" >&2; exit 1; }
[ -f "$ANN" ] || { echo "sparse-kernel: sidecar $ANN missing" >&2; exit 1; }
SRC=$("$TOP"/kernel/prepare.sh "$O") || { echo "sparse-kernel: kernel/prepare.sh failed" >&2; exit 1; }
CF="-fcachehot-annotations=$ANN -fcachehot-severity=note -fcachehot-unmatched=ignore"
LOG=$O/cachehot-sparse.log

start=$(date +%s.%N)
echo "cachehot: make C=2 CHECK=$CK over $OBJS in $O (log: $LOG)"
make -C "$SRC" O="$O" -j"$J" V=1 C=2 CHECK="$CK" CF="$CF" $OBJS >"$LOG" 2>&1
rc=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)
printf 'cachehot: finished in %.1f s, exit %d\n' "$secs" "$rc"
grep -F "$CK " "$LOG" | sed 's/^ *//' | grep -v '^make' >"$O/cachehot-sparse-cmds.txt"
nchecked=$(wc -l <"$O/cachehot-sparse-cmds.txt")
if grep -qE 'Segmentation fault|core dumped|Aborted|cachehot-sparse.*(Killed|signal)' "$LOG"; then
	grep -nE -B3 'Segmentation fault|core dumped|Aborted' "$LOG" | head -20
	echo "cachehot: CHECKER CRASH (release blocker)"; exit 1
fi
[ $rc -eq 0 ] || { tail -30 "$LOG"; exit 1; }

# unique findings, paths relative to the source tree
grep -h '\[cachehot' "$LOG" | sed "s|^$SRC/||; s|^\.\./linux-6.1/||; s|^\./||" | sort -u \
	>"$O/cachehot-sparse-findings.txt"
echo "cachehot: $nchecked files checked; $(wc -l <"$O/cachehot-sparse-findings.txt") unique findings:"
sed 's/^/  /' "$O/cachehot-sparse-findings.txt"

# Layout findings against the plugin's on the same tree (inline-addr differs
# by design: the plugin reports real copies at the use site, sparse possible
# copies at the definition; counter-batch is the plugin's alone: it needs
# GCC's loops and inlining, docs/checks.rst).
P=$BUILD/kernel-plugin/cachehot-findings.txt
if [ -f "$P" ]; then
	grep -Ev 'cachehot-(inline-addr|counter-batch)' "$P" | sort -u >"$O/plugin-layout.txt"
	grep -Ev 'cachehot-(inline-addr|counter-batch)' "$O/cachehot-sparse-findings.txt" | sort -u >"$O/sparse-layout.txt"
	if diff -u "$O/plugin-layout.txt" "$O/sparse-layout.txt" >"$O/cachehot-sparse-vs-plugin.txt"; then
		echo "cachehot: layout findings equal the plugin's ($(wc -l <"$O/sparse-layout.txt") lines)"
	else
		echo "cachehot: layout findings differ from the plugin's:"
		sed 's/^/  /' "$O/cachehot-sparse-vs-plugin.txt"
	fi
else
	echo "cachehot: no $P (make kernel-check): not compared with the plugin"
fi
exit 0
