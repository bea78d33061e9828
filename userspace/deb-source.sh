#!/bin/bash
# userspace/deb-source.sh PACKAGE DIR -- prints the directory of Debian's
# source package PACKAGE unpacked in DIR (apt-get source, Debian's patches
# applied), fetching it once (scripts/deb-src.sh adds a deb-src entry when
# apt has none). Used by the memcached, HAProxy and Apache httpd scripts.
# Exit status 1 (message on stderr) when it cannot be had.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PKG=${1:?usage: deb-source.sh PACKAGE DIR}
W=${2:?usage: deb-source.sh PACKAGE DIR}
mkdir -p "$W" || { echo "cannot create $W" >&2; exit 1; }
find_src() { find "$W" -mindepth 1 -maxdepth 1 -type d -name "$PKG-[0-9]*" | head -1; }
src=$(find_src)
if [ -z "$src" ]; then
	"$TOP"/scripts/deb-src.sh "$PKG" >&2 || exit 1
	( cd "$W" && apt-get source -q "$PKG" ) >"$W/source.log" 2>&1 ||
		{ tail -5 "$W/source.log" >&2; echo "apt-get source $PKG failed" >&2; exit 1; }
	src=$(find_src)
	[ -n "$src" ] || { echo "apt-get source left no $PKG-* directory in $W" >&2; exit 1; }
fi
echo "$src"
