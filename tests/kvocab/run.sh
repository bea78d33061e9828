#!/bin/bash
# kvocab suite: the kernel's own layout vocabulary.
#  1. net_cachelines: tests/kvocab/nc_dev.rst (every row shape of the 6.12
#     tables) read into the path-aware sidecar; drift and cross-path false
#     sharing on nc_dev.c compiled with -g (DWARF) and re-encoded as BTF
#     (pahole -J): both readers must print the same findings; the locality
#     table in text and JSON; bad tables and sidecars refused with a clear
#     error; the real 6.12 tables when the tree is unpacked.
. "$(dirname "$0")/../lib.sh"
cd "$TOP"
LT=$TOP/bin/cachehot-layout
CH=$TOP/bin/cachehot
K=tests/kvocab
export LC_ALL=C
[ -x "$LT" ] && [ -x "$CH" ] || { fail kvocab/build "bin/cachehot-layout or bin/cachehot missing"; exit 0; }
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# ---- 1. net_cachelines ------------------------------------------------------
"$CH" annotate --net-cachelines $K/nc_dev.rst >"$T/nc.netcl" 2>"$T/err"
expect_file_eq kvocab/nc-sidecar $K/nc_dev.netcl.expected "$T/nc.netcl"
expect_eq kvocab/nc-sidecar-summary \
	"cachehot: annotate: 15 rows (1 structs, 1 enum rows, 3 rows with an empty access cell) from 1 path" \
	"$(cat "$T/err")"
# the sidecar reads back to itself (from= keeps the RST rows)
"$CH" annotate --net-cachelines "$T/nc.netcl" -o "$T/nc2.netcl" 2>/dev/null
expect_file_eq kvocab/nc-sidecar-roundtrip $K/nc_dev.netcl.expected "$T/nc2.netcl"

gcc -g -c $K/nc_dev.c -o "$T/nc.o"
"$LT" -q --net-cachelines $K/nc_dev.rst "$T/nc.o" >"$T/dwarf.txt"; rc=$?
expect_file_eq kvocab/nc-dwarf-findings $K/nc_dev.findings.expected "$T/dwarf.txt"
expect_eq kvocab/nc-exit-status 1 "$rc"
"$LT" -q --net-cachelines "$T/nc.netcl" "$T/nc.o" >"$T/dwarf2.txt"
expect_file_eq kvocab/nc-sidecar-same-findings $K/nc_dev.findings.expected "$T/dwarf2.txt"
cp "$T/nc.o" "$T/ncb.o"
if pahole -J "$T/ncb.o" 2>/dev/null && objcopy --strip-debug "$T/ncb.o" 2>/dev/null; then
	"$LT" -q --net-cachelines $K/nc_dev.rst "$T/ncb.o" >"$T/btf.txt"
	# BTF has no source positions: findings on members carry the input path
	sed 's/^[^ ]*: \(warning\|note\): /\1: /' "$T/dwarf.txt" >"$T/d.m"
	sed 's/^[^ ]*: \(warning\|note\): /\1: /' "$T/btf.txt" >"$T/b.m"
	expect_file_eq kvocab/nc-btf-agrees-with-dwarf "$T/d.m" "$T/b.m"
	"$LT" --net-cachelines $K/nc_dev.rst --locality text "$T/ncb.o" >"$T/lb.txt"
	expect_file_eq kvocab/nc-btf-locality $K/nc_dev.locality.expected "$T/lb.txt"
else
	fail kvocab/nc-btf-encode "pahole -J could not add .BTF to an object"
