#!/bin/bash
# sparse-checks/get-libsparse.sh DESTDIR
#
# Build libsparse.a from Debian's own source package of sparse, with Debian's
# patches applied, into DESTDIR (e.g. build/sparse-src). The source package
# is pinned in this repository (third_party/sparse: the .dsc, orig and debian
# tarballs of Debian 12's sparse, unmodified), so the build needs no network;
# the version is the installed sparse's when one is installed (the checker
# then matches /usr/bin/sparse), else the pinned one.
# Why Debian's source and not the upstream tarball: Debian 0.6.4-3 carries
# fix-unreplaced-warnings-caused-by-using-typeof-on-in; without it a libsparse
# checker prints ~300 bogus "unreplaced symbol" warnings on kernel files.
#
# Steps (each says clearly what failed):
#   1. 'dpkg-dev' must be installed (make deps);
#   2. the pinned source package third_party/sparse/sparse_VERSION.dsc is
#      unpacked with dpkg-source (no network); only when the installed sparse
#      is of another version: if apt knows no source record for sparse, scripts/deb-src.sh adds a
#      deb-src entry for this release (deb822 file
#      /etc/apt/sources.list.d/cachehot-deb-src.sources) and updates that
#      source only; needs root or sudo;
#   3. 'apt-get source sparse=VERSION' (no root needed) into DESTDIR;
#   4. 'make libsparse.a' there.
# Output: DESTDIR/sparse/libsparse.a and headers in DESTDIR/sparse/.
# Exit status 0 on success, 1 with a message "get-libsparse: ..." otherwise.
set -u
DEST=${1:?usage: get-libsparse.sh DESTDIR}
die() { echo "get-libsparse: $*" >&2; exit 1; }

PINNED=$(cd "$(dirname "$0")/../third_party/sparse" 2>/dev/null && pwd)
pinned_ver=$(sed -n 's/^Version: //p' "$PINNED"/sparse_*.dsc 2>/dev/null | head -1)
ver=$(dpkg-query -W -f='${Version}' sparse 2>/dev/null) || ver=""
[ -n "$ver" ] || ver=$pinned_ver
[ -n "$ver" ] || die "no pinned sparse source in third_party/sparse and Debian package 'sparse' is not installed (run: make deps)"
command -v dpkg-source >/dev/null || die "dpkg-dev is not installed (run: make deps)"

DEST=$(realpath -m "$DEST")
mkdir -p "$(dirname "$DEST")" || die "cannot create $(dirname "$DEST")"
if [ -f "$DEST/sparse/libsparse.a" ] && [ "$(cat "$DEST/version" 2>/dev/null)" = "$ver" ]; then
	exit 0
fi

rm -rf "$DEST.tmp"; mkdir -p "$DEST.tmp" || die "cannot create $DEST.tmp"
if [ -f "$PINNED/sparse_$ver.dsc" ]; then
	# 2. the pinned source package (dpkg-source applies Debian's quilt patches)
	dpkg-source --no-check -x "$PINNED/sparse_$ver.dsc" "$DEST.tmp/sparse-$ver" >"$DEST.tmp/log" 2>&1 ||
		{ tail -5 "$DEST.tmp/log" >&2; die "dpkg-source -x $PINNED/sparse_$ver.dsc failed"; }
else
	# 2b. another installed version: a source record for sparse
	# (scripts/deb-src.sh adds a deb-src entry for this release when apt has none)
	"$(dirname "$0")"/../scripts/deb-src.sh sparse "$ver" || die "no source record for sparse=$ver"
	# 3. fetch and unpack
	( cd "$DEST.tmp" && apt-get source -q "sparse=$ver" ) >"$DEST.tmp/log" 2>&1 ||
		{ tail -5 "$DEST.tmp/log" >&2; die "apt-get source sparse=$ver failed"; }
fi
src=$(find "$DEST.tmp" -mindepth 1 -maxdepth 1 -type d -name 'sparse-*' | head -1)
[ -n "$src" ] || die "apt-get source left no sparse-* directory in $DEST.tmp"
[ -d "$src/.pc" ] || [ ! -d "$src/debian/patches" ] ||
	die "Debian patches were not applied in $src (no .pc)"

# 4. build the library only
make -s -C "$src" libsparse.a >"$DEST.tmp/build.log" 2>&1 ||
	{ tail -10 "$DEST.tmp/build.log" >&2; die "make libsparse.a failed in $src"; }
rm -rf "$DEST"; mkdir -p "$DEST"
mv "$src" "$DEST/sparse" && mv "$DEST.tmp"/*.log "$DEST.tmp/log" "$DEST/" 2>/dev/null
echo "$ver" >"$DEST/version"
rm -rf "$DEST.tmp" "$DEST.apt.log"
echo "get-libsparse: built $DEST/sparse/libsparse.a from Debian sparse $ver" >&2
