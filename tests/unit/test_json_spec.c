/* Strict JSON parsing and field specs (src/json/spec.c). */
#include "json/jx.h"
#include "json/spec.h"
#include "test.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

static int parse(const char *s, js_error *err)
{
	struct json_object *o = NULL;
	int rc = js_parse(s, strlen(s), &o, err);
	json_object_put(o);
	return rc;
}

static void t_parse_ok(void)
{
	static const char *const ok[] = {
	    "{}",
	    "[]",
	    "0",
	    "-0",
	    "1.5e3",
	    "true",
	    "null",
	    "\"\"",
	    " {\"a\": [1, 2, {\"b\": null}]} \n",
	    "\"\\u00e9\\ud83d\\ude00\"",
	    "\"caf\xc3\xa9\"",
	    "{\"a\":1}\r\n\t ",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		js_error err = {0};
		int rc = parse(ok[i], &err);
		if (rc != 0)
			printf("  rejected %s: %s\n", ok[i], err.detail);
		CHECK_EQ_INT(rc, 0);
	}
}

static void t_parse_bad(void)
{
	static const char *const bad[] = {
	    "",
	    "   ",
	    "{",
	    "{\"a\":1,}",
	    "[1,]",
	    "{'a':1}",
	    "NaN",
	    "Infinity",
	    "01",
	    "1.",
	    ".5",
	    "+1",
	    "1e",
	    "tru",
	    "nul",
	    "\"abc",
	    "[1]]",
	    "{\"a\" 1}",
	    "/*c*/1",
	    "// c\n1",
	    "\"a\tb\"",
	    "\"\\x41\"",
	    "\"\\u12\"",
	    "\"\\ud800\"",
	    "\"\\udc00\"",
	    "\"\\u0000\"",
	    "{\"a\":1,\"a\":2}",
	    "[{\"x\":1,\"x\":1}]",
	    "{\"a\":1} x",
	    "1 2",
	    "{} {}",
	    "[1] ,",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		js_error err = {{0}, {0}};
		int rc = parse(bad[i], &err);
		if (rc == 0)
			printf("  accepted %s\n", bad[i]);
		CHECK_EQ_INT(rc, -1);
		CHECK_STR(err.field, "");
		CHECK(err.detail[0] != '\0');
	}
}

static void t_parse_trailing_detail(void)
{
	js_error err;
	CHECK_EQ_INT(parse("{\"a\":1} x", &err), -1);
	CHECK(strstr(err.detail, "after the JSON value") != NULL);
	CHECK(strstr(err.detail, "byte 8") != NULL);
	CHECK_EQ_INT(parse("", &err), -1);
	CHECK(strstr(err.detail, "empty") != NULL);
}

static void t_parse_nul_and_utf8(void)
{
	js_error err;
	struct json_object *o = NULL;
	const char nul[] = "{\"a\":1}\0";
	CHECK_EQ_INT(js_parse(nul, sizeof nul - 1, &o, &err), -1); /* trailing NUL byte */
	CHECK(o == NULL);
	const char mid[] = "[\"a\0b\"]";
	CHECK_EQ_INT(js_parse(mid, sizeof mid - 1, &o, &err), -1);
	static const char *const bad_utf8[] = {
	    "\"\xff\"",             /* never valid */
	    "\"\xc3\"",             /* truncated */
	    "\"\xc0\xaf\"",         /* overlong '/' */
	    "\"\xe0\x80\xaf\"",     /* overlong */
	    "\"\xed\xa0\x80\"",     /* encoded surrogate */
	    "\"\xf4\x90\x80\x80\"", /* > U+10FFFF */
	    "\"\x80\"",             /* lone continuation */
	};
	for (size_t i = 0; i < sizeof bad_utf8 / sizeof bad_utf8[0]; i++) {
		CHECK_EQ_INT(parse(bad_utf8[i], &err), -1);
		CHECK(strstr(err.detail, "UTF-8") != NULL);
	}
	CHECK_EQ_INT(parse("\"\xf0\x9f\x8e\xb2\"", &err), 0); /* 🎲 */
	/* a length that stops before the end: only those bytes count */
	CHECK_EQ_INT(js_parse("[1] garbage", 3, &o, &err), 0);
	json_object_put(o);
	CHECK_EQ_INT(js_parse(NULL, 0, &o, &err), -1);
}

