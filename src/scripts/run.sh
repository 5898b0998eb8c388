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

# The machine's IPv4 addresses on its networks (not loopback), one a line.
lan_addresses() {
	if command -v ip >/dev/null 2>&1; then
		ip -o -4 addr show scope global 2>/dev/null | awk '{ sub(/\/.*/, "", $4); print $4 }'
	else
		hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+\.[0-9.]+$'
	fi
}

case $MODE in
migrate) exec "$SERVER" migrate ;;
serve)
	# the address other phones on the network can open (LISTEN unset: every
	# interface; HTTPS when TLS_CERT is set)
	SCHEME=http
	[ -n "${TLS_CERT:-}" ] && SCHEME=https
	echo "run: serving on $SCHEME://localhost:$PORT/ (Ctrl-C stops; make stop stops the database)" >&2
	case ${LISTEN:-} in
	"" | 0.0.0.0 | ::)
		for a in $(lan_addresses); do
			echo "run: other phones on this network: $SCHEME://$a:$PORT/" >&2
		done
		;;
	127.* | ::1) echo "run: LISTEN=$LISTEN: reachable from this machine only" >&2 ;;
	*:*) echo "run: listening on $SCHEME://[$LISTEN]:$PORT/" >&2 ;;
	*) echo "run: listening on $SCHEME://$LISTEN:$PORT/" >&2 ;;
	esac
	exec "$SERVER"
	;;
*)
	echo "run: unknown mode $MODE" >&2
	exit 2
	;;
esac
