#!/bin/sh
# Builds the fuzz targets, then runs each over its corpus tests/fuzz/corpus/<name without fuzz_>/
# and fuzzes for FUZZ_TIME seconds (default 5). New inputs go to build/fuzz/work/<name>/
# (never into the committed corpus); crashes to build/fuzz/artifacts/.
# Prints "PASS fuzz_x" or "FAIL fuzz_x" per target; exits 1 if any failed.
# FUZZ_TARGETS="query router" runs only those targets (names without fuzz_; default: all).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/fuzz}
TIME=${FUZZ_TIME:-5}
if ! sh tests/fuzz/build.sh; then
	echo "FAIL fuzz-build"
	exit 1
fi
fail=0
for t in tests/fuzz/fuzz_*.c; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .c)
	case " ${FUZZ_TARGETS:-${name#fuzz_}} " in *" ${name#fuzz_} "*) ;; *) continue ;; esac
	corpus="tests/fuzz/corpus/${name#fuzz_}"
	work="$OUT/work/$name"
	mkdir -p "$work" "$OUT/artifacts" "$corpus"
	# The committed corpus replays first; then fuzzing for TIME seconds. Leaks count.
	if ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		"$OUT/$name" -max_total_time="$TIME" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$OUT/artifacts/$name-" "$work" "$corpus" \
		>"$OUT/$name.log" 2>&1; then
		echo "PASS $name ($(grep -E '^stat::number_of_executed_units' "$OUT/$name.log" | awk '{print $2}') runs)"
	else
		echo "FAIL $name"
		grep -E 'ERROR|runtime error|SUMMARY|artifact' "$OUT/$name.log" | head -n 10 | sed 's/^/  /'
		fail=1
	fi
done
exit $fail