static void nest(char *buf, int depth)
{
	int n = 0;
	for (int i = 0; i < depth; i++)
		buf[n++] = '[';
	buf[n++] = '1';
	for (int i = 0; i < depth; i++)
		buf[n++] = ']';
	buf[n] = '\0';
}

static void t_parse_depth(void)
{
	char buf[128];
	js_error err;
	nest(buf, JS_MAX_DEPTH);
	CHECK_EQ_INT(parse(buf, &err), 0);
	nest(buf, JS_MAX_DEPTH + 1);
	CHECK_EQ_INT(parse(buf, &err), -1);
	CHECK(strstr(err.detail, "nested deeper than 16") != NULL);
	nest(buf, 60);
	CHECK_EQ_INT(parse(buf, &err), -1);
	/* objects count too */
	char obj[256] = "";
	for (int i = 0; i < JS_MAX_DEPTH + 1; i++)
		strcat(obj, "{\"a\":");
	strcat(obj, "1");
	for (int i = 0; i < JS_MAX_DEPTH + 1; i++)
		strcat(obj, "}");
	CHECK_EQ_INT(parse(obj, &err), -1);
}

static struct json_object *J(const char *s)
{
	struct json_object *o = NULL;
	js_error err;
	if (js_parse(s, strlen(s), &o, &err) != 0)
		printf("  fixture does not parse: %s (%s)\n", s, err.detail);
	return o;
}

static const char *const COLOURS[] = {"red", "yellow", "green", "wild", NULL};

typedef struct {
	int64_t turn;
	int seat;
	const char *name;
	bool alicat, has_note;
	int colour;
	double ratio;
	struct json_object *players, *move;
	const char *note;
} sample;

static int sample_fields(struct json_object *o, sample *s, js_error *err)
{
	const js_field f[] = {
	    {"turn", JS_INT, JS_F_REQUIRED, 1, 1000, NULL, &s->turn, NULL},
	    {"seat", JS_INT, JS_F_INT32, 1, 6, NULL, &s->seat, NULL},
	    {"name", JS_STRING, 0, 1, JS_MAX_NAME, NULL, &s->name, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &s->alicat, NULL},
	    {"colour", JS_ENUM, 0, 0, 0, COLOURS, &s->colour, NULL},
	    {"ratio", JS_NUMBER, 0, 0, 1, NULL, &s->ratio, NULL},
	    {"players", JS_ARRAY, 0, 1, 6, NULL, &s->players, NULL},
	    {"move", JS_OBJECT, 0, 0, 0, NULL, &s->move, NULL},
	    {"note", JS_STRING, JS_F_NULLABLE, 0, 0, NULL, &s->note, &s->has_note},
	};
	return js_fields(o, "", f, sizeof f / sizeof f[0], err);
}

/* Runs sample_fields on text; returns rc and fills err. */
static int run_sample(const char *text, sample *s, js_error *err)
{
	struct json_object *o = J(text);
	memset(s, 0, sizeof *s);
	s->colour = -1;
	int rc = sample_fields(o, s, err);
	json_object_put(o);
	return rc;
}

