#!/bin/bash
# tests/cocci/run.sh -- tests of cocci/unify_padding.cocci and
# cocci/counter_batch.cocci. Each rule and mode runs on a fixture
# and its output is compared byte for byte with an expected file:
#   counter_batch/batch.c     positive shapes (rmqueue_bulk's CMA update,
#                             keyed item, per-cpu event, iterator, user list)
#   counter_batch/exclude.c   one function per exclusion: no output at all
#   unify_padding/oldtree/    a small tree in the pre-6.1 style with private
#                             PC_PADDING / MEMCG_PADDING / ZONE_PADDING
#   unify_padding/direct.h    a member declared with a private padding type
# The old-style tree is converted with the command documented in
# docs/cocci.rst, must compile with and without CONFIG_SMP, and every struct
# must have the same pahole layout (offsets, sizes, holes, alignment) before
# and after, the padding type name aside.
# Needs: spatch (coccinelle), gcc, pahole, patch. Runs in a few seconds.
. "$(dirname "$0")/../lib.sh"
HERE=$TOP/tests/cocci
RULES=$TOP/cocci
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
OPTS="--very-quiet --no-includes --include-headers"

for tool in spatch gcc pahole patch; do
	command -v $tool >/dev/null || { fail "cocci-tools" "$tool is not installed (make deps)"; exit 0; }
done

# Files under --dir come in directory order, which differs between file
# systems: sort report/org lines by file and line, and diffs by file.
sort_lines() { sort -t: -k1,1 -k2,2n "$@"; }
sort_diff() {
	python3 -c '
import sys, re
text = sys.stdin.read()
parts = re.split(r"(?m)^(?=--- )", text)
head, files = parts[0], parts[1:]
sys.stdout.write(head + "".join(sorted(files)))'
}
sort_org() {
	python3 -c '
import sys, re
lines = sys.stdin.read().splitlines(True)
key = lambda l: (re.search(r"view:([^:]*)::", l).group(1), int(re.search(r"linb=(\d+)", l).group(1)))
sys.stdout.write("".join(sorted(lines, key=key)))'
}
# spatch's context diff names a temporary file: keep only the stable part.
norm_ctx() { sed -E 's|^\+\+\+ /tmp/cocci-output-[0-9]+-[0-9a-f]+-|+++ /tmp/cocci-output-|'; }

# run_rule RULE MODE OUT ARGS...: spatch in MODE on ARGS (from the cwd).
run_rule() {
	local rule=$1 mode=$2 out=$3; shift 3
	local nsd=""
	case $mode in report|org) nsd=--no-show-diff;; esac
	spatch -D "$mode" $nsd $OPTS --sp-file "$RULES/$rule.cocci" "$@" >"$out" 2>"$out.err"
}

# ---- conventions of the kernel's scripts/coccinelle rules -------------------
for rule in unify_padding counter_batch; do
	f=$RULES/$rule.cocci
	missing=""
	head -1 "$f" | grep -q '^// SPDX-License-Identifier: GPL-2.0' || missing="$missing SPDX"
	for key in '^/// [A-Z]' '^// Confidence: ' '^// Copyright: ' '^// Comments: ' \
		   '^// Options: --no-includes --include-headers$' '^virtual patch$' \
		   '^virtual context$' '^virtual org$' '^virtual report$' \
		   'coccilib.report.print_report' 'coccilib.org.print_todo'; do
		grep -q "$key" "$f" || missing="$missing [$key]"
	done
	expect_eq "conventions-$rule" "" "$missing"
	if spatch --parse-cocci "$f" >"$W/parse.out" 2>&1; then ok "parse-$rule"
	else fail "parse-$rule" "$(tail -3 "$W/parse.out")"; fi
done

