#!/bin/sh
# Coach benchmark (bench_coach.c): the ER coach's whole analysis per 24-turn game at the
# default width (target: every game < 2 s), and the best total found by widths 1, 8, 64, 256 over
# 200 seeded games next to the scripted player, the greedy line and ALICAT's sheet on the same
# draw. COACH_WIDTH (default: the server's default, 64) and COACH_BENCH_GAMES (200) override.
set -eu
cd "$(dirname "$0")/../.."
make -s build/librules.a
mkdir -p build/bench
cc -std=c17 -D_GNU_SOURCE -O2 -Isrc -Itests/unit tests/bench/bench_coach.c build/librules.a \
	-ljson-c -lm -o build/bench/bench_coach
echo "## ER coach ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "\$ COACH_WIDTH=${COACH_WIDTH:-64} COACH_BENCH_GAMES=${COACH_BENCH_GAMES:-200} build/bench/bench_coach"
COACH_WIDTH=${COACH_WIDTH:-64} COACH_BENCH_GAMES=${COACH_BENCH_GAMES:-200} build/bench/bench_coach
