#!/bin/sh
# Browser tests of the front end: headless Debian chromium driven by playwright-core.
# Runs inside pg_virtualenv (libpq PG* variables point at a throwaway cluster):
#   pg_virtualenv -t sh tests/e2e/run.sh
# Prints one PASS/FAIL line per test; exits non-zero on any failure. Screenshots: build/e2e/*.png.
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

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$PORT STATIC_DIR="$ROOT/static" TEMPLATES_DIR="$ROOT/templates" MIGRATIONS_DIR="$ROOT/migrations" \
	build/server >"$OUT/server.log" 2>&1 &
SERVER=$!
stop() {
	kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
}
trap stop EXIT
trap 'stop; exit 1' INT TERM

i=0
until curl -fsS "http://127.0.0.1:$PORT/api/v1/health" >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 200 ] || ! kill -0 "$SERVER" 2>/dev/null; then
		echo "FAIL setup: the server did not start"
		sed 's/^/  | /' "$OUT/server.log" | tail -n 20
		exit 1
	fi
	sleep 0.1
done

BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/run.mjs
rc=$?
# the league screens
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/leagues.mjs || rc=1
# the ER screens at the table on a 360 × 740 phone
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/ertable.mjs || rc=1
# the Dice Hospital and Clinic screens, on the same server
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/tabletop.mjs || rc=1
# their words: joining by seat, refusals, French, light and dark (tabletop-words.mjs)
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/tabletop-words.mjs || rc=1
# the table display (a 1280 × 720 screen) and the host's "Show on a big screen"
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/display.mjs || rc=1
# checking a scoring profile against the box (tabletop/boxcheck.js)
BASE_URL="http://127.0.0.1:$PORT" SHOTS="$OUT" node tests/e2e/boxcheck.mjs || rc=1
exit $rc