# ---- counter_batch -----------------------------------------------------------
cd "$HERE/counter_batch"
EXTRA="-D counter_batch_updaters=my_stat_add:0:1"
run_rule counter_batch report "$W/cb.report" $EXTRA batch.c
expect_file_eq cb-report batch.report "$W/cb.report"
run_rule counter_batch report "$W/cb.default" batch.c
grep -v my_stat_add batch.report >"$W/cb.default.exp"
expect_file_eq cb-report-default-list "$W/cb.default.exp" "$W/cb.default"
# -D cachehot_records (what cachehot check asks): the same report lines and
# one record line each (docs/findings.md): place with a 1-based column, the
# function, the updater as the field, the message as reported
run_rule counter_batch report "$W/cb.rec" $EXTRA -D cachehot_records batch.c
expect_file_eq cb-records-report-same batch.report <(grep -v '^{' "$W/cb.rec")
expect_eq cb-records "$(sed -E 's/^([^:]*):([0-9]+):([0-9]+)-[0-9]+: (.*)$/\1:\2:\3 \4/' batch.report |
	while read -r pos msg; do c=${pos##*:}; echo "${pos%:*}:$((c + 1))|$msg"; done)" \
	"$(grep '^{' "$W/cb.rec" | jq -r '"\(.file):\(.line):\(.column)|\(.message)"')"
expect_eq cb-records-identity "cachehot-counter_batch:bulk:__mod_zone_page_state:null|cachehot-counter_batch:isolate:__mod_lruvec_state:null" \
	"$(grep '^{' "$W/cb.rec" | head -2 | jq -r '"\(.check):\(.function):\(.field):\(.struct)"' | paste -sd'|')"
run_rule counter_batch org "$W/cb.org" $EXTRA batch.c
expect_file_eq cb-org batch.org "$W/cb.org"
run_rule counter_batch context "$W/cb.ctx" $EXTRA batch.c
norm_ctx <"$W/cb.ctx" >"$W/cb.ctx.n"
expect_file_eq cb-context batch.context "$W/cb.ctx.n"
# Patch mode rewrites the certain shapes only (not the keyed item, not the
# one-argument event counter); the patched file compiles with the kernel's
# -Wdeclaration-after-statement.
run_rule counter_batch patch "$W/cb.p" $EXTRA batch.c
norm_ctx <"$W/cb.p" >"$W/cb.patch"
expect_file_eq cb-patch batch.patch "$W/cb.patch"
if patch -s -o "$W/batch-patched.c" batch.c <"$W/cb.p" >"$W/patch.out" 2>&1 &&
   gcc -c -Wall -Werror -Wdeclaration-after-statement -o "$W/x.o" "$W/batch-patched.c" 2>"$W/gcc.err"; then
	ok cb-patch-compiles
else
	fail cb-patch-compiles "$(cat "$W/patch.out" "$W/gcc.err" | head -5)"
fi
run_rule counter_batch patch "$W/cb.ex.patch" $EXTRA exclude.c
expect_eq cb-exclude-patch "" "$(cat "$W/cb.ex.patch" "$W/cb.ex.patch.err")"
# The regular expression of built-in updaters names exactly UPDATERS.
rx=$(sed -n 's/^identifier upd =~ "^(\(.*\))\$";$/\1/p' "$RULES/counter_batch.cocci" |
	sed 's/__count_vm_events?/__count_vm_event|__count_vm_events/; s/|count_vm_events?/|count_vm_event|count_vm_events/' |
	tr '|' '\n' | sort | paste -sd' ')
tbl=$(sed -n '/^UPDATERS = {/,/^}/p' "$RULES/counter_batch.cocci" | grep -o '"[a-z_]*"' | tr -d '"' | sort | paste -sd' ')
expect_eq cb-updater-list-in-sync "$tbl" "$rx"
for mode in report org context; do
	run_rule counter_batch $mode "$W/cb.ex.$mode" $EXTRA exclude.c
	expect_eq "cb-exclude-$mode" "" "$(cat "$W/cb.ex.$mode" "$W/cb.ex.$mode.err")"
done
# The fixtures are real C.
for c in batch.c exclude.c; do
	if gcc -c -Wall -Werror -o "$W/x.o" $c 2>"$W/gcc.err"; then ok "cb-compiles-$c"
	else fail "cb-compiles-$c" "$(head -5 "$W/gcc.err")"; fi
done
# Bad user list: a clear error and a failing exit status.
if run_rule counter_batch report "$W/cb.bad" -D counter_batch_updaters=foo:x:1 batch.c; then
	fail cb-bad-updater "spatch exited 0"
else
	expect_eq cb-bad-updater \
		"counter_batch.cocci: bad counter_batch_updaters entry 'foo:x:1' (want NAME or NAME:TARGET:ITEM)" \
		"$(grep -m1 '^counter_batch.cocci:' "$W/cb.bad.err")"
fi

# Bad input: an unparsable loop and a loop cut off at the end of the file
# give no report and no crash.
printf 'void f(struct zone *z, int n)\n{\n\tfor (i = 0; i < n; i++ {\n\t\t__mod_zone_page_state(z, 1, 1);\n}\n' >"$W/broken.c"
printf 'void g(struct zone *z, int n)\n{\n\twhile (n--)\n\t\t__mod_zone_page_state(z, 1, 1)' >"$W/cut.c"
(cd "$W" && spatch -D report --no-show-diff $OPTS --sp-file "$RULES/counter_batch.cocci" broken.c cut.c) >"$W/cb.b.out" 2>&1
expect_eq cb-bad-input "0:" "$?:$(grep -v '^$' "$W/cb.b.out")"

# ---- bench/cocci-merge.py: one semantic patch from several rules -------------
python3 "$TOP/bench/cocci-merge.py" "$W/all.cocci" "$RULES/unify_padding.cocci" "$RULES/counter_batch.cocci" 2>"$W/merge.err"
expect_eq merge-virtuals "virtual report|virtual org|virtual context|virtual patch|virtual cachehot_records" \
	"$(grep '^virtual' "$W/all.cocci" | paste -sd'|')"
if spatch --parse-cocci "$W/all.cocci" >/dev/null 2>"$W/merge.err"; then ok merge-parses
else fail merge-parses "$(tail -3 "$W/merge.err")"; fi
(cd "$HERE/counter_batch" && spatch -D report --no-show-diff $OPTS $EXTRA --sp-file "$W/all.cocci" batch.c) >"$W/merged.report" 2>&1
expect_file_eq merge-same-report "$HERE/counter_batch/batch.report" "$W/merged.report"
# cocci/all/cachehot.cocci, every rule in one file for coccicheck (one parse
# of each C file instead of one per rule), is the merge of cocci/*.cocci as
# they are now (make cocci-merged), with the rules' one Options line once
(cd "$TOP" && python3 bench/cocci-merge.py "$W/current.cocci" cocci/*.cocci) 2>"$W/merge.err"
if cmp -s "$W/current.cocci" "$TOP/cocci/all/cachehot.cocci"; then ok merged-file-current
else fail merged-file-current "cocci/all/cachehot.cocci differs from the merge of cocci/*.cocci: run make cocci-merged"; fi
expect_eq merged-file-options "// Options: --no-includes --include-headers" \
	"$(grep 'Options:' "$TOP/cocci/all/cachehot.cocci")"
(cd "$HERE/counter_batch" && spatch -D report --no-show-diff $OPTS $EXTRA --sp-file "$TOP/cocci/all/cachehot.cocci" batch.c) >"$W/merged-all.report" 2>&1
expect_file_eq merged-file-same-report "$HERE/counter_batch/batch.report" "$W/merged-all.report"
(cd "$HERE/counter_batch" && spatch -D report -D cachehot_records --no-show-diff $OPTS $EXTRA --sp-file "$TOP/cocci/all/cachehot.cocci" batch.c) >"$W/merged-all.rec" 2>&1
expect_file_eq merged-file-same-records "$W/cb.rec" "$W/merged-all.rec"
printf '// Options: --all-includes\n@r3@\n@@\n- foo();\n' >"$W/r3.cocci"
printf '// Options: --no-includes\n@r4@\n@@\n- foo();\n' >"$W/r4.cocci"
python3 "$TOP/bench/cocci-merge.py" "$W/opt.cocci" "$W/r3.cocci" "$W/r4.cocci" 2>"$W/merge.err"
expect_eq merge-options-differ "1 cocci-merge.py: the rules' // Options: lines differ: $W/r3.cocci: '--all-includes'; $W/r4.cocci: '--no-includes'|no-output" \
	"$? $(cat "$W/merge.err")|$([ -e "$W/opt.cocci" ] || echo no-output)"
printf '@r@\n@@\n- foo();\n' >"$W/r1.cocci"; cp "$W/r1.cocci" "$W/r2.cocci"
if python3 "$TOP/bench/cocci-merge.py" "$W/bad.cocci" "$W/r1.cocci" "$W/r2.cocci" 2>"$W/merge.err"; then
	fail merge-name-clash "exit 0"
else
	expect_eq merge-name-clash "cocci-merge.py: rule name 'r' is used by $W/r1.cocci and $W/r2.cocci|no-output" \
		"$(cat "$W/merge.err")|$([ -e "$W/bad.cocci" ] || echo no-output)"
fi

# ---- unify_padding -------------------------------------------------------------
cd "$HERE/unify_padding/oldtree"
run_rule unify_padding report "$W/up.r" --dir .
sort_lines "$W/up.r" >"$W/up.report"
expect_file_eq up-report ../oldtree.report "$W/up.report"
# records: the check id of the message's tag (the message without it), the
# struct and the member (none for the padding type itself)
run_rule unify_padding report "$W/up.rr" -D cachehot_records --dir .
expect_file_eq up-records-report-same ../oldtree.report <(grep -v '^{' "$W/up.rr" | sort_lines)
expect_eq up-records "$(printf '%s\n' \
	"include/linux/memcontrol.h:12:8:memcg_padding:null" \
	"include/linux/memcontrol.h:25:2:mem_cgroup:_pad1_" \
	"include/linux/memcontrol.h:29:2:mem_cgroup:_pad2_" \
	"include/linux/mmzone.h:15:8:zone_padding:null" \
	"include/linux/mmzone.h:35:2:zone:_pad1_" \
	"include/linux/mmzone.h:42:2:zone:_pad2_" \
	"include/linux/mmzone.h:47:2:zone:_pad3_" \
	"include/linux/page_counter.h:9:8:pc_padding:null" \
	"include/linux/page_counter.h:23:2:page_counter:_pad1_" \
	"include/linux/page_counter.h:35:2:page_counter:_pad2_")" \
	"$(grep '^{' "$W/up.rr" | jq -r 'select(.check == "cachehot-padding-macro" and (.message | endswith("]") | not)) | "\(.file | ltrimstr("./")):\(.line):\(.column):\(.struct):\(.field)"' | sort -t: -k1,1 -k2,2n)"
run_rule unify_padding org "$W/up.o" --dir .
sort_org <"$W/up.o" >"$W/up.org"
expect_file_eq up-org ../oldtree.org "$W/up.org"
run_rule unify_padding context "$W/up.c" --dir .
sort_diff <"$W/up.c" >"$W/up.ctx"
expect_file_eq up-context ../oldtree.context "$W/up.ctx"
# The documented conversion command (docs/cocci.rst):
#   (cd TREE && spatch -D patch --very-quiet --no-includes --include-headers \
#      --sp-file cocci/unify_padding.cocci --dir .) > unify.patch
#   patch -d TREE -p1 < unify.patch
run_rule unify_padding patch "$W/up.p" --dir .
sort_diff <"$W/up.p" >"$W/up.patch"
expect_file_eq up-patch ../oldtree.patch "$W/up.patch"
cp -r "$HERE/unify_padding/oldtree" "$W/old"
cp -r "$HERE/unify_padding/oldtree" "$W/new"
if patch -s -d "$W/new" -p1 <"$W/up.patch" >"$W/patch.out" 2>&1; then ok up-patch-applies
else fail up-patch-applies "$(head -5 "$W/patch.out")"; fi
# Layout of every struct, SMP and UP, before and after. The only change
# allowed is the name of the padding type.
norm_pahole() { sed -E 's/struct (pc|memcg|zone)_padding[ \t]+/struct cacheline_padding /; s/[ \t]+/ /g'; }
for cfg in smp up; do
	def=""; [ $cfg = smp ] && def=-DCONFIG_SMP
	okc=1
	for t in old new; do
		if ! gcc -g -c $def -I"$W/$t/include" -o "$W/$t-$cfg.o" "$W/$t/mm/layout.c" 2>"$W/gcc.err"; then
			fail "up-compiles-$t-$cfg" "$(head -5 "$W/gcc.err")"; okc=0
		else ok "up-compiles-$t-$cfg"; fi
	done
	[ $okc = 1 ] || continue
	structs=$(pahole --sizes "$W/old-$cfg.o" | awk '{print $1}' | grep -Ev '^(pc|memcg|zone)_padding$' | sort)
	# the private types go; on SMP the shared struct cacheline_padding comes
	want=$( (echo "$structs"; [ $cfg = smp ] && echo cacheline_padding) | sort)
	expect_eq "up-struct-set-$cfg" "$want" \
		"$(pahole --sizes "$W/new-$cfg.o" | awk '{print $1}' | sort)"
	[ -n "$structs" ] || fail "up-layout-$cfg" "pahole found no structs"
	for s in $structs; do
		pahole -C "$s" "$W/old-$cfg.o" | norm_pahole >"$W/l.old"
		pahole -C "$s" "$W/new-$cfg.o" | norm_pahole >"$W/l.new"
		if [ -s "$W/l.old" ] && cmp -s "$W/l.old" "$W/l.new"; then ok "up-layout-$cfg-$s"
		else fail "up-layout-$cfg-$s" "$(diff "$W/l.old" "$W/l.new" | head -8)"; fi
	done
done
# SMP layouts the conversion must keep (pahole): the padding really pads.
expect_eq up-layout-values-smp \
	"_pad1_ 64 0|_pad2_ 128 0|size: 192" \
	"$(pahole -C page_counter "$W/new-smp.o" | sed -nE 's/.*(_pad[12]_) .*\/\* +([0-9]+) +([0-9]+) \*\/.*/\1 \2 \3/p; s/.*(size: [0-9]+),.*/\1/p' | paste -sd'|')"
# A converted tree has nothing left to report or patch.
(cd "$W/new" && spatch -D report --no-show-diff $OPTS --sp-file "$RULES/unify_padding.cocci" --dir .) >"$W/up.again" 2>&1
expect_eq up-idempotent "" "$(cat "$W/up.again")"

# A member declared with the private type itself (no wrapper macro).
cd "$HERE/unify_padding"
run_rule unify_padding report "$W/d.report" direct.h
expect_file_eq up-direct-report direct.report "$W/d.report"
run_rule unify_padding patch "$W/d.patch" direct.h
expect_file_eq up-direct-patch direct.patch "$W/d.patch"

# Bad input: a file spatch cannot parse gives no output and no crash.
printf 'struct broken {\n\tPC_PADDING(x\n};\n#define PC_PADDING(n) struct pc_padding n\n' >"$W/broken.h"
(cd "$W" && spatch -D patch $OPTS --sp-file "$RULES/unify_padding.cocci" broken.h) >"$W/b.out" 2>&1
expect_eq up-bad-input "0:" "$?:$(grep -v '^$' "$W/b.out")"
exit 0
