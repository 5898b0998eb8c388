#!/bin/sh
# devdb.sh start|stop|status|url — a private PostgreSQL cluster for development.
#
#   start   creates the cluster under var/pg (once; later runs reuse it) and starts it if needed
#   stop    stops it (fast shutdown); the data stays for the next start
#   status  says whether it runs
#   url     starts it if needed, creates the database if missing, prints the libpq conninfo
#
# The cluster listens only on a Unix socket in var/pg/socket (port number DEVDB_PORT, default
# 55432, names the socket file), with trust authentication: nothing is reachable from the network.
# Role and database are both "dicehospital" (a superuser: this is a development database).
#
# PostgreSQL refuses to run as root. As root the cluster belongs to the `postgres` system user
# (installed by the postgresql package) and initdb/pg_ctl run through `runuser -u postgres`; if
# that user cannot reach var/pg (a repository under a private home directory), the cluster goes
# to /tmp/dicehospital-pg-<checksum of the repository path> instead, and the script says so.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd / # absolute paths from here on; as root, the postgres user may not be able to enter $ROOT
PORT=${DEVDB_PORT:-55432}
DB=dicehospital
ROLE=dicehospital

die() {
	echo "devdb: $*" >&2
	exit 1
}
say() { echo "devdb: $*" >&2; }

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$BIN" ] && [ -x "$BIN/pg_ctl" ] ||
	die "no PostgreSQL server found in /usr/lib/postgresql/*/bin (run: make deps)"

if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || die "running as root needs the postgres system user"
	AS="runuser -u postgres --"
else
	AS=
fi

# Where the cluster lives. As root, the postgres user must be able to traverse to it, and the
# socket path must fit in sun_path (107 bytes).
VAR=$ROOT/var/pg
fallback() {
	VAR=/tmp/dicehospital-pg-$(printf %s "$ROOT" | cksum | cut -d' ' -f1)
	[ "${1:-}" ] && say "$1; using $VAR instead"
	return 0
}
if [ ${#VAR} -gt 80 ]; then
	fallback "$VAR is too long for a Unix socket path"
elif [ -n "$AS" ]; then
	mkdir -p "$ROOT/var"
	if ! $AS test -x "$ROOT/var"; then
		fallback "the postgres user cannot reach $ROOT/var"
	fi
fi
DATA=$VAR/data
SOCK=$VAR/socket
LOG=$VAR/postgres.log

# conninfo quoting: 'value' with \ and ' escaped
q() { printf "'%s'" "$(printf %s "$1" | sed "s/[\\\\']/\\\\&/g")"; }
CONNINFO="host=$(q "$SOCK") port=$PORT dbname=$DB user=$ROLE"

running() {
	[ -f "$DATA/PG_VERSION" ] && $AS "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1
}

init() {
	[ -f "$DATA/PG_VERSION" ] && return 0
	mkdir -p "$VAR"
	[ -n "$AS" ] && chown postgres: "$VAR"
	chmod 700 "$VAR"
	say "creating a PostgreSQL cluster in $DATA"
	$AS "$BIN/initdb" -D "$DATA" -U "$ROLE" -A trust -E UTF8 --locale=C >"$VAR/initdb.log" 2>&1 ||
		{
			cat "$VAR/initdb.log" >&2
			die "initdb failed"
		}
}

start() {
	init
	if running; then
		return 0
	fi
	say "starting PostgreSQL (socket in $SOCK, port $PORT; log: $LOG)"
	$AS mkdir -p "$SOCK"
	# settings on the command line, so a moved checkout still starts with the right socket path
	opts="-c listen_addresses='' -c unix_socket_directories='$SOCK' -c port=$PORT"
	$AS "$BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t 30 -o "$opts" >/dev/null || {
		tail -n 20 "$LOG" >&2 || true
		die "PostgreSQL did not start"
	}
}

stop() {
	if running; then
		$AS "$BIN/pg_ctl" stop -D "$DATA" -m fast -w >/dev/null
		say "stopped"
	else
		say "not running"
	fi
}

url() {
	start
	exists=$("$BIN/psql" -X -q -A -t -h "$SOCK" -p "$PORT" -U "$ROLE" -d postgres -c \
		"SELECT 1 FROM pg_database WHERE datname = '$DB'") || die "cannot query the cluster"
	if [ "$exists" != 1 ]; then
		"$BIN/createdb" -h "$SOCK" -p "$PORT" -U "$ROLE" "$DB" || die "createdb failed"
		say "created database $DB"
	fi
	printf '%s\n' "$CONNINFO"
}

case ${1:-} in
start) start ;;
stop) stop ;;
status) if running; then echo "running: $CONNINFO"; else
	echo "not running"
	exit 3
fi ;;
url) url ;;
*)
	echo "usage: $0 start|stop|status|url" >&2
	exit 2
	;;
esac
