#!/bin/bash
# scripts/deb-src.sh PACKAGE [VERSION]
#
# Make sure apt has a source record for PACKAGE (of VERSION, when given), so
# that 'apt-get source PACKAGE' works: if it has none, add a deb-src entry for
# this release (deb822 file /etc/apt/sources.list.d/cachehot-deb-src.sources,
# main, release and -updates) and update that source list only. Needs root or
# sudo for that step. Used by sparse-checks/get-libsparse.sh (Debian's patched
# sparse) and userspace/memcached-check.sh (memcached's source).
# Exit status 0 when the record is there, 1 with a message "deb-src: ..." on
# stderr otherwise.
set -u
PKG=${1:?usage: deb-src.sh PACKAGE [VERSION]}
VER=${2:-}
die() { echo "deb-src: $*" >&2; exit 1; }

has_src() {
	if [ -n "$VER" ]; then apt-cache showsrc "$PKG" 2>/dev/null | grep -qx "Version: $VER"
	else apt-cache showsrc "$PKG" 2>/dev/null | grep -q "^Version: "; fi
}
has_src && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else
	command -v sudo >/dev/null ||
		die "apt has no source record for $PKG, and adding a deb-src entry needs root: run as root, install sudo, or add a deb-src line for this release yourself"
	SUDO="sudo"
fi
list=/etc/apt/sources.list.d/cachehot-deb-src.sources
codename=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-bookworm}")
echo "deb-src: adding deb-src entry for $codename ($list)" >&2
if [ ! -f "$list" ]; then
	printf '%s\n' \
		"# added by cachehot scripts/deb-src.sh: source packages" \
		"Types: deb-src" \
		"URIs: http://deb.debian.org/debian" \
		"Suites: $codename $codename-updates" \
		"Components: main" \
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
		$SUDO tee "$list" >/dev/null || die "cannot write $list"
fi
# Update only this source list (fast, leaves the others alone).
log=$(mktemp)
$SUDO apt-get update -q -o DPkg::Lock::Timeout=300 \
	-o Dir::Etc::sourcelist="$list" -o Dir::Etc::sourceparts=- \
	-o APT::Get::List-Cleanup=0 >"$log" 2>&1 ||
	{ tail -5 "$log" >&2; rm -f "$log"; die "apt-get update of $list failed (network to the Debian archive?)"; }
rm -f "$log"
has_src || die "no source package $PKG${VER:+=$VER} in the archive after adding $list"
