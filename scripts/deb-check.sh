#!/bin/bash
# scripts/deb-check.sh DEBDIR -- install the package that make deb built into
# a fresh Debian 12 and run debian/tests/smoke there (make deb-check).
#
# The fresh system is a minbase debootstrap of this machine's release
# (bookworm) in DEBDIR/root, made once and reused from a pristine copy
# (DEBDIR/root.tar) so that every run starts from the same fresh system. apt
# in the chroot installs the .deb with the dependencies it declares (nothing
# else), then the smoke test runs cachehot check on the examples with the
# installed tools, plugin and header. Needs root (chroot) and Debian's archive.
# Exit 0 when the smoke test passes, 1 otherwise.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
D=$(realpath -m "${1:?usage: deb-check.sh DEBDIR}")
die() { echo "deb-check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap and chroot)"
deb=$(ls "$D"/cachehot_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || die "no cachehot_*.deb in $D (make deb)"
"$TOP"/scripts/need-packages.sh debootstrap || die "cannot install debootstrap"
suite=$(. /etc/os-release; echo "${VERSION_CODENAME:-bookworm}")
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
if [ ! -f "$D/root.tar" ]; then
	rm -rf "$D/root.new"
	echo "deb-check: debootstrap --variant=minbase $suite ($mirror)" >&2
	debootstrap --variant=minbase "$suite" "$D/root.new" "$mirror" >"$D/debootstrap.log" 2>&1 ||
		{ tail -20 "$D/debootstrap.log" >&2; die "debootstrap failed (log: $D/debootstrap.log)"; }
	tar -C "$D/root.new" -cf "$D/root.tar.tmp" . && mv "$D/root.tar.tmp" "$D/root.tar" || die "cannot save $D/root.tar"
	rm -rf "$D/root.new"
fi
R=$D/root
cleanup() { umount "$R/proc" 2>/dev/null; rm -rf "$R"; }
trap cleanup EXIT
rm -rf "$R" && mkdir -p "$R" && tar -C "$R" -xf "$D/root.tar" || die "cannot unpack $D/root.tar"
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null
mount -t proc proc "$R/proc" || die "cannot mount /proc in the chroot"
mkdir -p "$R/tmp/cachehot/debian/tests" "$R/tmp/cachehot/examples"
cp "$deb" "$R/tmp/" && cp "$TOP"/debian/tests/smoke "$R/tmp/cachehot/debian/tests/" &&
	cp "$TOP"/examples/*.c "$TOP"/examples/*.h "$R/tmp/cachehot/examples/" || die "cannot copy into the chroot"
echo "deb-check: apt-get install ./$(basename "$deb") in the fresh $suite" >&2
chroot "$R" /bin/sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")" \
	>"$D/install.log" 2>&1 || { tail -20 "$D/install.log" >&2; die "the package did not install (log: $D/install.log)"; }
echo "deb-check: installed; $(grep -c '^Setting up' "$D/install.log") packages set up" >&2
chroot "$R" /bin/sh -c "cachehot version && ls -l \$(gcc-12 -print-file-name=plugin)/cachehot.so && /tmp/cachehot/debian/tests/smoke" ||
	die "the smoke test failed in the fresh system"
echo "deb-check: ok"