fi
"$LT" --net-cachelines $K/nc_dev.rst --locality text "$T/nc.o" >"$T/l.txt"
expect_file_eq kvocab/nc-locality-text $K/nc_dev.locality.expected "$T/l.txt"
"$LT" --net-cachelines $K/nc_dev.rst --locality json "$T/nc.o" >"$T/l.json"
expect_eq kvocab/nc-locality-json "tx 7 2 46 9 2 1 1|rx 6 3 30 10 2 1 0|any 11 4 67 18 2 2 1" "$(python3 -c '
import json,sys
for o in json.load(open(sys.argv[1])):
    print(o["path"], o["fields"], o["written_fields"], o["bytes"], o["bytes_written"], o["lines"], o["min_lines"], o["rows_naming_no_member"])
' "$T/l.json" | paste -sd'|')"
# at 128-byte lines the whole struct is one line: no cross-path pair on two lines
expect_eq kvocab/nc-line-size-128 "tx 46 1 1|rx 30 1 1|any 67 1 1" "$("$LT" --line-size 128 --net-cachelines $K/nc_dev.rst --locality json "$T/nc.o" | python3 -c '
import json,sys
for o in json.load(sys.stdin): print(o["path"], o["bytes"], o["lines"], o["min_lines"])' | paste -sd'|')"

# bad tables and sidecars: exit 2 and one clear line
bad() {   # NAME FILE EXPECTED-STDERR
	out=$("$CH" annotate --net-cachelines "$2" 2>&1 >/dev/null); rc=$?
	expect_eq "kvocab/$1" "2|$3" "$rc|$out"
}
sed 's/^unsigned_int                flags          read_mostly/unsigned_int                flags          read_often /' $K/nc_dev.rst >"$T/badacc.rst"
bad nc-bad-access "$T/badacc.rst" "cachehot: annotate: $T/badacc.rst:10: 'read_often' in the fastpath_tx_access column is not an access (read_mostly, read_write, write_mostly or -)"
# rows read by the header's column spans: drifted cells, long names, a
# tab-aligned header (every one of these swapped or lost a cell before)
"$CH" annotate --net-cachelines $K/nc_drift.rst >"$T/drift.netcl" 2>"$T/drift.err"
expect_file_eq kvocab/nc-drift-long-name-tab-header $K/nc_drift.netcl.expected "$T/drift.netcl"
sed '12s/^\(unsigned_int  *ifindex  *\)read_mostly/\1           read_mostly/' $K/nc_drift.rst >"$T/lone.rst"
bad nc-lone-access-under-comments "$T/lone.rst" "cachehot: annotate: $T/lone.rst:12: 'read_mostly' starts at column 103, under Comments: it could be the fastpath_tx_access or the fastpath_rx_access cell; align it under its header"
sed "11p" $K/nc_dev.rst | sed "12s/read_mostly/read_write /" >"$T/dup.rst"
bad nc-duplicate-row "$T/dup.rst" "cachehot: annotate: $T/dup.rst:12: a second row for nc_dev.mtu (the first is at $T/dup.rst:11): remove one of them"
printf 'nc_dev.mtu tx=- rx=read_mostly\nnc_dev.mtu tx=read_mostly rx=-\n' >"$T/dup.netcl"
bad nc-duplicate-sidecar-row "$T/dup.netcl" "cachehot: annotate: $T/dup.netcl:2: a second row for nc_dev.mtu (the first is at $T/dup.netcl:1): remove one of them"
# what annotate writes reads back, row for row, whatever the table's
# directory is called or what control bytes a Type holds
mkdir -p "$T/net cachelines #1"
sed 's/^struct nc_hlist/struct\fnc_hlist/' $K/nc_dev.rst >"$T/net cachelines #1/nc.rst"
"$CH" annotate --net-cachelines "$T/net cachelines #1/nc.rst" -o "$T/space.netcl" 2>/dev/null
out=$("$CH" annotate --net-cachelines "$T/space.netcl" 2>&1 >/dev/null); rc=$?
expect_eq kvocab/nc-sidecar-reads-back-odd-names "0|cachehot: annotate: 15 rows (1 structs, 1 enum rows, 3 rows with an empty access cell) from 1 path|from=$T/net_cachelines__1/nc.rst:17" \
	"$rc|$out|$(grep -o 'from=[^ ]*:17$' "$T/space.netcl")"
