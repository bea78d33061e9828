#!/bin/bash
# userspace/haproxy-record.sh -- HAProxy judged by its code and by its own
# runs together (make record-haproxy; docs/userspace.md, "HAProxy with a
# recorded run"):
#
# 1. userspace/haproxy-check.sh first when its outputs are missing: the plain
#    build (compile database, the binary checked here) and the access facts
#    of every unit ($BUILD/userspace-haproxy/facts).
# 2. A recording build of the same source (-fplugin-arg-cachehot-record,
#    linked with libcachehot-rt) by HAProxy's own Makefile.
# 3. Three workloads, each a run of the recording build (sampling 1 in
#    SAMPLE, default 16) with 4 threads on
#    127.0.0.1 driven by wrk (Debian's wrk) for SECONDS (default 15), stopped
#    by SIGUSR1 (soft stop: the profile is written at exit):
#    keepalive   round robin over two servers, keep-alive (userspace/haproxy-keepalive.cfg)
#    features    stick table tracking, cache, compression, leastconn, server
#                maxconn queues, three URLs at once (haproxy-features.cfg)
#    close       keepalive's configuration, a new connection per request
#    The servers are a frontend of the same process (http-request return).
# 4. For each workload and for the three together: cachehot annotate with the
#    facts and the run (--profile), then cachehot check --engine=layout on
#    the plain binary with that sidecar: warnings in $W/record/WORKLOAD.txt,
#    compared with userspace/haproxy-record.expected (one "WORKLOAD: warning"
#    line each; the verdicts are in docs/userspace.md).
# Exit status 0 when every warning list matches, 1 otherwise.
# Network: the Debian archive (source package, build dependencies, wrk).
# Traffic: loopback only. About 6 min on 2 cores after haproxy-check.sh.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
W=$BUILD/userspace-haproxy
R=$W/record
CH=${CACHEHOT:-$TOP/bin/cachehot}
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
SECONDS_RUN=${SECONDS_RUN:-15}
EXP=$TOP/userspace/haproxy-record.expected
J=${J:-2}
MAKEARGS="TARGET=linux-glibc USE_OPENSSL=1 USE_PCRE2=1 USE_ZLIB=1"
HAPROXY_SLOW='^(cfg_|cli_|pcli_|hc_cli_|srv_parse_|_srv_parse_|bind_parse_|ssl_bind_parse_|proxy_parse_|ssl_parse_|tcp_parse_|backend_parse_|debug_parse_|server_parse_|crtlist_parse_|resolv_parse_|srv_state_parse_)'
die() { echo "record-haproxy: $*" >&2; exit 1; }

