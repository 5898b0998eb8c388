#!/bin/sh
# Lints static/openapi.json with Redocly CLI (tests/lint/package.json pins it; npm ci installs it
# into tests/lint/node_modules on first use, as tests/e2e does for playwright-core). Rules:
# tests/lint/redocly.yaml. Exits non-zero on any error or warning.
#   sh tests/lint/openapi.sh
set -u
cd "$(dirname "$0")/../.."
OUT=build/lint
mkdir -p "$OUT"

# npm: NodeSource's nodejs bundles it (and conflicts with Debian's npm package); Debian's nodejs
# does not, so install Debian's npm only when the command is missing.
if ! command -v npm >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y npm >"$OUT/apt-npm.log" 2>&1
	else
		echo "setup: npm is missing (sudo apt-get install -y npm)"
		exit 1
	fi
fi
if [ ! -f tests/lint/node_modules/@redocly/cli/package.json ]; then
	(cd tests/lint && npm ci --no-audit --no-fund --loglevel=error) >"$OUT/npm.log" 2>&1 || {
		echo "setup: npm ci in tests/lint failed (Redocly CLI wants Node.js >= 20.19: $(node --version))"
		tail -n 20 "$OUT/npm.log"
		exit 1
	}
fi
# No telemetry, no update check: the suite reaches nothing but the npm registry, once.
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
	node tests/lint/node_modules/@redocly/cli/bin/cli.js lint --config tests/lint/redocly.yaml \
	--max-problems 200 --format stylish static/openapi.json >"$OUT/redocly.log" 2>&1
rc=$?
cat "$OUT/redocly.log"
[ $rc -eq 0 ] || exit 1
# Redocly exits 0 on warnings: they fail here too (fix them, or switch the rule off with a reason)
if grep -qE '^ +[0-9]+:[0-9]+ +warning ' "$OUT/redocly.log"; then
	echo "warnings: fix them or configure the rule in tests/lint/redocly.yaml"
	exit 1
fi
