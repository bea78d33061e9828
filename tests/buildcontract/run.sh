#!/bin/bash
# tests/buildcontract/run.sh -- the build contract (docs/plugin.rst, "Builds, caches
# and compile farms"): the sidecar in the dependency output, "#pragma
# cachehot" in an -include header, the unit's records in its object (and
# the links that drop them), the access directory mode's names, annotate
# --build, once=DIR, ccache 4.7 in direct, depend and preprocessor modes,
# icecream with the plugin in the job's compiler environment, and the
# sharded path of compile farms (check --shard K/N, --merge).
. "$(dirname "$0")/../lib.sh"
set -u
export CI=true LC_ALL=C
PLUGIN=$TOP/plugin/cachehot.so
CH=$TOP/bin/cachehot
LAYOUT=$TOP/bin/cachehot-layout
[ -f "$PLUGIN" ] && [ -x "$CH" ] || { fail build-setup "plugin or bin/cachehot missing"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-gcc}
cd "$T" || exit 0

# a unit with one false-sharing finding from the sidecar, and an access
cat >pc.h <<'EOF'
struct page_counter { long usage; long a, b, c, d; long parent; long max; };
EOF
cat >pc.c <<'EOF'
#include "pc.h"
long charge(struct page_counter *p) { __atomic_fetch_add(&p->usage, 1, 0); return p->parent; }
EOF
cat >other.c <<'EOF'
#include "pc.h"
long limit(struct page_counter *p) { __atomic_fetch_add(&p->usage, 2, 0); return p->max + p->parent; }
EOF
printf 'page_counter.usage hot\npage_counter.parent read_mostly\n' >pc.ann
W_PARENT="pc.h:1:57: warning: read-mostly field 'parent' (offset 40, size 8) shares cache line 0 (64-byte lines) of 'struct page_counter' with hot field 'usage' (offset 0, size 8); one fix for all of 'struct page_counter': declare 'parent' _Alignas(64); this costs 72 bytes per object (56 -> 128 bytes; an array of n grows by 72*n bytes) [cachehot-false-sharing]"
warnings() { grep -- ': warning: ' "$1" | sed "s#^$T/##" | sort; }
P="-fplugin=$PLUGIN"

# ---- the sidecar is a dependency of the unit ---------------------------------
printf 'page_counter.max read_mostly\n' >more.ann
$CC $P -fplugin-arg-cachehot-annotations=pc.ann:more.ann -MD -MF pc.d -c pc.c -o pc.o 2>/dev/null
expect_eq build/deps-md "pc.o: pc.c pc.ann more.ann /usr/include/stdc-predef.h pc.h" \
	"$(tr -d '\\\n' <pc.d | tr -s ' ')"
$CC $P -fplugin-arg-cachehot-annotations=$T/pc.ann -Wp,-MMD,pc.d2 -c pc.c -o pc.o 2>/dev/null
expect_eq build/deps-kbuild-mmd "pc.o: pc.c $T/pc.ann pc.h" "$(tr -d '\\\n' <pc.d2 | tr -s ' ')"
# make rebuilds after a sidecar edit
cat >Makefile <<EOF
pc.o: pc.c
	$CC $P -fplugin-arg-cachehot-annotations=pc.ann -MD -c pc.c -o pc.o 2>/dev/null
-include pc.d
EOF
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }
rm -f pc.d pc.o; mk -s pc.o >/dev/null 2>&1
up=$(mk -n pc.o 2>/dev/null | grep -c "^$CC"); sleep 1; touch pc.ann
expect_eq build/make-rebuilds-on-sidecar-edit "0|$CC" "$up|$(mk -n pc.o 2>/dev/null | awk '{print $1}')"

