#!/bin/sh
# Browser tests of the front end: headless Debian chromium driven by playwright-core.
# Runs inside pg_virtualenv (libpq PG* variables point at a throwaway cluster):
#   pg_virtualenv -t sh tests/e2e/run.sh
# Prints one PASS/FAIL line per test; exits non-zero on any failure. Screenshots: build/e2e/*.png.
# The files run in three lanes at once, then Lighthouse alone. E2E_FILES=er,leagues (names of
# tests/e2e/*.mjs) runs only those files, one after another; ONLY=substring only the tests whose
# name has it.
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
OUT=build/e2e
mkdir -p "$OUT"

if [ ! -x /usr/bin/chromium ]; then
	echo "FAIL setup: /usr/bin/chromium is missing (apt-get install -y chromium)"
	exit 1
fi
# npm: NodeSource's nodejs bundles it (and conflicts with Debian's npm package); Debian's nodejs
# does not, so install Debian's npm only when the command is missing.
if ! command -v npm >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y npm >"$OUT/apt-npm.log" 2>&1
	else
		echo "FAIL setup: npm is missing (sudo apt-get install -y npm)"
		exit 1
	fi
fi
# npm ci when a pinned package is missing (playwright-core, @axe-core/playwright, lighthouse)
if [ ! -f tests/e2e/node_modules/playwright-core/package.json ] ||
	[ ! -f tests/e2e/node_modules/@axe-core/playwright/package.json ] ||
	[ ! -f tests/e2e/node_modules/lighthouse/package.json ]; then
	(cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error) >"$OUT/npm.log" 2>&1 || {
		echo "FAIL setup: npm ci in tests/e2e"
		sed 's/^/  | /' "$OUT/npm.log" | tail -n 20
		exit 1
	}
fi
make -s build/server >"$OUT/build.log" 2>&1 || {
	echo "FAIL setup: make build/server"
	sed 's/^/  | /' "$OUT/build.log" | tail -n 20
	exit 1
}

# Three servers on the same database, one per lane of test files: each has its own per-address
# limits (joins, connections), as three tables' phones on three servers would.
SERVERS=""
stop() {
	for pid in $SERVERS; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
}
trap stop EXIT
trap 'stop; exit 1' INT TERM

# start_server N: starts server N on a free port (tests/lib/ports.py: free on [::] as the server
# binds, below the ephemeral range), sets PORT_N once it answers; another port when the drawn
# one was taken in between ("address in use")
start_server() {
	for _ in 1 2 3 4 5; do
		port=$(python3 tests/lib/ports.py 1) || {
			echo "FAIL setup: no free port for server $1"
			exit 1
		}
		PORT=$port STATIC_DIR="$ROOT/static" TEMPLATES_DIR="$ROOT/templates" MIGRATIONS_DIR="$ROOT/migrations" \
			build/server >"$OUT/server$1.log" 2>&1 &
		pid=$!
		SERVERS="$SERVERS $pid"
		end=$(($(date +%s) + 20))
		# ready: it says it listens (a port taken by another process could answer too) and answers
		until grep -q "server: listening on" "$OUT/server$1.log" &&
			curl -fsS "http://127.0.0.1:$port/api/v1/health" >/dev/null 2>&1; do
			if ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid" 2>/dev/null
				grep -q "address in use" "$OUT/server$1.log" && continue 2
				break 2
			fi
			[ "$(date +%s)" -lt "$end" ] || break 2
			sleep 0.1 # the poll's interval: the condition is the health answer
		done
		eval "PORT_$1=$port"
		return 0
	done
	echo "FAIL setup: server $1 did not start"
	sed 's/^/  | /' "$OUT/server$1.log" | tail -n 20
	exit 1
}
start_server 1
start_server 2
start_server 3

# lane FILES N: the files (tests/e2e/all.mjs) against server N, output in lane-N.log
lane() {
	E2E_FILES=$1 BASE_URL="http://127.0.0.1:$(eval echo "\$PORT_$2")" SHOTS="$OUT" \
		node tests/e2e/all.mjs >"$OUT/lane-$2.log" 2>&1
}

if [ -n "${E2E_FILES:-}" ]; then
	lane "$E2E_FILES" 1
	rc=$?
	cat "$OUT/lane-1.log"
	exit $rc
fi
# three lanes at once: a lane waits on its phones and the server more than it computes, so three
# keep two cores busier than two did; the lanes take about as long as each other (all.mjs's "time
# e2e-FILE" lines). Lighthouse measures speed, so it runs alone
lane er,leagues,leagues-files,tabletop-words 1 &
A=$!
lane erscreens,tabletop,boxcheck,coach 2 &
B=$!
lane display,charts,ertable,help,challenges 3 &
C=$!
rc=0
wait $A || rc=1
wait $B || rc=1
wait $C || rc=1
cat "$OUT/lane-1.log" "$OUT/lane-2.log" "$OUT/lane-3.log"
lane lighthouse 1 || rc=1
cat "$OUT/lane-1.log"
exit $rc
