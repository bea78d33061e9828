#!/bin/sh
# need-packages.sh PKG... : install the Debian packages that are missing.
# Works as root (apt-get directly) or as a user with sudo. Prints nothing
# when everything is present. Exit status: 0 ok, 1 install failed.
set -e
missing=""
for p in "$@"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "cachehot: installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have empty package lists: update once, then install.
if ! $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends $missing >/tmp/cachehot-apt.$$ 2>&1; then
	$SUDO apt-get -o DPkg::Lock::Timeout=900 update -q >/dev/null 2>&1 || true
	if ! $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends $missing >/tmp/cachehot-apt.$$ 2>&1; then
		tail -20 /tmp/cachehot-apt.$$ >&2
		echo "cachehot: could not install:$missing (see above)" >&2
		rm -f /tmp/cachehot-apt.$$
		exit 1
	fi
fi
rm -f /tmp/cachehot-apt.$$
