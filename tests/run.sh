#!/bin/sh
# The whole suite: format, gcc and clang builds, unit tests, API tests against a throwaway
# PostgreSQL (pg_virtualenv), the same under AddressSanitizer + UBSan, the concurrent part under
# ThreadSanitizer, fuzz corpora, browser.
# Every suite prints "PASS name" / "FAIL name" lines; the last line here is "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
LOG=build/test-logs
rm -rf "$LOG"; mkdir -p "$LOG"
JOBS=$(nproc 2>/dev/null || echo 2)

# step, suite, report (tests/lib/steps.sh); run_unit, run_unit_asan, run_unit_tsan: the unit
# tests of a build, each binary's exit status counted (tests/lib/unit.sh)
. tests/lib/steps.sh
. tests/lib/unit.sh

# Two throwaway clusters starting at once would both take the first free port from 5432:
# each pg_virtualenv gets its own, drawn below the ephemeral range (tests/lib/ports.py).
free_ports() { # free_ports N: N distinct free TCP ports
	python3 tests/lib/ports.py "$1"
}
pgv() { # pgv COMMAND…: COMMAND inside pg_virtualenv, its cluster on a port of its own
	pgv_port=$(free_ports 1) || return 1
	pg_virtualenv -t -c "-p $pgv_port" "$@"
}

# The API tests that run the server under ThreadSanitizer: those where requests, streams,
# servers and the engine's writers run at once (a report in the server's output fails a test).
TSAN_API="test_stress,test_table,test_write_groups,test_scaleout,test_er_live,test_jobs,test_stuck,test_league_scopes.test_phones"

{
	step format-check make -s format-check
	# static/openapi.json linted by Redocly CLI (tests/lint/)
	step lint-openapi sh tests/lint/openapi.sh
	# typed rows: no statement run or read outside src/db/, columns read by name and no line over
	# 120 characters there (tests/lint/typed_rows.sh)
	step lint-typed-rows sh tests/lint/typed_rows.sh
	# no json-c object outlives a request (tests/lint/shared_json.sh)
	step lint-shared-json sh tests/lint/shared_json.sh
	# every include points down the layers of src/ (tests/lint/layers.sh holds the list)
	step lint-layers sh tests/lint/layers.sh
	# no file names or development words in the screens' strings (tests/lint/ui_words.sh)
	step lint-ui-words sh tests/lint/ui_words.sh
	# no modules of the front end importing each other in a circle (tests/lint/js_circles.py)
	step lint-js-circles python3 tests/lint/js_circles.py
	# no file of code or prose over 800 lines (tests/lint/file_lines.sh)
	step lint-file-lines sh tests/lint/file_lines.sh
	# the unit runner and the steps fail on planted crashing, leaking, hanging and lying
	# binaries and suites (tests/lib/selfcheck.sh)
	step runner-self-check sh tests/lib/selfcheck.sh
	step build-gcc make -s -j"$JOBS" CC=gcc all
	step build-clang make -s -j"$JOBS" CC=clang BUILD=build/clang all
	suite unit run_unit build
	step build-asan make -s -j"$JOBS" asan
	suite unit-asan run_unit_asan build/asan
	# The API suite with the plain and the AddressSanitizer server at once, each on its own
	# cluster: most of its time is spent waiting (timeouts, slow clients, restarts), so the two
	# passes share the cores well.
	t0=$(date +%s)
	ports=$(free_ports 2) || ports=""
	set -- $ports
	if [ $# -ne 2 ]; then
		echo "FAIL api: no two free ports: $ports"
		set -- none none # each pg_virtualenv then fails: both suites report it too
	fi
	pg_virtualenv -t -c "-p $1" python3 tests/api/run.py build/server >"$LOG/api.log" 2>&1 &
	api_pid=$!
	env ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		pg_virtualenv -t -c "-p $2" python3 tests/api/run.py build/asan/server >"$LOG/api-asan.log" 2>&1 &
	asan_pid=$!
	wait $api_pid; report api $? "$t0"
	wait $asan_pid; report api-asan $? "$t0"
	step build-tsan make -s -j"$JOBS" tsan
	suite unit-tsan run_unit_tsan build/tsan
	suite api-tsan pgv env TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1" \
		python3 tests/api/run.py build/tsan/server "$TSAN_API"
	suite fuzz sh tests/fuzz/run.sh
	suite e2e pgv sh tests/e2e/run.sh
} | tee "$LOG/summary.log"

pass=$(grep -c '^PASS ' "$LOG/summary.log")
fail=$(grep -c '^FAIL ' "$LOG/summary.log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