"$TOP"/scripts/need-packages.sh wrk curl || die "cannot install wrk"
if [ ! -x "$W/build/haproxy" ] || ! ls "$W"/facts/*.access.json >/dev/null 2>&1; then
	"$TOP"/userspace/haproxy-check.sh >/dev/null || [ -x "$W/build/haproxy" ] ||
		die "userspace/haproxy-check.sh left no build"
fi
src=$(find "$W" -mindepth 1 -maxdepth 1 -type d -name 'haproxy-[0-9]*' | head -1)
[ -n "$src" ] || die "no HAProxy source in $W"
mkdir -p "$R" || die "cannot create $R"

# HAProxy 2.6.12 can crash at exit, after the soft stop (upstream report
# "HAProxy 2.6.12 crash in _fd_delete_orphan()",
# github.com/haproxy/haproxy/issues/2114): deinit() closes the
# servers' idle connections after free_pollers_per_thread() freed the
# thread's fd_updt, while fd_nbupdt still counts a pending update, and
# _fd_delete_orphan() reads fd_updt[fd_nbupdt - 1] (a NULL pointer). The
# profile is written at exit, after deinit(), so the crash loses the run: the
# recording build crashed so in 6 of 20 runs, the plain build in 1 of 20 (the
# first's threads are slower; docs/userspace.md). Upstream fixed it
# by resetting fd_nbupdt where fd_updt is freed; the recording build carries
# that one line (code only: no struct changes, so the plain build's layout
# is the recorded one's). Fails when the line to patch is not there.
fix_fd_updt() {
	grep -q '^	fd_nbupdt = 0;' "$1/src/fd.c" && return 0
	grep -q '^	ha_free(&fd_updt);$' "$1/src/fd.c" || return 1
	sed -i 's/^	ha_free(&fd_updt);$/	fd_nbupdt = 0;   \/* github.com\/haproxy\/haproxy\/issues\/2114 (userspace\/haproxy-record.sh) *\/\n&/' "$1/src/fd.c" &&
		grep -q '^	fd_nbupdt = 0; ' "$1/src/fd.c"
}

# the recording build (kept while the plugin and the runtime are older than
# it, and it carries the fix above)
if [ -x "$W/rec/haproxy" ] && [ "$W/rec/haproxy" -nt "$PLUGIN" ] && [ "$W/rec/haproxy" -nt "$RT/libcachehot-rt.so" ] &&
	grep -q '^	fd_nbupdt = 0; ' "$W/rec/src/fd.c" 2>/dev/null && [ "$W/rec/haproxy" -nt "$W/rec/src/fd.c" ]; then
	echo "record-haproxy: recording build kept ($W/rec/haproxy is newer than the plugin and the runtime)"
else
rm -rf "$W/rec" && cp -a "$src" "$W/rec" || die "cannot copy $src"
fix_fd_updt "$W/rec" || die "cannot apply the fix of the upstream report (haproxy/haproxy 2114) to $W/rec/src/fd.c"
t0=$(date +%s)
(cd "$W/rec" && make -j"$J" $MAKEARGS ADDINC="-fplugin=$PLUGIN -fplugin-arg-cachehot-record" \
	ADDLIB="-L$RT -lcachehot-rt -Wl,-rpath,$RT" haproxy >"$R/build.log" 2>&1) ||
	{ tail -20 "$R/build.log"; die "recording build failed"; }
echo "record-haproxy: recording build $(( $(date +%s) - t0 )) s"
fi

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# run WORKLOAD CONFIG: the recording build under wrk; the profile in $R/WORKLOAD.json
run() {
	local name=$1 cfg=$2 fe be pid out st
	fe=$(port); be=$(port)
	sed "s/@FE@/$fe/g; s/@BE@/$be/g" "$TOP/userspace/$cfg" >"$R/$name.cfg"
	rm -f "$R/$name".*.json
	CACHEHOT_RT_QUIET=1 CACHEHOT_RT_SAMPLE=${SAMPLE:-16} CACHEHOT_RT_OUT="$R/$name.%p.json" "$W/rec/haproxy" -f "$R/$name.cfg" -db \
		>"$R/$name.log" 2>&1 &
	pid=$!
	for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$fe/" && break; sleep 0.2; done
	case $name in
	keepalive) timeout $((SECONDS_RUN + 30)) wrk -t2 -c40 -d"${SECONDS_RUN}s" "http://127.0.0.1:$fe/" >"$R/$name.wrk" 2>&1 ;;
	close) timeout $((SECONDS_RUN + 30)) wrk -t2 -c40 -d"${SECONDS_RUN}s" -H 'Connection: close' "http://127.0.0.1:$fe/" >"$R/$name.wrk" 2>&1 ;;
	features)
		local w1 w2
		timeout $((SECONDS_RUN + 30)) wrk -t1 -c20 -d"${SECONDS_RUN}s" "http://127.0.0.1:$fe/" >"$R/$name.wrk1" 2>&1 &
		w1=$!
		timeout $((SECONDS_RUN + 30)) wrk -t1 -c20 -d"${SECONDS_RUN}s" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$fe/lc" >"$R/$name.wrk2" 2>&1 &
		w2=$!
		timeout $((SECONDS_RUN + 30)) wrk -t1 -c20 -d"${SECONDS_RUN}s" "http://127.0.0.1:$fe/static/x" >"$R/$name.wrk" 2>&1
		wait "$w1" "$w2"
		cat "$R/$name.wrk1" "$R/$name.wrk2" >>"$R/$name.wrk" ;;
	esac
	kill -USR1 "$pid"
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; die "$name: haproxy did not stop"; }
	wait "$pid" 2>/dev/null
	st=$?
	[ "$st" -gt 128 ] && die "$name: haproxy died with signal $((st - 128)) at the stop or before it, no profile ($R/$name.log)"
	out=$(ls "$R/$name".*.json 2>/dev/null | head -1)
	[ -n "$out" ] || die "$name: no profile written (haproxy exit status $st)"
	mv "$out" "$R/$name.json"
	echo "record-haproxy: $name: $(awk '/Requests\/sec/ {s += $2} END {printf "%.0f", s}' "$R/$name.wrk") requests/s recorded, profile $(du -k "$R/$name.json" | cut -f1) kB"
}
run keepalive haproxy-keepalive.cfg
run features haproxy-features.cfg
run close haproxy-keepalive.cfg

# judge: the code's facts with each run, and with all three
: >"$R/warnings.txt"
for name in keepalive features close all; do
	if [ "$name" = all ]; then prof=(--profile="$R/keepalive.json" --profile="$R/features.json" --profile="$R/close.json")
	else prof=(--profile="$R/$name.json"); fi
	"$CH" annotate "$W/facts" --no-progress --slow="$HAPROXY_SLOW" "${prof[@]}" -o "$R/$name.sidecar" ||
		die "$name: cachehot annotate failed"
	"$CH" check --engine=layout "$W/build/haproxy" --annotations="$R/$name.sidecar" >"$R/$name.raw" 2>&1
	sed "s|$W/build/||g; s|$TOP/||g" "$R/$name.raw" >"$R/$name.txt"
	grep ': warning: ' "$R/$name.txt" | sort -u | sed "s/^/$name: /" >>"$R/warnings.txt"
	echo "record-haproxy: $name: $(grep -c '^[a-z_A-Z]' "$R/$name.sidecar") lines ($(grep -c 'shared at run time' "$R/$name.sidecar") structs shared, $(grep -c 'owned at run time' "$R/$name.sidecar") owned, $(grep -c 'not exercised' "$R/$name.sidecar") not exercised); check: $(grep -c ': warning: ' "$R/$name.txt") warnings, $(grep -c ': note: ' "$R/$name.txt") notes"
done
if diff -u "$EXP" "$R/warnings.txt" >"$R/warnings.diff" 2>&1; then
	echo "record-haproxy: warnings match $EXP ($(wc -l <"$EXP") lines)"
else
	head -40 "$R/warnings.diff"
	echo "record-haproxy: warnings differ from $EXP (new: $R/warnings.txt)" >&2
	exit 1
fi
