#!/bin/sh
# The layers of src/, lowest first: a file may include headers of its own folder and of folders
# on lower lines only; folders on one line are side by side and may not include each other.
# This list is the one place the layers are written down (src/README.md explains them).
# Fails on every #include "…" that points up or sideways, and on a folder the list lacks.
#   sh tests/lint/layers.sh [ROOT]   (default: the repository; ROOT/src is checked)
set -u
cd "$(dirname "$0")/../.."
root=${1:-.}
LAYERS='
base
json
rules db
http
pdf
engine
accounts
games/rounds
games/er games/dh games/clinic
leagues
api
.
'
# The level of a folder ("." is src/ itself: main.c), or nothing.
level() {
	echo "$LAYERS" | awk -v f="$1" 'NF { n++; for (i = 1; i <= NF; i++) if ($i == f) print n }'
}

check_tree() { # check_tree ROOT: prints every violation under ROOT/src; status 1 if any
	status=0
	for file in $(cd "$1/src" && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
		dir=$(dirname "$file")
		from=$(level "$dir")
		if [ -z "$from" ]; then
			echo "$file: its folder $dir is in no layer (tests/lint/layers.sh)"
			status=1
			continue
		fi
		for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1/src/$file"); do
			idir=$(dirname "$inc")
			[ "$idir" = "$dir" ] && continue
			to=$(level "$idir")
			if [ -z "$to" ]; then
				echo "$file: includes $inc, whose folder is in no layer"
				status=1
			elif [ "$to" -ge "$from" ]; then
				[ "$to" -gt "$from" ] && how=up || how=sideways
				echo "$file: includes $inc ($how: $dir may include only lower layers)"
				status=1
			fi
		done
	done
	return $status
}

# The check must catch what it is meant to catch: a planted arrow up and one sideways.
plant=$(mktemp -d)
trap 'rm -rf "$plant"' EXIT
mkdir -p "$plant/src/engine" "$plant/src/games/dh" "$plant/src/base"
printf '#include "games/dh/kind.h"\n' >"$plant/src/engine/up.c"
printf '#include "games/er/kind.h"\n#include "base/log.h"\n' >"$plant/src/games/dh/side.c"
printf '#include "base/oom.h"\n' >"$plant/src/base/ok.c"
out=$(check_tree "$plant")
if [ $? -eq 0 ] || [ "$(echo "$out" | grep -c 'up:\|sideways:')" -ne 2 ]; then
	echo "layers.sh: the check misses a planted violation:"
	echo "$out"
	exit 2
fi

check_tree "$root"
status=$?
[ $status -eq 0 ] && echo "layers ok: every include points down"
exit $status
