#!/bin/sh
# ER games through the API under load: the server as it is next to the server from before the
# table engine (BEFORE_REF, default 186c5fd: the last commit with ER games in one file), and
# pgbench on the same PostgreSQL, in interleaved rounds, so every ratio is measured side by side.
#
#   sh tests/bench/games.sh            (make bench runs every tests/bench/*.sh)
#
# Starts its own throwaway PostgreSQL (pg_virtualenv, fsync on unless FSYNC says otherwise),
# builds both servers (the old one in a temporary git worktree) and the C load generator
# (tests/bench/games_load*.c: it picks every move locally with the rules library, so the client
# costs little CPU). Each of ROUNDS rounds runs, for each server (its own database, its own
# migrations): an open loop (TABLES tables x 4 seats, moves sent at RATE moves/s on a fixed
# schedule, latency from the scheduled instant) and a closed loop (CLOSED_TABLES tables as fast
# as answers come); then pgbench's built-in simple-update (-c 8 -j 2 -T PGBENCH_T).
# Targets (medians over rounds): closed-loop moves/s >= 0.9 x the moves among the game's writes
# sent by pgbench (below: the database's own ceiling for them), PostgreSQL's CPU per move in the
# closed loop <= 1.1 x its CPU per move of those writes, and open-loop p99 < 10 ms at 500
# moves/s in EVERY round; each is printed with its verdict, a row per round. Next to each open
# loop the script records what PostgreSQL did meanwhile (checkpoints begun, autovacuum and
# autoanalyze runs on the server's tables, the cluster's WAL flushes and their mean time) and
# the disk's own longest flush (tests/bench/flush_probe.py: 8 KiB and an fdatasync every 10 ms
# beside the database's files), and pgbench runs the same open loop (-R RATE, latency from the
# scheduled instant: its own time plus schedule lag), so a tail shows whether the database or
# the disk had it too; "load" is the load average when the open loop began.
# Where a move's CPU goes: during each closed loop the CPU time of the server, of PostgreSQL (the
# cluster's processes, those that exited included) and of the load generator, and how busy both
# CPUs were; the same for pgbench's round. And the database's own pace for a move: the move's
# statement (events_append_if's shape: the game row's UPDATE with its seat's token check and the
# INSERT of a real move event), sent by pgbench itself (-M prepared, same clients) on a copy of
# the first round's games, next to simple-update; and the game's writes alone, the move's
# statement and the reveal's (the host's check, a real reveal event) weighted as round 1's closed
# loop sent them (four moves to a reveal: a turn's card and dice are one write, each seat's move
# one more): the moves among them are the closed loop's ceiling on this database, were the
# server, HTTP, the load generator, creations, joins and notifications to cost nothing.
# Environment: ROUNDS (3), RATE (500), TABLES (48), CLOSED_TABLES (32), DURATION (10),
# WARMUP (1), PGBENCH_T (10), FSYNC (on), BEFORE_REF (186c5fd; empty: skip the old server);
# THREADS (the server's default when unset) goes to both servers.
set -eu
cd "$(dirname "$0")/../.."
if [ -z "${GAMES_BENCH_INNER:-}" ]; then
	FSYNC=${FSYNC:-on}
	GAMES_BENCH_INNER=1 exec pg_virtualenv -t -o "fsync=$FSYNC" -o track_wal_io_timing=on \
		sh "$0" "$@"
fi

ROUNDS=${ROUNDS:-3}
RATE=${RATE:-500}
TABLES=${TABLES:-48}
CLOSED_TABLES=${CLOSED_TABLES:-32}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-1}
PGBENCH_T=${PGBENCH_T:-10}
BEFORE_REF=${BEFORE_REF-186c5fd}
. tests/bench/before.sub

for s in $SERVERS pgb; do
	psql -q -X -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS bench_$s" \
		-c "CREATE DATABASE bench_$s"
done
pgbench -q -i -s 1 bench_pgb >"$OUT/pgbench-init.log" 2>&1
SYNC=$(psql -X -At -d bench_pgb -c "SHOW synchronous_commit")
FS=$(psql -X -At -d bench_pgb -c "SHOW fsync")

