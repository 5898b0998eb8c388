# The steps of tests/run.sh, sourced (POSIX sh) by it and by tests/lib/selfcheck.sh.
# LOG names the directory of the steps' logs. Every step's and suite's exit status counts.

step() { # step NAME COMMAND… : one PASS/FAIL line for a command, its output in the log
	name=$1
	shift
	t0=$(date +%s)
	"$@" >"$LOG/$name.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "PASS $name"
	else
		echo "FAIL $name (exited $rc)"
		tail -n 30 "$LOG/$name.log" | sed 's/^/  | /'
	fi
	echo "time $name $(($(date +%s) - t0)) s"
	return "$rc"
}

suite() { # suite NAME COMMAND… : a command that prints its own PASS/FAIL lines
	name=$1
	shift
	t0=$(date +%s)
	"$@" >"$LOG/$name.log" 2>&1
	report "$name" $? "$t0"
}

# report NAME EXIT_STATUS START_TIME: the time, PASS/FAIL lines and details of a suite, each
# line named "PASS|FAIL NAME: …". A suite that exits non-zero without a FAIL line, or passes
# without a single PASS line, fails. Returns 1 when the suite failed.
report() {
	echo "time $1 $(($(date +%s) - $3)) s"
	grep -E '^(PASS|FAIL) ' "$LOG/$1.log" | sed -E "s#^(PASS|FAIL) #\1 $1: #"
	grep -A12 -E '^FAIL ' "$LOG/$1.log" | grep -E '^  ' | head -n 40
	if [ "$2" -ne 0 ] && ! grep -q '^FAIL ' "$LOG/$1.log"; then
		echo "FAIL $1: exited $2"
		tail -n 30 "$LOG/$1.log" | sed 's/^/  | /'
	elif [ "$2" -eq 0 ] && ! grep -q '^PASS ' "$LOG/$1.log"; then
		echo "FAIL $1: exited 0 without a PASS line"
		tail -n 30 "$LOG/$1.log" | sed 's/^/  | /'
	fi
	[ "$2" -eq 0 ] && ! grep -q '^FAIL ' "$LOG/$1.log"
}
