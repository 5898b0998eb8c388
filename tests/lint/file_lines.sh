#!/bin/sh
# No file of code or prose over 800 lines (engineering.md: a file holds one thing). Checked:
# the tracked files ending in .c .h .js .mjs .py .sh .R .css .html .sql .md; data is not
# (tests/api/data/, tests/fuzz/ corpora, templates' JSON, static/openapi.json, lock files).
# The top README, for people deciding to run the product, stays within README_LIMIT (the
# players' guide is static/help/, how the code works is beside the code).
# Prints each file over its limit with its count and fails when there is one.
set -u
cd "$(dirname "$0")/../.."
LIMIT=800
README_LIMIT=300

# files: the checked files, one a line (git's list; find's in a tree that is not a clone)
files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files
	else
		find . -type f ! -path './.git/*' ! -path '*/node_modules/*' ! -path './build/*' |
			sed 's|^\./||'
	fi | grep -E '\.(c|h|js|mjs|py|sh|R|css|html|sql|md)$' |
		grep -Ev '^(tests/api/data/|tests/fuzz/)'
}

# over FILE…: prints "FILE: N lines" for each file over the limit
over() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		n=$(wc -l <"$f")
		[ "$n" -le "$LIMIT" ] || echo "$f: $n lines (limit $LIMIT)"
	done
}

# The check must catch what it is meant to catch (a check that cannot fail checks nothing).
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
seq 1 $((LIMIT + 1)) >"$tmp/long.c"
seq 1 $LIMIT >"$tmp/short.c"
if [ -z "$(over "$tmp/long.c")" ] || [ -n "$(over "$tmp/short.c")" ]; then
	echo "file_lines.sh: the count is wrong on a file of $((LIMIT + 1)) or $LIMIT lines"
	exit 2
fi
if ! files | grep -q '^src/'; then
	echo "file_lines.sh: no file of src/ among the checked files"
	exit 2
fi

found=$(files | while IFS= read -r f; do over "$f"; done)
n=$(wc -l <README.md)
[ "$n" -le "$README_LIMIT" ] || found=$(printf '%s\n%s' "$found" "README.md: $n lines (limit $README_LIMIT)" | sed '/^$/d')
if [ -n "$found" ]; then
	echo "files over their limit:"
	echo "$found"
	exit 1
fi
echo "every file of code or prose is $LIMIT lines or fewer, README.md $README_LIMIT"