# ---- #pragma cachehot in an -include header --------------------------------------
cat >ann.h <<'EOF'
#pragma cachehot page_counter.usage hot
#pragma cachehot page_counter.parent read_mostly /* a C comment */
EOF
$CC $P -include ann.h -c pc.c -o pc.o 2>err; warnings err >got
expect_eq build/pragma-finding "$W_PARENT" "$(cat got)"
$CC $P -fplugin-arg-cachehot-annotations=pc.ann -c pc.c -o pc.o 2>err; warnings err >want
expect_file_eq build/pragma-equals-sidecar want got
# every sidecar form survives the preprocessor's tokens ('@', '()', '[]', ':')
cat >forms.h <<'EOF'
#pragma cachehot netns.@icmp written
#pragma cachehot udplite_getfrag() addressable
#pragma cachehot pool.workers[] per_thread
#pragma cachehot threads[64] per_thread
#pragma cachehot page_counter.failcnt hot:charge
EOF
out=$($CC $P -include forms.h -Wall -c pc.c -o pc.o 2>&1 | grep -c 'error\|ignoring')
expect_eq build/pragma-forms "0" "$out"
# the sparse checker reads the pragmas of its -include headers
SP=$TOP/bin/cachehot-sparse
if [ -x "$SP" ]; then
	"$SP" -include ann.h pc.c 2>sp1; "$SP" -fcachehot-annotations=pc.ann pc.c 2>sp2
	grep -h '\[cachehot' sp1 >sp1c; grep -h '\[cachehot' sp2 >sp2c
	expect_eq build/pragma-sparse "1|$(warnings sp2c)" "$(warnings sp1c | wc -l)|$(warnings sp1c)"
fi
printf '#pragma cachehot page_counter.usage hotter\n' >bad.h
out=$($CC $P -include bad.h -c pc.c -o pc.o 2>&1 | grep error | sed "s/[‘’]/'/g")
expect_eq build/pragma-bad-line "./bad.h:1: error: cachehot: unknown class 'hotter' (expected hot, exclusive or read_mostly)" "$out"
# -E keeps the lines (a farm ships them); the preprocessed text judges the same
$CC $P -include ann.h -E pc.c -o pc.i 2>/dev/null
expect_eq build/pragma-kept-by-E "2" "$(grep -c '^#pragma cachehot' pc.i)"
$CC $P -E pc.c -o plain.i 2>/dev/null
mkdir -p far && cp pc.i plain.i far/ && (cd far && $CC $P -c pc.i -o pc.o 2>../err &&
	$CC $P -fplugin-arg-cachehot-annotations=../pc.ann -c plain.i -o plain.o 2>../err2)
expect_eq build/pragma-preprocessed "1|$(warnings err2)" "$(warnings err | wc -l)|$(warnings err)"

# ---- records in the object ------------------------------------------------------------
A="-fplugin-arg-cachehot-annotations=pc.ann"
$CC $P $A -fplugin-arg-cachehot-access=object -fplugin-arg-cachehot-manifest=object -O2 -c pc.c -o pc.o 2>/dev/null
$CC $P $A -fplugin-arg-cachehot-access=object -fplugin-arg-cachehot-manifest=object -O2 -c other.c -o other.o 2>/dev/null
# SHF_EXCLUDE ("E"), not SHF_ALLOC ("A"): nothing of it is loaded
expect_eq build/object-section "PROGBITS|E" \
	"$(readelf -SW pc.o | sed -n 's/.*\.discard\.cachehot *\(PROGBITS\) *[0-9a-f]* [0-9a-f]* [0-9a-f]* [0-9a-f]* *\([A-Z]*\) .*/\1|\2/p')"
expect_eq build/object-records "2" "$(readelf -p .discard.cachehot pc.o | grep -c '{"cachehot_')"
# a userspace link is unaffected: the same bytes as without the plugin
printf 'struct page_counter; long charge(struct page_counter *);\nint main(void) { return 0; }\n' >main.c
$CC -O2 -c pc.c -o plain.o && $CC -O2 main.c plain.o -o plain && $CC -O2 main.c pc.o -o withrec
expect_eq build/userspace-link-identical "same|0" \
	"$(cmp -s plain withrec && echo same || echo differs)|$(readelf -SW withrec | grep -c cachehot)"
