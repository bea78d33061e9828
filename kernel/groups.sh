#!/bin/bash
# kernel/groups.sh -- "make kernel-groups": cachehot on an unmodified Linux
# 6.12 (Debian's linux-source-6.12) and on the running kernel's BTF, with
# the tree's own layout vocabulary only (no sidecar written by a user):
#   1. configure build/kernel-groups (kernel/prepare.sh --version 6.12) and
#      build, with -g, the objects that define and assert cacheline groups;
#   2. preprocess the files holding CACHELINE_ASSERT_GROUP_* with
#      include/cachehot-asserts.h (their own compile command, -E);
#   3. read Documentation/networking/net_cachelines into a sidecar
#      (cachehot annotate --net-cachelines);
#   4. on the objects: the groups of every struct with markers (--groups), the
#      checks (groups, group asserts, net_cachelines drift and cross-path
#      false sharing) and the locality table (text and JSON);
#   5. cachehot asserts tcp_sock pasted into a copy of net/ipv4/tcp.c's
#      tcp_struct_check() (in the build dir) must build, and the same with
#      one bound lowered by one byte must not;
#   6. steps 4 on /sys/kernel/btf/vmlinux (where present) with the 6.12
#      tables and the 6.12 asserts.
# Everything lands in build/kernel-groups/cachehot/; the summary is printed.
# Long (first run: a few minutes at -j2); never part of make check.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
O=$BUILD/kernel-groups
OUT=$O/cachehot
LT=$TOP/bin/cachehot-layout
CH=$TOP/bin/cachehot
JOBS=${JOBS:-2}
SRC=$("$TOP"/kernel/prepare.sh --version 6.12 "$O") || { echo "kernel-groups: kernel/prepare.sh failed" >&2; exit 1; }
# Objects holding cacheline groups in 6.12 (grep -rl __cacheline_group_begin
# include/ drivers/: netdevice.h, tcp.h, sock.h, netns/ipv4.h,
# page_pool/types.h, ipv6.h, idpf_txrx.h) and the files with the asserts.
OBJS="net/core/dev.o net/ipv4/tcp.o net/core/net_namespace.o net/core/page_pool.o
      net/core/sock.o net/ipv6/addrconf.o drivers/net/ethernet/intel/idpf/idpf_txrx.o"
ASSERTS="net/core/dev.o net/ipv4/tcp.o net/core/net_namespace.o net/core/page_pool.o net/core/sock.o"
mkdir -p "$OUT"
echo "kernel-groups: building $(echo $OBJS | wc -w) objects of linux-6.12 with -g in $O" >&2
# shellcheck disable=SC2086
nice -n 10 make -s -C "$SRC" O="$O" -j"$JOBS" KCFLAGS=-g $OBJS >"$OUT/build.log" 2>&1 ||
	{ echo "kernel-groups: kernel build failed, see $OUT/build.log" >&2; exit 1; }
objs=(); for o in $OBJS; do objs+=("$O/$o"); done

# the compile command of an object, from its .cmd file (kbuild's savedcmd)
kcmd() {
	local d b
	d=$(dirname "$1"); b=$(basename "$1")
	sed -n "s|^savedcmd_$1 := ||p" "$O/$d/.$b.cmd"
}
# preprocess with the asserts header: -E instead of -c -o, no dependency file
iargs=()
for o in $ASSERTS; do
	i=$OUT/$(echo "${o%.o}" | tr / _).i
	c=$(kcmd "$o" | sed "s/-Wp,-MMD,[^ ]* //; s| -c -o [^ ]* \([^ ]*\) *\$| -E -include $TOP/include/cachehot-asserts.h -o $i \1|")
	(cd "$O" && eval "$c") || { echo "kernel-groups: preprocessing $o failed" >&2; exit 1; }
	iargs+=(--group-asserts "$i")
done

NC=$SRC/Documentation/networking/net_cachelines
"$CH" annotate --net-cachelines "$NC" -o "$OUT/net_cachelines-6.12.netcl" 2>"$OUT/annotate.txt" ||
	{ cat "$OUT/annotate.txt" >&2; exit 1; }

