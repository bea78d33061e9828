#!/bin/bash
# kernel/prepare.sh [--version V] [OBJDIR] -- make Debian's linux-source-V
# (V from --version, else $VERSION, else 6.1; 6.1 and 6.12 are in bookworm)
# ready for the kernel targets: install the package if missing, unpack it
# once into $BUILD/linux-V (read-only use: every engine builds out of tree),
# and, when OBJDIR is given, configure OBJDIR as x86_64 defconfig + MEMCG +
# LRU_GEN and run "make prepare" there. Prints the source directory on stdout.
# Each engine uses its own OBJDIR so that builds with different flags never
# share objects (and one OBJDIR serves one version: a second version in the
# same OBJDIR is an error).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
V=${VERSION:-6.1}
if [ "${1:-}" = --version ]; then
	[ $# -ge 2 ] || { echo "kernel/prepare.sh: --version needs a value" >&2; exit 2; }
	V=$2; shift 2
fi
case "$V" in
[0-9]*.[0-9]*) ;;
*) echo "kernel/prepare.sh: bad version '$V' (want e.g. 6.1 or 6.12)" >&2; exit 2 ;;
esac
SRC=$BUILD/linux-$V
# Our own make's command line (make kernel-sweep VERSION=6.12) reaches the
# kernel's make through MAKEFLAGS, where VERSION would override the kernel's
# own VERSION = 6: the kernel makes below run without it.
kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION make "$@"; }
"$TOP"/scripts/need-packages.sh linux-source-"$V" flex bison bc libssl-dev libelf-dev \
	cpio kmod xz-utils gcc-12-plugin-dev >&2
if [ ! -f "$SRC/Makefile" ]; then
	tarball=$(ls /usr/src/linux-source-"$V".tar.* 2>/dev/null | head -1)
	[ -n "$tarball" ] || { echo "kernel/prepare.sh: no /usr/src/linux-source-$V.tar.* after install" >&2; exit 1; }
	echo "cachehot: unpacking $tarball" >&2
	rm -rf "$SRC.tmp"; mkdir -p "$SRC.tmp"
	tar -xf "$tarball" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
fi
if [ $# -ge 1 ]; then
	O=$(realpath -m "$1")
	mkdir -p "$O"
	if [ -f "$O/.cachehot-prepared" ]; then
		have=$(cat "$O/.cachehot-prepared")
		if [ -n "$have" ] && [ "$have" != "$V" ]; then
			echo "kernel/prepare.sh: $O was prepared for $have, not $V: use another OBJDIR" >&2
			exit 1
		fi
	else
		echo "cachehot: configuring $O for $V (x86_64_defconfig + MEMCG + LRU_GEN)" >&2
		kmake -s -C "$SRC" O="$O" x86_64_defconfig >&2
		"$SRC"/scripts/config --file "$O/.config" -e MEMCG -e LRU_GEN >&2
		kmake -s -C "$SRC" O="$O" olddefconfig >&2
		kmake -s -C "$SRC" O="$O" -j"${J:-2}" prepare >&2
		echo "$V" >"$O/.cachehot-prepared"
	fi
fi
echo "$SRC"
