#!/bin/sh
# Health under a slow-header attack: GET /api/v1/health p99 while one address holds
# N sockets that send a request head one byte a second (tests/bench/slowloris.py, reopening
# every socket the server cuts), next to the same measurement without the attack, as a ratio.
# Client: wrk -t1 -c8 -d10s --latency over ::1 (the attacker is 127.0.0.1: another address);
# interleaved rounds (quiet, attack, quiet, attack, …), medians. Server: SERVER (build/server)
# with its defaults (CONN_LIMIT 1024, CONN_PER_ADDR 64, REQUEST_DEADLINE 10 s).
# Then slow heads from many addresses: MANY_SOCKETS (1100) from MANY_ADDRS (20) loopback
# addresses, 55 each (under the per-address cap), and GET /api/v1/health on a fresh connection
# from ::1 every 0.1 s for MANY_DURATION (60) s: p50, p99 and the non-200 count, with a verdict
# against the target "p99 < 50 ms, 0 non-200".
# Database: DATABASE_URL if set, else the development cluster. Work files: build/bench/slow/.
# Env: BENCH_DURATION (10s), SLOW_SOCKETS (1000), ROUNDS (3; 0 skips the single-address
# rounds), MANY_SOCKETS, MANY_ADDRS, MANY_DURATION; the server's own variables (CONN_LIMIT …)
# pass through.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
SERVER=${SERVER:-build/server}
DURATION=${BENCH_DURATION:-10s}
N=${SLOW_SOCKETS:-1000}
ROUNDS=${ROUNDS:-3}
MANY_N=${MANY_SOCKETS:-1100}
MANY_ADDRS=${MANY_ADDRS:-20}
MANY_DURATION=${MANY_DURATION:-60}
DIR=$ROOT/build/bench/slow
for tool in wrk curl python3; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "bench: $tool missing (make deps)" >&2
		exit 1
	}
done
[ -x "$SERVER" ] || {
	echo "bench: $SERVER not built" >&2
	exit 1
}
rm -rf "$DIR"
mkdir -p "$DIR"
# the attacker's sockets; the server raises its own soft limit (to the hard one) at start
ulimit -S -n 4096 2>/dev/null || ulimit -n 4096 2>/dev/null || true
PORT=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1",0)); print(s.getsockname()[1])')

SERVER_PID=
ATTACK_PID=
STOP_DB=
cleanup() {
	[ -n "$ATTACK_PID" ] && kill "$ATTACK_PID" 2>/dev/null && wait "$ATTACK_PID" 2>/dev/null
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
	[ -n "$STOP_DB" ] && sh src/scripts/devdb.sh stop 2>/dev/null
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${DATABASE_URL:-}" ]; then
	sh src/scripts/devdb.sh status >/dev/null 2>&1 || STOP_DB=1
	sh src/scripts/devdb.sh start
	DATABASE_URL=$(sh src/scripts/devdb.sh url)
fi
DATABASE_URL=$DATABASE_URL PORT=$PORT STATIC_DIR=$ROOT/static TEMPLATES_DIR=$ROOT/templates \
	MIGRATIONS_DIR=$ROOT/migrations "$SERVER" >"$DIR/server.log" 2>&1 &
SERVER_PID=$!
URL="http://[::1]:$PORT/api/v1/health"
i=0
until curl -fsS -o /dev/null -g "$URL" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 150 ] && {
		echo "bench: the server did not answer; $DIR/server.log" >&2
		exit 1
	}
	sleep 0.2
done

# wrk's p99 in ms and the count of non-2xx answers, from its --latency report
measure() { # NAME
	wrk -t1 -c8 -d"$DURATION" --latency "$URL" >"$DIR/$1.txt" 2>&1
	awk '/^ +99%/ { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
	                  else if (v ~ /ms$/) sub(/ms$/, "", v);
	                  else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; p99 = v }
	     /Requests\/sec/ { rps = $2 }
	     /Non-2xx/ { bad = $NF }
	     END { printf "%.2f %d %d\n", p99, rps, bad + 0 }' "$DIR/$1.txt"
}

