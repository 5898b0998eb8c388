#!/bin/sh
# restore.sh FILE [TARGET] — reads a dump of backup.sh back (`make restore FILE=… [TARGET=…]`).
#
# Without TARGET: creates a new database next to the service's own (DATABASE_URL, or the
# development cluster of `make run`), named <database>_restored_<UTC time>, restores into it and
# prints its conninfo. The database in use is never touched: stop the server, point
# DATABASE_URL at the new one (or swap names with ALTER DATABASE … RENAME), start it.
# With TARGET (a conninfo or URI): restores into that database, which must exist and be empty
# (no table, sequence or view outside the system schemas); anything else is refused.
# Either way the restore is one transaction: it lands whole or not at all. Objects belong to the
# restoring role (--no-owner), so the dump restores under another role name too.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)

die() {
	echo "restore: $*" >&2
	exit 1
}

[ $# -ge 1 ] && [ -n "$1" ] || die "usage: $0 FILE [TARGET]   (make restore FILE=var/backups/….dump)"
FILE=$1
TARGET=${2:-}
[ -r "$FILE" ] || die "cannot read $FILE"

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
tool() { if [ -n "$BIN" ] && [ -x "$BIN/$1" ]; then echo "$BIN/$1"; else echo "$1"; fi; }
PSQL=$(tool psql)
PG_RESTORE=$(tool pg_restore)

"$PG_RESTORE" --list "$FILE" >/dev/null 2>&1 || die "$FILE is no pg_dump -Fc archive"

# one value of a query on a database
value() { "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 -d "$1" -c "$2"; }

if [ -z "$TARGET" ]; then
	if [ -n "${DATABASE_URL:-}" ]; then
		URL=$DATABASE_URL
	else
		URL=$(sh "$ROOT/src/scripts/devdb.sh" url) || die "no DATABASE_URL and no development cluster"
	fi
	current=$(value "$URL" "SELECT current_database()") || die "cannot reach the database"
	# a name of at most 63 bytes (PostgreSQL would cut it), of the characters in use here
	new=$(printf %.36s "$current" | tr -c 'A-Za-z0-9_' _)_restored_$(date -u +%Y%m%dT%H%M%SZ)
	echo "CREATE DATABASE \"$new\";" | "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$URL" ||
		die "cannot create database $new"
	case $URL in
	postgres://* | postgresql://*) # the URI's path names the database
		TARGET=$(printf %s "$URL" | sed -E "s|^(postgres(ql)?://[^/?]*)(/[^?]*)?|\\1/$new|") ;;
	*) TARGET="$URL dbname=$new" ;; # in a conninfo the last dbname counts
	esac
else
	used=$(value "$TARGET" "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND c.relkind IN ('r', 'p', 'S', 'v', 'm')") ||
		die "cannot reach the target database"
	[ "$used" = 0 ] || die "the target database is not empty ($used relations): restore into an empty or a new one"
fi

"$PG_RESTORE" --no-owner --single-transaction --exit-on-error -d "$TARGET" "$FILE" ||
	die "pg_restore failed; the target is as it was"
echo "restored into: $TARGET"