# ld -r keeps them (vmlinux.o, modules before their final link)
ld -r pc.o other.o -o both.o
expect_eq build/ld-r-keeps "4" "$(readelf -p .discard.cachehot both.o | grep -c '{"cachehot_')"
# the manifest's records of a unit whose records the file holds: from the
# record texts kept in the cache directory (core/manifest-cache.c), the
# same bytes as built and dumped by jansson without one (no directory
# named: no HOME), on the first unit and from the cache
mrec() {   # MANIFEST OBJ [CACHE_DIR]
	if [ -n "${3:-}" ]; then
		CACHEHOT_CACHE_DIR=$3 $CC $P $A -fplugin-arg-cachehot-manifest=$1 -O2 -c pc.c -o $2 2>/dev/null
	else
		env -u HOME -u XDG_CACHE_HOME -u CACHEHOT_CACHE_DIR \
			$CC $P $A -fplugin-arg-cachehot-manifest=$1 -O2 -c pc.c -o $2 2>/dev/null
	fi
	objcopy --dump-section .discard.cachehot=$2.sec $2 /dev/null 2>/dev/null
}
mrec mc1.json mc1.o "$T/mcache"; mrec mc1.json mc2.o "$T/mcache"
mrec mn1.json mn1.o; mrec mn1.json mn2.o
expect_eq build/object-records-cached "same|same|1" \
	"$(cmp -s mc1.o.sec mn1.o.sec && echo same)|$(cmp -s mc2.o.sec mn2.o.sec && echo same)|$(ls "$T/mcache" | grep -c '^rec-.*\.cmr$')"
# the struct's record changed (another class, another digest): its text
# replaces the old one in the same file, the cache does not grow per digest
printf 'page_counter.usage hot\npage_counter.parent hot\n' >pc2.ann
A_SAVED=$A; A="-fplugin-arg-cachehot-annotations=pc2.ann"
mrec mc3.json mc3.o "$T/mcache"; mrec mc3.json mc4.o "$T/mcache"
mrec mn3.json mn3.o; mrec mn3.json mn4.o
A=$A_SAVED
expect_eq build/object-records-cache-replaced "same|same|differs|1" \
	"$(cmp -s mc3.o.sec mn3.o.sec && echo same)|$(cmp -s mc4.o.sec mn4.o.sec && echo same)|$(cmp -s mc4.o.sec mc2.o.sec && echo same || echo differs)|$(ls "$T/mcache" | grep -c '^rec-.*\.cmr$')"
# a linker script with orphan checks (the kernel's LD_ORPHAN_WARN) and the
# kernel's own COMMON_DISCARDS rule: no orphan, nothing kept
printf 'SECTIONS { .text : { *(.text*) } .data : { *(.data* .bss* .rodata*) } /DISCARD/ : { *(.discard) *(.discard.*) *(.note.*) *(.comment) *(.eh_frame) } .got : { *(.got*) *(.igot*) } .plt : { *(.iplt) } .rela : { *(.rela*) } }\n' >k.lds
out=$(ld -T k.lds --orphan-handling=error -e charge pc.o -o k.elf 2>&1)
expect_eq build/kernel-style-link "|0" "$out|$(readelf -SW k.elf | grep -c cachehot)"
# annotate reads objects, archives and trees; same as the facts files
mkdir -p facts
$CC $P -fplugin-arg-cachehot-access=facts -O2 -c pc.c -o /dev/null
$CC $P -fplugin-arg-cachehot-access=facts -O2 -c other.c -o /dev/null
"$CH" annotate facts --min-fields=1 >from-files 2>&1
"$CH" annotate pc.o other.o --min-fields=1 >from-objects 2>&1
expect_file_eq build/annotate-objects-equal-files from-files from-objects
expect_eq build/annotate-objects-found "page_counter.usage hot" "$(grep -o '^page_counter.usage hot' from-objects)"
# one compile writing both (access=DIR also puts the records into the
# object): the file and the section are the same facts, including a function
# defined elsewhere that the unit calls (the file lost every such function
# when the facts were written twice: "callers" was an array by then;
# ccache-kernel's page.private writes 51 fn from the files, 52 from objects)
printf 'struct s { long a, b; };\nvoid ext(struct s *);\nvoid f(struct s *p) { p->a++; ext(p); }\n' >calls.c
mkdir -p both && $CC $P -fplugin-arg-cachehot-access=both -O2 -c calls.c -o calls.o
objcopy --dump-section .discard.cachehot=calls.sec calls.o calls-copy.o
expect_eq build/facts-file-equals-section "ext f|ext f" \
	"$(jq -r '.functions | keys | join(" ")' both/*calls.c*.json)|$(tr -d '\0' <calls.sec | jq -r '.functions | keys | join(" ")')"