QUIET=
ATTACK=
echo "command: wrk -t1 -c8 -d$DURATION --latency $URL; attacker: python3 tests/bench/slowloris.py PORT $N (127.0.0.1)"
echo "round  quiet p99 ms  req/s  non-2xx | attack p99 ms  req/s  non-2xx"
r=1
while [ $r -le "$ROUNDS" ]; do
	set -- $(measure "quiet$r")
	q_p99=$1 q_rps=$2 q_bad=$3
	python3 tests/bench/slowloris.py "$PORT" "$N" >"$DIR/attack$r.log" 2>&1 &
	ATTACK_PID=$!
	sleep 3 # the attacker opens its sockets and the server sheds the excess
	set -- $(measure "attack$r")
	a_p99=$1 a_rps=$2 a_bad=$3
	kill "$ATTACK_PID" && wait "$ATTACK_PID" 2>/dev/null || true
	ATTACK_PID=
	printf "%5d  %12s  %5s  %7s | %13s  %5s  %7s\n" "$r" "$q_p99" "$q_rps" "$q_bad" "$a_p99" "$a_rps" "$a_bad"
	QUIET="$QUIET $q_p99"
	ATTACK="$ATTACK $a_p99"
	tail -n 1 "$DIR/attack$r.log"
	r=$((r + 1))
done
median() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
if [ "$ROUNDS" -gt 0 ]; then
	mq=$(median $QUIET)
	ma=$(median $ATTACK)
	echo "health p99: quiet $mq ms, under attack $ma ms; attack/quiet: $(awk -v a="$ma" -v q="$mq" 'BEGIN { printf "%.2f", a / q }')"
	awk -v a="$ma" 'BEGIN { printf "VERDICT | GET /health p99 under 1,000 slow heads from one address < 50 ms | %s ms | %s |\n", a, (a < 50 ? "met" : "NOT met") }'
fi

echo
grep "http: up to" "$DIR/server.log" | sed 's/^/server: /'
echo "many addresses: python3 tests/bench/slowloris.py PORT $MANY_N $MANY_ADDRS; probe: python3 tests/bench/slowloris.py probe PORT $MANY_DURATION (fresh connection from ::1 every 0.1 s)"
python3 tests/bench/slowloris.py "$PORT" "$MANY_N" "$MANY_ADDRS" >"$DIR/many.log" 2>&1 &
ATTACK_PID=$!
sleep 3 # the attacker opens its sockets
set -- $(python3 tests/bench/slowloris.py probe "$PORT" "$MANY_DURATION")
tries=$1 p50=$2 p99=$3 bad=$4
kill "$ATTACK_PID" && wait "$ATTACK_PID" 2>/dev/null || true
ATTACK_PID=
tail -n 1 "$DIR/many.log"
echo "health on a fresh connection under $MANY_N slow heads from $MANY_ADDRS addresses: $tries tries, p50 $p50 ms, p99 $p99 ms, $bad non-200"
awk -v p="$p99" -v b="$bad" 'BEGIN { v = (p < 50 && b == 0) ? "PASS" : "FAIL";
	printf "verdict: %s (target: p99 < 50 ms, 0 non-200; measured p99 %s ms, %d non-200)\n", v, p, b
	printf "VERDICT | GET /health p99 on a fresh connection under 1,100 slow heads from 20 addresses < 50 ms, 0 non-200 | %s ms, %d non-200 | %s |\n", p, b, (v == "PASS" ? "met" : "NOT met") }'
grep -c "refusing connections" "$DIR/server.log" | sed 's/^/server log lines "refusing connections": /'
grep -c "closing those that waited longest" "$DIR/server.log" | sed 's/^/server log lines "closing those that waited longest": /'
