#!/bin/bash
# Kernel cacheline groups in cachehot-layout (the fixtures' findings are
# checked in every engine by the plugin, sparse and layout suites):
#  1. markers are zero-size members in DWARF and in BTF (--show), and a
#     marker ending the struct is not a flexible array;
#  2. --reorganize keeps each group's members between its markers, with the
#     group's size, from DWARF and from BTF (it used to move every marker to
#     one offset on DWARF and refuse the struct from BTF);
#  3. --groups, text and JSON, with real offsets, bytes and line counts.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
LT=bin/cachehot-layout
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-gcc}

$CC -g -Itests/fixtures -c tests/fixtures/kgroups_sock.c -o "$T/sock.o" || fail groups/compile "gcc failed"
BTF=
cp "$T/sock.o" "$T/sockbtf.o"
if pahole -J "$T/sockbtf.o" 2>/dev/null && objcopy --strip-debug "$T/sockbtf.o" 2>/dev/null &&
   ! readelf -S "$T/sockbtf.o" | grep -q debug_info; then BTF="$T/sockbtf.o"
else fail groups/btf-input "pahole -J could not make a BTF-only object"; fi

# ---- 1. zero-size markers ------------------------------------------------------
# "NAME OFFSET SIZE" of every marker in --show
markers() { "$LT" -q --show sock "$1" | sed -n 's/.*\(__cacheline_group_[a-z]*__[a-z_]*\)\[[0-9]*\]; *\/\* *\([0-9]*\) *\([0-9]*\) .*/\1 \2 \3/p' | paste -sd'|'; }
want="__cacheline_group_begin__sock_write_rx 136 0|__cacheline_group_end__sock_write_rx 216 0|__cacheline_group_begin__sock_read_rx 216 0|__cacheline_group_end__sock_read_rx 284 0|__cacheline_group_begin__sock_read_rxtx 284 0|__cacheline_group_end__sock_read_rxtx 320 0|__cacheline_group_begin__sock_write_rxtx 320 0|__cacheline_group_end__sock_write_rxtx 364 0"
expect_eq groups/dwarf-markers-zero-size "$want" "$(markers "$T/sock.o")"
[ -n "$BTF" ] && expect_eq groups/btf-markers-zero-size "$want" "$(markers "$BTF")"