grep -v '^Type' $K/nc_dev.rst >"$T/nohdr.rst"
bad nc-no-header "$T/nohdr.rst" "cachehot: annotate: $T/nohdr.rst: no header row 'Type Name fastpath_tx_access fastpath_rx_access' (not a net_cachelines table)"
sed 's/^unsigned_long               state /unsigned_long               st-ate/' $K/nc_dev.rst >"$T/badname.rst"
bad nc-bad-name "$T/badname.rst" "cachehot: annotate: $T/badname.rst:9: 'st-ate' is not a field name (IDENT or IDENT[N])"
grep -v '^\.\.struct' $K/nc_dev.rst >"$T/nostruct.rst"
bad nc-row-before-struct "$T/nostruct.rst" "cachehot: annotate: $T/nostruct.rst:8: row before any '..struct ..NAME' line"
printf 'nc_dev.state tx=read_mostly\n' >"$T/half.netcl"
bad nc-sidecar-half "$T/half.netcl" "cachehot: annotate: $T/half.netcl:1: a row needs both tx= and rx="
printf 'nc_dev.state tx=read_mostly rx=hot\n' >"$T/hot.netcl"
bad nc-sidecar-access "$T/hot.netcl" "cachehot: annotate: $T/hot.netcl:1: 'rx=hot': the access is read_mostly, read_write, write_mostly, - or none"
printf 'x\0y' >"$T/bin.rst"
bad nc-binary "$T/bin.rst" "cachehot: annotate: $T/bin.rst: binary file (NUL byte)"
bad nc-missing "$T/nope" "cachehot: annotate: $T/nope: No such file or directory"
mkdir "$T/empty"
bad nc-empty-dir "$T/empty" "cachehot: annotate: $T/empty: no net_cachelines tables (*.rst other than index.rst)"
out=$("$LT" --locality text "$T/nc.o" 2>&1); rc=$?
expect_eq kvocab/nc-locality-needs-tables "2|cachehot-layout: --locality needs --net-cachelines" "$rc|$(echo "$out" | head -1)"

# the real 6.12 tables (Debian's linux-source-6.12), when unpacked
NC=$TOP/build/linux-6.12/Documentation/networking/net_cachelines
if [ -d "$NC" ]; then
	"$CH" annotate --net-cachelines "$NC" -o "$T/k.netcl" 2>"$T/kerr"
	expect_eq kvocab/nc-linux-6.12-tables \
		"cachehot: annotate: 677 rows (5 structs, 126 enum rows, 375 rows with an empty access cell) from 1 path" \
		"$(cat "$T/kerr")"
	expect_eq kvocab/nc-linux-6.12-row-shapes \
		"inet_connection_sock.icsk_keepalive_timer tx=- rx=-|inet_connection_sock.icsk_ack.rcv_mss tx=write_mostly rx=read_mostly|net_device.gso_partial_features tx=read_mostly rx=none|net_device.xps_maps[2] tx=read_mostly rx=-" \
		"$(grep -E '^(net_device.xps_maps\[2\]|inet_connection_sock.icsk_ack.rcv_mss|net_device.gso_partial_features|inet_connection_sock.icsk_keepalive_timer) ' "$T/k.netcl" | cut -d' ' -f1-3 | paste -sd'|')"
else
	echo "  --   kvocab/nc-linux-6.12: skipped, no unpacked 6.12 tree (kernel/prepare.sh --version 6.12)"
fi

