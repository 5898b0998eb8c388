#!/bin/sh
# Heap allocations per request, by size, of this build and of BEFORE_REF's (default be9feef,
# the last build that allocated a request context per request): the server runs with
# tests/bench/malloc_count.c preloaded, which writes its counters on SIGUSR1; the requests
# between two readings are the access-log lines between them.
#
#   sh tests/bench/allocs.sh          (make bench runs every tests/bench/*.sh)
#
# Each build serves, one after the other on one keep-alive connection: 2,000 GET /api/v1/health
# (a prepared statement per request), 2,000 GET /app.css (a static file kept in memory), and a
# closed loop of ER games (tests/bench/games_load*.c, 4 tables for 3 s: creation, joins, reveals,
# moves). The server runs one connection thread (THREADS=1), so the warm-up requests have
# opened its database connection and kept its spare request context before the first reading;
# counts then do not depend on the machine's load. Targets: no allocation of 1 KiB or more for
# a static file; for health, none but the two libpq makes for every result that holds a row
# (a 2 KiB data block and a 1 KiB array of row pointers: its one query, health_ping). A move's
# are listed: its reply body (handed to libmicrohttpd, which frees it) and libpq's results.
# Starts its own throwaway PostgreSQL (pg_virtualenv). Environment: BEFORE_REF (empty: this
# build only).
set -eu
cd "$(dirname "$0")/../.."
if [ -z "${ALLOCS_BENCH_INNER:-}" ]; then
	ALLOCS_BENCH_INNER=1 exec pg_virtualenv -t sh "$0" "$@"
fi
BEFORE_REF=${BEFORE_REF-be9feef}
# The counts are of the server's own calls: both builds linked with glibc's malloc, which the
# counter forwards to (the release build's jemalloc would be handed back glibc's chunks to free).
BENCH_BUILD=build/bench/libc BENCH_MAKE_VARS=MALLOC_LIB=
. tests/bench/before.sub
${CC:-cc} -std=c17 -O2 -Wall -Wextra -Werror -shared -fPIC -o build/bench/malloc_count.so \
	tests/bench/malloc_count.c

# reading NAME: asks the server for its counters and waits until the line is in the log
reading() {
	before=$(grep -c '^malloc_count:' "$OUT/server-$1.log" || true)
	kill -USR1 "$SERVER_PID"
	i=0
	while [ "$(grep -c '^malloc_count:' "$OUT/server-$1.log" || true)" -le "$before" ]; do
		i=$((i + 1)); [ $i -lt 100 ] || { echo "allocs: no reading from $1" >&2; exit 1; }; sleep 0.05
	done
}

keepalive() { # keepalive PORT PATH N: N GETs of PATH on one connection, each answered 200
	python3 - "$@" <<'PY'
import http.client, sys
port, path, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
c = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(n):
    c.request("GET", path)
    r = c.getresponse()
    r.read()
    assert r.status == 200, (path, r.status)
PY
}

for b in $SERVERS; do
	psql -q -X -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS allocs_$b" \
		-c "CREATE DATABASE allocs_$b"
	PORT=$(python3 tests/lib/ports.py 1)
	THREADS=1 CONN_PER_ADDR=4096 PORT=$PORT DATABASE_URL="dbname=allocs_$b" STATIC_DIR=static \
		TEMPLATES_DIR=templates MIGRATIONS_DIR=$(mig_of "$b") \
		LD_PRELOAD=$(pwd)/build/bench/malloc_count.so $(bin_of "$b") >"$OUT/server-$b.log" 2>&1 &
	SERVER_PID=$!
	i=0
	until curl -fs "http://127.0.0.1:$PORT/api/v1/health" >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -lt 400 ] || { cat "$OUT/server-$b.log"; exit 1; }; sleep 0.05
	done
	keepalive "$PORT" /api/v1/health 200 # warm: connections, caches, first allocations
	keepalive "$PORT" /app.css 200
	reading "$b"
	keepalive "$PORT" /api/v1/health 2000
	reading "$b"
	keepalive "$PORT" /app.css 2000
	reading "$b"
	TEMPLATES_DIR=templates/er build/bench/games_load --tables 4 --rate 0 --duration 3 \
		--warmup 0 --seed 2 --port "$PORT" >/dev/null
	reading "$b"
	kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
	SERVER_PID=
done

python3 - "$OUT" "$SERVERS" <<'PY'
import os, re, sys
out, builds = sys.argv[1], sys.argv[2].split()
kinds = ["GET /api/v1/health", "GET /app.css", "ER games (closed loop)"]
table, ok = {}, True
for b in builds:
    readings, requests = [], []
    n = 0
    for line in open(os.path.join(out, f"server-{b}.log")):
        if line.startswith("access "):
            n += 1
        m = re.match(r"malloc_count: all (\d+) ge1k (\d+) ge4k (\d+) ge16k (\d+)", line)
        if m:
            readings.append([int(x) for x in m.groups()])
            requests.append(n)
    for k, kind in enumerate(kinds):
        a, z = readings[k], readings[k + 1]
        reqs = requests[k + 1] - requests[k]
        table[(b, kind)] = [(z[i] - a[i]) / reqs for i in range(4)] + [reqs]
print("allocations per request (all / ≥ 1 KiB / ≥ 4 KiB / ≥ 16 KiB), requests counted")
print(f"{'build':8} {'requests':24} {'all':>7} {'≥1 KiB':>7} {'≥4 KiB':>7} {'≥16 KiB':>7} {'n':>6}")
for b in builds:
    for kind in kinds:
        t = table[(b, kind)]
        print(f"{b:8} {kind:24} {t[0]:7.2f} {t[1]:7.2f} {t[2]:7.2f} {t[3]:7.2f} {t[4]:6d}")
for kind, most, what in ((kinds[0], 2, "2 (libpq's result of health_ping)"), (kinds[1], 0, "0")):
    big = table[("after", kind)][1]
    met = big < most + 0.01
    ok = ok and met
    print(f"VERDICT | allocations of 1 KiB or more per {kind} ≤ {what} | {big:.2f} | {'met' if met else 'NOT met'} |")
sys.exit(0 if ok else 1)
PY