expect_eq build/facts-file-equals-section-whole "" "$(diff <(jq -S . both/*calls.c*.json) <(tr -d '\0' <calls.sec | jq -S .))"
rm -f lib.a; ar rcs lib.a pc.o other.o
"$CH" annotate lib.a --min-fields=1 >from-archive 2>&1
expect_file_eq build/annotate-archive from-files from-archive
# a tree: each unit once, though both.o (ld -r) holds copies
mkdir -p tree/sub && cp pc.o tree/ && cp other.o both.o tree/sub/
"$CH" annotate tree --min-fields=1 >from-tree 2>&1
expect_file_eq build/annotate-tree-units-once from-files from-tree
"$CH" annotate plain.o >/dev/null 2>err; rc=$?
expect_eq build/annotate-object-without-facts "2|cachehot: annotate: plain.o: no access facts in it (compiled without -fplugin-arg-cachehot-access, or with object-records=0)" "$rc|$(cat err)"
printf '!<thin>\n' >thin.a
"$CH" annotate thin.a >/dev/null 2>err; rc=$?
expect_eq build/annotate-thin-archive "2|cachehot: annotate: thin.a: a thin archive holds no objects: name the build directory (or its objects)" "$rc|$(cat err)"
# cachehot-layout --manifest: a manifest file, the objects, or a tree
$CC -g $P $A -fplugin-arg-cachehot-manifest=$T/m.json -c pc.c -o g.o 2>/dev/null
"$LAYOUT" --manifest m.json g.o >lay-file 2>&1
"$LAYOUT" --manifest g.o g.o >lay-obj 2>&1
mkdir -p gtree && cp g.o gtree/
"$LAYOUT" --manifest gtree g.o >lay-tree 2>&1
expect_file_eq build/layout-manifest-from-object lay-file lay-obj
expect_file_eq build/layout-manifest-from-tree lay-file lay-tree
expect_eq build/layout-manifest-matches "1" "$(grep -c 'binary matches the manifest' lay-obj)"
# object-records=0: nothing in the object
$CC $P $A -fplugin-arg-cachehot-access=object -fplugin-arg-cachehot-object-records=0 -c pc.c -o r0.o 2>/dev/null
expect_eq build/records-off "0" "$(readelf -SW r0.o | grep -c cachehot)"

# ---- the access directory mode --------------------------------------------------------
# a missing directory is made (not a file each compile replaces)
$CC $P -fplugin-arg-cachehot-access=$T/newfacts -c pc.c -o /dev/null
$CC $P -fplugin-arg-cachehot-access=$T/newfacts -c other.c -o /dev/null
expect_eq build/dir-made "dir|2" "$([ -d newfacts ] && echo dir || echo file)|$(ls newfacts 2>/dev/null | wc -l)"
expect_eq build/dir-made-merges "# cachehot annotate: 2 translation units" \
	"$("$CH" annotate newfacts 2>&1 | head -1 | sed 's/;.*//')"
# paths that named one file: "a,b/c.c" and "a/b,c.c"
mkdir -p 'a,b' a/ && cp pc.h 'a,b/' && cp pc.h a/
cp pc.c 'a,b/c.c'; cp other.c 'a/b,c.c'
mkdir -p coll
$CC $P -fplugin-arg-cachehot-access=coll -c 'a,b/c.c' -o /dev/null
$CC $P -fplugin-arg-cachehot-access=coll -c 'a/b,c.c' -o /dev/null
expect_eq build/dir-no-collision "2" "$(ls coll | wc -l)"
# one source, two sets of flags: two units
mkdir -p twice
$CC $P -fplugin-arg-cachehot-access=twice -O2 -c pc.c -o /dev/null
$CC $P -fplugin-arg-cachehot-access=twice -O2 -DVARIANT -c pc.c -o /dev/null
$CC $P -fplugin-arg-cachehot-access=twice -O2 -c pc.c -o elsewhere.o   # same flags: same unit
expect_eq build/dir-flags-apart "2" "$(ls twice | wc -l)"
# a source path over 243 bytes
long=$T/$(printf 'd%.0s' $(seq 1 120))/$(printf 'e%.0s' $(seq 1 120))
mkdir -p "$long" longfacts && cp pc.c pc.h "$long/"
out=$($CC $P -fplugin-arg-cachehot-access=$T/longfacts -c "$long/pc.c" -o /dev/null 2>&1; echo "rc=$?")
expect_eq build/dir-long-path "rc=0|1" "$out|$(ls longfacts | wc -l)"
expect_eq build/dir-long-path-merges "# cachehot annotate: 1 translation unit" \
	"$("$CH" annotate longfacts 2>&1 | head -1 | sed 's/;.*//')"
