#!/bin/sh
# What the closed loop of games.sh sends PostgreSQL, statement by statement: per write (a move
# or a reveal), the calls of each statement the server ran, from pg_stat_statements over one
# closed loop, for this tree and for BEFORE_REF (default d615c80; empty: this tree only), each
# on its own database of one throwaway cluster (fsync on, as in games.sh).
#
#   sh tests/bench/statements.sh       (make bench runs every tests/bench/*.sh)
#
# Target: one statement per optimistic write beyond what creating and joining the games needs
# (the game's write itself; creations, joins, claims and the notifier's batches are listed
# apart). Environment: CLOSED_TABLES (32), DURATION (10), BEFORE_REF.
set -eu
cd "$(dirname "$0")/../.."
if [ -z "${STATEMENTS_BENCH_INNER:-}" ]; then
	STATEMENTS_BENCH_INNER=1 exec pg_virtualenv -t -o fsync=on \
		-o shared_preload_libraries=pg_stat_statements sh "$0" "$@"
fi

CLOSED_TABLES=${CLOSED_TABLES:-32}
DURATION=${DURATION:-10}
BEFORE_REF=${BEFORE_REF-d615c80}
. tests/bench/before.sub

CLOSED="build/bench/games_load --tables $CLOSED_TABLES --rate 0 --duration $DURATION --warmup 1 --seed 2"
echo "statements bench: servers $SERVERS (before = $BEFORE_REF); load average at start" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
echo "  $CLOSED --port PORT, then pg_stat_statements of the server's database"
for s in $SERVERS; do
	psql -q -X -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS stmt_$s" \
		-c "CREATE DATABASE stmt_$s"
	psql -q -X -v ON_ERROR_STOP=1 -d "stmt_$s" -c "CREATE EXTENSION pg_stat_statements"
	PORT=$(python3 tests/lib/ports.py 1)
	CONN_PER_ADDR=4096 PORT=$PORT DATABASE_URL="dbname=stmt_$s" STATIC_DIR=static \
		TEMPLATES_DIR=templates MIGRATIONS_DIR=$(mig_of "$s") $(bin_of "$s") \
		>"$OUT/server-$s.log" 2>&1 &
	SERVER_PID=$!
	i=0
	until python3 -c "import socket; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$OUT/server-$s.log"; exit 1; }; sleep 0.05
	done
	psql -q -X -At -d "stmt_$s" -c "SELECT pg_stat_statements_reset()" >/dev/null
	TEMPLATES_DIR=templates/er $CLOSED --port "$PORT" >"$OUT/closed-$s.json"
	# every statement of this database's sessions: calls, the statement on one line
	psql -X -At -F '	' -d "stmt_$s" -c "SELECT s.calls, regexp_replace(s.query, '\s+', ' ', 'g')
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = 'stmt_$s' AND s.query NOT LIKE '%pg_stat_statements%'
		ORDER BY s.calls DESC" >"$OUT/statements-$s.tsv"
	kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
done

python3 - "$OUT" "$SERVERS" <<'PY'
import json, os, sys
out, servers = sys.argv[1], sys.argv[2].split()


def what(q):  # a short name for a statement of the server's
    for key, name in (("WITH ORDINALITY", "a write group (several games' writes)"),
                      ("INSERT INTO events", "the game's write (game row UPDATE + event INSERT)"),
                      ("set_config(", "the lock timeout (set_config)"),
                      ("pg_notify", "live-update notifications (a batch)"),
                      ("INSERT INTO games", "game creation"),
                      ("INSERT INTO seats", "a game's seats"),
                      ("UPDATE seats", "a seat's claim"),
                      ("FOR UPDATE", "the game row locked (a token's first write)"),
                      ("BEGIN", "BEGIN"), ("COMMIT", "COMMIT"), ("ROLLBACK", "ROLLBACK")):
        if key in q:
            return name
    return q[:70]


per = {}
for s in servers:
    c = json.load(open(os.path.join(out, f"closed-{s}.json")))
    writes = c["moves_total"] + c["reveals"]
    rows = {}
    for line in open(os.path.join(out, f"statements-{s}.tsv")):
        calls, q = line.rstrip("\n").split("\t", 1)
        rows[what(q)] = rows.get(what(q), 0) + int(calls)
    total = sum(rows.values())
    per[s] = (writes, rows, total, c["moves_per_s"])
    print(f"\n{s}: {c['moves_per_s']} moves/s, {writes} writes ({c['moves_total']} moves, "
          f"{c['reveals']} reveals); statements per write:")
    print(f"  {'statement':<52} {'calls':>8} {'per write':>9}")
    for name, calls in sorted(rows.items(), key=lambda x: -x[1]):
        print(f"  {name:<52} {calls:>8} {calls / writes:>9.3f}")
    print(f"  {'all':<52} {total:>8} {total / writes:>9.3f}")
writes, rows, total, _ = per["after"]
own = rows.get("the game's write (game row UPDATE + event INSERT)", 0) + \
    rows.get("a write group (several games' writes)", 0)
lock = rows.get("the lock timeout (set_config)", 0)
print(f"VERDICT | the lock timeout's statements per write (a move or a reveal) ≤ 0.01 | "
      f"{lock / writes:.3f} (the game's own statements per write {own / writes:.2f}; all "
      f"{total / writes:.2f}"
      + (f"; before {per['before'][2] / per['before'][0]:.2f}" if "before" in per else "")
      + f") | {'met' if lock / writes <= 0.01 else 'NOT met'} |")
PY
