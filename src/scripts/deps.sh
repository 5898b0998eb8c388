#!/bin/sh
# deps.sh PKG… — makes sure the Debian packages PKG… are installed.
# Silent when they all are. Otherwise installs them when run as root, or prints the exact
# command to run and exits 1. Used by `make deps` (the list is DEB_PKGS in the Makefile).
set -eu

missing=
for pkg in "$@"; do
	# "install ok installed" only; half-installed or removed-with-config counts as missing
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	case $status in
	*" installed") ;;
	*) missing="$missing $pkg" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	echo "deps: installing:$missing" >&2
	apt-get update
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
else
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: install them with:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
