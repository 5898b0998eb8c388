#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c into build/fuzz/<name> with libFuzzer + ASan + UBSan,
# linking the application code (all of src/ except main.c, compiled once into an archive so
# each target pulls only what it uses).
#   sh tests/fuzz/build.sh            (CC=clang by default; OUT=build/fuzz)
set -eu
cd "$(dirname "$0")/../.."
CC=${FUZZ_CC:-clang}
OUT=${OUT:-build/fuzz}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=c17 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror -Isrc -I/usr/include/postgresql $SAN"
LDLIBS=$(make -s print-ldlibs) # the one list of libraries, in the Makefile
# leagues: libxml2 for BGG imports
CFLAGS="$CFLAGS -I/usr/include/libxml2"
JOBS=$(nproc 2>/dev/null || echo 2)

mkdir -p "$OUT/obj"
# Application objects: instrumented for coverage, without libFuzzer's main.
SRCS=$(find src -name '*.c' ! -path src/main.c | sort)
for f in $SRCS; do
	o="$OUT/obj/$(echo "${f#src/}" | sed "s|/|_|g; s|\.c$||").o"
	if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find src -name '*.h' -newer "$o" | head -n 1)" ]; then
		echo "$CC -c $f"
		rm -f "$o" # a failed compile must not leave a stale object behind
		# shellcheck disable=SC2086
		$CC $CFLAGS -fsanitize=fuzzer-no-link -c "$f" -o "$o" &
		while [ "$(jobs -p | wc -l)" -ge "$JOBS" ]; do sleep 0.1; done
	fi
done
wait
# Objects of sources that no longer exist must not linger in the archive.
rm -f "$OUT/libapp-fuzz.a"
ar rcs "$OUT/libapp-fuzz.a" $(for f in $SRCS; do echo "$OUT/obj/$(echo "${f#src/}" | sed "s|/|_|g; s|\.c$||").o"; done)

status=0
for t in tests/fuzz/fuzz_*.c; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .c)
	echo "$CC -o $OUT/$name"
	# shellcheck disable=SC2086
	if ! $CC $CFLAGS -fsanitize=fuzzer -o "$OUT/$name" "$t" "$OUT/libapp-fuzz.a" $LDLIBS; then
		echo "build failed: $name" >&2
		status=1
	fi
done
exit $status
