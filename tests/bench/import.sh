#!/bin/sh
# League import speed: the largest real BG Stats export of tests/api/data/bgstats-real/ imported
# into a fresh league, five times (tests/bench/import_time.py). Target: under 1 s.
set -eu
cd "$(dirname "$0")/../.."
make -s build/server
mkdir -p build/bench
echo "## Import of a real BG Stats export ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "\$ pg_virtualenv -t python3 tests/bench/import_time.py   (SERVER=${SERVER:-build/server})"
rc=0
pg_virtualenv -t python3 tests/bench/import_time.py >build/bench/import.out 2>&1 || rc=1
grep -v -e '^Creating new PostgreSQL cluster' -e '^Dropping cluster' build/bench/import.out
exit $rc
