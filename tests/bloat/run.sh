#!/bin/bash
# tests/bloat/run.sh -- bin/cachehot-bloat and cocci/inline_fnptr.cocci.
# Fixtures (this folder) are compiled with gcc -O2 -g; byte counts are those
# of gcc 12.2 (Debian 12) and are checked against nm -S as well.
. "$(dirname "$0")/../lib.sh"
BLOAT=$TOP/bin/cachehot-bloat
RULE=$TOP/cocci/inline_fnptr.cocci
FIX=$TOP/tests/bloat
TOPR=$(realpath "$TOP")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CFLAGS_FIX="-O2 -g -Wall -Wextra -Werror"
FIXTURES="seed stmt body escape changed neg_direct neg_macro neg_always neg_shadow"
SPATCH="spatch --very-quiet --no-includes --include-headers --sp-file $RULE"

if [ ! -x "$BLOAT" ]; then fail build "bin/cachehot-bloat missing (make bloat)"; exit 0; fi
case "$(gcc -dumpfullversion)" in
12.2*) ;;
*) echo "  note: gcc $(gcc -dumpfullversion): byte counts were measured with 12.2" ;;
esac

# Fixture sources are copied: the cocci rule patches them in place.
mkdir -p "$T/src" "$T/obj"
cp "$FIX"/*.c "$FIX"/*.h "$T/src/"
ok_build=1
for f in $FIXTURES; do
	(cd "$T/src" && gcc $CFLAGS_FIX -c "$f.c" -o "$T/obj/$f.o") || ok_build=0
done
expect_eq fixtures-compile 1 "$ok_build"
cd "$T/obj" || exit 1
norm() { sed "s|$TOPR/||g; s|$(realpath "$T")/||g"; }

# ---- listing ----------------------------------------------------------------
expect_eq seed-lines "$(printf '%s\n' \
	"seed.o	lruvec_page_state	lruvec_page_state	17	src/memcg.h:8	declared	local" \
	"seed.o	lruvec_page_state_local	lruvec_page_state_local	18	src/memcg.h:15	source	local")" \
	"$("$BLOAT" --format=lines seed.o | norm)"

expect_eq seed-text "$(printf '%s\n' \
	"seed.o: lruvec_page_state: 17 bytes: out-of-line copy of inline lruvec_page_state (src/memcg.h:8, declared inline)" \
	"seed.o: lruvec_page_state_local: 18 bytes: out-of-line copy of inline lruvec_page_state_local (src/memcg.h:15, inline in source)" \
	"Total: 2 copies, 35 bytes, in 1 of 1 objects")" \
	"$("$BLOAT" seed.o | norm)"

# every listed size is the symbol's size in nm -S (hex), for every fixture
mism=""
for f in $FIXTURES; do
	while IFS=$'\t' read -r obj sym fn bytes decl how scope; do
		nmsz=$(nm -S "$obj" | awk -v s="$sym" '$4 == s { print $2 }')
		[ -n "$nmsz" ] && nmsz=$((16#$nmsz))
		[ "$nmsz" = "$bytes" ] || mism="$mism $obj:$sym($bytes vs nm ${nmsz:-none})"
	done < <("$BLOAT" --format=lines "$f.o")
done
expect_eq sizes-match-nm "" "$mism"

expect_eq udp-shape-lines \
	"escape.o	udplite_getfrag	udplite_getfrag	47	src/udp.h:3	source	local" \
	"$("$BLOAT" --format=lines escape.o | norm)"

# functions never inlined have no DW_AT_inline: their declaration text decides
(cd "$T/src" && gcc $CFLAGS_FIX -c decl_styles.c -o "$T/decl_styles.o")
expect_eq decl-styles "$(printf '%s\n' \
	"decl_styles.o	style_split	style_split	5	src/decl_styles.c:10	source	local" \
	"decl_styles.o	style_attr	style_attr	8	src/decl_styles.c:26	source	local")" \
	"$(cd "$T" && "$BLOAT" --format=lines decl_styles.o | norm)"
expect_eq decl-styles-no-source "" "$(cd "$T" && "$BLOAT" --no-source --format=lines decl_styles.o)"

(cd "$T/src" && gcc $CFLAGS_FIX -c global.c -o "$T/global.o")
expect_eq global-inline "global.o: gl_hook: 13 bytes: out-of-line copy of inline gl_hook (src/global.c:7, declared inline, global symbol)" \
	"$(cd "$T" && "$BLOAT" global.o | norm | head -1)"

for f in neg_direct neg_macro neg_always neg_shadow; do
	expect_eq "tool-none-$f" "" "$("$BLOAT" --format=lines "$f.o")"
done

# ---- census -------------------------------------------------------------------
expect_eq census "$(printf '%s\n' \
	"function                                  copies objects   bytes" \
	"show_long                                      1       1      63" \
	"show_short                                     1       1      48" \
	"udplite_getfrag                                1       1      47" \
	"lruvec_page_state_local                        1       1      18" \
	"lruvec_page_state                              1       1      17" \
	"counter_dec                                    1       1       4" \
	"counter_inc                                    1       1       4" \
	"step_down                                      1       1       4" \
	"step_up                                        1       1       4" \
	"Total: 9 functions, 9 copies, 209 bytes, in 5 of 9 objects")" \
	"$("$BLOAT" --census "$T/obj")"

expect_eq census-top-lines "$(printf '%s\n' "show_long	1	1	63" "show_short	1	1	48")" \
	"$("$BLOAT" --census --top 2 --format=lines .)"

# the same copies twice (two objects) count as 2 copies in 2 objects
cp seed.o seed2.o
expect_eq census-two-objects "lruvec_page_state_local	2	2	36" \
	"$("$BLOAT" --census --top 1 --format=lines seed.o seed2.o)"
rm -f seed2.o

# ---- inline list (read by the cocci rule) --------------------------------------
expect_eq inline-list "$(printf '%s\n' apply counter_dec counter_inc fast lruvec_page_state lruvec_page_state_local \
	show_long show_short slow step_down step_up twice udplite_getfrag)" \
	"$("$BLOAT" --inline-list .)"
"$BLOAT" --inline-list -o "$T/inline.list" . 2>/dev/null
expect_eq inline-list-file "$("$BLOAT" --inline-list .)" "$(cat "$T/inline.list" 2>&1)"

# ---- bad input ----------------------------------------------------------------
echo "not an object" > "$T/text.o"
: > "$T/empty.o"
head -c 500 seed.o > "$T/trunc.o"
(cd "$T/src" && gcc -O2 -c seed.c -o "$T/nodwarf.o")
cp seed.o "$T/stripped.o" && strip "$T/stripped.o"
(cd "$T/src" && gcc -O2 -g -gsplit-dwarf -c seed.c -o "$T/split.o" && gcc -O2 -g -flto -c seed.c -o "$T/lto.o")
(cd "$T" && ar rc lib.a obj/seed.o)
bad() {  # NAME EXPECTED-STDERR FILE...
	local name=$1 want=$2; shift 2
	local out err rc
	out=$("$BLOAT" "$@" 2>"$T/err"); rc=$?
	err=$(sed "s|$T/||g" "$T/err")
	if [ "$rc" = 2 ] && [ -z "$out" ] && [ "$err" = "$want" ]; then ok "$name"
	else fail "$name" "rc=$rc out=[$out] err=[$err] want [$want]"; fi
}
bad bad-not-elf "cachehot-bloat: text.o: not an ELF file" "$T/text.o"
bad bad-empty "cachehot-bloat: empty.o: not an ELF file" "$T/empty.o"
bad bad-truncated "cachehot-bloat: trunc.o: truncated: section headers end at byte $(( $(readelf -h seed.o | awk '/Start of section headers/ {print $5}') + $(readelf -h seed.o | awk '/Number of section headers/ {print $5}') * 64 )), file has 500" "$T/trunc.o"
bad bad-no-dwarf "cachehot-bloat: nodwarf.o: no DWARF debug info (.debug_info); compile with -g" "$T/nodwarf.o"
bad bad-stripped "cachehot-bloat: stripped.o: no symbol table (stripped?)" "$T/stripped.o"
bad bad-split-dwarf "cachehot-bloat: split.o: split DWARF (-gsplit-dwarf): the functions are in a .dwo file; build without -gsplit-dwarf" "$T/split.o"
bad bad-lto "cachehot-bloat: lto.o: GCC LTO bytecode object without machine code: build with -ffat-lto-objects, or read the linked file" "$T/lto.o"
bad bad-archive "cachehot-bloat: lib.a: an ar archive, not an ELF object: give its members (ar x)" "$T/lib.a"
bad bad-missing "cachehot-bloat: nosuch.o: No such file or directory" "$T/nosuch.o"

# in a directory, objects without DWARF (e.g. from .S files) are skipped
# with one warning; named on the command line they are errors (above)
mkdir -p "$T/tree/asm"
cp seed.o "$T/tree/" && cp "$T/nodwarf.o" "$T/tree/asm/"
out=$("$BLOAT" --census --format=lines "$T/tree" 2>"$T/err"); rc=$?
expect_eq tree-skips-no-dwarf "0|lruvec_page_state_local 1 1 18 lruvec_page_state 1 1 17|cachehot-bloat: warning: skipped 1 object without DWARF found in directories (e.g. tree/asm/nodwarf.o)" \
	"$rc|$(echo $out)|$(sed "s|$T/||g" "$T/err")"
out=$("$BLOAT" --census "$T/tree/asm" 2>/dev/null); rc=$?
expect_eq tree-only-no-dwarf "2|" "$rc|$out"

# bad input never leaves an output file behind
rm -f "$T/out.txt"
"$BLOAT" -o "$T/out.txt" "$T/text.o" 2>/dev/null
expect_eq bad-no-output-file "absent" "$([ -e "$T/out.txt" ] && echo present || echo absent)"
expect_eq bad-no-temp-file "" "$(ls "$T" | grep '\.tmp\.' || true)"

# one bad object among good ones: the good ones are still listed, exit 1
out=$("$BLOAT" --format=lines seed.o "$T/text.o" 2>/dev/null); rc=$?
expect_eq bad-mixed "2:2" "$rc:$(printf '%s\n' "$out" | wc -l)"

"$BLOAT" --bogus seed.o >/dev/null 2>&1; rc1=$?
"$BLOAT" >/dev/null 2>&1; rc2=$?
"$BLOAT" --top 3 seed.o >/dev/null 2>&1; rc3=$?
expect_eq usage-errors "2 2 2" "$rc1 $rc2 $rc3"

# damaged copies of an object: an error or a result, never a crash
crash=""
size=$(stat -c %s seed.o)
for i in $(seq 0 39); do
	cp seed.o "$T/dmg.o"
	off=$(( (i * 7919 + i * i * 131) % size ))
	printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$T/dmg.o" bs=1 seek=$off conv=notrunc status=none
	"$BLOAT" --census "$T/dmg.o" >/dev/null 2>&1; rc=$?
	[ $rc -le 2 ] || crash="$crash off=$off:rc=$rc"
done
expect_eq damaged-no-crash "" "$crash"

# ---- cocci rule -------------------------------------------------------------------
if ! command -v spatch >/dev/null; then fail cocci "spatch missing (make deps)"; exit 0; fi
cd "$T/src" || exit 1
expect_eq cocci-report "$(printf '%s\n' \
	"./body.c:18:1-5: inline counter_inc/counter_dec selected through local pointer step: call counter_inc/counter_dec directly (out-of-line copies)" \
	"./changed.c:19:1-5: inline step_up/step_down selected through pointer step keeps an out-of-line copy; not fixable here: up changes after the selection" \
	"./changed.c:32:1-5: inline step_up/step_down selected through pointer step keeps an out-of-line copy; not fixable here: step is assigned again (line 34)" \
	"./escape.c:14:1-8: inline udplite_getfrag selected through pointer getfrag keeps an out-of-line copy; not fixable here: getfrag escapes: used as a value at line 15" \
	"./seed.c:13:1-11: inline lruvec_page_state/lruvec_page_state_local selected through local pointer page_state: call lruvec_page_state/lruvec_page_state_local directly (out-of-line copies)" \
	"./stmt.c:20:8-12: inline show_long/show_short selected through local pointer show: call show_long/show_short directly (out-of-line copies)")" \
	"$($SPATCH -D report -D inline_list="$T/inline.list" --dir . 2>&1 | sort)"

# -D cachehot_records: a record line beside each report (what cachehot
# check reads): the selection's place (column 1-based), the function, the
# inline functions as the field; the report lines stay as they are
$SPATCH -D report -D cachehot_records -D inline_list="$T/inline.list" --dir . >"$T/rec.out" 2>&1
expect_eq cocci-records-report-same "$($SPATCH -D report -D inline_list="$T/inline.list" --dir . 2>&1 | sort)" \
	"$(grep -v '^{' "$T/rec.out" | sort)"
expect_eq cocci-records "$(printf '%s\n' \
	"./body.c:18:2:cachehot-inline_fnptr:counter_inc/counter_dec" \
	"./changed.c:19:2:cachehot-inline_fnptr:step_up/step_down" \
	"./changed.c:32:2:cachehot-inline_fnptr:step_up/step_down" \
	"./escape.c:14:2:cachehot-inline_fnptr:udplite_getfrag" \
	"./seed.c:13:2:cachehot-inline_fnptr:lruvec_page_state/lruvec_page_state_local" \
	"./stmt.c:20:9:cachehot-inline_fnptr:show_long/show_short")" \
	"$(grep '^{"cachehot_finding": 1, ' "$T/rec.out" | jq -r '"\(.file):\(.line):\(.column):\(.check):\(.field)"' | sort)"
expect_eq cocci-records-function "./body.c:counters_step ./changed.c:walk ./changed.c:walk2 ./escape.c:udp_sendmsg ./seed.c:numa_stat_sum ./stmt.c:show_all |" \
	"$(grep '^{' "$T/rec.out" | jq -r '"\(.file):\(.function)"' | sort | tr '\n' ' ')|$(grep '^{' "$T/rec.out" | jq -r 'select(.message | test("\\[")) | .message')"

# the list can also come from the environment
expect_eq cocci-report-env 6 \
	"$(CACHEHOT_INLINE_LIST="$T/inline.list" $SPATCH -D report --dir . 2>&1 | grep -c ': inline ')"

# without a list only functions defined inline in the file itself are known:
# seed.c's accessors live in memcg.h and escape.c's in udp.h: not reported
expect_eq cocci-report-nolist "$(printf '%s\n' body.c changed.c changed.c stmt.c)" \
	"$($SPATCH -D report --dir . 2>&1 | sed 's|^\./||; s|:.*||' | sort)"

expect_eq cocci-context-lines "$(printf '%s\n' body.c changed.c escape.c seed.c stmt.c)" \
	"$($SPATCH -D context -D inline_list="$T/inline.list" --dir . 2>&1 | sed -n 's|^--- \./||p' | sort)"

# an unreadable list is an error, not an empty list
out=$($SPATCH -D report -D inline_list="$T/no-such.list" seed.c 2>&1); rc=$?
expect_eq cocci-bad-list "1 inline_fnptr.cocci: cannot read inline list $T/no-such.list" \
	"$rc $(printf '%s\n' "$out" | grep -o 'inline_fnptr.cocci: cannot read inline list [^:]*' | head -1)"

for f in neg_direct neg_macro neg_always neg_shadow; do
	expect_eq "cocci-none-$f" "" "$($SPATCH -D report -D inline_list="$T/inline.list" "$f.c" 2>&1)"
done

# patch mode, in place
$SPATCH -D patch -D inline_list="$T/inline.list" --in-place --dir . >/dev/null 2>&1
expect_file_eq cocci-patch-seed "$FIX/expected/seed.c" "$T/src/seed.c"
expect_file_eq cocci-patch-stmt "$FIX/expected/stmt.c" "$T/src/stmt.c"
expect_file_eq cocci-patch-body "$FIX/expected/body.c" "$T/src/body.c"
unchanged=""
for f in escape changed neg_direct neg_macro neg_always neg_shadow; do
	cmp -s "$FIX/$f.c" "$T/src/$f.c" || unchanged="$unchanged $f.c"
done
expect_eq cocci-patch-leaves-others "" "$unchanged"

mkdir -p "$T/new"
ok_build=1
for f in seed stmt body; do
	gcc $CFLAGS_FIX -c "$f.c" -o "$T/new/$f.o" || ok_build=0
done
expect_eq cocci-patched-compile 1 "$ok_build"
cd "$T/new" || exit 1
expect_eq patched-no-copies "" "$("$BLOAT" --format=lines seed.o stmt.o body.o)"
expect_eq patched-nm-seed "node_stat numa_stat_sum" "$(nm seed.o | awk '$2 ~ /[Tt]/ {print $3}' | sort | xargs)"
expect_eq patched-nm-stmt "show_all" "$(nm stmt.o | awk '$2 ~ /[Tt]/ {print $3}' | sort | xargs)"
textsz() { size "$1" | awk 'NR == 2 {print $1}'; }
expect_eq text-seed "353 -> 193" "$(textsz "$T/obj/seed.o") -> $(textsz seed.o)"
expect_eq text-stmt "314 -> 264" "$(textsz "$T/obj/stmt.o") -> $(textsz stmt.o)"
expect_eq text-body "265 -> 138" "$(textsz "$T/obj/body.o") -> $(textsz body.o)"
expect_eq patched-nm-body "counters_step" "$(nm body.o | awk '$2 ~ /[Tt]/ {print $3}' | sort | xargs)"
fnsize() { echo $((16#$(nm -S "$1" | awk -v s="$2" '$4 == s {print $2}'))); }
expect_eq patched-function-size "numa_stat_sum 102 -> 102" \
	"numa_stat_sum $(fnsize "$T/obj/seed.o" numa_stat_sum) -> $(fnsize seed.o numa_stat_sum)"
# symlinked folders (a loop, and a second name for one folder): every object
# counted once, the loop not followed (41x through a loop)
mkdir -p "$T/sl/d" && cp "$T/obj/seed.o" "$T/sl/d/" && ln -s .. "$T/sl/d/loop" && ln -s d "$T/sl/d2"
out=$(cd "$T" && timeout 20 "$BLOAT" sl | tail -1)
expect_eq symlinked-folders-once "$(cd "$T" && "$BLOAT" sl/d | tail -1)" "$out"

# an identical-code-folded copy whose subprogram has no low_pc (a real case:
# cpu_core_flags, 10 bytes in 6.1's kernel/sched/build_utility.o, missed);
# its own folder: the census above counts the fixture objects
mkdir -p "$T/icf"
(cd "$T/src" && gcc $CFLAGS_FIX -c icf_table.c -o "$T/icf/icf_table.o")
expect_eq icf-copy-without-low-pc "$(printf '%s\n' \
	"icf_table.o	cpu_cluster_flags	cpu_cluster_flags	6	src/topology.h:9	declared	local" \
	"icf_table.o	cpu_core_flags	cpu_core_flags	6	src/topology.h:14	source	local")" \
	"$(cd "$T/icf" && "$BLOAT" --format=lines icf_table.o | norm)"
expect_eq icf-sizes-nm "$(cd "$T/icf" && nm -S icf_table.o | while read -r a sz ty nm; do
		[ "$ty" = t ] && echo "$nm $((16#$sz))"; done | sort)" \
	"$(cd "$T/icf" && "$BLOAT" --format=lines icf_table.o | awk -F'\t' '{ print $2, $4 }' | sort)"

# the ways an object's DWARF is read (.o files relocate only the
# debug sections read, in place; linked files are read as they are; what
# that code does not handle goes through libdwfl): same copies, same decl
# files (DWARF 5 file names need .rela.debug_line), same sizes as nm -S
mkdir -p "$T/ways" "$T/wsrc"
cp "$FIX/seed.c" "$FIX/memcg.h" "$T/wsrc/"   # $T/src/seed.c is patched above
printf 'int main(void) { return 0; }\n' > "$T/wsrc/ways_main.c"
(cd "$T/wsrc" && gcc $CFLAGS_FIX -gdwarf-4 -c seed.c -o "$T/ways/dwarf4.o" &&
	gcc $CFLAGS_FIX -gz=zlib -c seed.c -o "$T/ways/gz.o" &&
	gcc $CFLAGS_FIX -m32 -c seed.c -o "$T/ways/i386.o" &&
	gcc $CFLAGS_FIX -o "$T/ways/linked" seed.c ways_main.c &&
	clang-14 -O2 -g -c seed.c -o "$T/ways/clang.o")
ways_want() {  # OBJ BYTES1 HOW1 BYTES2: the two copies of seed.c
	printf '%s\n' "$1	lruvec_page_state	lruvec_page_state	$2	wsrc/memcg.h:8	$3	local" \
		"$1	lruvec_page_state_local	lruvec_page_state_local	$4	wsrc/memcg.h:15	source	local"
}
for w in dwarf4.o gz.o linked; do
	expect_eq "read-$w" "$(ways_want "$w" 17 declared 18)" \
		"$(cd "$T/ways" && "$BLOAT" --format=lines "$w" | norm)"
done
expect_eq read-i386-rel "$(ways_want i386.o 19 declared 20)" \
	"$(cd "$T/ways" && "$BLOAT" --format=lines i386.o | norm)"
# clang names through DW_FORM_strx (.debug_str_offsets) and writes no
# DW_AT_inline for these: the source text decides
expect_eq read-clang-strx "$(ways_want clang.o 17 source 18)" \
	"$(cd "$T/ways" && "$BLOAT" --format=lines clang.o | norm)"
expect_eq read-ways-sizes-nm "$(cd "$T/ways" && for o in dwarf4.o gz.o i386.o linked clang.o; do
		nm -S "$o" | while read -r a sz ty sym; do
			case "$sym" in lruvec_page_state*) echo "$o $sym $((16#$sz))" ;; esac; done; done)" \
	"$(cd "$T/ways" && "$BLOAT" --format=lines dwarf4.o gz.o i386.o linked clang.o | cut -f1,2,4 | tr '\t' ' ')"

# the census and the list read only the DWARF of functions an ELF symbol
# names, by base name: a clone (scale.constprop.0) is still found; the
# inline list still names inline functions that have no copy
cat > "$T/wsrc/clone.c" <<'EOC'
static inline __attribute__((noinline)) int scale(int x, int k, int unused)
{
	return x * k + k;
}
static inline int twice_of(int x)
{
	return 2 * x;
}
int scale_all(int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += scale(v[i], 3, i) + twice_of(i);
	return s;
}
EOC
(cd "$T/wsrc" && gcc -O2 -g -Wno-attributes -c clone.c -o "$T/ways/clone.o")
expect_eq clone-by-base-name "clone.o	scale.constprop.0	scale	5	wsrc/clone.c:1	declared	local|scale	1	1	5" \
	"$(cd "$T/ways" && "$BLOAT" --format=lines clone.o | norm)|$(cd "$T/ways" && "$BLOAT" --census --format=lines clone.o)"
expect_eq clone-inline-list "scale twice_of" "$(cd "$T/ways" && "$BLOAT" --inline-list clone.o | xargs)"

# ---- declaration files from the line table header (bloat/linefiles.c) --------
# The census reads each unit's file table from the .debug_line header instead
# of libdw 0.188's dwarf_decl_file() (which decodes the whole line program):
# every DWARF version's header, compressed sections (libdw's path), a
# relative include directory and a linked program give the same declaration
# files as the DWARF 5 objects above.
mkdir -p "$T/lf/src/inc"
cp "$FIX"/*.c "$FIX"/*.h "$T/lf/src/"
cp "$FIX"/memcg.h "$T/lf/src/inc/memcg_inc.h"
sed 's/#include "memcg.h"/#include <memcg_inc.h>/' "$FIX/seed.c" >"$T/lf/src/seed_inc.c"
lines_for() { # FLAGS... : --format=lines over the fixtures built with FLAGS, object names dropped
	rm -rf "$T/lf/obj" && mkdir -p "$T/lf/obj"
	for f in $FIXTURES seed_inc; do
		(cd "$T/lf/src" && gcc -O2 -Wall -Wextra -Werror -Iinc "$@" -c "$f.c" -o "$T/lf/obj/$f.o") || echo "compile failed: $f $*"
	done
	(cd "$T/lf/obj" && "$BLOAT" --format=lines ./*.o) | cut -f2- | norm | sort
}
want=$(lines_for -g)
expect_eq linefiles-include-dir-relative "1" "$(grep -c "src/inc/memcg_inc.h:8	declared" <<<"$want")"
for v in "-gdwarf-2" "-gdwarf-3" "-gdwarf-4" "-gdwarf-5" "-g -gz=zlib" "-gdwarf-4 -gstrict-dwarf"; do
	# shellcheck disable=SC2086
	expect_eq "linefiles-same-files ${v// /_}" "$want" "$(lines_for $v)"
done
# a linked file (a shared object: no relocations, the same header reader)
(cd "$T/lf/src" && gcc -O2 -g -shared -fPIC -o "$T/lf/seed.so" seed.c)
expect_eq linefiles-linked-file "$(printf '%s\n' \
	"lruvec_page_state	lruvec_page_state	17	src/memcg.h:8	declared	local" \
	"lruvec_page_state_local	lruvec_page_state_local	18	src/memcg.h:15	source	local")" \
	"$("$BLOAT" --format=lines "$T/lf/seed.so" | cut -f2- | norm | sed 's|lf/src/|src/|')"
