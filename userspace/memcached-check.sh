#!/bin/bash
# userspace/memcached-check.sh -- cachehot on a real userspace program
# (make userspace-check; docs/userspace.md has every finding with a verdict).
#
# 1. Debian's source package of memcached (scripts/deb-src.sh adds a deb-src
#    entry when apt has none; 'apt-get source', Debian's patches applied),
#    unpacked once into $BUILD/userspace/.
# 2. Its own build system: ./configure CFLAGS="-g -O2 -fplugin=... sidecar
#    werror=0 manifest=... findings=-" then 'bear -- make -j2 memcached'
#    (memcached adds -Wall -Werror -pedantic itself); build log (with the
#    record lines findings=- writes on stderr), compile_commands.json.
# 3. The CI gate on the build log: cachehot check --log, which reads the
#    record lines (exit 1 expected: the sidecar's conflicts are real), and
#    on the compile database:
#    cachehot check -p compile_commands.json (the same findings), and the
#    sparse checker over the same database.
# 4. cachehot-layout on the linked binary's DWARF with the same sidecar.
# 5. The unique findings of 3 and 4 against userspace/memcached.expected.
# Prints build time and counts. Exit status 0 when everything matches, 1 on
# a difference or a failed step. Network: the Debian archive (source package
# and libevent-dev).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
W=$BUILD/userspace
ANN=$TOP/examples/memcached.annotations
EXP=$TOP/userspace/memcached.expected
CH=$TOP/bin/cachehot
LT=$TOP/bin/cachehot-layout
PLUGIN=$TOP/plugin/cachehot.so
J=${J:-2}
die() { echo "userspace-check: $*" >&2; exit 1; }

"$TOP"/scripts/need-packages.sh libevent-dev dpkg-dev bear pkg-config || die "cannot install the build dependencies"
src=$("$TOP"/userspace/deb-source.sh memcached "$W") || die "no memcached source package"
ver=${src##*/memcached-}
echo "userspace-check: memcached $ver (Debian source package) in $src"

# a fresh copy per run: configure results and objects never outlive a plugin
B=$W/build
rm -rf "$B" && cp -a "$src" "$B" || die "cannot copy $src to $B"
cd "$B" || exit 1
CF="-g -O2 -fplugin=$PLUGIN -fplugin-arg-cachehot-annotations=$ANN"
CF="$CF -fplugin-arg-cachehot-werror=0 -fplugin-arg-cachehot-unmatched=ignore"
CF="$CF -fplugin-arg-cachehot-manifest=$W/manifest.json"
CF="$CF -fplugin-arg-cachehot-findings=-"   # the record lines check --log reads
rm -f "$W/manifest.json"
t0=$(date +%s.%N)
./configure CFLAGS="$CF" >"$W/configure.log" 2>&1 || { tail -20 "$W/configure.log"; die "configure failed"; }
t1=$(date +%s.%N)
bear --output "$W/compile_commands.json" -- make -j"$J" memcached >"$W/build.log" 2>&1 ||
	{ tail -30 "$W/build.log"; die "make failed with the plugin loaded"; }
t2=$(date +%s.%N)
grep -q "internal compiler error" "$W/build.log" && die "internal compiler error (release blocker)"
units=$(grep -c ' -c -o ' "$W/build.log")
echo "userspace-check: configure $(printf '%.1f' "$(echo "$t1 - $t0" | bc)") s, make $(printf '%.1f' "$(echo "$t2 - $t1" | bc)") s wall (-j$J), $units units compiled, $(grep -c '\[cachehot' "$W/build.log") cachehot lines and $(grep -c '^{"cachehot_finding"' "$W/build.log") record lines in the build log"

# the CI gate, from the build log and from the compile database
"$CH" check --log="$W/build.log" >"$W/findings-log.txt"; rc_log=$?
"$CH" check -p "$W/compile_commands.json" --annotations="$ANN" -A unmatched=ignore \
	>"$W/findings-ccdb.txt"; rc_ccdb=$?
"$CH" check -p "$W/compile_commands.json" --annotations="$ANN" --engine=sparse \
	>"$W/findings-sparse.txt"; rc_sp=$?
echo "userspace-check: cachehot check --log: exit $rc_log, $(grep -c ': warning: ' "$W/findings-log.txt") warnings, $(grep -c ': note: ' "$W/findings-log.txt") notes"
echo "userspace-check: cachehot check -p: exit $rc_ccdb, $(grep -c ': warning: ' "$W/findings-ccdb.txt") warnings, $(grep -c ': note: ' "$W/findings-ccdb.txt") notes"

echo "userspace-check: cachehot check -p --engine=sparse: exit $rc_sp, $(grep -c ': warning: ' "$W/findings-sparse.txt") warnings, $(grep -c ': note: ' "$W/findings-sparse.txt") notes"

# DWARF of the linked binary, the same sidecar
"$LT" --annotations "$ANN" memcached >"$W/findings-layout.txt" 2>"$W/layout.err"; rc_lt=$?
echo "userspace-check: cachehot-layout memcached: exit $rc_lt, $(tail -1 "$W/layout.err")"

# every finding, tool by tool, against the expected list
{
	echo "# check --log (exit $rc_log)"; cat "$W/findings-log.txt"
	echo "# check -p (exit $rc_ccdb)"; cat "$W/findings-ccdb.txt"
	echo "# check -p --engine=sparse (exit $rc_sp)"; cat "$W/findings-sparse.txt"
	echo "# cachehot-layout (exit $rc_lt)"; cat "$W/findings-layout.txt"
} | sed "s|$B/||g; s|$TOP/||g" >"$W/findings.txt"
if diff -u "$EXP" "$W/findings.txt" >"$W/findings.diff"; then
	echo "userspace-check: findings match $EXP ($(grep -vc '^#' "$EXP") lines)"
	exit 0
fi
cat "$W/findings.diff"
die "findings differ from $EXP (new: $W/findings.txt)"
