#!/bin/bash
# userspace/apache2-check.sh -- cachehot annotate, then cachehot check with
# what it inferred, on Apache httpd with the event MPM (make
# userspace-apache2; docs/userspace.md has every warning with a verdict):
# first from the code alone, then from the code and a recorded run together.
#
# 1. Debian's source package of apache2 (scripts/deb-src.sh adds a deb-src
#    entry when apt has none; 'apt-get source', Debian's patches applied),
#    unpacked once into $BUILD/userspace-apache2/; APR from Debian
#    (libapr1-dev, libaprutil1-dev).
# 2. Its own configure and Makefile, plain (no plugin), under bear:
#    --with-mpm=event and a few static modules (core, http, mime, dir,
#    log_config, unixd, authz_core, status; no DSOs): one httpd binary;
#    compile_commands.json.
# 3. cachehot annotate --build (every unit again with the access mode; facts
#    kept in facts/; ANNOTATE_ARGS, default --program=httpd: the units the
#    server was linked from, not support/'s programs) -> static.sidecar.
# 4. The same tree as a recording build (-fplugin-arg-cachehot-record,
#    linked with libcachehot-rt).
# 5. That httpd on 127.0.0.1 (a free port) with a minimal httpd.conf: event
#    MPM, 2 children x 8 worker threads, KeepAlive, a 5.5 KB static file and
#    mod_status; driven by wrk (2 threads, 16 connections, LOAD_SECONDS, default
#    10) on loopback, sampling 1 access in SAMPLE (default 16); stopped by
#    SIGTERM to the parent (children exit
#    cleanly and each writes its profile: run/PID.json).
# 6. cachehot annotate --build facts + --profile run/*.json -> both.sidecar.
# 7. cachehot check --engine=layout on the plain httpd with each sidecar:
#    findings-static.txt, findings-both.txt; their warnings against
#    userspace/apache2-static.expected and userspace/apache2-both.expected
#    (one line per warning, paths relative).
# 8. wrk's requests/s on the plain and the recording build (the recording
#    overhead under load).
# Exit status 0 when everything matches, 1 on a difference or a failed step.
# Network: the Debian archive (source package, build dependencies). Traffic:
# loopback only. About 6 min at -j2 (two compiles of 68 units, one with the
# access mode, plus 2 x LOAD_SECONDS of load).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
W=$BUILD/userspace-apache2
CH=${CACHEHOT:-$TOP/bin/cachehot}   # CACHEHOT=...: another build's tools (before/after)
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
J=${J:-2}
SECONDS_LOAD=${LOAD_SECONDS:-10}
die() { echo "userspace-apache2: $*" >&2; exit 1; }
. "$TOP"/userspace/expected.sh
secs() { printf '%.1f' "$(echo "$2 - $1" | bc)"; }

"$TOP"/scripts/need-packages.sh libapr1-dev libaprutil1-dev libpcre2-dev dpkg-dev bear bc wrk ||
	die "cannot install the build dependencies"
