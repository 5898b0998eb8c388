#!/bin/sh
# Slow routes on the job pool: GET /api/v1/health p99 while 20 log-ins (Argon2id), 3 imports of
# 2 MB and 10 PDFs of 100 pages run, against its quiet p99 in the same run
# (tests/bench/jobs_load.py: from when each request could first be sent, and from when it was
# due), and the server's own time for the same requests from its access log. Target: p99 under
# load < 2x quiet (served).
set -eu
cd "$(dirname "$0")/../.."
make -s build/server
mkdir -p build/bench
echo "## Slow routes on the job pool ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "\$ pg_virtualenv -t python3 tests/bench/jobs_load.py   (SERVER=${SERVER:-build/server})"
rc=0
pg_virtualenv -t python3 tests/bench/jobs_load.py >build/bench/jobs.out 2>&1 || rc=1
grep -v -e '^Creating new PostgreSQL cluster' -e '^Dropping cluster' build/bench/jobs.out
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
