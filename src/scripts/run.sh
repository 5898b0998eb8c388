#!/bin/sh
# run.sh SERVER PORT [migrate] — runs the server (or only its migrations) for `make run` /
# `make migrate`.
#
# DATABASE_URL set: used as is (any libpq conninfo or postgresql:// URI).
# DATABASE_URL unset: the private development cluster (devdb.sh) is started and its database
# used; `make stop` stops it.
# STATIC_DIR, TEMPLATES_DIR and MIGRATIONS_DIR default to the repository's folders.
set -eu

[ $# -ge 2 ] || {
	echo "usage: $0 SERVER PORT [migrate]" >&2
	exit 2
}
SERVER=$1
PORT=$2
MODE=${3:-serve}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

case $SERVER in
/*) ;;
*) SERVER=$(pwd)/$SERVER ;;
esac
[ -x "$SERVER" ] || {
	echo "run: $SERVER is not built (make)" >&2
	exit 1
}

if [ -z "${DATABASE_URL:-}" ]; then
	sh "$ROOT/src/scripts/devdb.sh" start
	DATABASE_URL=$(sh "$ROOT/src/scripts/devdb.sh" url)
fi
export DATABASE_URL PORT
export STATIC_DIR="${STATIC_DIR:-$ROOT/static}"
export TEMPLATES_DIR="${TEMPLATES_DIR:-$ROOT/templates}"
export MIGRATIONS_DIR="${MIGRATIONS_DIR:-$ROOT/migrations}"

case $MODE in
migrate) exec "$SERVER" migrate ;;
serve)
	echo "run: serving on http://localhost:$PORT/ (Ctrl-C stops; make stop stops the database)" >&2
	# erfront (issue 11): the addresses other phones on this network open (the app's links and QR
	# codes use the address the host opened, so the host should open one of these too)
	lan=$(hostname -I 2>/dev/null || ip -4 -o addr show scope global 2>/dev/null | awk '{sub("/.*", "", $4); print $4}')
	for a in $lan; do
		case $a in
		*:*) ;; # IPv6: phones rarely type those
		127.*) ;;
		*) echo "run: other phones on this network: http://$a:$PORT/" >&2 ;;
		esac
	done
	exec "$SERVER"
	;;
*)
	echo "run: unknown mode $MODE" >&2
	exit 2
	;;
esac
