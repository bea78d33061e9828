# tests/buildcontract/icecc.sh -- sourced by run.sh (in $T, with its pc.c,
# pc.h, ann.h, pc.ann and helpers): the plugin on an icecream farm
# (docs/plugin.rst, "Builds, caches and compile farms").
#
# A scheduler, the client's daemon (--no-remote) and a "remote" daemon, all
# on this machine with their own port numbers and net name. The remote runs
# in a mount namespace of its own in which the project tree ($TOP: the
# plugin) and the test's folder ($T: sources, sidecar) are empty tmpfs
# mounts, as on another node. Its /proc/stat is a frozen copy: iceccd
# reports a load of 1000 (and the scheduler gives it no job) whenever no
# CPU was idle since its last report, which on a shared CI machine is most
# of the time ("No suitable host found, delaying" for 4 minutes, then a
# local compile); a frozen file reads as an idle node. The compiler
# environment is made by icecc-create-env --addfile (the plugin, the
# sidecar) and named by ICECC_VERSION. ICECC_TEST_REMOTEBUILD makes the
# client send a job to 127.0.0.1 instead of compiling it itself.
icecc_skip() { echo "  --   build/icecc-*: skipped: $1"; }
if ! command -v icecc >/dev/null || ! command -v iceccd >/dev/null || ! command -v icecc-scheduler >/dev/null; then
	icecc_skip "icecream is not installed (Debian package icecc; make deps installs it)"
elif [ "$(id -u)" != 0 ]; then
	icecc_skip "iceccd accepts remote jobs only as root (it chroots into the job's compiler environment)"
elif ! unshare -m true 2>/dev/null; then
	icecc_skip "unshare -m is not allowed here: no stand-in for a remote node"