# ---- 2. --reorganize keeps groups ----------------------------------------------
# "GROUP[BEGIN..END]: MEMBER..." from a --reorganize listing (top-level lines)
reorg_groups() {
	awk '
	/^\t/ && depth == 0 && /\{$/ { depth = 1; next }
	depth > 0 { if ($0 ~ /^\t*\}/ && --depth == 0) member($0); else if ($0 ~ /\{$/) depth++; next }
	/^\t[^\t]/ && /\/\* *[0-9]+ +[0-9]+ / { member($0) }
	function member(l,   line, w, n, name, off, o) {
		line = l; sub(/;.*/, "", line); sub(/ __aligned\([0-9]+\)/, "", line)
		if (line ~ /\(\*/) { sub(/.*\(\*/, "", line); sub(/\).*/, "", line) }
		sub(/\[[0-9]*\]$/, "", line); n = split(line, w, /[ \t*}]+/); name = w[n]
		if (name == "") name = "<anon>"
		off = l; sub(/.*\/\* */, "", off); split(off, o, / +/)
		if (name ~ /^__cacheline_group_begin__/) { g = substr(name, 26); b = o[1]; m = ""; return }
		if (name ~ /^__cacheline_group_end__/) { printf "%s[%d..%d]:%s\n", g, b, o[1], m; g = ""; return }
		if (g != "") m = m " " name
	}' | sort | paste -sd'|'
}
want="sock_read_rx[128..196]: sk_rx_dst sk_rx_dst_ifindex sk_rx_dst_cookie sk_ll_usec sk_napi_id sk_busy_poll_budget sk_prefer_busy_poll sk_userlocks sk_rcvbuf sk_filter <anon> sk_data_ready sk_rcvtimeo sk_rcvlowat|sock_read_rxtx[204..240]: sk_err sk_socket sk_memcg sk_policy|sock_write_rx[0..80]: sk_drops sk_peek_off sk_error_queue sk_receive_queue sk_backlog|sock_write_rxtx[80..124]: sk_lock sk_reserved_mem sk_forward_alloc sk_tsflags"
# (--regroup: the regrouping by class, which moves the groups; without it
# the declared order is the plan here: the regrouping puts the groups on
# one line fewer, but takes 16 bytes more)
"$LT" --regroup --reorganize sock "$T/sock.o" >"$T/r.txt" 2>&1; rc=$?
expect_eq groups/dwarf-reorganize-keeps-groups "rc=0 $want" "rc=$rc $(reorg_groups <"$T/r.txt")"
if [ -n "$BTF" ]; then
	"$LT" --regroup --reorganize sock "$BTF" >"$T/rb.txt" 2>&1; rc=$?
	expect_eq groups/btf-reorganize-keeps-groups "rc=0 $want" "rc=$rc $(reorg_groups <"$T/rb.txt")"
fi
expect_eq groups/reorganize-checked "/* cachehot-layout --reorganize sock: 6 cache lines, 384 bytes (was 6, 368 bytes) at 64-byte lines; checked by the core: no conflict" "$(head -1 "$T/r.txt")"
"$LT" --reorganize sock "$T/sock.o" >"$T/rd.txt" 2>&1; rc=$?
expect_eq groups/reorganize-declared-order-kept "rc=0 /* cachehot-layout --reorganize sock: 6 cache lines, 368 bytes (was 6, 368 bytes) at 64-byte lines; checked by the core: no conflict| * plan: the declared order: annotated fields on 5 lines, 368 bytes, 4 in holes; regrouped by class: annotated fields on 4 lines, 384 bytes, 20 in holes" \
	"rc=$rc $(head -2 "$T/rd.txt" | paste -sd'|')"

# an _aligned group keeps its alignment and its pad marker; a group that
# would straddle a line starts on the next one
cat >"$T/al.c" <<'C'
#include "kernel-cache.h"
struct al {
	char head[40];
	__cacheline_group_begin(x_write_tx);
	long w[3];
	__cacheline_group_end(x_write_tx);
	__cacheline_group_begin_aligned(ro);
	long r[2];
	__cacheline_group_end_aligned(ro);
	int tail;
};
struct al a;
C
$CC -g -Itests/fixtures -c "$T/al.c" -o "$T/al.o"
"$LT" --regroup --reorganize al "$T/al.o" >"$T/ra.txt" 2>&1; rc=$?
expect_eq groups/reorganize-aligned-group "rc=0 ro[0..16]: r|x_write_tx[64..88]: w" "rc=$rc $(reorg_groups <"$T/ra.txt")"
"$LT" --reorganize al "$T/al.o" >"$T/rad.txt" 2>&1; rc=$?
expect_eq groups/reorganize-aligned-group-declared "rc=0 ro[64..80]: r|x_write_tx[40..64]: w" "rc=$rc $(reorg_groups <"$T/rad.txt")"
expect_eq groups/reorganize-pad-marker-follows "1" "$(grep -A1 '__cacheline_group_end__ro' "$T/ra.txt" | grep -c '__cacheline_group_pad__ro')"

# ---- 3. --groups -----------------------------------------------------------------
"$LT" --groups "$T/sock.o" >"$T/g.txt"; rc=$?
cat >"$T/g.want" <<W
struct sock: 368 bytes, 6 lines of 64 bytes ($T/sock.o)
  group                        class       path      offsets  bytes    lines  spans  min  members
  sock_write_rx                written     rx       136..216     80     2..3      2    2        5
  sock_read_rx                 read_mostly rx       216..284     68     3..4      2    2       14
  sock_read_rxtx               read_mostly txrx     284..320     36     4..4      1    1        4
  sock_write_rxtx              written     txrx     320..364     44     5..5      1    1        4
W
expect_file_eq groups/groups-text "$T/g.want" "$T/g.txt"
expect_eq groups/groups-exit 0 "$rc"
out=$("$LT" --groups --json "$T/sock.o" | jq -c '[.[0].struct, (.[0].groups | length), .[0].groups[1].name, .[0].groups[1].begin, .[0].groups[1].end, .[0].groups[1].first_line, .[0].groups[1].last_line, .[0].groups[1].min_lines, .[0].groups[0].members[4], .[0].groups[0].class, .[0].groups[0].path]')
expect_eq groups/groups-json '["sock",4,"sock_read_rx",216,284,3,4,2,"sk_backlog","written","rx"]' "$out"
$CC -g -Itests/fixtures -c tests/fixtures/kgroups_unbalanced.c -o "$T/ub.o"
expect_eq groups/groups-problems 3 "$("$LT" --groups "$T/ub.o" | grep -c '  problem: .*\[cachehot-group-markers\]')"
expect_eq groups/groups-none "no struct with cacheline group markers in the input" "$("$LT" --groups "$T/al.o" --struct nosuch 2>/dev/null)"
"$LT" --json "$T/sock.o" >/dev/null 2>&1
expect_eq groups/json-needs-groups 2 $?
