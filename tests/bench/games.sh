#!/bin/sh
# ER games through the API under load, next to pgbench on the same database in the same run.
#
#   sh tests/bench/games.sh            (make bench runs every tests/bench/*.sh)
#
# Starts its own throwaway PostgreSQL (pg_virtualenv, fsync on unless FSYNC says otherwise),
# builds the server and the C load generator (tests/bench/games_load.c → build/bench/games_load:
# it picks every move locally with the rules library, so the client costs little CPU), then:
#   1. open loop: TABLES tables x 4 seats play table-deck games (a table starts a new game when
#      one ends) for DURATION s; moves are sent at RATE moves/s on a fixed schedule, latency
#      counted from the scheduled instant;
#   2. closed loop: CLOSED_TABLES tables send as fast as answers come back, DURATION s
#      (sustained moves/s over the window after WARMUP s);
#   3. pgbench's built-in simple-update script (-c 8 -j 2 -T PGBENCH_T) on the same database.
# Targets: p99 < 50 ms at 500 moves/s; closed-loop moves/s >= 30 % of pgbench's TPS.
# Environment: RATE (500), TABLES (48), CLOSED_TABLES (32), DURATION (10), WARMUP (1),
# PGBENCH_T (10), THREADS (server), FSYNC (on; pg_virtualenv's default is off, and
# synchronous_commit=on then flushes nothing), CC (cc).
# Exit status 1 if the load generator saw an error (targets missed are reported, not failed).
set -eu
cd "$(dirname "$0")/../.."
if [ -z "${GAMES_BENCH_INNER:-}" ]; then
	FSYNC=${FSYNC:-on}
	GAMES_BENCH_INNER=1 exec pg_virtualenv -o "fsync=$FSYNC" sh "$0" "$@"
fi

RATE=${RATE:-500}
TABLES=${TABLES:-48}
CLOSED_TABLES=${CLOSED_TABLES:-32}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-1}
PGBENCH_T=${PGBENCH_T:-10}
DB=bench_games
OUT=$(mktemp -d)
SERVER_PID=
trap '[ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; }; rm -rf "$OUT"' \
	EXIT INT TERM

make -s BUILD=build build/server build/librules.a
mkdir -p build/bench
${CC:-cc} -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Isrc -Itests/unit \
	-o build/bench/games_load tests/bench/games_load.c build/librules.a -ljson-c -lm
psql -q -X -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
SYNC=$(psql -X -At -d "$DB" -c "SHOW synchronous_commit")
FSYNC=$(psql -X -At -d "$DB" -c "SHOW fsync")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

PORT=$PORT DATABASE_URL="dbname=$DB" STATIC_DIR=static TEMPLATES_DIR=templates \
	MIGRATIONS_DIR=migrations build/server >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
i=0
until python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 200 ] || { cat "$OUT/server.log"; exit 1; }; sleep 0.05
done

OPEN_CMD="build/bench/games_load --tables $TABLES --rate $RATE --duration $DURATION --warmup $WARMUP"
CLOSED_CMD="build/bench/games_load --tables $CLOSED_TABLES --rate 0 --duration $DURATION --warmup $WARMUP --seed 2"
PGB_CMD="pgbench -b simple-update -c 8 -j 2 -T $PGBENCH_T"
echo "games bench: synchronous_commit=$SYNC fsync=$FSYNC, server threads=${THREADS:-4 (default)}"
echo "  $OPEN_CMD --port $PORT"
echo "  $CLOSED_CMD --port $PORT"
echo "  $PGB_CMD $DB"
rc=0
TEMPLATES_DIR=templates/er $OPEN_CMD --port "$PORT" >"$OUT/open.json" || rc=1
TEMPLATES_DIR=templates/er $CLOSED_CMD --port "$PORT" >"$OUT/closed.json" || rc=1
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=

pgbench -q -i -s 1 "$DB" >"$OUT/pgbench-init.log" 2>&1
$PGB_CMD "$DB" >"$OUT/pgbench.log" 2>&1
TPS=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/pgbench.log" | head -n 1)

python3 - "$OUT" "$TPS" "$SYNC" "$FSYNC" "$RATE" "$TABLES" "$CLOSED_TABLES" "$PGBENCH_T" <<'EOF'
import json, os, platform, sys
out, tps, sync, fsync, rate, tables, ctables, pt = sys.argv[1:]
o = json.load(open(os.path.join(out, "open.json")))
c = json.load(open(os.path.join(out, "closed.json")))
tps = float(tps)
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"machine: {os.cpu_count()} CPUs, {cpu}, {platform.system()} {platform.release()}; "
      f"synchronous_commit={sync} fsync={fsync}")
num = lambda x: "-" if x is None else x
rows = [
    ("open loop", f"games_load --tables {tables} --rate {rate}", o["moves_per_s"],
     o["p50_ms"], o["p99_ms"], o["client_cpu_s"]),
    ("closed loop", f"games_load --tables {ctables} --rate 0", c["moves_per_s"],
     c["p50_ms"], c["p99_ms"], c["client_cpu_s"]),
]
print(f"{'run':<12} {'command':<40} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'client CPU s':>12}")
for r in rows:
    print(f"{r[0]:<12} {r[1]:<40} {r[2]:>8} {num(r[3]):>7} {num(r[4]):>7} {r[5]:>12}")
print(f"{'pgbench':<12} {'pgbench -b simple-update -c 8 -j 2 -T ' + pt:<40} {tps:>8.1f} {'(TPS)':>7}")
ratio = c["moves_per_s"] / tps if tps else float("nan")
p99 = o["p99_ms"]
print(f"ratio closed-loop moves/s / pgbench TPS = {ratio:.2f} (target >= 0.30)")
print(f"open loop: offered {rate}/s, achieved {o['moves_per_s']}/s over {o['duration_s'] - o['warmup_s']:g} s, "
      f"{o['moves']} moves, starved slots {o['starved_slots']}/{o['slots']}, max {num(o['max_ms'])} ms, "
      f"reveal p50/p99 {num(o['reveal_p50_ms'])}/{num(o['reveal_p99_ms'])} ms, "
      f"games {o['games_completed']}, errors {o['errors']}; "
      f"p99 target < 50 ms: {'met' if p99 is not None and p99 < 50 else 'MISSED'}")
print(f"closed loop: {c['moves']} moves over {c['duration_s'] - c['warmup_s']:g} s, "
      f"games {c['games_completed']}, final sheets checked {c['sheets_verified']}, "
      f"errors {c['errors']}; ratio target: {'met' if ratio >= 0.30 else 'MISSED'}")
if o["errors"] or c["errors"]:
    print("errors:", o["first_errors"], c["first_errors"])
EOF
exit $rc
