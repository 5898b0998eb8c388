#!/bin/sh
# `make bench`: runs every tests/bench/*.sh (except this file) in name order, each printing its
# own table and a VERDICT line per target, then one table of every target. SERVER (default
# build/server) names the binary under test; DATABASE_URL, when set, is the database to use
# (otherwise the development cluster of src/scripts/devdb.sh).
set -u
cd "$(dirname "$0")/../.."
export SERVER="${SERVER:-build/server}"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
	"$(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for b in tests/bench/*.sh; do
	[ "$b" = tests/bench/run.sh ] && continue
	echo
	echo "== $b"
	{ sh "$b" || echo "VERDICT | $b ran to its end | it failed | NOT met |"; } 2>&1 | tee -a "$out"
done
# every script prints one line "VERDICT | target | measured | met or NOT met |" per target
echo
echo "== every target"
echo
echo "| target | measured | verdict |"
echo "|---|---|---|"
sed -n 's/^VERDICT //p' "$out"
grep -q '^VERDICT .*| NOT met |$' "$out" && rc=1
exit $rc