run_on() {   # NAME FILE...
	local name=$1; shift
	"$LT" -q --groups "$@" >"$OUT/$name-groups.txt" 2>&1
	"$LT" -q --groups --json "$@" >"$OUT/$name-groups.json" 2>&1
	"$LT" --net-cachelines "$OUT/net_cachelines-6.12.netcl" "${iargs[@]}" "$@" \
		>"$OUT/$name-findings.txt" 2>"$OUT/$name-summary.txt"
	"$LT" --net-cachelines "$OUT/net_cachelines-6.12.netcl" --locality text "$@" \
		>"$OUT/$name-locality.txt" 2>&1
	"$LT" --net-cachelines "$OUT/net_cachelines-6.12.netcl" --locality json "$@" \
		>"$OUT/$name-locality.json" 2>&1
	echo "== $name: groups in $OUT/$name-groups.txt; pahole: $(python3 "$TOP"/kernel/groups-pahole.py "$OUT/$name-groups.json" 2>&1 | tail -1)"
	echo "== $name: $(grep -c ': warning: ' "$OUT/$name-findings.txt") warnings, $(grep -c ': note: ' "$OUT/$name-findings.txt") notes ($OUT/$name-findings.txt)"
	grep -o '\[cachehot-[a-z-]*\]' "$OUT/$name-findings.txt" | sort | uniq -c | sed 's/^/   /'
	cat "$OUT/$name-locality.txt"
}
run_on linux-6.12 "${objs[@]}"
if [ -r /sys/kernel/btf/vmlinux ]; then
	run_on running-btf /sys/kernel/btf/vmlinux
else
	echo "== running-btf: skipped, /sys/kernel/btf/vmlinux not readable"
fi

# cachehot asserts tcp_sock, pasted into a copy of tcp.c: builds; with one
# bound lowered by one byte: does not build (the asserts really bind)
"$CH" asserts tcp_sock "$O/net/ipv4/tcp.o" >"$OUT/tcp_sock.asserts" ||
	{ echo "kernel-groups: cachehot asserts tcp_sock failed" >&2; exit 1; }
paste_into() {   # BLOCK OUT.c
	awk -v blk="$1" '
		/^static void __init tcp_struct_check\(void\)$/ { print; infn = 1; next }
		infn == 1 && /^\{$/ { print; while ((getline l < blk) > 0) print l; infn = 2; next }
		infn == 2 && /^\}$/ { print; infn = 0; next }
		infn == 2 { next }
		{ print }' "$SRC/net/ipv4/tcp.c" >"$2"
}
try_build() {   # COPY.c OBJ
	local c
	c=$(kcmd net/ipv4/tcp.o | sed "s/-Wp,-MMD,[^ ]* //; s| -c -o [^ ]* \([^ ]*\) *\$| -c -o $2 $1|")
	(cd "$O" && eval "$c") >"$2.log" 2>&1
}
paste_into "$OUT/tcp_sock.asserts" "$OUT/tcp-asserts.c"
n=$(grep -c CACHELINE_ASSERT_GROUP "$OUT/tcp_sock.asserts")
if grep -q CACHELINE_ASSERT_GROUP_SIZE "$OUT/tcp-asserts.c" && try_build "$OUT/tcp-asserts.c" "$OUT/tcp-asserts.o"; then
	echo "== cachehot asserts tcp_sock: $n asserts pasted into tcp_struct_check(): the object builds ($OUT/tcp-asserts.o)"
else
	echo "== cachehot asserts tcp_sock: FAILED to build, see $OUT/tcp-asserts.o.log"; exit 1
fi
awk '!done && /CACHELINE_ASSERT_GROUP_SIZE/ { match($0, /[0-9]+\);$/); n = substr($0, RSTART, RLENGTH - 2)
	sub(/[0-9]+\);$/, (n - 1) ");"); done = 1 } { print }' "$OUT/tcp_sock.asserts" >"$OUT/tcp_sock-lowered.asserts"
paste_into "$OUT/tcp_sock-lowered.asserts" "$OUT/tcp-lowered.c"
if try_build "$OUT/tcp-lowered.c" "$OUT/tcp-lowered.o"; then
	echo "== control: a bound lowered by one byte still builds: the pasted asserts do not bind"; exit 1
else
	echo "== control: $(grep -m1 -o 'CACHELINE_ASSERT_GROUP_SIZE([^;]*' "$OUT/tcp_sock-lowered.asserts") fails to build, as it must"
fi
