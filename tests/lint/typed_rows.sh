#!/bin/sh
# Typed rows from the database: statements are run and their results read in src/db/
# only, each into a struct next to its SQL; no other server file may call PQgetvalue,
# PQgetisnull, PQntuples, PQexec* or db_exec. (tests/unit/test_db.c tests src/db/ itself and
# may.) Inside src/db/, columns are read by name (the enum of the statement's columns,
# db/statements.h), never by a bare number, and no line (of SQL) is over 120 characters.
# Prints the offending lines and fails when there are any.
set -u
cd "$(dirname "$0")/../.."
PATTERN='\b(PQgetvalue|PQgetisnull|PQntuples|PQexec[A-Za-z]*|db_exec)[[:space:]]*\('
# a column reader whose column (third argument) is a bare number
ARG='[^,()]*(\([^()]*\)[^,()]*)*'
POSITIONAL="\\b(db_col_[a-z0-9_]+|PQgetvalue|PQgetisnull|PQgetlength|PQfname|PQftype)[[:space:]]*\\($ARG,$ARG,[[:space:]]*[0-9]+[[:space:]]*[,)]"
LONGEST=120

# The patterns must catch what they are meant to catch (a check that cannot fail checks nothing).
for bad in 'x = PQgetvalue(r, 0, 1);' 'if (PQgetisnull(r, i, 2))' 'n = PQntuples (r);' \
	'PQexecParams(pg, q, 0, NULL, NULL, NULL, NULL, 0);' 'r = db_exec(c, "x", 0, p);'; do
	if ! printf '%s\n' "$bad" | grep -Eq "$PATTERN"; then
		echo "typed_rows.sh: the pattern misses: $bad"
		exit 2
	fi
done
if printf '%s\n' 'db_col_count(x); myPQntuples(r);' | grep -Eq "$PATTERN"; then
	echo "typed_rows.sh: the pattern matches too much"
	exit 2
fi
for bad in 'x = db_col_text(r, i, 3);' 'db_col_copy(r, 0, 12, out->id, sizeof out->id);' \
	'return PQgetvalue(res, row_of(x, 1), 0);' 'if (PQgetisnull (r, i,0))' \
	'v = db_col_int64(r, rows[k].at, 7) + 1;'; do
	if ! printf '%s\n' "$bad" | grep -Eq "$POSITIONAL"; then
		echo "typed_rows.sh: the positional pattern misses: $bad"
		exit 2
	fi
done
for good in 'x = db_col_text(r, i, GAME_GET_KIND);' 'db_col_copy(r, 0, X_ID, out->id, 40);' \
	'n = db_nrows(r); db_col_text(r, 1 + i, SEATS_NAME);' 'PQgetvalue(r, 0, col_id)'; do
	if printf '%s\n' "$good" | grep -Eq "$POSITIONAL"; then
		echo "typed_rows.sh: the positional pattern matches a named read: $good"
		exit 2
	fi
done
long=$(printf '"%0120d"' 0)
if ! printf '%s\n' "$long" | awk -v max="$LONGEST" 'length($0) > max { f = 1 } END { exit !f }'; then
	echo "typed_rows.sh: the length check misses a line of $((LONGEST + 2)) characters"
	exit 2
fi

status=0
hits=$(find src -name '*.[ch]' ! -path 'src/db/*' -print0 | xargs -0 grep -nE "$PATTERN")
if [ -n "$hits" ]; then
	echo "results are read outside src/db/ (move the statement into a typed accessor there):"
	echo "$hits"
	status=1
fi
hits=$(find src/db -name '*.[ch]' -print0 | xargs -0 grep -nE "$POSITIONAL")
if [ -n "$hits" ]; then
	echo "columns read by a bare number (name them: the statement's column enum, db/statements.h):"
	echo "$hits"
	status=1
fi
hits=$(find src/db -name '*.[ch]' -print0 | xargs -0 awk -v max="$LONGEST" \
	'length($0) > max { printf "%s:%d: %d characters\n", FILENAME, FNR, length($0) }')
if [ -n "$hits" ]; then
	echo "lines over $LONGEST characters (write the SQL over several lines, one clause a line):"
	echo "$hits"
	status=1
fi
[ "$status" -eq 0 ] || exit "$status"
echo "typed rows: no statement is run or read outside src/db/, columns are read by name there," \
	"no line there is over $LONGEST characters"
