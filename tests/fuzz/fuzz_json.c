/* libFuzzer target: arbitrary bytes → js_parse (strict JSON), then the field specs over the
 * tree (types, bounds, unknown members, nested pointers). Checks invariants, not just crashes:
 * a parse error names the root, a field error names a JSON pointer, and everything accepted is
 * re-serialisable. Corpus: tests/fuzz/corpus/json/. */
#include "json/spec.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const COLOURS[] = {"red", "yellow", "green", "wild", NULL};

static void check(int ok)
{
	if (!ok)
		abort();
}

static void fields(struct json_object *o)
{
	int64_t turn = 0;
	int seat = 0, colour = -1;
	const char *name = NULL, *note = NULL;
	bool alicat = false, has_note = false;
	double ratio = 0;
	struct json_object *players = NULL, *move = NULL;
	const js_field f[] = {
	    {"turn", JS_INT, JS_F_REQUIRED, 1, 1000, NULL, &turn, NULL},
	    {"seat", JS_INT, JS_F_INT32, 1, 6, NULL, &seat, NULL},
	    {"name", JS_STRING, 0, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &alicat, NULL},
	    {"colour", JS_ENUM, 0, 0, 0, COLOURS, &colour, NULL},
	    {"ratio", JS_NUMBER, 0, 0, 1, NULL, &ratio, NULL},
	    {"players", JS_ARRAY, 0, 1, 6, NULL, &players, NULL},
	    {"move", JS_OBJECT, 0, 0, 0, NULL, &move, NULL},
	    {"note", JS_STRING, JS_F_NULLABLE, 0, 0, NULL, &note, &has_note},
	};
	js_error err;
	memset(&err, 0, sizeof err);
	if (js_fields(o, "", f, sizeof f / sizeof f[0], &err) != 0) {
		check(err.detail[0] != '\0');
		check(err.field[0] == '\0' || err.field[0] == '/');
		return;
	}
	check(turn >= 1 && turn <= 1000);
	check(seat == 0 || (seat >= 1 && seat <= 6));
	check(!name || (strlen(name) >= 1 && strlen(name) <= JS_MAX_NAME));
	check(colour >= -1 && colour <= 3);
	check(ratio >= 0 && ratio <= 1);
	check(!has_note || note != NULL);
	/* players: each an object {"name"} */
	for (size_t i = 0; players && i < json_object_array_length(players); i++) {
		char at[64];
		const char *pname = NULL;
		const js_field pf[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, 64, NULL, &pname, NULL}};
		js_path_index(at, sizeof at, "/players", i);
		if (js_fields(json_object_array_get_idx(players, i), at, pf, 1, &err) != 0) {
			check(strncmp(err.field, "/players/", 9) == 0);
			break;
		}
		check(pname && strlen(pname) <= 64);
	}
	/* move: every member checked as an int with js_value */
	if (move) {
		json_object_object_foreach(move, k, v)
		{
			char at[300];
			int x = 0;
			const js_field one = {k,  JS_INT, JS_F_INT32 | JS_F_NULLABLE, -5, 5, NULL,
			                      &x, NULL};
			js_path(at, sizeof at, "/move", k);
			if (js_value(v, at, &one, &err) == 0)
				check(x >= -5 && x <= 5);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *o = NULL;
	js_error err;
	memset(&err, 0, sizeof err);
	if (js_parse((const char *)data, size, &o, &err) != 0) {
		check(o == NULL);
		/* a syntax error names the whole input; a number out of range names its pointer */
		check((err.field[0] == '\0' || err.field[0] == '/') && err.detail[0] != '\0');
		return 0;
	}
	check(memchr(data, 0, size) == NULL); /* a NUL byte never parses */
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	check(s != NULL);
	fields(o);
	json_object_put(o);
	return 0;
}