# a directory whose name is not UTF-8
nu=$T/$(printf 'caf\xe9')
mkdir -p "$nu" && cp pc.c pc.h "$nu/"
$CC $P -fplugin-arg-cachehot-access=$T/nufacts -c "$nu/pc.c" -o /dev/null
cp facts/* nufacts/
out=$("$CH" annotate nufacts 2>&1 | head -1 | sed 's/;.*//')
expect_eq build/dir-non-utf8 "# cachehot annotate: 3 translation units" "$out"
expect_eq build/dir-non-utf8-unit "$T/caf\\xe9/pc.c" \
	"$(python3 -c 'import json,sys,glob; print([json.load(open(f))["unit"] for f in glob.glob(sys.argv[1]+"/*caf*")][0])' nufacts)"

# ---- annotate --build ------------------------------------------------------------------
mkdir -p proj && cp pc.c other.c pc.h proj/
cat >proj/cc.json <<EOF
[ { "directory": "$T/proj", "file": "pc.c", "arguments": ["gcc", "-O2", "-c", "pc.c", "-o", "pc.o"] },
  { "directory": "$T/proj", "file": "other.c", "arguments": ["gcc", "-O2", "-c", "other.c", "-o", "other.o"] } ]
EOF
"$CH" annotate --build proj/cc.json --keep-facts=kept --min-fields=1 >b1 2>err
expect_eq build/annotate-build-file-keep-facts "0||2" "$?|$(cat err)|$(ls kept | wc -l)"
expect_file_eq build/annotate-build-equals-merge from-files b1
# a reused --keep-facts directory: the previous build's facts go
printf '{"cachehot_access":1,"unit":"/gone.c","functions":{},"structs":{}}' >kept/x,gone.c.access.json
"$CH" annotate --build proj/cc.json --keep-facts=kept --min-fields=1 >b2 2>err
expect_eq build/annotate-build-reused-dir "0|2" "$?|$(ls kept | wc -l)"
expect_file_eq build/annotate-build-reused-dir-output b1 b2
# one unit that fails costs its own facts only
cat >proj/cc2.json <<EOF
[ { "directory": "$T/proj", "file": "pc.c", "arguments": ["gcc", "-O2", "-c", "pc.c", "-o", "pc.o"] },
  { "directory": "$T/proj", "file": "broken.c", "arguments": ["gcc", "-O2", "-c", "broken.c", "-o", "broken.o"] } ]
EOF
echo 'int x = ;' >proj/broken.c
"$CH" annotate --build proj/cc2.json --min-fields=1 --hot-rmw-fns=1 >b3 2>err; rc=$?
expect_eq build/annotate-build-one-unit-fails "0|# cachehot annotate: 1 translation unit|1" \
	"$rc|$(head -1 b3 | sed 's/;.*//')|$(grep -c 'merging the facts of the units that compiled' err)"

# ---- once per build -----------------------------------------------------------------------
$CC $P $A -c pc.c -o /dev/null 2>e1; $CC $P $A -c other.c -o /dev/null 2>e2
expect_eq build/per-unit-default "2" "$(cat e1 e2 | grep -c "warning: read-mostly field 'parent'")"
$CC $P $A -fplugin-arg-cachehot-once=$T/once -c pc.c -o /dev/null 2>e1
$CC $P $A -fplugin-arg-cachehot-once=$T/once -c other.c -o /dev/null 2>e2
expect_eq build/once-per-build "1" "$(cat e1 e2 | grep -c "warning: read-mostly field 'parent'")"
# a finding in the unit's own file prints every time
cp pc.c self.c && sed -i 's/#include "pc.h"/struct page_counter { long usage; long a, b, c, d; long parent; long max; };/' self.c
$CC $P $A -fplugin-arg-cachehot-once=$T/once -c self.c -o /dev/null 2>e1
$CC $P $A -fplugin-arg-cachehot-once=$T/once -c self.c -o /dev/null 2>e2
expect_eq build/once-main-file-always "2" "$(cat e1 e2 | grep -c "warning: read-mostly field 'parent'")"