# ---- 2. cacheline group asserts ------------------------------------------------
# ga_asserts.c preprocessed with include/cachehot-asserts.h, against ga_sock
# read from DWARF and from BTF: the same findings, at the asserts' lines
gcc -g -c $K/ga_layout.c -o "$T/ga.o"
gcc -E -include include/cachehot-asserts.h $K/ga_asserts.c -o "$T/ga.i"
"$LT" -q --group-asserts "$T/ga.i" "$T/ga.o" | grep 'cachehot-group-assert' >"$T/ga.txt"
expect_file_eq kvocab/ga-findings $K/ga_asserts.expected "$T/ga.txt"
cp "$T/ga.o" "$T/gab.o"
if pahole -J "$T/gab.o" 2>/dev/null && objcopy --strip-debug "$T/gab.o" 2>/dev/null; then
	"$LT" -q --group-asserts "$T/ga.i" "$T/gab.o" | grep 'cachehot-group-assert' >"$T/gab.txt"
	# findings at the asserts are identical; those at members carry the input path
	sed "s|^$K/ga_sock.h:[0-9]*:[0-9]*: |$T/gab.o: |" $K/ga_asserts.expected >"$T/ga-btf.expected"
	expect_file_eq kvocab/ga-btf-agrees-with-dwarf "$T/ga-btf.expected" "$T/gab.txt"
fi
# through the driver, every stale assert is its own finding with its own
# baseline key (the record's ident): a baseline of today's findings hides
# none added later (the text-derived keys gave one 'NE_ASSERT_GROUP_MEMBER'
# key to every "names no member" assert)
"$CH" check --engine=layout -A group-asserts="$T/ga.i" "$T/ga.o" --baseline "$T/ga.base" \
	--update-baseline 2>/dev/null
expect_eq kvocab/ga-baseline-keys-distinct "10 10" \
	"$(grep -c '^cachehot-group-assert' "$T/ga.base") $(grep '^cachehot-group-assert' "$T/ga.base" | sort -u | wc -l)"
sed 's/__cachehot_assert_group_member("struct ga_sock", "ga_read_tx", "window");/&\n __cachehot_assert_group_member("struct ga_sock", "ga_read_tx", "wnd_gone");/' \
	"$T/ga.i" >"$T/ga2.i"
out=$("$CH" check --engine=layout -A group-asserts="$T/ga2.i" "$T/ga.o" --baseline "$T/ga.base" 2>/dev/null); rc=$?
expect_eq kvocab/ga-baseline-new-stale-assert "1|warning: CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_tx, wnd_gone) names no member of 'struct ga_sock'; remove it or rename it to the member's current name [cachehot-group-assert]" "$rc|${out#* }"
# cachehot asserts: the block; pasted into an assert function it compiles,
# and with one bound lowered by one byte it does not
"$CH" asserts ga_sock "$T/ga.o" >"$T/ga.block"; rc=$?
sed 1d "$T/ga.block" >"$T/ga.block.body"
expect_file_eq kvocab/ga-block $K/ga_sock.asserts.expected "$T/ga.block.body"
expect_eq kvocab/ga-block-status 0 "$rc"
# output that cannot be written (a full disk: /dev/full) is an error, exit 2,
# never exit 0 with a truncated file
for a in "--show ga_sock" "--reorganize ga_sock" "--groups" "--groups --json" "--asserts ga_sock"; do
	out=$("$LT" -q $a "$T/ga.o" 2>&1 >/dev/full); rc=$?
	expect_eq "kvocab/full-disk-${a// /_}" "2|cachehot-layout: cannot write the output: No space left on device" "$rc|$out"
done
out=$("$CH" asserts ga_sock "$T/ga.o" 2>&1 >/dev/full); rc=$?
expect_eq kvocab/full-disk-cachehot-asserts "2|cachehot-layout: cannot write the output: No space left on device" "$rc|$out"
mkdir "$T/full"
if mount -t tmpfs -o size=8k tmpfs "$T/full" 2>/dev/null; then
	cat /dev/zero >"$T/full/fill" 2>/dev/null   # the file system is full
	"$LT" -q --groups "$T/ga.o" >"$T/full/groups.txt" 2>"$T/full.err"; rc=$?
	expect_eq kvocab/full-tmpfs-groups "2|cachehot-layout: cannot write the output: No space left on device" "$rc|$(cat "$T/full.err")"
	umount "$T/full"
