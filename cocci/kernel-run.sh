#!/bin/bash
# cocci/kernel-run.sh [RULE.cocci...] -- run Coccinelle rules over Debian's
# linux-source-6.1 mm/ (the "make cocci-kernel" target). For each rule
# (default: every cocci/*.cocci):
#   1. the kernel's own  make coccicheck MODE=report COCCI=RULE M=mm/ J=2
#   2. plain             spatch -D report --dir mm -j 2 (the rule's // Options:)
# and checks that both run without spatch errors and give the same report
# lines. Outputs (report lines, sorted) go to $BUILD/cocci/kernel/RULE.{coccicheck,spatch}.txt,
# written through a temporary file; a summary line per run gives the number
# of reports and the wall time in seconds. Exit status 1 if a run failed,
# printed a spatch error (EXN, Python failure, parse error) or the two runs
# disagree. Uses -j 2 at most (2 shared cores). Reads the source tree only.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$("$TOP"/kernel/prepare.sh) || { echo "cocci-kernel: kernel/prepare.sh failed" >&2; exit 1; }
OUT=$BUILD/cocci/kernel
mkdir -p "$OUT"
if [ $# -gt 0 ]; then rules=("$@"); else rules=("$TOP"/cocci/*.cocci); fi
status=0
errors_in() { grep -E 'EXN|Python failure|parse error|coccicheck failed|Traceback|^Fatal error' "$1"; }

# in_src CMD...: run CMD in the kernel source tree
in_src() { (cd "$SRC" && "$@"); }

# run_way NAME WAY SHOWN LABEL CMD...: apply one rule one way, keep its sorted
# report lines in $OUT/NAME.WAY.txt, print the count and the time; a failed
# run or a spatch error sets status=1
run_way() {
	local name=$1 way=$2 shown=$3 label=$4 start rc t
	shift 4
	start=$(date +%s.%N)
	"$@" >"$OUT/$name.$way.log" 2>&1
	rc=$?
	t=$(echo "$(date +%s.%N) - $start" | bc)
	grep -E '^mm/[^ ]+:[0-9]+:[0-9]+-[0-9]+: ' "$OUT/$name.$way.log" | sort -u \
		>"$OUT/$name.$way.txt.tmp" && mv "$OUT/$name.$way.txt.tmp" "$OUT/$name.$way.txt"
	if [ $rc -ne 0 ] || errors_in "$OUT/$name.$way.log" >/dev/null; then
		echo "cocci-kernel: $name: $label failed (rc $rc):" >&2
		errors_in "$OUT/$name.$way.log" | head -5 >&2
		status=1
	fi
	printf '%-16s %-11s %3d reports  %6.1f s\n' "$name" "$shown" \
		"$(wc -l <"$OUT/$name.$way.txt")" "$t"
}

for rule in "${rules[@]}"; do
	rule=$(realpath "$rule")
	name=$(basename "$rule" .cocci)
	[ -f "$rule" ] || { echo "cocci-kernel: no such rule: $rule" >&2; status=1; continue; }
	opts=$(grep 'Options:' "$rule" | cut -d: -f2)

	run_way "$name" coccicheck coccicheck "make coccicheck" \
		make -s -C "$SRC" coccicheck MODE=report COCCI="$rule" M=mm/ J=2
	# shellcheck disable=SC2086  # $opts: the rule's own "// Options:" words
	run_way "$name" spatch spatch-dir "spatch --dir" \
		in_src spatch -D report --no-show-diff --very-quiet $opts \
		--cocci-file "$rule" --dir mm -j 2
	if ! cmp -s "$OUT/$name.coccicheck.txt" "$OUT/$name.spatch.txt"; then
		echo "cocci-kernel: $name: coccicheck and spatch --dir reports differ:" >&2
		diff "$OUT/$name.coccicheck.txt" "$OUT/$name.spatch.txt" | head -10 >&2
		status=1
	fi
done
echo "reports in $OUT"
exit $status
