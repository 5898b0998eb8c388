#!/bin/sh
# The layers of src/, lowest first: a file may include headers of its own folder and of folders
# on lower lines only; folders on one line are side by side and may not include each other.
# This list is the one place the layers are written down (src/README.md explains them).
# Fails on every #include "…" that points up or sideways, and on a folder the list lacks.
# Within a folder, the modules (x.c with x.h) include each other's headers as a tree: a circle of
# includes of any length (a.c includes b.h, b.h includes c.h, c.c includes a.h) fails too, unless
# the folder's README.md allows that circle in a line `include circle allowed: a b c` (the
# modules, any order) and says why.
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

# The modules of folder $1/src/$2 that include each other in a circle (one line, sorted, empty
# when none): the include graph of the folder's own headers, stripped of every module that no
# module of the folder includes or that includes none of them, until nothing more goes.
circle() {
	for file in "$1/src/$2"/*.[ch]; do
		[ -f "$file" ] || continue
		mod=$(basename "$file" | sed 's/\.[ch]$//')
		sed -n "s|^#include \"$2/\([^/\"]*\)\.h\".*|$mod \1|p" "$file"
	done | awk '$1 != $2 { e[$1 " " $2] = 1; n[$1] = 1; n[$2] = 1 }
	END {
		do {
			changed = 0
			for (v in n) {
				out = 0; inn = 0
				for (k in e) {
					split(k, p, " ")
					if (p[1] == v && (p[2] in n)) out = 1
					if (p[2] == v && (p[1] in n)) inn = 1
				}
				if (!out || !inn) { delete n[v]; changed = 1 }
			}
		} while (changed)
		for (v in n) print v
	}' | sort | tr '\n' ' ' | sed 's/ $//'
}

check_circles() { # check_circles ROOT: prints every circle not allowed; status 1 if any
	status=0
	for dir in $(cd "$1/src" && find . -type d | sed 's|^\./||' | grep -v '^\.$' | sort); do
		found=$(circle "$1" "$dir")
		[ -z "$found" ] && continue
		allowed=$(sed -n 's/^.*include circle allowed: *\([a-z0-9_ ]*\).*$/\1/p' \
			"$1/src/$dir/README.md" 2>/dev/null | while read -r list; do
			echo "$list" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//'
			echo
		done)
		if ! echo "$allowed" | grep -qx "$found"; then
			echo "src/$dir: $found include each other's headers in a circle (or allow it in src/$dir/README.md)"
			status=1
		fi
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

# And a circle of three headers in one folder, beside a tree that is fine and a circle its
# folder's README allows.
mkdir -p "$plant/src/json" "$plant/src/http"
printf '#include "base/b.h"\n' >"$plant/src/base/a.h"
printf '#include "base/c.h"\n' >"$plant/src/base/b.c"
printf '#include "base/a.h"\n#include "base/oom.h"\n' >"$plant/src/base/c.h"
printf '#include "base/a.h"\n' >"$plant/src/base/d.c"
printf '#include "json/y.h"\n' >"$plant/src/json/x.h"
printf '#include "json/x.h"\n' >"$plant/src/json/y.c"
printf 'include circle allowed: y x (planted)\n' >"$plant/src/json/README.md"
printf '#include "http/q.h"\n' >"$plant/src/http/p.c"
out=$(check_circles "$plant")
if [ $? -eq 0 ] || [ "$out" != "src/base: a b c include each other's headers in a circle (or allow it in src/base/README.md)" ]; then
	echo "layers.sh: the circle check misses a planted circle, or reports more:"
	echo "$out"
	exit 2
fi

check_tree "$root"
status=$?
check_circles "$root" || status=1
[ $status -eq 0 ] && echo "layers ok: every include points down, no folder's headers in a circle"
exit $status
