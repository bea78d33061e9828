#!/bin/bash
# scripts/deb.sh [OUTDIR] -- build the Debian package (make deb).
#
# 1. installs what debian/control's Build-Depends name and what
#    dpkg-buildpackage needs (scripts/need-packages.sh: the one step that may
#    use the network);
# 2. copies the source tree (git's tracked and untracked-not-ignored files)
#    to OUTDIR/src/cachehot-VERSION (default OUTDIR: build/deb);
# 3. runs "dpkg-buildpackage -us -uc -b" there with the network unreachable:
#    in a new network namespace (unshare -n as root, unshare -rn otherwise);
#    the build needs no network: libsparse comes from third_party/sparse, the
#    SARIF schema from third_party/sarif;
# 4. runs lintian on the result and fails on any error (E:) tag.
# Prints the .deb's path last. Exit 0 on success, 1 with a message otherwise.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:-$TOP/build/deb}")
die() { echo "deb: $*" >&2; exit 1; }
cd "$TOP" || die "cannot enter $TOP"
ver=$(dpkg-parsechangelog -S Version 2>/dev/null || sed -n '1s/^cachehot (\([^)]*\)).*/\1/p' debian/changelog)
[ -n "$ver" ] || die "no version in debian/changelog"

# 1. build dependencies (names only: strip versions and alternatives)
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed '1s/^Build-Depends://; /^[A-Z]/d' |
	tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/^[ \t]*//; s/[ \t]*$//' | sed '/^$/d; s/^debhelper-compat$/debhelper/')
# shellcheck disable=SC2086
scripts/need-packages.sh build-essential fakeroot dpkg-dev debhelper lintian $bdeps ||
	die "could not install the build dependencies"

# 2. the source tree, as git sees it (no build/, bin/ or other ignored files)
src=$OUT/src/cachehot-$ver
rm -rf "$OUT/src" && mkdir -p "$src" || die "cannot create $src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -c -o --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$src" ||
		die "cannot copy the source tree"
else
	tar --exclude=./build --exclude=./bin --exclude='*.o' --exclude='*.so' -cf - . | tar -xf - -C "$src" ||
		die "cannot copy the source tree"
fi

# 3. build with no network
if [ "$(id -u)" -eq 0 ]; then netns="unshare -n"; else netns="unshare -rn"; fi
if ! $netns true 2>/dev/null; then
	echo "deb: warning: cannot make a network namespace here ($netns): building with the network reachable" >&2
	netns=""
fi
echo "deb: dpkg-buildpackage -us -uc -b in $src${netns:+ (no network: $netns)}" >&2
( cd "$src" && $netns dpkg-buildpackage -us -uc -b ) >"$OUT/build.log" 2>&1 ||
	{ tail -30 "$OUT/build.log" >&2; die "dpkg-buildpackage failed (log: $OUT/build.log)"; }
deb=$(ls "$OUT"/src/cachehot_"$ver"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || die "dpkg-buildpackage left no .deb in $OUT/src"
mv "$OUT"/src/cachehot_"$ver"_* "$OUT"/ 2>/dev/null
mv "$OUT"/src/cachehot-dbgsym_"$ver"_* "$OUT"/ 2>/dev/null
deb=$OUT/$(basename "$deb")

# 4. lintian: errors fail, warnings are shown
changes=$(ls "$OUT"/cachehot_"$ver"_*.changes 2>/dev/null | head -1)
lintian --tag-display-limit 0 "${changes:-$deb}" >"$OUT/lintian.log" 2>&1
cat "$OUT/lintian.log" >&2
if grep -q '^E: ' "$OUT/lintian.log"; then die "lintian reports errors (above; $OUT/lintian.log)"; fi
echo "deb: lintian: $(grep -c '^E: ' "$OUT/lintian.log") errors, $(grep -c '^W: ' "$OUT/lintian.log") warnings" >&2
echo "$deb"
