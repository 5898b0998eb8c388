/* Accept-Encoding (http_accepts_gzip, src/http/static.c): RFC 9110 §12.5.3 content codings with
 * their weights (§12.4.2). A weight of 0 in any spelling refuses a coding, "*" stands for the
 * codings not listed, and gzip listed decides over "*". */
#include "http/http.h"
#include "test.h"

static const struct {
	const char *ae;
	bool gzip;
} CASES[] = {
    /* taken */
    {"gzip", true},
    {"GZIP", true},
    {"x-gzip", true},
    {"gzip, deflate, br", true},
    {"br;q=1.0, gzip;q=0.8", true},
    {"*", true},
    {"gzip;q=1", true},
    {"gzip;q=1.000", true},
    {"gzip;q=0.001", true},
    {"gzip ; q=0.5", true},
    {"gzip;level=9;q=0.2", true},
    {"*;q=0, gzip", true},    /* listed gzip decides over "*" */
    {"identity, gzip", true}, /* identity listed changes nothing */
    {"deflate;q=0, *", true},
    /* refused: weight 0 in every spelling */
    {"gzip;q=0", false},
    {"gzip;q=0.", false},
    {"gzip;q=0.0", false},
    {"gzip;q=0.000", false},
    {"gzip;Q=0", false},
    {"gzip; q=0", false},
    {"gzip ;q=0 ", false},
    {"x-gzip;q=0", false},
    {"gzip;q=0, *", false}, /* "*" does not bring back a coding refused by name */
    {"*, gzip;q=0", false},
    {"*;q=0", false},
    {"*;q=0.0, identity", false},
    {"identity", false},
    {"identity;q=1, *;q=0", false},
    {"deflate, br", false},
    {"", false},
    {",, ,", false},
    {"gzipx", false},
    {"gzip-ish", false},
    /* a malformed weight accepts nothing */
    {"gzip;q=", false},
    {"gzip;q=abc", false},
    {"gzip;q=2", false},
    {"gzip;q=1.5", false},
    {"gzip;q=0.0001", false},
    {"gzip;q=-1", false},
};

static void t_cases(void)
{
	for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
		bool got = http_accepts_gzip(CASES[i].ae);
		if (got != CASES[i].gzip) {
			printf("  Accept-Encoding \"%s\": gzip %s, expected %s\n", CASES[i].ae,
			       got ? "taken" : "refused", CASES[i].gzip ? "taken" : "refused");
			test_failed_now = 1;
		}
	}
	CHECK(!http_accepts_gzip(NULL));
}

int main(void)
{
	TEST("accept_encoding_gzip_weights", t_cases);
	TEST_MAIN_END();
}