fi
paste_fn() {   # BLOCK OUT.c
	{ sed -n '1,/^#define GA_READ_TX_MAX/p' $K/ga_asserts.c; echo 'void ga_struct_check(void)'; echo '{'
	  cat "$1"; echo '}'; } >"$2"
}
paste_fn "$T/ga.block" "$T/paste.c"
if gcc -I$K -c "$T/paste.c" -o "$T/paste.o" 2>"$T/paste.err"; then ok kvocab/ga-block-compiles
else fail kvocab/ga-block-compiles "$(head -3 "$T/paste.err")"; fi
sed 's/ga_write_tx, 21);/ga_write_tx, 20);/' "$T/ga.block" >"$T/ga.low"
paste_fn "$T/ga.low" "$T/low.c"
if gcc -I$K -c "$T/low.c" -o "$T/low.o" 2>/dev/null; then fail kvocab/ga-block-binds "a bound one byte too small compiled"
else ok kvocab/ga-block-binds; fi
# groups in anonymous members, in a union, overlapping: the block names
# the type as C does and compiles, or a clear error names the groups
gcc -g -I$K -c $K/ga_union.c -o "$T/gu.o"
"$CH" asserts ga_un "$T/gu.o" >"$T/gu.block"; rc=$?
expect_eq kvocab/ga-union-block "0|	CACHELINE_ASSERT_GROUP_MEMBER(union ga_un, ga_un_read, key);
	CACHELINE_ASSERT_GROUP_MEMBER(union ga_un, ga_un_read, len);
	CACHELINE_ASSERT_GROUP_SIZE(union ga_un, ga_un_read, 12);" "$rc|$(sed 1d "$T/gu.block")"
"$CH" asserts ga_anon "$T/gu.o" >"$T/ga-anon.block"
expect_eq kvocab/ga-anonymous-member-block "	CACHELINE_ASSERT_GROUP_MEMBER(struct ga_anon, ga_anon_write, hits);
	CACHELINE_ASSERT_GROUP_SIZE(struct ga_anon, ga_anon_write, 8);" "$(sed 1d "$T/ga-anon.block")"
{ sed -n '/^#include <stddef.h>/,/^#define GA_READ_TX_MAX/p' $K/ga_asserts.c | sed 's/ga_sock.h/ga_union.c/'
  echo 'void ga_union_check(void)'; echo '{'; cat "$T/gu.block" "$T/ga-anon.block"; echo '}'; } >"$T/gu-paste.c"
if gcc -I$K -c "$T/gu-paste.c" -o "$T/gu-paste.o" 2>"$T/gu-paste.err"; then ok kvocab/ga-union-block-compiles
else fail kvocab/ga-union-block-compiles "$(head -3 "$T/gu-paste.err")"; fi
sed 's/ga_un_read, 12);/ga_un_read, 11);/' "$T/gu.block" >"$T/gu.low"
{ sed -n '/^#include <stddef.h>/,/^#define GA_READ_TX_MAX/p' $K/ga_asserts.c | sed 's/ga_sock.h/ga_union.c/'
  echo 'void ga_union_check(void)'; echo '{'; cat "$T/gu.low"; echo '}'; } >"$T/gu-low.c"
