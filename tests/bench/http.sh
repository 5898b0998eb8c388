#!/bin/sh
# HTTP throughput and latency of our server against nginx, same machine, same client:
#   GET /api/v1/health  (our server; one prepared SELECT 1 per request)
#   GET /app.css        (a static file, our server, sent as it is: wrk sends no Accept-Encoding)
#   GET /app.css        (the same file from nginx: the baseline; target: ours ≥ 95 % of it)
#   the same two with Accept-Encoding: gzip (ours: the compressed body it keeps in memory;
#   nginx: gzip_static, a copy compressed once by this script with gzip -6; target ≥ 95 %)
# Both sides send the same headers with the file (tests/bench/nginx.conf), keep-alive.
# Besides requests/s: the CPU time the serving processes spent per request (ours: the server
# alone, not PostgreSQL; nginx: master and workers), which other work on the machine disturbs
# far less.
# Client: wrk -t2 -c32 -d10s --latency (fixed concurrency; BENCH_DURATION overrides -d).
# Server: SERVER (default build/server) with its default THREADS (4) unless THREADS is set;
# nginx: worker_processes auto (one per CPU), config tests/bench/nginx.conf.
# Database: DATABASE_URL if set, else the development cluster (started, and stopped again if it
# was not running). Work files: build/bench/.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
SERVER=${SERVER:-build/server}
DURATION=${BENCH_DURATION:-10s}
WRK="wrk -t2 -c32 -d$DURATION --latency"
DIR=$ROOT/build/bench
STATIC=$ROOT/static
FILE=/app.css

for tool in wrk nginx curl python3 pgrep; do
	command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v "$tool" >/dev/null 2>&1 || {
		echo "bench: $tool missing (make deps)" >&2
		exit 1
	}
done
[ -x "$SERVER" ] || {
	echo "bench: $SERVER not built" >&2
	exit 1
}
[ -f "$STATIC$FILE" ] || {
	echo "bench: $STATIC$FILE missing" >&2
	exit 1
}

rm -rf "$DIR"
mkdir -p "$DIR/tmp" "$DIR/www"
# nginx's root: the file and its precompressed copy (gzip_static)
cp "$STATIC$FILE" "$DIR/www$FILE"
gzip -6 -n -c "$STATIC$FILE" >"$DIR/www$FILE.gz"
free_port() { python3 tests/lib/ports.py 1; }
PORT=$(free_port)
NGINX_PORT=$(free_port)

SERVER_PID=
NGINX_PID=
STOP_DB=
cleanup() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
	[ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
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

DATABASE_URL=$DATABASE_URL PORT=$PORT STATIC_DIR=$STATIC TEMPLATES_DIR=$ROOT/templates \
	MIGRATIONS_DIR=$ROOT/migrations "$SERVER" >"$DIR/server.log" 2>&1 &
SERVER_PID=$!

sed -e "s|@DIR@|$DIR|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@WWW@|$DIR/www|g" \
	tests/bench/nginx.conf >"$DIR/nginx.conf"
nginx -p "$DIR" -c "$DIR/nginx.conf" -g 'daemon off;' >"$DIR/nginx.out" 2>&1 &
NGINX_PID=$!

wait_for() { # URL: up to 30 s for a 200
	i=0
	until curl -fsS -o /dev/null "$1" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 150 ]; then
			echo "bench: $1 did not answer; logs in $DIR" >&2
			tail -n 20 "$DIR/server.log" "$DIR/error.log" "$DIR/nginx.out" >&2 2>/dev/null
			exit 1
		fi
		sleep 0.2
	done
}
wait_for "http://127.0.0.1:$PORT/api/v1/health"
wait_for "http://127.0.0.1:$NGINX_PORT$FILE"
curl -fsS "http://127.0.0.1:$PORT$FILE" -o "$DIR/ours.css"
cmp -s "$STATIC$FILE" "$DIR/ours.css" || {
	echo "bench: our server serves a different $FILE" >&2
	exit 1
}
GZ="Accept-Encoding: gzip"
for side in "ours $PORT" "nginx $NGINX_PORT"; do
	set -- $side
	curl -fsS -H "$GZ" -D "$DIR/$1.gz.head" "http://127.0.0.1:$2$FILE" -o "$DIR/$1.css.gz"
	gzip -dc "$DIR/$1.css.gz" | cmp -s "$STATIC$FILE" - || {
		echo "bench: $1 does not send $FILE gzip-compressed" >&2
		exit 1
	}
done
echo "compressed $FILE: ours $(wc -c <"$DIR/ours.css.gz") bytes, nginx $(wc -c <"$DIR/nginx.css.gz")" \
	"bytes (plain $(wc -c <"$STATIC$FILE")); headers: ours $(wc -c <"$DIR/ours.gz.head")," \
	"nginx $(wc -c <"$DIR/nginx.gz.head") bytes"

# CPU time (user + system, in clock ticks) the processes $PIDS have used so far
HZ=$(getconf CLK_TCK)
cpu_ticks() {
	for p in $PIDS; do cat "/proc/$p/stat"; done | awk '{ t += $14 + $15 } END { print t + 0 }'
}