src=$("$TOP"/userspace/deb-source.sh apache2 "$W") || die "no apache2 source package"
ver=${src##*/apache2-}
echo "userspace-apache2: Apache httpd $ver (Debian source package) in $src"

# Debian's reproducible-builds patch wants BUILD_DATETIME (debian/rules sets it)
CPPF='-DBUILD_DATETIME=\"2026-01-01T00:00:00\"'
build() {   # DIR CFLAGS LDFLAGS [bear]
	local d=$1
	rm -rf "$d" && cp -a "$src" "$d" || die "cannot copy $src to $d"
	(cd "$d" && ./configure --prefix="$d/inst" --with-mpm=event --enable-modules=none \
		--enable-mods-static="status mime dir log_config unixd authz_core" \
		--with-apr=/usr/bin/apr-1-config --with-apr-util=/usr/bin/apu-1-config \
		CFLAGS="$2" CPPFLAGS="$CPPF" >configure.log 2>&1) ||
		{ tail -20 "$d/configure.log"; die "configure failed in $d"; }
	# LDFLAGS at make time: the support programs link without LIBS
	if [ -n "${4:-}" ]; then
		(cd "$d" && bear --output "$d/compile_commands.json" -- make -j"$J" LDFLAGS="$3" >build.log 2>&1)
	else
		(cd "$d" && make -j"$J" LDFLAGS="$3" >build.log 2>&1)
	fi || { tail -30 "$d/build.log"; die "make failed in $d"; }
	[ -x "$d/httpd" ] || die "no httpd in $d"
}

t0=$(date +%s.%N)
build "$W/plain" "-g -O2" "" bear
t1=$(date +%s.%N)
units=$(grep -c '"file"' "$W/plain/compile_commands.json")
echo "userspace-apache2: plain build $(secs "$t0" "$t1") s wall (-j$J), $units units in compile_commands.json"

# annotate from the code: every unit with the access mode, facts kept
# (the server only: support/ holds other programs, ab, htpasswd, rotatelogs)
ANNOTATE_ARGS=${ANNOTATE_ARGS-"--program=$W/plain/httpd"}
rm -rf "$W/facts"
"$CH" annotate --build "$W/plain" -j "$J" --keep-facts="$W/facts" --no-progress $ANNOTATE_ARGS \
	-o "$W/static.sidecar" 2>"$W/annotate.err" || { tail -20 "$W/annotate.err"; die "cachehot annotate failed"; }
t2=$(date +%s.%N)
count() { echo "$(grep -c '^[A-Za-z_][A-Za-z0-9_]*\.' "$1") lines ($(grep -c '^#[A-Za-z_][A-Za-z0-9_]*\.' "$1") written commented out) in $(grep -c '^# struct ' "$1") structs"; }
echo "userspace-apache2: annotate $(secs "$t1" "$t2") s: $(count "$W/static.sidecar")"

build "$W/rec" "-g -O2 -fplugin=$PLUGIN -fplugin-arg-cachehot-record" "-L$RT -Wl,-rpath,$RT -lcachehot-rt"
t3=$(date +%s.%N)
echo "userspace-apache2: recording build $(secs "$t2" "$t3") s wall"

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# serve: start BIN with a fresh config under $W/serve, load it with wrk,
# stop it; prints wrk's requests/s. The children run as nobody (httpd
# refuses root): everything they write is in sticky world-writable dirs.
serve() {   # BIN PROFILE-DIR|""
	local bin=$1 out=$2 s=$W/serve p ppid rps i
	rm -rf "$s" && mkdir -p "$s/htdocs" "$s/logs" && chmod 1777 "$s/logs" || die "cannot create $s"
	head -c 4096 /dev/zero | tr '\0' 'a' | fold -w 64 >"$s/htdocs/index.html"
	p=$(port)
	cat >"$s/httpd.conf" <<EOF
ServerRoot $s
ServerName 127.0.0.1
Listen 127.0.0.1:$p
User nobody
Group nogroup
PidFile $s/logs/httpd.pid
DefaultRuntimeDir $s/logs
ErrorLog $s/logs/error.log
LogLevel warn
StartServers 2
ServerLimit 2
ThreadLimit 8
ThreadsPerChild 8
MaxRequestWorkers 16
MinSpareThreads 4
MaxSpareThreads 16
KeepAlive On
DocumentRoot $s/htdocs
<Directory $s/htdocs>
  Require all granted
</Directory>
DirectoryIndex index.html
TypesConfig /dev/null
ExtendedStatus On
<Location /server-status>
  SetHandler server-status
</Location>
EOF
	if [ -n "$out" ]; then
		rm -rf "$out" && mkdir -p "$out" && chmod 1777 "$out" || die "cannot create $out"
		CACHEHOT_RT_QUIET=1 CACHEHOT_RT_SAMPLE=${SAMPLE:-16} CACHEHOT_RT_OUT="$out/%p.json" \
			"$bin" -f "$s/httpd.conf" -k start ||
			die "$bin did not start ($s/logs/error.log)"
	else
		"$bin" -f "$s/httpd.conf" -k start || die "$bin did not start ($s/logs/error.log)"
	fi
	for i in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null && break; sleep 0.1; done
	curl -s -o /dev/null "http://127.0.0.1:$p/server-status?auto"
	rps=$(timeout $((SECONDS_LOAD + 30)) wrk -t2 -c16 -d"${SECONDS_LOAD}s" "http://127.0.0.1:$p/index.html" 2>&1 |
		sed -n 's/^Requests\/sec: *//p')
	curl -s -o /dev/null "http://127.0.0.1:$p/server-status?auto"
	ppid=$(cat "$s/logs/httpd.pid" 2>/dev/null)
	[ -n "$ppid" ] && kill -TERM "$ppid"
	for i in $(seq 100); do kill -0 "$ppid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$ppid" 2>/dev/null && die "httpd $ppid did not stop"
	echo "${rps:-0}"
}
echo "userspace-apache2: recording under load (wrk -t2 -c16 -d${SECONDS_LOAD}s)"
rps_rec=$(serve "$W/rec/httpd" "$W/run")
nprof=$(ls "$W"/run/*.json 2>/dev/null | wc -l)
[ "$nprof" -ge 3 ] || die "$nprof profiles in $W/run (want the parent's and 2 children's)"
echo "userspace-apache2: $nprof profiles (parent and children), $(python3 -c '
import json, sys
t = [json.load(open(f)) for f in sys.argv[1:]]
print("%d threads, %.1f s, sample 1 in %d" % (max(p["threads"] for p in t), max(p["seconds"] for p in t), t[0]["sample"]))' "$W"/run/*.json)"
rps_plain=$(serve "$W/plain/httpd" "")
echo "userspace-apache2: wrk requests/s: plain $rps_plain, recording build $rps_rec"

# annotate from the code and the run together
prof=()
for f in "$W"/run/*.json; do prof+=(--profile="$f"); done
"$CH" annotate "$W/facts" $ANNOTATE_ARGS "${prof[@]}" -o "$W/both.sidecar" 2>"$W/annotate-both.err" ||
	{ tail -20 "$W/annotate-both.err"; die "cachehot annotate --profile failed"; }
echo "userspace-apache2: annotate with the run: $(count "$W/both.sidecar")"
for k in "shared at run time" "owned at run time" "not exercised"; do
	echo "userspace-apache2:   structs $k: $(grep -c "^# struct [^:]*: $k" "$W/both.sidecar")"
done

fail=0
for kind in static both; do
	"$CH" check --engine=layout "$W/plain/httpd" --annotations="$W/$kind.sidecar" \
		>"$W/findings-$kind.raw" 2>"$W/findings-$kind.err"
	rc=$?
	sed "s|$W/plain/||g; s|$TOP/||g; s|$W/||g" "$W/findings-$kind.raw" >"$W/findings-$kind.txt"
	grep ': warning: ' "$W/findings-$kind.txt" | sort -u >"$W/warnings-$kind.txt"
	echo "userspace-apache2: check with $kind.sidecar: exit $rc, $(wc -l <"$W/warnings-$kind.txt") warnings, $(grep -c ': note: ' "$W/findings-$kind.txt") notes"
	match_expected userspace-apache2 "$kind warnings" "$TOP/userspace/apache2-$kind.expected" \
		"$W/warnings-$kind.txt" || fail=1
done
exit $fail
