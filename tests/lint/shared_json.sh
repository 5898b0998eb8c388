#!/bin/sh
# No json-c object lives in a variable that outlives a request: json-c's reference counts are
# plain integers and some getters write to the object, so such an object read by two request
# threads is corrupted (README, "Threads"). Data loaded at start is kept as C structs, text or
# a frozen string table (src/json/strtab.h) instead; each request builds its own objects.
# Fails on a file-scope or static-local variable of json_object type under src/.
#   sh tests/lint/shared_json.sh [DIR]   (default src)
set -u
cd "$(dirname "$0")/../.."
dir=${1:-src}
# file scope: a declaration at column 0; static locals: "static" anywhere before the type
PATTERN='^(static[[:space:]]+|extern[[:space:]]+)?(const[[:space:]]+)?(struct[[:space:]]+)?json_object[[:space:]]*\*+[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(\[[^]]*\])*[[:space:]]*(=[^;(]*)?;|^[[:space:]]+static[[:space:]]+(struct[[:space:]]+)?json_object[[:space:]]*\*'

# The pattern must catch what it is meant to catch, and not functions or locals.
for bad in 'static json_object *g_labels; /* owned */' 'json_object *g_doc = NULL;' \
	'static json_object *g_shipped[2][MAX_SHIPPED];' 'static struct json_object *g;' \
	'	static json_object *cached;'; do
	if ! printf '%s\n' "$bad" | grep -Eq "$PATTERN"; then
		echo "shared_json.sh: the pattern misses: $bad"
		exit 2
	fi
done
for good in 'static json_object *state_reply(const table_game *g)' '	json_object *o = jx_obj();' \
	'static json_object *member(json_object *o, const char *key);'; do
	if printf '%s\n' "$good" | grep -Eq "$PATTERN"; then
		echo "shared_json.sh: the pattern matches too much: $good"
		exit 2
	fi
done
hits=$(grep -rnE --include='*.c' --include='*.h' "$PATTERN" "$dir")
if [ -n "$hits" ]; then
	echo "json-c objects outliving a request (share text or C structs instead):"
	echo "$hits"
	exit 1
fi
echo "no json-c object outlives a request"
