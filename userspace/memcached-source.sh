#!/bin/bash
# userspace/memcached-source.sh DIR -- prints the directory of Debian's
# memcached source package unpacked in DIR (apt-get source, Debian's patches
# applied), fetching it once (scripts/deb-src.sh adds a deb-src entry when
# apt has none). Used by memcached-check.sh and memcached-record.sh.
# Exit status 1 (message on stderr) when it cannot be had.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
W=$1
mkdir -p "$W" || { echo "cannot create $W" >&2; exit 1; }
find_src() { find "$W" -mindepth 1 -maxdepth 1 -type d -name 'memcached-[0-9]*' | head -1; }
src=$(find_src)
if [ -z "$src" ]; then
	"$TOP"/scripts/deb-src.sh memcached >&2 || exit 1
	( cd "$W" && apt-get source -q memcached ) >"$W/source.log" 2>&1 ||
		{ tail -5 "$W/source.log" >&2; echo "apt-get source memcached failed" >&2; exit 1; }
	src=$(find_src)
	[ -n "$src" ] || { echo "apt-get source left no memcached-* directory in $W" >&2; exit 1; }
fi
echo "$src"