# cachehot check runs the plugin with once= (its scratch directory): one
# finding per header in the units' output, the report unchanged
mkdir -p drv && cp pc.c other.c pc.h pc.ann drv/
(cd drv && "$CH" check -v --annotations=pc.ann pc.c other.c --no-progress >../drv.out 2>../drv.err)
expect_eq build/driver-sets-once "2|1" \
	"$(grep -c -- '-fplugin-arg-cachehot-once=' drv.err)|$(grep -c "warning: read-mostly field 'parent'" drv.out)"

# ---- ccache (Debian's 4.7) ------------------------------------------------------------------
if command -v ccache >/dev/null; then
	export CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
	hits() { ccache --print-stats 2>/dev/null | awk -F'\t' '$1=="direct_cache_hit"{d=$2} $1=="preprocessed_cache_hit"{p=$2} END{print d+p}'; }
	# MODE: "direct", "depend" (-MD: ccache reads the dependency file) or
	# "preprocessor"; how the annotations come: a -include header, or the
	# sidecar with extra_files_to_hash
	for mode in direct depend preprocessor; do
		for how in pragma extrafiles; do
			d=$T/cc-$mode-$how; mkdir -p "$d"; cp pc.c pc.h "$d/"
			export CCACHE_DIR=$d/cache   # one cache per case: equal texts hit across cases
			unset CCACHE_NODIRECT CCACHE_DEPEND CCACHE_EXTRAFILES
			extra=""
			case $mode in
			depend) export CCACHE_DEPEND=1; extra="-MD" ;;
			preprocessor) export CCACHE_NODIRECT=1 ;;
			esac
			if [ $how = pragma ]; then
				cp ann.h "$d/a.h"; ann="-include a.h"
			else
				cp pc.ann "$d/a.ann"; ann="-fplugin-arg-cachehot-annotations=a.ann"
				export CCACHE_EXTRAFILES=$d/a.ann
			fi
			cc1() { (cd "$d" && ccache $CC $P $ann $extra -fplugin-arg-cachehot-access=object -O2 -c pc.c -o pc.o 2>err; cat err); }
			first=$(cc1 | grep -c "warning: read-mostly field 'parent'")
			cp "$d/pc.o" "$d/first.o"
			h0=$(hits); again=$(cc1 | grep -c "warning: read-mostly field 'parent'"); h1=$(hits)
			"$CH" annotate "$d/first.o" --min-fields=1 --hot-rmw-fns=1 >"$d/f1"
			"$CH" annotate "$d/pc.o" --min-fields=1 --hot-rmw-fns=1 >"$d/f2"
			expect_eq "build/ccache-$mode-$how-hit" "1|1|1|same" \
				"$first|$again|$((h1 - h0))|$(cmp -s "$d/f1" "$d/f2" && echo same || echo differs)"
			expect_eq "build/ccache-$mode-$how-hit-keeps-facts" "page_counter.usage hot" \
				"$(grep -o '^page_counter.usage hot' "$d/f2")"
			# the annotation of 'max' instead of 'parent': a miss, the new finding
			if [ $how = pragma ]; then
				sed -i 's/parent read_mostly/max read_mostly/' "$d/a.h"
			else
				sed -i 's/parent read_mostly/max read_mostly/' "$d/a.ann"
			fi
			h0=$(hits); out=$(cc1); h1=$(hits)
			expect_eq "build/ccache-$mode-$how-edit-refreshes" "0|1|0" \
				"$(echo "$out" | grep -c "field 'parent'")|$(echo "$out" | grep -c "warning: read-mostly field 'max'")|$((h1 - h0))"
		done
	done
	unset CCACHE_NODIRECT CCACHE_DEPEND CCACHE_EXTRAFILES
	# findings=-: the record lines ride on stderr, which ccache stores and
	# replays: a hit gives the same record lines, and cachehot check --log
	# the same finding, without GCC running
	d=$T/cc-records; mkdir -p "$d"; cp pc.c pc.h pc.ann "$d/"
	export CCACHE_DIR=$d/cache CCACHE_EXTRAFILES=$d/pc.ann
	cc1() { (cd "$d" && ccache $CC $P -fplugin-arg-cachehot-annotations=pc.ann -fplugin-arg-cachehot-findings=- -O2 -c pc.c -o pc.o 2>&1); }
	cc1 >"$d/miss.log"; h0=$(hits); cc1 >"$d/hit.log"; h1=$(hits)
	(cd "$d" && "$CH" check --log hit.log --format=json) >"$d/hit.json"
	expect_eq build/ccache-hit-replays-records "1|2|same|note:pc.h:1:8:null warning:pc.h:1:57:parent" \
		"$((h1 - h0))|$(grep -c '^{"cachehot_finding":1,"engine":"plugin",' "$d/hit.log")|$(cmp -s "$d/miss.log" "$d/hit.log" && echo same || echo differs)|$(jq -r '[.findings[] | "\(.severity):\(.file):\(.line):\(.column):\(.field)"] | join(" ")' "$d/hit.json")"
	unset CCACHE_EXTRAFILES CCACHE_DIR
