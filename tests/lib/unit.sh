# The unit test runner, sourced (POSIX sh) by tests/run.sh, the Makefile's `unit` target and
# tests/lib/selfcheck.sh, which plants crashing, leaking, racing, hanging and lying binaries
# and checks that each fails here.
#
#   . tests/lib/unit.sh; unit_run BINARY…      or      run_unit[_asan|_tsan] BUILD_DIR
#
# Each binary runs under timeout(1) (UNIT_TIMEOUT seconds, default 600; its process group is
# killed, children included); its output is printed, then "time NAME N s", then one line
# "FAIL NAME: why" when it failed. A binary fails when it exits non-zero (a crash, an abort, a
# sanitizer's exit, a failed CHECK), times out, prints a sanitizer report or a FAIL line
# whatever its exit status, or prints no PASS line at all. unit_run returns 1 when any binary
# failed or when none ran (a glob that matched nothing).

# unit_verdict STATUS OUTPUT_FILE LIMIT: prints why the run failed, nothing when it passed.
unit_verdict() {
	if [ "$1" -eq 124 ]; then
		echo "timed out after $3 s (UNIT_TIMEOUT)"
		return
	fi
	_uv_report=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer' "$2")
	if [ -n "$_uv_report" ]; then
		echo "exited $1 after a sanitizer report: $_uv_report"
	elif [ "$1" -gt 128 ]; then
		echo "killed by signal $(($1 - 128)) (SIG$(kill -l $(($1 - 128)) 2>/dev/null))"
	elif [ "$1" -eq 66 ]; then
		echo "exited 66 (ThreadSanitizer report)"
	elif [ "$1" -eq 23 ]; then
		echo "exited 23 (LeakSanitizer report)"
	elif [ "$1" -ne 0 ]; then
		echo "exited $1"
	elif grep -q '^FAIL ' "$2"; then
		echo "printed FAIL lines but exited 0"
	elif ! grep -q '^PASS ' "$2"; then
		echo "exited 0 without a PASS line"
	fi
}

# unit_one BINARY OUTPUT_FILE: runs one binary; returns 1 when it failed (line printed).
unit_one() {
	_uo_name=$(basename "$1")
	_uo_limit=${UNIT_TIMEOUT:-600}
	_uo_t0=$(date +%s)
	timeout -k 10 "$_uo_limit" "$1" </dev/null >"$2" 2>&1
	_uo_st=$?
	cat "$2"
	echo "time $_uo_name $(($(date +%s) - _uo_t0)) s"
	_uo_why=$(unit_verdict "$_uo_st" "$2" "$_uo_limit")
	if [ -n "$_uo_why" ]; then
		echo "FAIL $_uo_name: $_uo_why"
		return 1
	fi
	return 0
}

# unit_run BINARY…: every executable among the arguments (others, such as an unmatched glob,
# are left out), in order; returns 1 when one failed or none ran.
unit_run() {
	_ur_tmp=$(mktemp -d) || {
		echo "FAIL unit-runner: mktemp"
		return 1
	}
	_ur_rc=0
	_ur_n=0
	for _ur_t in "$@"; do
		[ -f "$_ur_t" ] && [ -x "$_ur_t" ] || continue
		_ur_n=$((_ur_n + 1))
		unit_one "$_ur_t" "$_ur_tmp/out" || _ur_rc=1
	done
	rm -rf "$_ur_tmp"
	if [ "$_ur_n" -eq 0 ]; then
		echo "FAIL unit-runner: no test binary among: $*"
		return 1
	fi
	return $_ur_rc
}

# The unit tests of one build (BUILD_DIR/tests/test_*), each under a time limit generous for its
# sanitizer (UNIT_TIMEOUT overrides it), for tests/run.sh.
run_unit() ( # run_unit BUILD_DIR
	export UNIT_TIMEOUT="${UNIT_TIMEOUT:-600}"
	unit_run "$1"/tests/test_*
)
run_unit_asan() ( # leaks count; UBSan stops at the first error (-fno-sanitize-recover)
	export UNIT_TIMEOUT="${UNIT_TIMEOUT:-1800}" ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1
	unit_run "$1"/tests/test_*
)
run_unit_tsan() ( # every race reported, then exit 66
	export UNIT_TIMEOUT="${UNIT_TIMEOUT:-3600}" \
		TSAN_OPTIONS="halt_on_error=0 exitcode=66 second_deadlock_stack=1"
	unit_run "$1"/tests/test_*
)