else
	S=$(mktemp -d /tmp/cachehot-icecc.XXXXXX)
	chmod 777 "$S"   # iceccd runs as user icecc and makes its folders here
	ICE_PIDS=""
	icecc_stop() { local p; for p in $ICE_PIDS; do kill "$p" 2>/dev/null; done
		for p in $ICE_PIDS; do wait "$p" 2>/dev/null; done; ICE_PIDS=""; rm -rf "$S"; }
	trap 'icecc_stop; rm -rf "$T"' EXIT
	# free ports: the scheduler's P (TCP and UDP) and P+1, the remote's Q
	read -r SP DP < <(python3 - <<'EOF'
import random, socket
def free(p, kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    try:
        s.bind(("0.0.0.0", p)); return True
    except OSError:
        return False
    finally:
        s.close()
for _ in range(200):
    p, q = random.randrange(20000, 60000, 2), random.randrange(20000, 60000)
    if q not in (p, p + 1) and free(p) and free(p + 1) and free(p, socket.SOCK_DGRAM) and free(q):
        print(p, q); break
EOF
	)
	NET=cachehot$$
	unset ICECC ICECC_VERSION ICECC_DEBUG ICECC_LOGFILE ICECC_PREFERRED_HOST ICECC_EXTRAFILES ICECC_CC ICECC_SCHEDULER
	export ICECC_TESTS=1
	cat /proc/stat >"$S/stat"
	icecc-scheduler -p "$SP" -n "$NET" -l "$S/sched.log" -vvv & ICE_PIDS="$ICE_PIDS $!"
	ICECC_TEST_SOCKET=$S/sock-local iceccd --no-remote -s "localhost:$SP" -n "$NET" -N localice \
		-b "$S/envs-local" -l "$S/local.log" -m 2 -vvv & ICE_PIDS="$ICE_PIDS $!"
	ICECC_TEST_SOCKET=$S/sock-remote unshare -m sh -c '
		mount -t tmpfs none "$1" && mount -t tmpfs none "$2" && mount --bind "$3/stat" /proc/stat || exit 1
		{ [ -e "$4" ] && echo "plugin visible" || echo "no plugin"; [ -e "$2/pc.ann" ] && echo "sidecar visible" || echo "no sidecar"; } >"$3/view"
		exec iceccd -p "$5" -s "localhost:$6" -n "$7" -N remoteice -b "$3/envs-remote" -l "$3/remote.log" -m 2 -vvv' \
		sh "$TOP" "$T" "$S" "$PLUGIN" "$DP" "$SP" "$NET" & ICE_PIDS="$ICE_PIDS $!"
	# the environment: gcc, the plugin and the sidecar (icecc-create-env writes it in the cwd)
	(cd "$S" && icecc-create-env /usr/bin/gcc --addfile "$PLUGIN" --addfile "$T/pc.ann" >create-env.log 2>&1)
	ENV=$(ls "$S"/*.tar.gz 2>/dev/null | head -1)
	ready=0
	for _ in $(seq 60); do
		grep -q 'Connected to scheduler' "$S/local.log" 2>/dev/null && grep -q 'Connected to scheduler' "$S/remote.log" 2>/dev/null &&
			grep -q 'login remoteice ' "$S/sched.log" 2>/dev/null && { ready=1; break; }
		sleep 0.5
	done
	# icecc_cc LOG ARGS...: gcc through icecream, the job sent to the remote;
	# -fno-diagnostics-show-caret: with carets in the remote's diagnostics
	# icecc compiles the unit again locally ("stdout/stderr workaround")
	icecc_cc() {
		local log=$1; shift
		ICECC_TEST_SOCKET=$S/sock-local ICECC_TEST_REMOTEBUILD=1 ICECC_PREFERRED_HOST=remoteice \
			ICECC_VERSION=$ENV ICECC_DEBUG=debug ICECC_LOGFILE=$S/$log timeout 120 \
			icecc gcc -fno-diagnostics-show-caret "$@"
	}
	remote_done() { grep -c "Remote compilation $1" "$S/remote.log"; }
	# what the client did: "remote" when the job went to the remote daemon
	# and was not compiled again here
	where() { grep -q "Have to use host 127.0.0.1:$DP " "$S/$1" && ! grep -q -e '<building_local>' -e 'local build forced' "$S/$1" &&
		echo remote || echo local; }
	if [ $ready = 1 ] && [ -n "$ENV" ]; then
		expect_eq build/icecc-remote-node-sees-no-tree "no plugin|no sidecar" "$(paste -sd'|' "$S/view")"
		# 1: annotations in an -include header, records into the object
		icecc_cc c1.log $P -include ann.h -fplugin-arg-cachehot-access=object -fplugin-arg-cachehot-manifest=object \
			-O2 -c pc.c -o farm.o 2>err1; rc=$?
		expect_eq build/icecc-pragma-finding-returns "0|remote|1|$W_PARENT" \
			"$rc|$(where c1.log)|$(remote_done 'completed with exit code 0')|$(grep -- ': warning: ' err1)"
		"$CH" annotate farm.o --min-fields=1 --hot-rmw-fns=1 >farm.sug 2>&1
		expect_eq build/icecc-facts-return-with-object "page_counter.usage hot" "$(grep -o '^page_counter.usage hot' farm.sug)"
		# the manifest record equals a local compile's
		$CC $P -fno-diagnostics-show-caret -include ann.h -fplugin-arg-cachehot-manifest=object -O2 -c pc.c -o here.o 2>/dev/null
		objcopy --dump-section .discard.cachehot=farm.sec farm.o /dev/null 2>/dev/null
		objcopy --dump-section .discard.cachehot=here.sec here.o /dev/null 2>/dev/null
		expect_eq build/icecc-manifest-record-as-local "1|same" \
			"$(tr '\0' '\n' <farm.sec | grep -c '^{"cachehot_manifest"')|$(cmp -s <(tr '\0' '\n' <farm.sec | grep '^{"cachehot_manifest"') \
				<(tr '\0' '\n' <here.sec | grep '^{"cachehot_manifest"') && echo same || echo differs)"
		# the source is not on the node: with the working directory in the
		# preprocessed text (-fworking-directory, on with -g) the access
		# record names the unit, its functions' and structs' files as a local
		# compile does (before: "pc.c", so two util.c in two folders compiled
		# with one set of flags were one unit); without it, as spelled
		acc() { objcopy --dump-section .discard.cachehot="$1.sec" "$1" /dev/null 2>/dev/null
			tr '\0' '\n' <"$1.sec" | grep '^{"cachehot_access"' | jq -c -r "$2"; }
		icecc_cc c4.log $P -fworking-directory -include ann.h -fplugin-arg-cachehot-access=object -O2 -c pc.c -o farm4.o 2>/dev/null
		$CC $P -fworking-directory -include ann.h -fplugin-arg-cachehot-access=object -O2 -c pc.c -o here4.o 2>/dev/null
		expect_eq build/icecc-unit-named-by-working-directory "remote|$T/pc.c|$T/pc.c|$T/pc.h:1|same|pc.c" \
			"$(where c4.log)|$(acc farm4.o .unit)|$(acc farm4.o .functions.charge.file)|$(acc farm4.o .struct_defs.page_counter | cut -d' ' -f1)|$(
			[ "$(acc farm4.o 'del(.flags)')" = "$(acc here4.o 'del(.flags)')" ] && echo same || echo differs)|$(acc farm.o .unit)"
		# 2: the sidecar by its absolute path, carried in the environment
		icecc_cc c2.log $P -fplugin-arg-cachehot-annotations="$T/pc.ann" -O2 -c pc.c -o farm2.o 2>err2; rc=$?
		expect_eq build/icecc-sidecar-in-environment "0|remote|3|$W_PARENT" \
			"$rc|$(where c2.log)|$(remote_done 'completed with exit code 0')|$(grep -- ': warning: ' err2)"
		# 3: a sidecar the environment does not carry: the remote compile fails and says why
		cp pc.ann elsewhere.ann
		icecc_cc c3.log $P -fplugin-arg-cachehot-annotations="$T/elsewhere.ann" -O2 -c pc.c -o farm3.o 2>err3; rc=$?
		expect_eq build/icecc-sidecar-not-shipped "1|remote|1|cc1: error: cachehot: $T/elsewhere.ann: cannot open annotations file: No such file or directory" \
			"$rc|$(where c3.log)|$(remote_done 'exited with exit code 1')|$(grep 'error:' err3)"
		# findings=-: the record lines come back with the node's stderr
		# (docs/findings.md), and check --log reads the findings from them
		icecc_cc c5.log $P -include ann.h -fplugin-arg-cachehot-findings=- -O2 -c pc.c -o farm5.o 2>err5; rc=$?
		expect_eq build/icecc-records-return-on-stderr "0|remote|2|note:pc.h:1:8:null warning:pc.h:1:57:parent" \
			"$rc|$(where c5.log)|$(grep -c '^{"cachehot_finding":1,"engine":"plugin",' err5)|$("$CH" check --log err5 --format=json | jq -r '[.findings[] | "\(.severity):\(.file):\(.line):\(.column):\(.field)"] | join(" ")')"
	else
		fail build/icecc-farm "icecream did not come up (daemons connected: $ready, environment: ${ENV:-none}): $(tail -3 "$S"/*.log "$S/create-env.log" 2>/dev/null | tr '\n' ' ' | cut -c1-600)"
	fi
	icecc_stop
	trap 'rm -rf "$T"' EXIT
fi
