#!/bin/sh
# The runner checks itself (step runner-self-check of tests/run.sh), as the lints do: tiny
# binaries planted in a temporary directory, built with the compilers and sanitizers of the
# suite's three unit passes, must each fail the runner of tests/lib/unit.sh with a line naming
# the binary and why, also when a passing binary runs after them; a passing one must pass; and
# tests/lib/steps.sh must turn a suite's silent non-zero exit, or a suite that passed nothing,
# into a FAIL line. Prints what went wrong and exits 1; "runner ok" when all holds.
#   sh tests/lib/selfcheck.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/steps.sh
. tests/lib/unit.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
wrong=0
says() { # says DESCRIPTION: the runner did not do what it must
	echo "selfcheck: $*"
	wrong=1
}

# plant PASS NAME [CFLAGS…] < C source: builds $TMP/PASS/tests/NAME
plant() {
	dir=$TMP/$1/tests
	out=$dir/$2
	shift 2
	mkdir -p "$dir"
	cat >"$TMP/src.c"
	if ! "$@" -o "$out" "$TMP/src.c" >"$TMP/cc.log" 2>&1; then
		says "cannot build the planted $(basename "$out"):"
		sed 's/^/  | /' "$TMP/cc.log"
		exit 1
	fi
}

plant plain test_zz_ok cc <<'EOF'
#include <stdio.h>
int main(void) { puts("PASS planted ok"); return 0; }
EOF
plant plain test_segv cc <<'EOF'
#include <stdio.h>
int main(void) {
	puts("PASS planted before the crash");
	fflush(stdout);
	volatile int *p = NULL;
	*p = 1;
	return 0;
}
EOF
plant plain test_abort_at_exit cc <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static void boom(void) { abort(); }
int main(void) {
	atexit(boom);
	puts("PASS planted one");
	puts("PASS planted two");
	return 0; /* and aborts on the way out */
}
EOF
plant plain test_hang cc <<'EOF'
#include <stdio.h>
#include <unistd.h>
int main(void) {
	puts("PASS planted before the hang");
	fflush(stdout);
	for (;;)
		pause();
}
EOF
plant plain test_exit1 cc <<'EOF'
#include <stdio.h>
int main(void) { puts("PASS planted"); return 1; }
EOF
plant plain test_fail_exit0 cc <<'EOF'
#include <stdio.h>
int main(void) { puts("FAIL planted"); return 0; }
EOF
plant plain test_silent cc <<'EOF'
int main(void) { return 0; }
EOF
plant asan test_leak clang -g -fsanitize=address,undefined -fno-sanitize-recover=all <<'EOF'
#include <stdio.h>
#include <stdlib.h>
void *volatile kept;
int main(void) {
	kept = malloc(64);
	kept = NULL; /* lost */
	puts("PASS planted before the leak check");
	return 0;
}
EOF
plant asan test_ok clang -g -fsanitize=address,undefined -fno-sanitize-recover=all <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void) { free(malloc(64)); puts("PASS planted ok"); return 0; }
EOF
plant tsan test_race clang -g -O1 -fsanitize=thread -pthread <<'EOF'
#include <pthread.h>
#include <stdio.h>
static int shared;
static void *bump(void *arg) {
	for (int i = 0; i < 1000; i++)
		shared++;
	return arg;
}
int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, bump, NULL);
	pthread_create(&b, NULL, bump, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	puts("PASS planted before the race report");
	return 0;
}
EOF
plant tsan test_ok clang -g -O1 -fsanitize=thread -pthread <<'EOF'
#include <stdio.h>
int main(void) { puts("PASS planted ok"); return 0; }
EOF

# expect_fail WHY COMMAND…: the command returns non-zero and prints "FAIL name: …WHY…"
expect_fail() {
	why=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] || says "$* returned 0"
	printf '%s\n' "$out" | grep -q "^FAIL .*$why" ||
		says "$* printed no FAIL line saying '$why':$(printf '\n%s' "$out" | sed 's/^/  | /')"
}
expect_pass() { # expect_pass COMMAND…: returns 0 and prints no FAIL line
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] || says "$* returned $rc"
	if printf '%s\n' "$out" | grep -q '^FAIL '; then says "$* printed a FAIL line: $out"; fi
}

P=$TMP/plain/tests
export UNIT_TIMEOUT=2
expect_pass unit_run "$P/test_zz_ok"
expect_fail 'test_segv: killed by signal 11 (SIGSEGV)' unit_run "$P/test_segv"
expect_fail 'test_abort_at_exit: killed by signal 6 (SIGABRT)' unit_run "$P/test_abort_at_exit"
expect_fail 'test_hang: timed out after 2 s' unit_run "$P/test_hang"
expect_fail 'test_exit1: exited 1' unit_run "$P/test_exit1"
expect_fail 'test_fail_exit0: printed FAIL lines but exited 0' unit_run "$P/test_fail_exit0"
expect_fail 'test_silent: exited 0 without a PASS line' unit_run "$P/test_silent"
expect_fail 'no test binary' unit_run "$TMP/nothing/tests/test_*"
# all at once through the passes' own functions, a passing binary last: each failure named
out=$(run_unit "$TMP/plain" 2>&1)
rc=$?
[ "$rc" -ne 0 ] || says "run_unit returned 0 with six failing binaries before a passing one"
for t in test_segv test_abort_at_exit test_hang test_exit1 test_fail_exit0 test_silent; do
	printf '%s\n' "$out" | grep -q "^FAIL $t: " || says "run_unit named no failure of $t"
done
expect_fail 'test_leak: exited [0-9]* after a sanitizer report: .*LeakSanitizer' run_unit_asan "$TMP/asan"
expect_fail 'test_race: exited 66 after a sanitizer report: WARNING: ThreadSanitizer' run_unit_tsan "$TMP/tsan"
expect_pass unit_run "$TMP/asan/tests/test_ok" "$TMP/tsan/tests/test_ok"

# the steps: a failing command, a suite that fails without saying so, a suite that ran nothing
LOG=$TMP/log
mkdir -p "$LOG"
expect_fail 'silent: exited 3' suite silent sh -c 'echo PASS one; exit 3'
out=$(suite empty true)
printf '%s\n' "$out" | grep -q '^FAIL empty: exited 0 without a PASS line' ||
	says "a suite that passed nothing did not fail: $out"
out=$(suite crashing unit_run "$P/test_zz_ok" "$P/test_segv" "$P/test_zz_ok")
printf '%s\n' "$out" | grep -q '^FAIL crashing: test_segv: killed by signal 11' ||
	says "a suite around the runner did not fail on a crash: $out"
expect_fail 'failing (exited 1)' step failing false
out=$(suite fine unit_run "$P/test_zz_ok")
printf '%s\n' "$out" | grep -q '^FAIL ' && says "a passing suite failed: $out"

[ "$wrong" -eq 0 ] || exit 1
echo "runner ok"
