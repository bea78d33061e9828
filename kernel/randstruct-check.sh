#!/bin/bash
# kernel/randstruct-check.sh -- the plugin next to the kernel's own randstruct
# plugin (scripts/gcc-plugins/randomize_layout_plugin.c of the 6.1 tree,
# loaded first, as kernel builds do): a randomized annotated struct gets the
# "not judged" note and nothing else. Part of make kernel-check.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SRC=$("$TOP"/kernel/prepare.sh)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
K=$SRC/scripts/gcc-plugins
echo '#define randstruct_seed "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"' >"$T/randomize_layout_seed.h"
g++ -shared -fPIC -fno-rtti -O2 -DPLUGIN_VERSION='"6.1"' -I"$(gcc -print-file-name=plugin)/include" \
	-I"$K" -I"$T" "$K/randomize_layout_plugin.c" -o "$T/randstruct.so"
cat >"$T/r.c" <<'EOC'
#include "cachehot.h"
struct rnd {
	unsigned long usage __cacheline_hot;
	unsigned long a, b, c, d;
	unsigned long max __cacheline_read_mostly;
} __attribute__((randomize_layout));
struct rnd r;
EOC
got=$(cd "$T" && LC_ALL=C gcc -fplugin=./randstruct.so -fplugin="$TOP/plugin/cachehot.so" -I"$TOP/include" \
	-c r.c -o r.o -fdiagnostics-plain-output 2>&1)
want="r.c:2:8: note: 'struct rnd' is laid out by randstruct: its cache-line layout is not judged (mark it __no_randomize_layout to check it) [cachehot-false-sharing]"
if [ "$got" = "$want" ]; then echo "cachehot: randstruct: randomized struct skipped with a note (ok)"; else
	echo "cachehot: randstruct check FAILED:"; echo "$got"; exit 1; fi