static void t_fields_ok(void)
{
	sample s;
	js_error err;
	struct json_object *o =
	    J("{\"turn\":3,\"seat\":2,\"name\":\"Ann\",\"alicat\":true,\"colour\":\"green\","
	      "\"ratio\":0.5,\"players\":[{}],\"move\":{},\"note\":\"hi\"}");
	memset(&s, 0, sizeof s);
	int rc = sample_fields(o, &s, &err);
	if (rc)
		printf("  %s %s\n", err.field, err.detail);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(s.turn, 3);
	CHECK_EQ_INT(s.seat, 2);
	CHECK_STR(s.name, "Ann");
	CHECK(s.alicat);
	CHECK_EQ_INT(s.colour, 2);
	CHECK(s.ratio == 0.5);
	CHECK(json_object_is_type(s.players, json_type_array));
	CHECK(json_object_is_type(s.move, json_type_object));
	CHECK_STR(s.note, "hi");
	CHECK(s.has_note);
	json_object_put(o);

	/* optional members absent; nullable null */
	CHECK_EQ_INT(run_sample("{\"turn\":1,\"note\":null}", &s, &err), 0);
	CHECK(!s.has_note);
	CHECK(s.note == NULL);
	CHECK_EQ_INT(s.colour, -1);
	/* a double that is an integer is still a number; an int is a number */
	CHECK_EQ_INT(run_sample("{\"turn\":1,\"ratio\":1}", &s, &err), 0);
	CHECK(s.ratio == 1.0);
}

typedef struct {
	const char *text, *field, *detail;
} bad_case;

