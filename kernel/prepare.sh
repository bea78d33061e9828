#!/bin/bash
# kernel/prepare.sh [OBJDIR] -- make Debian's linux-source-6.1 ready for the
# kernel targets: install the package if missing, unpack it once into
# $BUILD/linux-6.1 (read-only use: every engine builds out of tree), and,
# when OBJDIR is given, configure OBJDIR as x86_64 defconfig + MEMCG + LRU_GEN
# and run "make prepare" there. Prints the source directory on stdout.
# Each engine uses its own OBJDIR so that builds with different flags never
# share objects.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SRC=$BUILD/linux-6.1
"$TOP"/scripts/need-packages.sh linux-source-6.1 flex bison bc libssl-dev libelf-dev \
	cpio kmod xz-utils gcc-12-plugin-dev >&2
if [ ! -f "$SRC/Makefile" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -1)
	[ -n "$tarball" ] || { echo "kernel/prepare.sh: no /usr/src/linux-source-6.1.tar.* after install" >&2; exit 1; }
	echo "cachehot: unpacking $tarball" >&2
	rm -rf "$SRC.tmp"; mkdir -p "$SRC.tmp"
	tar -xf "$tarball" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
fi
if [ $# -ge 1 ]; then
	O=$(realpath -m "$1")
	mkdir -p "$O"
	if [ ! -f "$O/.cachehot-prepared" ]; then
		echo "cachehot: configuring $O (x86_64_defconfig + MEMCG + LRU_GEN)" >&2
		make -s -C "$SRC" O="$O" x86_64_defconfig >&2
		"$SRC"/scripts/config --file "$O/.config" -e MEMCG -e LRU_GEN >&2
		make -s -C "$SRC" O="$O" olddefconfig >&2
		make -s -C "$SRC" O="$O" -j"$(nproc)" prepare >&2
		touch "$O/.cachehot-prepared"
	fi
fi
echo "$SRC"