else
	fail build/ccache "ccache not installed (make deps installs it)"
fi

# ---- icecream: the plugin on a compile farm (tests/buildcontract/icecc.sh) -------------------
. "$TOP/tests/buildcontract/icecc.sh"
cd "$T"

# ---- the sharded path: check --shard K/N, then --merge ---------------------------------------
mkdir -p shard && cd shard
for i in 1 2 3 4 5; do
	{ cat ../pc.h; echo "struct s$i { long x; long y; };"; echo "long f$i(struct page_counter *p) { return p->parent; }"; } >u$i.c
done
printf 'page_counter.usage hot\npage_counter.parent read_mostly\nnosuch.field hot\ns3.x hot\ns3.y read_mostly\n' >s.ann
python3 -c "
import json,os
print(json.dumps([{'directory':os.getcwd(),'file':'u%d.c'%i,'arguments':['gcc','-c','u%d.c'%i]} for i in range(1,6)]))" >compile_commands.json
for fmt in json gcc; do
	"$CH" check -p compile_commands.json --annotations=s.ann --format=$fmt --no-progress >whole.$fmt; rc_whole=$?
	rcs=""
	for k in 1 2 3; do
		"$CH" check -p compile_commands.json --annotations=s.ann --shard $k/3 -o s$k.json --no-progress; rcs="$rcs$?"
	done
	"$CH" check --merge s3.json s1.json s2.json --format=$fmt >merged.$fmt; rc_merged=$?
	expect_eq "build/shard-merge-exit-$fmt" "1|000|1" "$rc_whole|$rcs|$rc_merged"
	expect_file_eq "build/shard-merge-equals-whole-$fmt" whole.$fmt merged.$fmt
done
expect_eq build/shard-whole-tree-verdict "1" "$(grep -c "sidecar entry 'nosuch.field' (.*) matched no struct in any of the 5 units checked" merged.gcc)"
"$CH" check --merge s1.json s2.json >/dev/null 2>err; rc=$?
expect_eq build/shard-missing "2|cachehot: --merge: shard 3 of 3 is missing: the report would not be the whole tree's" "$rc|$(cat err)"
"$CH" check --merge s1.json s1.json s2.json s3.json >/dev/null 2>err; rc=$?
expect_eq build/shard-twice "2|cachehot: --merge: shard 1 of 3 given twice (s1.json)" "$rc|$(cat err)"
"$CH" check -p compile_commands.json --shard 4/3 -o x.json >/dev/null 2>err; rc=$?
expect_eq build/shard-bad-spec "2|cachehot: --shard takes K/N, 1 <= K <= N (this job's part of N), not '4/3'" "$rc|$(head -1 err)"
cd "$T"
