#!/bin/bash
# kernel/prepare.sh [--version V] [OBJDIR] -- make Debian's linux-source-V
# (V = 6.1, the default, or 6.12; also taken from $LINUX_VERSION or $VERSION,
# as in make kernel-sweep VERSION=6.12) ready for
# the kernel targets: install the package if missing, unpack it once into
# $BUILD/linux-V (read-only use: every engine builds out of tree), and, when
# OBJDIR is given, configure OBJDIR as x86_64 defconfig + MEMCG + LRU_GEN
# (+ IDPF for 6.12: it selects LIBETH and PAGE_POOL, whose objects hold
# cacheline groups) and run
# "make prepare" there. Prints the source directory on stdout.
# Each engine uses its own OBJDIR so that builds with different flags never
# share objects; never mix versions in one OBJDIR.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
VER=${LINUX_VERSION:-${VERSION:-6.1}}
if [ "${1:-}" = "--version" ]; then
	[ $# -ge 2 ] || { echo "kernel/prepare.sh: --version needs an argument (6.1 or 6.12)" >&2; exit 2; }
	VER=$2; shift 2
fi
case "$VER" in
6.1 | 6.12) ;;
*) echo "kernel/prepare.sh: unsupported version '$VER' (Debian 12 ships linux-source-6.1 and linux-source-6.12)" >&2; exit 2 ;;
esac
SRC=$BUILD/linux-$VER
# Our own make's command line (make kernel-sweep VERSION=6.12) reaches the
# kernel's make through MAKEFLAGS, where VERSION would override the kernel's
# own VERSION = 6: the kernel makes below run without it.
kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u VERSION make "$@"; }
"$TOP"/scripts/need-packages.sh "linux-source-$VER" flex bison bc libssl-dev libelf-dev \
	cpio kmod xz-utils gcc-12-plugin-dev >&2
if [ ! -f "$SRC/Makefile" ]; then
	tarball=$(ls /usr/src/linux-source-"$VER".tar.* 2>/dev/null | head -1)
	[ -n "$tarball" ] || { echo "kernel/prepare.sh: no /usr/src/linux-source-$VER.tar.* after install" >&2; exit 1; }
	echo "cachehot: unpacking $tarball" >&2
	rm -rf "$SRC.tmp"; mkdir -p "$SRC.tmp"
	tar -xf "$tarball" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
fi
if [ $# -ge 1 ]; then
	O=$(realpath -m "$1")
	mkdir -p "$O"
	if [ -f "$O/.cachehot-prepared" ] && [ "$(cat "$O/.cachehot-prepared")" != "$VER" ] &&
		[ -s "$O/.cachehot-prepared" ]; then
		echo "kernel/prepare.sh: $O is configured for linux-$(cat "$O/.cachehot-prepared"), not $VER" >&2
		exit 1
	fi
	if [ ! -f "$O/.cachehot-prepared" ]; then
		extra=
		[ "$VER" = 6.12 ] && extra="-e IDPF"
		echo "cachehot: configuring $O for linux-$VER (x86_64_defconfig + MEMCG + LRU_GEN${extra:+ + IDPF})" >&2
		kmake -s -C "$SRC" O="$O" x86_64_defconfig >&2
		# shellcheck disable=SC2086
		"$SRC"/scripts/config --file "$O/.config" -e MEMCG -e LRU_GEN $extra >&2
		kmake -s -C "$SRC" O="$O" olddefconfig >&2
		kmake -s -C "$SRC" O="$O" -j"${J:-2}" prepare >&2
		echo "$VER" >"$O/.cachehot-prepared"
	fi
fi
echo "$SRC"
