#!/bin/bash
# userspace/haproxy-check.sh -- cachehot annotate, then cachehot check with
# what it inferred, on a real multi-threaded server (make userspace-haproxy;
# docs/userspace.md has every finding with a verdict).
#
# 1. Debian's source package of HAProxy (scripts/deb-src.sh adds a deb-src
#    entry when apt has none; 'apt-get source', Debian's patches applied),
#    unpacked once into $BUILD/userspace-haproxy/.
# 2. Its own Makefile, plain (no plugin): bear -- make -j2 TARGET=linux-glibc
#    USE_OPENSSL=1 USE_PCRE2=1 USE_ZLIB=1 (threads on, as Debian builds it);
#    compile_commands.json.
# 3. cachehot annotate --build (every unit again with the access mode) ->
#    inferred.sidecar (ANNOTATE_ARGS adds options, e.g. --only=STRUCT).
# 4. cachehot check --annotations=inferred.sidecar on the linked binary's
#    DWARF (--engine=layout: every struct once, in seconds; ENGINE=plugin
#    checks every unit of compile_commands.json instead, as a CI gate does,
#    another full compile): every finding -> findings.txt.
# 5. With HAND=FILE (default examples/haproxy.annotations when it exists):
#    cachehot check with that hand-written sidecar -> findings-hand.txt.
# 6. The warnings of 4 (and 5) against userspace/haproxy.expected (and
#    userspace/haproxy-hand.expected): one line per warning, paths relative.
# Prints times and counts (suggestions, structs, warnings, notes, units).
# Exit status 0 when everything matches, 1 on a difference or a failed step.
# Network: the Debian archive (source package, build dependencies).
# About 10 min at -j2 on 2 cores (two compiles of 147 units; a third with
# ENGINE=plugin).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
W=$BUILD/userspace-haproxy
EXP=$TOP/userspace/haproxy.expected
HAND=${HAND-$TOP/examples/haproxy.annotations}
HEXP=$TOP/userspace/haproxy-hand.expected
CH=${CACHEHOT:-$TOP/bin/cachehot}   # CACHEHOT=...: another build's tools (before/after)
J=${J:-2}
# HAProxy's configuration keyword parsers and CLI handlers are reached only
# through keyword tables of function pointers (no call edge from main()):
# named slow with --slow, as a reviewer does after --explain shows them
HAPROXY_SLOW='^(cfg_|cli_|pcli_|hc_cli_|srv_parse_|_srv_parse_|bind_parse_|ssl_bind_parse_|proxy_parse_|ssl_parse_|tcp_parse_|backend_parse_|debug_parse_|server_parse_|crtlist_parse_|resolv_parse_|srv_state_parse_)'
ANNOTATE_ARGS=${ANNOTATE_ARGS-"--slow=$HAPROXY_SLOW"}
MAKEARGS="TARGET=linux-glibc USE_OPENSSL=1 USE_PCRE2=1 USE_ZLIB=1"
die() { echo "userspace-haproxy: $*" >&2; exit 1; }
secs() { printf '%.1f' "$(echo "$2 - $1" | bc)"; }
. "$TOP"/userspace/expected.sh

"$TOP"/scripts/need-packages.sh libssl-dev libpcre2-dev zlib1g-dev libcrypt-dev dpkg-dev bear bc ||
	die "cannot install the build dependencies"
src=$("$TOP"/userspace/deb-source.sh haproxy "$W") || die "no haproxy source package"
ver=${src##*/haproxy-}
echo "userspace-haproxy: HAProxy $ver (Debian source package) in $src"

# a fresh copy per run: objects never outlive a change of tools
B=$W/build
rm -rf "$B" && cp -a "$src" "$B" || die "cannot copy $src to $B"
cd "$B" || exit 1
t0=$(date +%s.%N)
bear --output "$B/compile_commands.json" -- make -j"$J" $MAKEARGS >"$W/build.log" 2>&1 ||
	{ tail -30 "$W/build.log"; die "make failed"; }
t1=$(date +%s.%N)
units=$(grep -c '"file"' "$B/compile_commands.json")
echo "userspace-haproxy: plain build $(secs "$t0" "$t1") s wall (-j$J), $units units in compile_commands.json"

# annotate: every unit with the access mode, facts kept for --explain
rm -rf "$W/facts"
"$CH" annotate --build "$B" -j "$J" --keep-facts="$W/facts" --no-progress $ANNOTATE_ARGS \
	-o "$W/inferred.sidecar" 2>"$W/annotate.err" || { tail -20 "$W/annotate.err"; die "cachehot annotate failed"; }
t2=$(date +%s.%N)
sugg=$(grep -c '^[A-Za-z_][A-Za-z0-9_]*\.' "$W/inferred.sidecar")
low=$(grep -c '^#[A-Za-z_][A-Za-z0-9_]*\.' "$W/inferred.sidecar")
nst=$(grep -c '^# struct ' "$W/inferred.sidecar")
echo "userspace-haproxy: annotate $(secs "$t1" "$t2") s: $sugg suggestions in $nst structs ($low low-confidence lines written commented out)"

# check with the inferred sidecar
ENGINE=${ENGINE:-layout}
run_check() {   # SIDECAR OUT
	if [ "$ENGINE" = plugin ]; then
		"$CH" check -p "$B/compile_commands.json" --annotations="$1" -A unmatched=ignore -j "$J" \
			--no-progress >"$2.raw" 2>"$2.err"
	else
		"$CH" check --engine=layout "$B/haproxy" --annotations="$1" >"$2.raw" 2>"$2.err"
	fi
	local rc=$?
	sed "s|$B/||g; s|$TOP/||g; s|$W/||g" "$2.raw" >"$2"
	# exit 2 is a usage or tool error, not findings: show why
	[ "$rc" -ge 2 ] && sed 's/^/userspace-haproxy: check: /' "$2.err" >&2
	echo "$rc"
}
rc=$(run_check "$W/inferred.sidecar" "$W/findings.txt")
t3=$(date +%s.%N)
nw=$(grep -c ': warning: ' "$W/findings.txt")
nn=$(grep -c ': note: ' "$W/findings.txt")
nu=$(grep ': warning: ' "$W/findings.txt" | cut -d: -f1 | sort -u | wc -l)
echo "userspace-haproxy: check --engine=$ENGINE with the inferred sidecar $(secs "$t2" "$t3") s: exit $rc, $nw warnings, $nn notes, in $nu files"
grep ': warning: ' "$W/findings.txt" | sort -u >"$W/warnings.txt"
fail=0
match_expected userspace-haproxy warnings "$EXP" "$W/warnings.txt" || fail=1

# hand annotations, when there are any
if [ -n "$HAND" ] && [ -f "$HAND" ]; then
	rc=$(run_check "$HAND" "$W/findings-hand.txt")
	nw=$(grep -c ': warning: ' "$W/findings-hand.txt")
	nn=$(grep -c ': note: ' "$W/findings-hand.txt")
	echo "userspace-haproxy: check with $HAND: exit $rc, $nw warnings, $nn notes"
	grep ': warning: ' "$W/findings-hand.txt" | sort -u >"$W/warnings-hand.txt"
	match_expected userspace-haproxy "hand-annotation warnings" "$HEXP" "$W/warnings-hand.txt" || fail=1
fi
exit $fail
