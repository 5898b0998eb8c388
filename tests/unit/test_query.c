/* Parameters as text (http/query.c): what PostgreSQL takes as UTF-8 text (pg_utf8_islegal:
 * RFC 3629's table of well-formed sequences) and the 400 a parameter that is not gets. */
#include "http/http.h"
#include "test.h"

#include <json-c/json.h>
#include <string.h>

typedef struct {
	const char *s;
	size_t len;
	const char *want; /* NULL: text */
} text_case;

#define T(lit, w)                                                                                  \
	{                                                                                          \
		lit, sizeof lit - 1, w                                                             \
	}

/* RFC 3629 §4: the well-formed sequences, at their edges, and what falls just outside. */
static const text_case TEXT_CASES[] = {
    T("", NULL),
    T("Azul", NULL),
    T("\x7f", NULL),
    T("\xc2\x80", NULL),         /* U+0080, the first two-byte character */
    T("\xdf\xbf", NULL),         /* U+07FF */
    T("\xe0\xa0\x80", NULL),     /* U+0800 */
    T("\xed\x9f\xbf", NULL),     /* U+D7FF, just below the surrogates */
    T("\xee\x80\x80", NULL),     /* U+E000, just above */
    T("\xef\xbf\xbf", NULL),     /* U+FFFF */
    T("\xf0\x90\x80\x80", NULL), /* U+10000 */
    T("\xf4\x8f\xbf\xbf", NULL), /* U+10FFFF, the last */
    T("\xe2\x82\xac 5", NULL),   /* € */
    T("a\0b", "nul-byte"),
    T("\0", "nul-byte"),
    T("\x80", "not-utf8"),             /* a continuation byte alone */
    T("\xc0\xaf", "not-utf8"),         /* an overlong '/' */
    T("\xc1\xbf", "not-utf8"),         /* overlong */
    T("\xe0\x9f\xbf", "not-utf8"),     /* overlong three-byte */
    T("\xed\xa0\x80", "not-utf8"),     /* U+D800, a surrogate */
    T("\xed\xbf\xbf", "not-utf8"),     /* U+DFFF */
    T("\xf0\x8f\xbf\xbf", "not-utf8"), /* overlong four-byte */
    T("\xf4\x90\x80\x80", "not-utf8"), /* U+110000 */
    T("\xf5\x80\x80\x80", "not-utf8"),
    T("\xff\xfe", "not-utf8"),
    T("abc\xe2\x82", "not-utf8"), /* cut short */
    T("\xe2\x28\xa1", "not-utf8"),
};

static void text(void)
{
	for (size_t i = 0; i < sizeof TEXT_CASES / sizeof TEXT_CASES[0]; i++) {
		const text_case *c = &TEXT_CASES[i];
		const char *got = http_text_problem(c->s, c->len);
		if (c->want == NULL)
			CHECK(got == NULL);
		else
			CHECK(got != NULL && strcmp(got, c->want) == 0);
		CHECK(http_text_ok(c->s, c->len) == (c->want == NULL));
	}
}

/* The problem in resp: its rule and field, checked, and resp cleared. */
static void check_problem(http_resp *resp, const char *rule, const char *field)
{
	CHECK_EQ_INT(resp->status, 400);
	json_object *o = json_tokener_parse(http_resp_body(resp));
	CHECK(o != NULL);
	json_object *r = NULL, *f = NULL;
	CHECK(json_object_object_get_ex(o, "rule", &r));
	CHECK_STR(json_object_get_string(r), rule);
	CHECK(json_object_object_get_ex(o, "field", &f));
	CHECK_STR(json_object_get_string(f), field);
	json_object_put(o);
	http_resp_clear(resp);
}

static void refusals(void)
{
	http_resp resp = {0};
	CHECK(!http_query_arg_refused("game", 4, "Azul", 4, &resp));
	CHECK(!http_query_arg_refused("game", 4, NULL, 0, &resp)); /* "?game" */
	CHECK(http_query_arg_refused("game", 4, "a\0b", 3, &resp));
	check_problem(&resp, "nul-byte", "/game");
	CHECK(http_query_arg_refused("season", 6, "\xff", 1, &resp));
	check_problem(&resp, "not-utf8", "/season");
	/* a name that is not text is shown with '?' for its bad bytes: the reply stays UTF-8 */
	CHECK(http_query_arg_refused("g\xffme", 4, "1", 1, &resp));
	check_problem(&resp, "not-utf8", "/g?me");
	CHECK(http_query_arg_refused("\xc3\xa9t\xc3\xa9\0", 6, "1", 1, &resp));
	check_problem(&resp, "nul-byte", "/??t???"); /* every byte outside printable ASCII */
	CHECK(http_query_arg_refused("\xc3\xa9t\xc3\xa9", 5, "\xff", 1, &resp));
	check_problem(&resp, "not-utf8", "/\xc3\xa9t\xc3\xa9"); /* a name that is text stays */

	const char *params[] = {"a0d1b808", "\xed\xa0\x80"};
	CHECK(!http_params_refused(NULL, "/api/v1/leagues/{id}/plays/{play}", params, 1, &resp));
	CHECK(http_params_refused(NULL, "/api/v1/leagues/{id}/plays/{play}", params, 2, &resp));
	check_problem(&resp, "not-utf8", "/play");
}

int main(void)
{
	TEST("query: text as PostgreSQL takes it (RFC 3629 §4)", text);
	TEST("query: a parameter that is not text is a 400 naming it", refusals);
	TEST_MAIN_END();
}
