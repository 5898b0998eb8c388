#!/bin/sh
# `make bench`: runs every tests/bench/*.sh (except this file) in name order, each printing its
# own table. SERVER (default build/server) names the binary under test; DATABASE_URL, when set,
# is the database to use (otherwise the development cluster of src/scripts/devdb.sh).
set -u
cd "$(dirname "$0")/../.."
export SERVER="${SERVER:-build/server}"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
	"$(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
rc=0
for b in tests/bench/*.sh; do
	[ "$b" = tests/bench/run.sh ] && continue
	echo
	echo "== $b"
	sh "$b" || rc=1
done
exit $rc