start_server() { # start_server NAME → SERVER_PID, PORT
	PORT=$(python3 tests/lib/ports.py 1)
	# one load generator plays every phone from 127.0.0.1: lift the per-address connection cap
	CONN_PER_ADDR=4096 PORT=$PORT DATABASE_URL="dbname=bench_$1" STATIC_DIR=static TEMPLATES_DIR=templates \
		MIGRATIONS_DIR=$(mig_of "$1") $(bin_of "$1") >"$OUT/server-$1.log" 2>&1 &
	SERVER_PID=$!
	i=0
	until python3 -c "import socket; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; do
		i=$((i + 1)); [ $i -lt 200 ] || { cat "$OUT/server-$1.log"; exit 1; }; sleep 0.05
	done
}
# Until every client's backend has gone (what a backend used is counted once it exits and the
# postmaster reaps it: CPU windows end, and begin, after that).
settle() {
	i=0
	while [ "$(psql -X -At -d postgres -c "SELECT count(*) FROM pg_stat_activity
		WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")" != 0 ] && [ $i -lt 100 ]; do
		i=$((i + 1)); sleep 0.05
	done
}
stop_server() {
	kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
	settle
}

# PostgreSQL's own events in a window: checkpoints begun (timed + requested) in the cluster,
# autovacuum + autoanalyze runs on the tables of database $1, and the cluster's WAL flushes
# with the milliseconds they took (track_wal_io_timing): the disk's pace for a commit.
pg_events() {
	psql -X -At -d "$1" -c "SELECT (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter),
		(SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_user_tables),
		(SELECT wal_sync FROM pg_stat_wal), (SELECT wal_sync_time FROM pg_stat_wal)" |
		tr '|' ' '
}

OPEN="build/bench/games_load --tables $TABLES --rate $RATE --duration $DURATION --warmup $WARMUP"
CLOSED="build/bench/games_load --tables $CLOSED_TABLES --rate 0 --duration $DURATION --warmup $WARMUP --seed 2"
PGB="pgbench -b simple-update -c 8 -j 2 -T $PGBENCH_T"
PGB_OPEN="pgbench -b simple-update -c 8 -j 2 -R $RATE -T $DURATION"
echo "games bench: synchronous_commit=$SYNC fsync=$FS, $ROUNDS interleaved rounds; servers: $SERVERS" \
	"(before = $BEFORE_REF); load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  $OPEN --port PORT"
echo "  $CLOSED --port PORT"
echo "  $PGB bench_pgb"
echo "  $PGB_OPEN -l bench_pgb (its p99 from the scheduled instant)"
echo "  server THREADS: ${THREADS:-default}"
# CPU ticks (1/100 s) so far: the cluster's processes with what its exited children used
# (pg_ticks), this shell's waited-for children (kid_ticks), the machine's busy and idle.
PGDATA_DIR=$(psql -X -At -d postgres -c "SHOW data_directory")
pg_ticks() {
	pm=$(head -n 1 "$PGDATA_DIR/postmaster.pid")
	{ awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat"
	  for p in $(ps -o pid= --ppid "$pm"); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null; done
	} | awk '{t += $1} END {print t + 0}'
}
# The disk's own flushes beside the database's files while an open loop runs (flush_probe.py):
# probe_start, then probe_stop FILE writes the longest flush's milliseconds to FILE.
probe_start() {
	python3 tests/bench/flush_probe.py "$(dirname "$PGDATA_DIR")" "$OUT/probe.tmp" &
	PROBE_PID=$!
}
probe_stop() {
	kill -TERM "$PROBE_PID"; wait "$PROBE_PID" || rc=1
	mv "$OUT/probe.tmp" "$1"
}
kid_ticks() { awk '{print $16 + $17}' /proc/$$/stat; }
cpu_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $5 + $6}' /proc/stat; }
stamp() { echo "$(pg_ticks) $(kid_ticks) $(cpu_ticks)"; }

