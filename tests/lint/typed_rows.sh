#!/bin/sh
# Typed rows from the database: statements are run and their results read in src/db/
# only, each into a struct next to its SQL; no other server file may call PQgetvalue,
# PQgetisnull, PQntuples, PQexec* or db_exec. (tests/unit/test_db.c tests src/db/ itself and
# may.) Prints the offending lines and fails when there are any.
set -u
cd "$(dirname "$0")/../.."
PATTERN='\b(PQgetvalue|PQgetisnull|PQntuples|PQexec[A-Za-z]*|db_exec)[[:space:]]*\('

# The pattern must catch what it is meant to catch (a check that cannot fail checks nothing).
for bad in 'x = PQgetvalue(r, 0, 1);' 'if (PQgetisnull(r, i, 2))' 'n = PQntuples (r);' \
	'PQexecParams(pg, q, 0, NULL, NULL, NULL, NULL, 0);' 'r = db_exec(c, "x", 0, p);'; do
	if ! printf '%s\n' "$bad" | grep -Eq "$PATTERN"; then
		echo "typed_rows.sh: the pattern misses: $bad"
		exit 2
	fi
done
if printf '%s\n' 'db_exec_count(x); myPQntuples(r);' | grep -Eq "$PATTERN"; then
	echo "typed_rows.sh: the pattern matches too much"
	exit 2
fi

hits=$(find src -name '*.[ch]' ! -path 'src/db/*' -print0 | xargs -0 grep -nE "$PATTERN")
if [ -n "$hits" ]; then
	echo "results are read outside src/db/ (move the statement into a typed accessor there):"
	echo "$hits"
	exit 1
fi
echo "typed rows: no statement is run or read outside src/db/"
