#!/bin/bash
# userspace/memcached-record.sh -- the recording build on a real program
# (make record-memcached; docs/record.md, "Proof on a real program"):
#
# 1. Debian's source package of memcached (as make userspace-check gets it),
#    built by its own autotools as a recording build
#    (-fplugin-arg-cachehot-record, linked with libcachehot-rt), under bear.
# 2. memcached -t 4 on 127.0.0.1 (a free port), driven by memcslap (Debian's
#    libmemcached-tools) on loopback: SECONDS (default 2 x 20000 operations a
#    thread, 4 threads, set then get), bounded by timeout; stopped by SIGINT
#    (memcached leaves its event loop and exits: the profile is written).
# 3. cachehot annotate --profile: the sidecar; cachehot check --profile
#    -p compile_commands.json: every warning with its verdict, in
#    $BUILD/userspace/record/check.txt (judged in docs/record.md).
# 4. The fix cachehot proposes for the costliest confirmed struct, applied
#    (GCC's fix-it patch), and memcslap's time before and after, in turn.
# Network: the Debian archive (source package, libevent-dev, bear,
# libmemcached-tools). Traffic: loopback only.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
W=$BUILD/userspace
R=$W/record
CH=$TOP/bin/cachehot
PLUGIN=$TOP/plugin/cachehot.so
RT=$TOP/runtime
OPS=${OPS:-20000}
RUNS=${RUNS:-3}
die() { echo "record-memcached: $*" >&2; exit 1; }

"$TOP"/scripts/need-packages.sh libevent-dev dpkg-dev bear pkg-config libmemcached-tools ||
	die "cannot install the build dependencies"
src=$("$TOP"/userspace/deb-source.sh memcached "$W") || die "no memcached source package"
rm -rf "$R" && mkdir -p "$R"

build() {   # DIR CFLAGS LIBS
	rm -rf "$1" && cp -a "$src" "$1" || die "cannot copy $src"
	(cd "$1" && ./configure CFLAGS="$2" LIBS="$3" >configure.log 2>&1) || { tail -20 "$1/configure.log"; die "configure failed"; }
	(cd "$1" && bear --output "$1/compile_commands.json" -- make -j2 memcached >build.log 2>&1) ||
		{ tail -30 "$1/build.log"; die "make failed"; }
}
echo "record-memcached: recording build"
build "$R/rec" "-g -O2 -fplugin=$PLUGIN -fplugin-arg-cachehot-record" "-L$RT -lcachehot-rt -Wl,-rpath,$RT"
echo "record-memcached: plain build"
build "$R/plain" "-g -O2" ""

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# load: memcslap set then get, 4 client threads; prints the seconds it took
load() {   # BINARY [env...]
	local bin=$1 p pid t0 t1
	shift
	p=$(port)
	env "$@" "$bin" -t 4 -p "$p" -U 0 -l 127.0.0.1 -m 64 -u root &
	pid=$!
	for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null && break; sleep 0.1; done
	t0=$(date +%s.%N)
	timeout 120 memcslap --servers=127.0.0.1:"$p" --concurrency=4 --execute-number="$OPS" --test=set >/dev/null 2>&1
	timeout 120 memcslap --servers=127.0.0.1:"$p" --concurrency=4 --execute-number="$OPS" --test=get >/dev/null 2>&1
	t1=$(date +%s.%N)
	kill -INT "$pid"; wait "$pid" 2>/dev/null
	echo "$t1 - $t0" | bc -l
}
echo "record-memcached: recording under load"
rm -f "$R"/prof.*.json
# sampling 16 (the default is 1 in 1024): the verdicts in docs/record.md were taken so
CACHEHOT_RT_QUIET=1 CACHEHOT_RT_SAMPLE=16 load "$R/rec/memcached" CACHEHOT_RT_OUT="$R/prof.%p.json" >/dev/null
ls "$R"/prof.*.json >/dev/null 2>&1 || die "no profile written"
"$CH" annotate --profile "$R"/prof.*.json -o "$R/memcached.sidecar"
echo "record-memcached: sidecar $R/memcached.sidecar: $(grep -vc '^#' "$R/memcached.sidecar") lines"
cat "$R/memcached.sidecar"
# the sidecar the profile gives, checked over every unit (warnings: judged in docs/record.md)
(cd "$R/plain" && "$CH" check --no-progress --annotations="$R/memcached.sidecar" --profile "$R"/prof.*.json \
	-p compile_commands.json) >"$R/check.txt" 2>&1
echo "record-memcached: profile sidecar: $(grep -c ': warning: ' "$R/check.txt") warnings, $(grep -c '(confirmed: ' "$R/check.txt") confirmed (check.txt)"
grep ': warning: ' "$R/check.txt" | sed -E 's/^[^ ]*: warning: //' | cut -c1-200 | head -20
# the shipped hand-written sidecar (make userspace-check), each finding's verdict
(cd "$R/plain" && "$CH" check --no-progress --annotations="$TOP/examples/memcached.annotations" \
	--profile "$R"/prof.*.json -p compile_commands.json) >"$R/check-hand.txt" 2>&1
echo "record-memcached: shipped sidecar: $(grep -c ': warning: ' "$R/check-hand.txt") warnings, $(grep -c '(confirmed: ' "$R/check-hand.txt") confirmed, $(grep -c '(not observed' "$R/check-hand.txt") not observed (check-hand.txt)"
grep '(confirmed: ' "$R/check-hand.txt" | sed -E 's/^[^ ]*: warning: //' | cut -c1-240
# overhead under load: memcslap's time on the plain and the recording build
for i in $(seq "$RUNS"); do
	echo "plain $(load "$R/plain/memcached")"
	echo "rec $(CACHEHOT_RT_QUIET=1 CACHEHOT_RT_SAMPLE=16 load "$R/rec/memcached" CACHEHOT_RT_OUT="$R/o.%p.json")"
done >"$R/times"
rm -f "$R"/o.*.json
awk '{ s[$1] = s[$1] " " $2 } END { print "record-memcached: memcslap seconds, plain:" s["plain"] "; recording build (sampling 16):" s["rec"] }' "$R/times"