if gcc -I$K -c "$T/gu-low.c" -o /dev/null 2>/dev/null; then fail kvocab/ga-union-block-binds "a bound one byte too small compiled"
else ok kvocab/ga-union-block-binds; fi
out=$("$CH" asserts ga_overlap "$T/gu.o" 2>&1); rc=$?
expect_eq kvocab/ga-overlapping-groups "2|cachehot-layout: struct ga_overlap: group 'ga_ov_write_tx' of 'struct ga_overlap' begins at offset 12 inside group 'ga_ov_read_tx' (offsets 8..16): groups must not overlap; end 'ga_ov_read_tx' before __cacheline_group_begin(ga_ov_write_tx)" "$rc|$out"
out=$("$CH" asserts ga_direct "$T/gu.o" 2>&1); rc=$?
expect_eq kvocab/ga-group-directly-in-union "2|cachehot-layout: union ga_direct: group 'ga_direct_read' of 'union ga_direct' has its markers directly in a union, where every member starts at one offset (0): the group measures nothing and its asserts cannot hold; put the markers and the group's fields in a struct (an anonymous struct member of the union)" "$rc|$out"
out=$("$CH" asserts nc_dev "$T/nc.o" 2>&1); rc=$?
expect_eq kvocab/ga-no-groups "2|cachehot-layout: struct nc_dev has no cacheline groups (__cacheline_group_begin/end)" "$rc|$out"
printf '__cachehot_assert_group_size("struct ga_sock", "g", "1")\n' >"$T/bad.i"
out=$("$LT" --group-asserts "$T/bad.i" "$T/ga.o" 2>&1); rc=$?
expect_eq kvocab/ga-malformed "2|cachehot-layout: $T/bad.i:1: malformed __cachehot_assert_group_size() call: no expanded bound" "$rc|$out"
# a line marker naming a device or a FIFO: the asserts are still judged (at
# the marker's lines, column 1), the named file is never read (/dev/zero ran
# out of memory and aborted, a FIFO hung)
sed 's|^# \([0-9]*\) "[^"]*ga_asserts.c"|# \1 "/dev/zero"|' "$T/ga.i" >"$T/zero.i"
out=$( (ulimit -v 4000000; exec timeout 20 "$LT" -q --group-asserts "$T/zero.i" "$T/ga.o") 2>&1); rc=$?
expect_eq kvocab/ga-marker-dev-zero "1|7|/dev/zero:27:1: warning: CACHELINE_ASSERT_GROUP_MEMBER(struct ga_sock, ga_read_tx, moved) no longer holds" \
	"$rc|$(grep -c '^/dev/zero:' <<<"$out")|$(grep -m1 '^/dev/zero:27:' <<<"$out" | sed "s/: 'moved' .*//")"
mkfifo "$T/marker.fifo"
sed "s|^# \\([0-9]*\\) \"[^\"]*ga_asserts.c\"|# \\1 \"$T/marker.fifo\"|" "$T/ga.i" >"$T/fifo.i"
out=$(timeout 20 "$LT" -q --group-asserts "$T/fifo.i" "$T/ga.o" 2>&1); rc=$?
expect_eq kvocab/ga-marker-fifo "1|7" "$rc|$(grep -c "^$T/marker.fifo:" <<<"$out")"
# net_cachelines on a struct with groups: fast-path fields outside every group
# of their path (drift), with the group to move them to
"$LT" -q --net-cachelines $K/ga_sock.rst "$T/ga.o" | grep 'cachehot-net-cachelines' >"$T/gan.txt"
expect_file_eq kvocab/nc-outside-groups $K/ga_sock.netcl.expected "$T/gan.txt"

# ---- 3. kernel/prepare.sh takes the version -----------------------------------
out=$(kernel/prepare.sh --version 7.0 2>&1); rc=$?
expect_eq kvocab/prepare-unsupported-version "2|kernel/prepare.sh: unsupported version '7.0' (Debian 12 ships linux-source-6.1 and linux-source-6.12)" "$rc|$out"
out=$(kernel/prepare.sh --version 2>&1); rc=$?
expect_eq kvocab/prepare-version-needs-argument "2|kernel/prepare.sh: --version needs an argument (6.1 or 6.12)" "$rc|$out"
out=$(LINUX_VERSION=5.10 kernel/prepare.sh 2>&1); rc=$?
expect_eq kvocab/prepare-version-from-env "2|kernel/prepare.sh: unsupported version '5.10' (Debian 12 ships linux-source-6.1 and linux-source-6.12)" "$rc|$out"
