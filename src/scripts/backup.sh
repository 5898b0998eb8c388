#!/bin/sh
# backup.sh — a dump of the service's database that pg_restore reads back (`make backup`).
#
# Dumps DATABASE_URL, or without it the development cluster of `make run` (devdb.sh), with
# `pg_dump -Fc` into BACKUP_DIR (default var/backups) as <UTC time>.dump, and prints its path.
# pg_dump reads one snapshot: the dump is consistent while the server runs and writes.
# The file appears under its name only once complete (written as .partial, then renamed).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${BACKUP_DIR:-$ROOT/var/backups}

die() {
	echo "backup: $*" >&2
	exit 1
}

# the newest PostgreSQL client tools installed (a dump reads back with the same or newer)
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG_DUMP=pg_dump
[ -n "$BIN" ] && [ -x "$BIN/pg_dump" ] && PG_DUMP=$BIN/pg_dump

if [ -n "${DATABASE_URL:-}" ]; then
	URL=$DATABASE_URL
else
	URL=$(sh "$ROOT/src/scripts/devdb.sh" url) || die "no DATABASE_URL and no development cluster"
fi

mkdir -p "$DIR"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$DIR/$stamp.dump
n=1
while [ -e "$out" ]; do # two backups within a second
	n=$((n + 1))
	out=$DIR/$stamp-$n.dump
done
tmp=$out.partial
trap 'rm -f "$tmp"' EXIT INT TERM
"$PG_DUMP" -Fc -d "$URL" -f "$tmp" || die "pg_dump failed; nothing written"
mv "$tmp" "$out"
trap - EXIT INT TERM
echo "$out"