static void t_fields_bad(void)
{
	static const bad_case cases[] = {
	    {"[]", "", "must be an object"},
	    {"{}", "/turn", "is required"},
	    {"{\"turn\":null}", "/turn", "must not be null"},
	    {"{\"turn\":\"3\"}", "/turn", "must be an integer from 1 to 1000"},
	    {"{\"turn\":3.0}", "/turn", "must be an integer from 1 to 1000"},
	    {"{\"turn\":true}", "/turn", "must be an integer"},
	    {"{\"turn\":0}", "/turn", "must be an integer from 1 to 1000"},
	    {"{\"turn\":1001}", "/turn", "must be an integer from 1 to 1000"},
	    {"{\"turn\":99999999999999999999}", "/turn", "must be an integer"},
	    {"{\"turn\":-99999999999999999999}", "/turn", "must be an integer"},
	    {"{\"turn\":1,\"seat\":7}", "/seat", "must be an integer from 1 to 6"},
	    {"{\"turn\":1,\"name\":\"\"}", "/name", "must be a string of 1 to 64 bytes"},
	    {"{\"turn\":1,\"name\":5}", "/name", "must be a string of 1 to 64 bytes"},
	    {"{\"turn\":1,\"name\":\"a\\u0000b\"}", "", "malformed JSON"},
	    {"{\"turn\":1,\"alicat\":1}", "/alicat", "must be true or false"},
	    {"{\"turn\":1,\"alicat\":\"true\"}", "/alicat", "must be true or false"},
	    {"{\"turn\":1,\"colour\":\"blue\"}", "/colour",
	     "must be one of \"red\", \"yellow\", \"green\", \"wild\""},
	    {"{\"turn\":1,\"colour\":1}", "/colour", "must be one of"},
	    {"{\"turn\":1,\"ratio\":2}", "/ratio", "must be a number from 0 to 1"},
	    {"{\"turn\":1,\"ratio\":\"0.5\"}", "/ratio", "must be a number"},
	    {"{\"turn\":1,\"ratio\":1e999}", "/ratio", "must be a finite number"},
	    {"{\"turn\":1,\"players\":[]}", "/players", "must be an array of 1 to 6 items"},
	    {"{\"turn\":1,\"players\":[1,2,3,4,5,6,7]}", "/players", "must be an array of 1 to 6"},
	    {"{\"turn\":1,\"players\":{}}", "/players", "must be an array"},
	    {"{\"turn\":1,\"move\":[]}", "/move", "must be an object"},
	    {"{\"turn\":1,\"bogus\":1}", "/bogus", "is not an allowed field"},
	    {"{\"turn\":1,\"a/b~c\":1}", "/a~1b~0c", "is not an allowed field"},
	    {"{\"turn\":1,\"Turn\":1}", "/Turn", "is not an allowed field"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sample s;
		js_error err = {{0}, {0}};
		struct json_object *o = NULL;
		js_error perr;
		int rc;
		if (js_parse(cases[i].text, strlen(cases[i].text), &o, &perr) != 0) {
			rc = -1;
			err = perr;
		} else {
			memset(&s, 0, sizeof s);
			rc = sample_fields(o, &s, &err);
		}
		json_object_put(o);
		if (rc == 0 || strcmp(err.field, cases[i].field) != 0 ||
		    !strstr(err.detail, cases[i].detail))
			printf("  case %s: rc %d field \"%s\" detail \"%s\"\n", cases[i].text, rc,
			       err.field, err.detail);
		CHECK_EQ_INT(rc, -1);
		CHECK_STR(err.field, cases[i].field);
		CHECK(strstr(err.detail, cases[i].detail) != NULL);
	}
}

/* Nested specs: the pointer of the offending input goes down through arrays and objects. */
static void t_nested_pointers(void)
{
	struct json_object *o = J("{\"players\":[{\"name\":\"Ann\"},{\"name\":\"\"}],\"move\":{"
	                          "\"steps\":[{\"ward\":9}]}}");
	struct json_object *players = NULL, *move = NULL;
	js_error err;
	const js_field top[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, 6, NULL, &players, NULL},
	    {"move", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &move, NULL},
	};
	CHECK_EQ_INT(js_fields(o, "", top, 2, &err), 0);
	const char *name = NULL;
	const js_field pf[] = {{"name", JS_STRING, JS_F_REQUIRED, 1, 64, NULL, &name, NULL}};
	char at[256];
	int bad = -1;
	for (size_t i = 0; i < json_object_array_length(players); i++) {
		js_path_index(at, sizeof at, "/players", i);
		if (js_fields(json_object_array_get_idx(players, i), at, pf, 1, &err) != 0) {
			bad = (int)i;
			break;
		}
	}
	CHECK_EQ_INT(bad, 1);
	CHECK_STR(err.field, "/players/1/name");
	CHECK_STR(err.detail, "must be a string of 1 to 64 bytes");

	struct json_object *steps = NULL;
	const js_field mf[] = {{"steps", JS_ARRAY, JS_F_REQUIRED, 1, 4, NULL, &steps, NULL}};
	CHECK_EQ_INT(js_fields(move, "/move", mf, 1, &err), 0);
	int ward = 0;
	const js_field ward_spec = {"ward", JS_INT, JS_F_REQUIRED | JS_F_INT32, 1, 7, NULL,
	                            &ward,  NULL};
	struct json_object *step0 = json_object_array_get_idx(steps, 0), *w = NULL;
	json_object_object_get_ex(step0, "ward", &w);
	js_path(at, sizeof at, "/move/steps/0", "ward");
	CHECK_EQ_INT(js_value(w, at, &ward_spec, &err), -1);
	CHECK_STR(err.field, "/move/steps/0/ward");
	CHECK_STR(err.detail, "must be an integer from 1 to 7");
	json_object_put(o);
}

static void t_js_path(void)
{
	char buf[16];
	CHECK_EQ_INT(js_path(buf, sizeof buf, "", "a"), 0);
	CHECK_STR(buf, "/a");
	CHECK_EQ_INT(js_path(buf, sizeof buf, "/x", "m~n/o"), 0);
	CHECK_STR(buf, "/x/m~0n~1o");
	CHECK_EQ_INT(js_path(buf, sizeof buf, "", ""), 0);
	CHECK_STR(buf, "/");
	CHECK_EQ_INT(js_path(buf, sizeof buf, "/abcdefgh", "ijklmnopq"), -1);
	CHECK(strlen(buf) < sizeof buf);
	CHECK_EQ_INT(js_path_index(buf, sizeof buf, "/p", 12), 0);
	CHECK_STR(buf, "/p/12");
}

