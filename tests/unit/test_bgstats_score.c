/* BG Stats scores as typed (api.md "Leagues and history": "45", sums such as "20+16+16" or
 * "86+84+" read as their total) and the numbers an export writes back (the shortest decimal
 * that reads back to the number), plus the UUIDs an export gives what has none. Links the app
 * library (src/leagues/io.c). */
#include "leagues/io.h"
#include "test.h"

#include <string.h>

static void sums(void)
{
	static const struct {
		const char *typed;
		double total;
	} ok[] = {
	    {"45", 45},         {"20+16+16", 52}, {"-10+7+22", 19}, {"86+84+", 170},
	    {"86+84+ ", 170},   {" 3 + 4 ", 7},   {"-5", -5},       {"+5", 5},
	    {"2.5+0.25", 2.75}, {".5", 0.5},      {"5.", 5},        {"10-3-2", 5},
	    {"0", 0},           {"-0", 0},        {"007", 7},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double d = -999;
		if (!io_score_parse(ok[i].typed, &d) || d != ok[i].total) {
			printf("  %s → %g (want %g)\n", ok[i].typed, d, ok[i].total);
			CHECK(!"a sum as typed reads as its total");
		}
	}
	static const char *const words[] = {
	    "",    " ",    "+",   "lots", "1e400", "1e5", "12,5",  "inf", "nan", "0x10",
	    "3 4", "3++4", "--3", "1+-2", "4-",    "win", "1.2.3", ".",   "+-",  "5 pts",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		double d = 0;
		bool read = io_score_parse(words[i], &d);
		if (read && strcmp(words[i], "4-") != 0) {
			printf("  \"%s\" read as %g\n", words[i], d);
			CHECK(!"words are no score");
		}
	}
	double d;
	CHECK(io_score_parse("4-", &d) && d == 4); /* a sum left unfinished, as "86+84+" */
	char big[400];
	memset(big, '1', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	CHECK(!io_score_parse(big, &d)); /* longer than a score as typed is kept */
}

static void shortest(void)
{
	static const struct {
		double d;
		const char *text;
	} t[] = {{0.1, "0.1"},
	         {45, "45"},
	         {-2.5, "-2.5"},
	         {12.5, "12.5"},
	         {10, "10"},
	         {100, "100"},
	         {0.3, "0.3"},
	         {-0.0, "0"},
	         {1e-6, "0.000001"},
	         {123456789, "123456789"},
	         {0.1 + 0.2, "0.30000000000000004"}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char buf[IO_NUM_MAX];
		io_shortest(t[i].d, buf);
		CHECK_STR(buf, t[i].text);
		double back;
		CHECK(io_score_parse(buf, &back) && back == t[i].d);
	}
}

static void uuids(void)
{
	char a[IO_UUID_LEN + 1], b[IO_UUID_LEN + 1], c[IO_UUID_LEN + 1];
	io_derived_uuid("play", "0123abcd", NULL, a);
	io_derived_uuid("play", "0123abcd", NULL, b);
	io_derived_uuid("player", "0123abcd", NULL, c);
	CHECK_STR(a, b);          /* stable */
	CHECK(strcmp(a, c) != 0); /* the kind counts */
	CHECK(io_is_uuid(a));
	CHECK(a[14] == '4');                  /* version 4's form */
	CHECK(strchr("89ab", a[19]) != NULL); /* RFC 4122 variant */
	io_derived_uuid("game", "ab", "c", b);
	io_derived_uuid("game", "a", "bc", c);
	CHECK(strcmp(b, c) != 0); /* parts do not run together */
	CHECK(io_is_uuid("9EBE4351-182C-403D-B6EA-C45C0D67046B"));
	CHECK(!io_is_uuid("bgg-87654321"));
	CHECK(!io_is_uuid("9EBE4351-182C-403D-B6EA-C45C0D67046B0"));
	io_play_uuid("9EBE4351-182C-403D-B6EA-C45C0D67046B", a);
	CHECK_STR(a, "9EBE4351-182C-403D-B6EA-C45C0D67046B"); /* kept as it came */
	io_play_uuid("bgg-87654321", a);
	CHECK(io_is_uuid(a));
}

int main(void)
{
	TEST("bgstats: scores typed as sums read as their total; words are none", sums);
	TEST("bgstats: numbers written back as the shortest decimal", shortest);
	TEST("bgstats: derived UUIDs are stable and RFC 4122 shaped", uuids);
	TEST_MAIN_END();
}
