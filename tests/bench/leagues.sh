#!/bin/sh
# Leagues benchmark: a league of 20 players and 10,000 plays (imported as a BG Stats
# file), then GET standings and GET a player's history under wrk next to GET /api/v1/health in
# the same run (target: p99 < 50 ms), and the time to recompute every rating of the league
# (an edit of its first play: target < 1 s).
set -eu
cd "$(dirname "$0")/../.."
make -s build/server
mkdir -p build/bench
pg_virtualenv -t sh tests/bench/leagues.sub