/* Unbounded ints stay within ±2^53; JS_F_INT32 narrows to int. */
static void t_int_ranges(void)
{
	int64_t v = 0;
	int i32 = 0;
	js_error err;
	const js_field any = {"n", JS_INT, 0, 0, 0, NULL, &v, NULL};
	const js_field small = {"n", JS_INT, JS_F_INT32, 0, 0, NULL, &i32, NULL};
	struct json_object *o = json_object_new_int64(9007199254740992LL);
	CHECK_EQ_INT(js_value(o, "/n", &any, &err), 0);
	CHECK_EQ_INT(v, 9007199254740992LL);
	json_object_put(o);
	o = json_object_new_int64(9007199254740993LL);
	CHECK_EQ_INT(js_value(o, "/n", &any, &err), -1);
	json_object_put(o);
	o = json_object_new_int64(2147483648LL);
	CHECK_EQ_INT(js_value(o, "/n", &small, &err), -1);
	CHECK_STR(err.detail, "must be an integer from -2147483648 to 2147483647");
	json_object_put(o);
	o = json_object_new_int(-7);
	CHECK_EQ_INT(js_value(o, "/n", &small, &err), 0);
	CHECK_EQ_INT(i32, -7);
	json_object_put(o);
	/* js_fields on a non-object, NULL (JSON null) root */
	CHECK_EQ_INT(js_fields(NULL, "/x", &any, 1, &err), -1);
	CHECK_STR(err.field, "/x");
}

/* 1e400 is well-formed JSON but beyond a double: json-c would make it infinite. */
static void t_parse_non_finite(void)
{
	static const struct {
		const char *text, *field;
	} bad[] = {
	    {"1e400", ""},
	    {"-1e400", ""},
	    {"[1, 1e400]", "/1"},
	    {"{\"a\": {\"b/c\": [0, -2E+999]}}", "/a/b~1c/1"},
	    {"{\"score\": 123456789e305}", "/score"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		js_error err = {0};
		CHECK_EQ_INT(parse(bad[i].text, &err), -1);
		CHECK_STR(err.field, bad[i].field);
		CHECK(strstr(err.detail, "finite") != NULL);
	}
	static const char *const ok[] = {"1e308", "-1.7976931348623157e308", "1e-400",
	                                 "[0.5e-320]"};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		js_error err = {0};
		CHECK_EQ_INT(parse(ok[i], &err), 0);
	}
}

/* jx_double never makes a number JSON cannot carry: a non-finite one is null. */
static void t_jx_double_finite_only(void)
{
	CHECK(jx_double(INFINITY) == NULL);
	CHECK(jx_double(-INFINITY) == NULL);
	CHECK(jx_double(NAN) == NULL);
	json_object *a = jx_arr();
	jx_push(a, jx_double(1.5));
	jx_push(a, jx_double(HUGE_VAL));
	jx_push(a, jx_double(0.0 / 0.0));
	CHECK_STR(jx_text(a), "[1.5,null,null]");
	json_object_put(a);
}

int main(void)
{
	TEST("json_spec: strict parse accepts valid JSON", t_parse_ok);
	TEST("json_spec: strict parse rejects malformed JSON", t_parse_bad);
	TEST("json_spec: trailing bytes and empty body", t_parse_trailing_detail);
	TEST("json_spec: NUL bytes and invalid UTF-8", t_parse_nul_and_utf8);
	TEST("json_spec: depth limit 16", t_parse_depth);
	TEST("json_spec: fields fill outs", t_fields_ok);
	TEST("json_spec: field types, bounds, enum, unknown, required", t_fields_bad);
	TEST("json_spec: nested JSON pointers", t_nested_pointers);
	TEST("json_spec: js_path escaping", t_js_path);
	TEST("json_spec: integer ranges", t_int_ranges);
	TEST("json_spec: numbers beyond a double are refused with their pointer",
	     t_parse_non_finite);
	TEST("json_spec: jx_double writes null for a non-finite number", t_jx_double_finite_only);
	TEST_MAIN_END();
}