# run NAME URL [wrk options]: wrk's output in $DIR/NAME.txt; prints "req/s p50 p99 cpu" (latencies
# in ms; cpu: µs of CPU time the serving processes $PIDS spent per request, a figure that the
# load of other work on the machine disturbs far less than requests/s)
run() {
	name=$1 url=$2
	shift 2
	t0=$(cpu_ticks)
	$WRK "$@" "$url" >"$DIR/$name.txt" 2>&1
	t1=$(cpu_ticks)
	awk -v ticks=$((t1 - t0)) -v hz="$HZ" '
	function ms(v) {
		if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0
		if (v ~ /m$/) return v * 60000; if (v ~ /s$/) return v * 1000; return v
	}
	$1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
	$1 == "Requests/sec:" { rps = $2 } $2 == "requests" && $3 == "in" { n = $1 }
	/Non-2xx|Socket errors/ { bad = bad $0 " " }
	END {
		printf "%.0f %.2f %.2f %.1f\n", rps, p50, p99, (n > 0 ? ticks * 1e6 / hz / n : 0)
		if (bad != "") print bad > "/dev/stderr"
	}
	' "$DIR/$name.txt"
}

NGINX_PIDS="$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')" # master and workers
RUNS=${BENCH_RUNS:-3}
echo "command: $WRK URL   x$RUNS rounds, medians (server THREADS=${THREADS:-4}, nginx worker_processes auto)"
# rounds interleave the measurements so that drift of a noisy machine hits them alike; each
# round's load average (1 min) is recorded with it
: >"$DIR/results"
i=0
while [ $i -lt "$RUNS" ]; do
	i=$((i + 1))
	echo "load $(cut -d' ' -f1 /proc/loadavg)" >>"$DIR/results"
	PIDS=$SERVER_PID
	echo "health $(run health$i "http://127.0.0.1:$PORT/api/v1/health")" >>"$DIR/results"
	echo "ours $(run ours$i "http://127.0.0.1:$PORT$FILE")" >>"$DIR/results"
	PIDS=$NGINX_PIDS
	echo "nginx $(run nginx$i "http://127.0.0.1:$NGINX_PORT$FILE")" >>"$DIR/results"
	PIDS=$SERVER_PID
	echo "ours_gz $(run ours_gz$i "http://127.0.0.1:$PORT$FILE" -H "$GZ")" >>"$DIR/results"
	PIDS=$NGINX_PIDS
	echo "nginx_gz $(run nginx_gz$i "http://127.0.0.1:$NGINX_PORT$FILE" -H "$GZ")" >>"$DIR/results"
done
# median of column $2 over the rows named $1
median() {
	awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$DIR/results" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
row() {
	printf '%-28s %12s %10s %10s %12s\n' "$1" "$(median "$2" 2)" "$(median "$2" 3)" \
		"$(median "$2" 4)" "$(median "$2" 5)"
}
printf '%-28s %12s %10s %10s %12s\n' "request" "requests/s" "p50 ms" "p99 ms" "cpu µs/req"
row "ours  GET /api/v1/health" health
row "ours  GET $FILE" ours
row "nginx GET $FILE" nginx
row "ours  GET $FILE gzip" ours_gz
row "nginx GET $FILE gzip" nginx_gz
awk '{ v[$1] = v[$1] " " $2 } END {
	print "each round (load average at its start; req/s):"
	n = split("load health ours nginx ours_gz nginx_gz", k, " ")
	for (i = 1; i <= n; i++) print "  " k[i] ":" v[k[i]]
}' "$DIR/results"
# ours/nginx of each round, then of the medians, against the target
verdict() { # LABEL OURS NGINX
	awk -v l="$1" -v a="$2" -v b="$3" '
	$1 == a { o[++no] = $2 } $1 == b { n[++nn] = $2 }
	END {
		s = ""
		for (i = 1; i <= no && i <= nn; i++) s = s sprintf(" %.0f%%", n[i] > 0 ? 100 * o[i] / n[i] : 0)
		printf "%-34s rounds:%s\n", l " ours/nginx", s
	}' "$DIR/results"
	awk -v l="$1" -v o="$(median "$2" 2)" -v n="$(median "$3" 2)" 'BEGIN {
		r = n > 0 ? 100 * o / n : 0
		printf "verdict: %s, ours/nginx of the medians: %.0f %% (target >= 95 %%: %s)\n", l, r,
			(r >= 95 ? "met" : "NOT met")
		printf "VERDICT | %s requests/s, ours ≥ 95 %% of nginx'"'"'s | %.0f %% | %s |\n", l, r,
			(r >= 95 ? "met" : "NOT met")
	}'
	awk -v l="$1" -v o="$(median "$2" 5)" -v n="$(median "$3" 5)" 'BEGIN {
		printf "%-34s %.0f %% of nginx'"'"'s CPU time per request\n", l " ours:", (n > 0 ? 100 * o / n : 0)
	}'
}
verdict "static file" ours nginx
verdict "static file gzip" ours_gz nginx_gz