# The move's statement alone, one pgbench script per game of a copy of bench_after (its games
# put back in play: the statement checks the status), each with a real move event.
stmt_scripts() {
	psql -q -X -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE bench_stmt TEMPLATE bench_after"
	psql -q -X -v ON_ERROR_STOP=1 -d bench_stmt -c "UPDATE games SET status = 'playing', result = NULL"
	tab=$(printf '\t') # the first move event, its columns apart (the payload has spaces)
	IFS=$tab read -r kind eseat turn payload <<EOF
$(psql -X -At -F "$tab" -d bench_stmt -c "SELECT kind, seat, turn, payload FROM events
	WHERE kind = 'move' ORDER BY game_id, version LIMIT 1" | sed "s/'/''/g")
EOF
	mkdir -p "$OUT/stmt"
	psql -X -At -F ' ' -d bench_stmt -c "SELECT g.id, s.seat, encode(s.token_hash, 'hex') FROM games g
		JOIN seats s ON s.game_id = g.id AND s.claimed AND s.token_hash IS NOT NULL
		WHERE s.seat = 1 ORDER BY g.id LIMIT 64" |
	while read -r id seat hash; do
		cat >"$OUT/stmt/$id.sql" <<SQL
WITH u AS (UPDATE games g SET version = g.version + 1, status = 'playing', result = NULL::jsonb, updated_at = now() WHERE g.id = '$id' AND g.status = 'playing' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = $seat AND s.claimed AND s.token_hash = decode('$hash', 'hex')) RETURNING g.id, g.version), e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT u.id, u.version, x.kind, x.seat, x.turn, x.payload FROM u, unnest('{1}'::int[], '{$kind}'::text[], '{$eseat}'::int[], '{$turn}'::int[], ARRAY['$payload']::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1) SELECT (SELECT count(*) FROM e) FROM u;
SQL
	done
	STMT_FILES=$(for f in "$OUT"/stmt/*.sql; do printf -- '-f %s ' "$f"; done)
	# The reveal's statement (the host's check on the game row, a real reveal event), and the
	# game's writes as the closed loop of round 1 sent them: its moves to a reveal as weights.
	IFS=$tab read -r rkind rseat rturn rpayload <<EOF
$(psql -X -At -F "$tab" -d bench_stmt -c "SELECT kind, coalesce(seat::text, 'NULL'), turn, payload
	FROM events WHERE kind = 'reveal' ORDER BY game_id, version LIMIT 1" | sed "s/'/''/g")
EOF
	mkdir -p "$OUT/reveal"
	psql -X -At -F ' ' -d bench_stmt -c "SELECT id, encode(host_token_hash, 'hex') FROM games
		ORDER BY id LIMIT 64" |
	while read -r id hash; do
		cat >"$OUT/reveal/$id.sql" <<SQL
WITH u AS (UPDATE games g SET version = g.version + 1, status = 'playing', result = NULL::jsonb, updated_at = now() WHERE g.id = '$id' AND g.status = 'playing' AND g.host_token_hash = decode('$hash', 'hex') RETURNING g.id, g.version), e AS (INSERT INTO events (game_id, version, kind, seat, turn, payload) SELECT u.id, u.version, x.kind, x.seat, x.turn, x.payload FROM u, unnest('{1}'::int[], '{$rkind}'::text[], '{$rseat}'::int[], '{$rturn}'::int[], ARRAY['$rpayload']::jsonb[]) AS x(version, kind, seat, turn, payload) RETURNING 1) SELECT (SELECT count(*) FROM e) FROM u;
SQL
	done
	python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print(c["moves_total"], c["reveals"])' \
		"$OUT/closed-after-1.json" >"$OUT/mix"
	read -r MIX_MOVES MIX_REVEALS <"$OUT/mix"
	MIX_FILES=$(for f in "$OUT"/stmt/*.sql; do printf -- '-f %s@%s ' "$f" "$MIX_MOVES"; done
		for f in "$OUT"/reveal/*.sql; do printf -- '-f %s@%s ' "$f" "$MIX_REVEALS"; done)
}
PGB_STMT="pgbench -n -M prepared -c 8 -j 2 -T $PGBENCH_T"
echo "  $PGB_STMT -f GAME.sql … bench_stmt (the move's statement, one script per game)"
echo "  $PGB_STMT -f GAME.sql@MOVES … -f REVEAL.sql@REVEALS … bench_stmt (the game's writes:" \
	"moves and reveals weighted as round 1's closed loop sent them)"

rc=0
r=1
while [ $r -le "$ROUNDS" ]; do
	for s in $SERVERS; do
		start_server "$s"
		t0=$(stamp); sv0=$(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")
		TEMPLATES_DIR=templates/er $CLOSED --port "$PORT" >"$OUT/closed-$s-$r.json" || rc=1
		echo "$t0 $(stamp) $sv0 $(awk '{print $14 + $15}' "/proc/$SERVER_PID/stat")" >"$OUT/cpu-$s-$r"
		pg_events "bench_$s" >"$OUT/events0-$s-$r"
		cut -d' ' -f1 /proc/loadavg >"$OUT/load-$s-$r"
		probe_start
		TEMPLATES_DIR=templates/er $OPEN --port "$PORT" >"$OUT/open-$s-$r.json" || rc=1
		probe_stop "$OUT/disk-$s-$r"
		pg_events "bench_$s" >"$OUT/events1-$s-$r"
		stop_server
	done
	t0=$(stamp)
	$PGB bench_pgb >"$OUT/pgbench-$r.log" 2>&1
	settle
	echo "$t0 $(stamp)" >"$OUT/cpu-pgb-$r"
	sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/pgbench-$r.log" | head -n 1 >"$OUT/tps-$r"
	[ $r -gt 1 ] || { stmt_scripts; settle; }
	t0=$(stamp)
	# shellcheck disable=SC2086 # one -f per script
	$PGB_STMT $STMT_FILES bench_stmt >"$OUT/stmt-$r.log" 2>&1 || rc=1
	settle
	echo "$t0 $(stamp)" >"$OUT/cpu-stmt-$r"
	sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/stmt-$r.log" | head -n 1 >"$OUT/stmt-tps-$r"
	t0=$(stamp)
	# shellcheck disable=SC2086 # one -f per script
	$PGB_STMT $MIX_FILES bench_stmt >"$OUT/mix-$r.log" 2>&1 || rc=1
	settle
	echo "$t0 $(stamp)" >"$OUT/cpu-mix-$r"
	sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/mix-$r.log" | head -n 1 >"$OUT/mix-tps-$r"
	pg_events bench_pgb >"$OUT/events0-pgb-$r"
	probe_start
	(cd "$OUT" && $PGB_OPEN -l --log-prefix="pgl-$r" bench_pgb >"pgbench-open-$r.log" 2>&1)
	probe_stop "$OUT/disk-pgb-$r"
	pg_events bench_pgb >"$OUT/events1-pgb-$r"
	r=$((r + 1))
done

python3 - "$OUT" "$ROUNDS" "$SERVERS" "$RATE" "$PGBENCH_T" <<'PY' || rc=1
import glob, json, os, statistics, sys
out, rounds, servers, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4]
pgbench_t = sys.argv[5]
load = lambda p: json.load(open(os.path.join(out, p)))
tps = [float(open(os.path.join(out, f"tps-{r}")).read() or "nan") for r in range(1, rounds + 1)]


def events(name, r):
    """During the open loop: checkpoints begun, autovacuum/autoanalyze runs, WAL flushes and
    the mean ms one took."""
    a = open(os.path.join(out, f"events0-{name}-{r}")).read().split()
    b = open(os.path.join(out, f"events1-{name}-{r}")).read().split()
    flushes = int(b[2]) - int(a[2])
    mean = (float(b[3]) - float(a[3])) / flushes if flushes else float("nan")
    return int(b[0]) - int(a[0]), int(b[1]) - int(a[1]), flushes, mean


def disk_max(name, r):  # the longest flush of flush_probe.py during the open loop, ms
    return float(open(os.path.join(out, f"disk-{name}-{r}")).read())


def pgbench_open_p99(r):  # ms from the scheduled instant: transaction time + schedule lag
    lat = []
    for f in glob.glob(os.path.join(out, f"pgl-{r}*")):
        for line in open(f):
            c = line.split()
            if len(c) >= 7:
                lat.append((int(c[2]) + int(c[6])) / 1000.0)
    lat.sort()
    return lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else float("nan")


pgb_p99 = [pgbench_open_p99(r) for r in range(1, rounds + 1)]
# The game's writes alone, sent by pgbench: moves and reveals as the closed loop sent them. The
# moves among those statements are what the closed loop could reach with the server, HTTP, the
# load generator, game creation, joins and notifications costing nothing: its ceiling.
mix_moves, mix_reveals = (int(x) for x in open(os.path.join(out, "mix")).read().split())
mix_share = mix_moves / (mix_moves + mix_reveals)
mix_tps = [float(open(os.path.join(out, f"mix-tps-{r}")).read().strip() or "nan")
           for r in range(1, rounds + 1)]
ceiling = [m * mix_share / t for m, t in zip(mix_tps, tps)]
GAME_WRITES = "the game's writes"
print(f"{'round':<6} {'server':<7} {'closed moves/s':>14} {'pgbench TPS':>11} {'ratio':>6} "
      f"{'open p50 ms':>11} {'open p99 ms':>11} {'p99 < 10':>8} {'open moves/s':>12} "
      f"{'errors':>6} {'ckpt':>4} {'autovac':>7} {'WAL flushes':>11} {'flush ms':>8} "
      f"{'disk max ms':>11} "
      f"{'pgbench open p99 ms':>19} {'load':>5}")
med, every = {}, {}
for s in servers:
    ratios, p99s, mps = [], [], []
    for r in range(1, rounds + 1):
        c, o = load(f"closed-{s}-{r}.json"), load(f"open-{s}-{r}.json")
        ratio = c["moves_per_s"] / tps[r - 1]
        ratios.append(ratio); p99s.append(o["p99_ms"]); mps.append(c["moves_per_s"])
        ck, av, fl, fms = events(s, r)
        print(f"{r:<6} {s:<7} {c['moves_per_s']:>14} {tps[r - 1]:>11.1f} {ratio:>6.2f} "
              f"{o['p50_ms']:>11} {o['p99_ms']:>11} {'met' if o['p99_ms'] < 10 else 'MISSED':>8} "
              f"{o['moves_per_s']:>12} {c['errors'] + o['errors']:>6} {ck:>4} {av:>7} "
              f"{fl:>11} {fms:>8.2f} {disk_max(s, r):>11.1f} "
              f"{pgb_p99[r - 1]:>19.2f} {open(os.path.join(out, f'load-{s}-{r}')).read().strip():>5}")
    med[s] = (statistics.median(ratios), statistics.median(p99s), statistics.median(mps))
    every[s] = sum(p < 10 for p in p99s)
for r in range(1, rounds + 1):
    ck, av, fl, fms = events("pgb", r)
    print(f"pgbench -R {rate} round {r}: p99 {pgb_p99[r - 1]:.2f} ms from the scheduled instant, "
          f"{ck} checkpoint(s), {av} autovacuum/autoanalyze run(s), {fl} WAL flushes of "
          f"{fms:.2f} ms on average meanwhile, the disk's longest flush {disk_max('pgb', r):.1f} ms")
for s, (ratio, p99, mps) in med.items():
    ok_p99 = every[s] == rounds
    print(f"{s}: closed loop, median {mps:.0f} moves/s = {ratio:.2f} x pgbench TPS "
          f"(the game's writes sent by pgbench: {statistics.median(ceiling):.2f} x); open loop at "
          f"{rate}/s, p99 < 10 ms "
          f"in {every[s]} of {rounds} rounds (target: every round: {'met' if ok_p99 else 'MISSED'}; "
          f"median p99 {p99} ms)")
def cpu(name, r):  # seconds: PostgreSQL, this shell's reaped children, machine busy, idle
    v = [float(x) / 100 for x in open(os.path.join(out, f"cpu-{name}-{r}")).read().split()]
    d = {"pg": v[4] - v[0], "kids": v[5] - v[1], "busy": v[6] - v[2], "idle": v[7] - v[3]}
    if len(v) > 8:
        d["server"] = v[9] - v[8]
    return d


# PostgreSQL's CPU per move (with its share of reveals) in the closed loop, next to the same for
# the game's writes sent by pgbench in the same round
def pg_per_move(s, r):
    return cpu(s, r)["pg"] / load(f"closed-{s}-{r}.json")["moves_total"]


def pg_per_move_mix(r):
    return cpu("mix", r)["pg"] / (mix_tps[r - 1] * float(pgbench_t) * mix_share)


if "after" in med:
    ratio, p99, mps = med["after"]
    of_ceiling = statistics.median(
        [load(f"closed-after-{r}.json")["moves_per_s"] / tps[r - 1] / ceiling[r - 1]
         for r in range(1, rounds + 1)])
    pg_ratio = statistics.median([pg_per_move("after", r) / pg_per_move_mix(r)
                                  for r in range(1, rounds + 1)])
    print(f"VERDICT | closed-loop ER moves/s ≥ 0.9 × the game's writes sent by pgbench (moves "
          f"among them; median of {rounds}) | {of_ceiling:.2f} × ({ratio:.2f} × pgbench "
          f"simple-update, whose ratio is {statistics.median(ceiling):.2f} ×) | "
          f"{'met' if of_ceiling >= 0.9 else 'NOT met'} |")
    print(f"VERDICT | PostgreSQL CPU per move, closed loop ≤ 1.1 × the game's writes sent by "
          f"pgbench (median of {rounds}) | {pg_ratio:.2f} × | "
          f"{'met' if pg_ratio <= 1.1 else 'NOT met'} |")
    print(f"VERDICT | open-loop move p99 at {rate} moves/s < 10 ms in every round | "
          f"{every['after']} of {rounds} rounds (median {p99} ms) | "
          f"{'met' if every['after'] == rounds else 'NOT met'} |")

print("\nwhere the CPU goes, ms per operation (a move with its share of the game's reveals,"
      " creation and joins; a pgbench transaction), and how busy both CPUs were:")
print(f"{'round':<6} {'what':<22} {'ops/s':>8} {'PostgreSQL':>10} {'server':>7} {'client':>7} "
      f"{'machine':>8} {'busy':>5}")
stmt_ratio = []
for r in range(1, rounds + 1):
    for s in servers:
        c = load(f"closed-{s}-{r}.json")
        u, n = cpu(s, r), c["moves_total"]
        print(f"{r:<6} {f'closed loop ({s})':<22} {c['moves_per_s']:>8.0f} {u['pg'] / n * 1e3:>10.3f} "
              f"{u['server'] / n * 1e3:>7.3f} {c['client_cpu_s'] / n * 1e3:>7.3f} "
              f"{u['busy'] / n * 1e3:>8.3f} {u['busy'] / (u['busy'] + u['idle']):>5.0%}")
    u = cpu("pgb", r)
    n = tps[r - 1] * float(pgbench_t)
    print(f"{r:<6} {'pgbench simple-update':<22} {tps[r - 1]:>8.0f} {u['pg'] / n * 1e3:>10.3f} "
          f"{'':>7} {u['kids'] / n * 1e3:>7.3f} {u['busy'] / n * 1e3:>8.3f} "
          f"{u['busy'] / (u['busy'] + u['idle']):>5.0%}")
    st = open(os.path.join(out, f"stmt-tps-{r}")).read().strip()
    if st:
        stmt_ratio.append(float(st) / tps[r - 1])
        u, n = cpu("stmt", r), float(st) * float(pgbench_t)
        print(f"{r:<6} {'the move statement':<22} {float(st):>8.0f} {u['pg'] / n * 1e3:>10.3f} "
              f"{'':>7} {u['kids'] / n * 1e3:>7.3f} {u['busy'] / n * 1e3:>8.3f} "
              f"{u['busy'] / (u['busy'] + u['idle']):>5.0%}  ({float(st) / tps[r - 1]:.2f} x "
              f"simple-update TPS)")
    u, n = cpu("mix", r), mix_tps[r - 1] * float(pgbench_t)
    print(f"{r:<6} {GAME_WRITES:<22} {mix_tps[r - 1]:>8.0f} {u['pg'] / n * 1e3:>10.3f} "
          f"{'':>7} {u['kids'] / n * 1e3:>7.3f} {u['busy'] / n * 1e3:>8.3f} "
          f"{u['busy'] / (u['busy'] + u['idle']):>5.0%}  (of them moves: {ceiling[r - 1]:.2f} x "
          f"simple-update TPS; PostgreSQL per move with its share of reveals "
          f"{pg_per_move_mix(r) * 1e3:.3f})")
if stmt_ratio:
    print(f"the move's statement alone, sent by pgbench: median {statistics.median(stmt_ratio):.2f} x "
          f"simple-update TPS (the database's own pace for a move, no HTTP and no server)")
print(f"the game's writes alone ({mix_moves} moves to {mix_reveals} reveals, as round 1's closed "
      f"loop sent them), sent by pgbench: moves at median {statistics.median(ceiling):.2f} x "
      f"simple-update TPS, the closed loop's ceiling were the server, HTTP, the load generator, "
      f"game creation, joins and live-update notifications to cost nothing")
if "before" in med:
    print(f"engine / before: closed-loop moves/s x{med['after'][2] / med['before'][2]:.2f}, "
          f"p99 {med['after'][1]} vs {med['before'][1]} ms")
PY
exit $rc
