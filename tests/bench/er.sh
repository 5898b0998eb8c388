#!/bin/sh
# Rules benchmark: worst-case scoring per specialist, simulated solo
# games per second, and POST /api/v1/er/score next to GET /api/v1/health with wrk in the same
# run (target: ≥ 50 % of health's requests/s).
set -eu
cd "$(dirname "$0")/../.."
make -s build/server build/librules.a
mkdir -p build/bench
cc -std=c17 -D_GNU_SOURCE -O2 -Isrc -Itests/unit tests/bench/bench_er.c build/librules.a \
	-ljson-c -lm -o build/bench/bench_er
echo "## ER rules ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo
echo '$ build/bench/bench_er'
build/bench/bench_er
echo
pg_virtualenv -t sh tests/bench/er_http.sub
