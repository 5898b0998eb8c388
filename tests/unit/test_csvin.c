/* Spreadsheet cells (csvin.c): dates in the forms spreadsheets write, the date order a file
 * settles by itself, numbers with a decimal point or comma, winner flags, and files read into
 * rows (separators, quoting, a byte order mark, Windows-1252). Links the app library. */
#include "leagues/csvin.h"
#include "test.h"

#include <string.h>

static void dates(void)
{
	static const struct {
		const char *cell, *time;
		csv_dates order;
		int rc;
		const char *when;
		int offset;
	} cases[] = {
	    {"2024-03-31", NULL, CSV_DATES_AUTO, 0, "2024-03-31T00:00:00Z", 0},
	    {"2024/3/9 20:15", NULL, CSV_DATES_AUTO, 0, "2024-03-09T20:15:00Z", 0},
	    {"31.03.2024 20:15:07", NULL, CSV_DATES_AUTO, 0, "2024-03-31T20:15:07Z", 0},
	    {"31/03/2024", "8:15 PM", CSV_DATES_AUTO, 0, "2024-03-31T20:15:00Z", 0},
	    {"03/31/2024 12:05 am", NULL, CSV_DATES_AUTO, 0, "2024-03-31T00:05:00Z", 0},
	    {"03/04/2024", NULL, CSV_DATES_AUTO, 3, NULL, 0},
	    {"03/04/2024", NULL, CSV_DATES_DMY, 0, "2024-04-03T00:00:00Z", 0},
	    {"03/04/2024", NULL, CSV_DATES_MDY, 0, "2024-03-04T00:00:00Z", 0},
	    {"04/04/2024", NULL, CSV_DATES_AUTO, 0, "2024-04-04T00:00:00Z", 0},
	    {"2024-12-07T22:08:41+01:00", NULL, CSV_DATES_AUTO, 0, "2024-12-07T22:08:41+01:00", 60},
	    {"2020-12-31T10:00:00Z", NULL, CSV_DATES_AUTO, 0, "2020-12-31T10:00:00Z", 0},
	    {"", NULL, CSV_DATES_AUTO, 1, NULL, 0},
	    {"   ", NULL, CSV_DATES_AUTO, 1, NULL, 0},
	    {"31/02/2024", NULL, CSV_DATES_AUTO, 2, NULL, 0}, /* no such day */
	    {"13/13/2024", NULL, CSV_DATES_AUTO, 2, NULL, 0},
	    {"2024-03-31 25:00", NULL, CSV_DATES_AUTO, 2, NULL, 0},
	    {"3/4/24", NULL, CSV_DATES_DMY, 2, NULL, 0}, /* a year of two digits */
	    {"2024.03.31", NULL, CSV_DATES_AUTO, 2, NULL, 0},
	    {"yesterday", NULL, CSV_DATES_AUTO, 2, NULL, 0},
	    {"2024-03-31", "noon", CSV_DATES_AUTO, 2, NULL, 0},
	    {"1899-12-31", NULL, CSV_DATES_AUTO, 2, NULL, 0}, /* before dates_parse_when's 1900 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char when[64] = "";
		int off = -1;
		int rc = csv_date(cases[i].cell, cases[i].time, cases[i].order, when, &off);
		if (rc != cases[i].rc ||
		    (rc == 0 && (strcmp(when, cases[i].when) != 0 || off != cases[i].offset))) {
			printf("  \"%s\" → %d %s %d\n", cases[i].cell, rc, when, off);
			CHECK(!"a date as spreadsheets write it");
		}
	}
}

static void numbers_and_flags(void)
{
	double v = 0;
	CHECK(csv_number("12,5", &v) && v == 12.5);
	CHECK(csv_number(" -3 ", &v) && v == -3);
	CHECK(csv_number("20+16", &v) && v == 36);
	CHECK(!csv_number("1,2,3", &v));
	CHECK(!csv_number("five", &v));
	CHECK(!csv_number("", &v));
	CHECK_EQ_INT(csv_flag("TRUE"), 1);
	CHECK_EQ_INT(csv_flag(" x "), 1);
	CHECK_EQ_INT(csv_flag("Oui"), 1);
	CHECK_EQ_INT(csv_flag("0"), 0);
	CHECK_EQ_INT(csv_flag("FALSE"), 0);
	CHECK_EQ_INT(csv_flag(""), -1);
	CHECK_EQ_INT(csv_flag("Paula"), -1);
}

static void files(void)
{
	league_import im;
	csv_file f;
	memset(&im, 0, sizeof im);
	const char semi[] =
	    "\xEF\xBB\xBF"
	    "Datum;Spiel;\"Spie\"\"ler\"\r\n31.03.2024;\"Azul; Summer\";Zo\xC3\xA9\r\n\r\n"
	    "01.04.2024;Azul\r";
	CHECK_EQ_INT(csv_read(&im, semi, sizeof semi - 1, &f), 0);
	CHECK(f.sep == ';' && !f.windows_1252 && f.ncols == 3 && f.nrows == 2);
	CHECK_STR(f.header[0], "Datum");
	CHECK_STR(f.header[2], "Spie\"ler");
	CHECK_STR(f.rows[0][1], "Azul; Summer");
	CHECK_STR(f.rows[1][2], ""); /* a short row */
	CHECK_EQ_INT(f.lines[1], 4); /* the blank line counts as a row of the sheet */
	bool ambiguous;
	CHECK_EQ_INT(csv_date_order(&f, 0, &ambiguous), CSV_DATES_AUTO);
	CHECK(!ambiguous); /* dotted dates are always day first */
	csv_file_free(&f);
	const char latin[] = "date\tplayer\n25/12/2024\tZo\xE9\n03/04/2024\tB\x80";
	CHECK_EQ_INT(csv_read(&im, latin, sizeof latin - 1, &f), 0);
	CHECK(f.sep == '\t' && f.windows_1252);
	CHECK_STR(f.rows[0][1], "Zo\xC3\xA9");
	CHECK_STR(f.rows[1][1], "B\xE2\x82\xAC");
	CHECK_EQ_INT(csv_date_order(&f, 0, &ambiguous), CSV_DATES_DMY);
	csv_file_free(&f);
	const char open[] = "a,b\n1,\"never closed\n";
	CHECK_EQ_INT(csv_read(&im, open, sizeof open - 1, &f), -1);
	CHECK_STR(im.field, "/rows/2");
	csv_file_free(&f);
	io_import_free(&im);
}

int main(void)
{
	TEST("csv: dates as spreadsheets write them, and the order a mapping gives", dates);
	TEST("csv: decimal commas, sums, winner flags", numbers_and_flags);
	TEST("csv: separators, quoting, a byte order mark, Windows-1252, the row of an error",
	     files);
	TEST_MAIN_END();
}
