/* Members' names (src/base/names.h): one name, one member, however it was typed — white space
 * of every kind trimmed and collapsed, NFC, full case folding, invisible characters left out of
 * the key (README "Leagues": names match without regard to capitals or surrounding spaces). */
#include "base/names.h"
#include "test.h"

#include <stdlib.h>

typedef struct {
	const char *in, *display, *key;
} name_case;

/* Each input, its display form and its key. */
static const name_case CASES[] = {
    {"Bob", "Bob", "bob"},
    {"bOb\t", "bOb", "bob"},
    {"Bob\u00a0", "Bob", "bob"},               /* no-break space */
    {"\u2003Bob", "Bob", "bob"},               /* em space */
    {"\u3000Bob\u202f", "Bob", "bob"},         /* ideographic, narrow no-break */
    {"\x0b\x0c\r\nBob\xc2\x85", "Bob", "bob"}, /* VT, FF, CR, LF, NEL */
    {"  Bob \t\n Smith  ", "Bob Smith", "bob smith"},
    {"Bob\u3000\u2003Smith", "Bob Smith", "bob smith"},
    {"Bob\u00a0Smith", "Bob Smith", "bob smith"},
    /* NFC: a letter and a combining mark are the precomposed letter */
    {"Zoe\u0301", "Zo\u00e9", "zo\u00e9"},
    {"ZOE\u0301", "ZO\u00c9", "zo\u00e9"},
    {"Zo\u00e9", "Zo\u00e9", "zo\u00e9"},
    {"B\u0301ob", "B\u0301ob", "b\u0301ob"}, /* no precomposed B with acute: still marked */
    {"\u212bngstr\u00f6m", "\u00c5ngstr\u00f6m", "\u00e5ngstr\u00f6m"}, /* angstrom sign */
    {"\u0958", "\u0915\u093c", "\u0915\u093c"}, /* a composition exclusion */
    /* full case folding */
    {"Stra\u00dfe", "Stra\u00dfe", "strasse"},
    {"STRASSE", "STRASSE", "strasse"},
    {"\u1e9e", "\u1e9e", "ss"},               /* capital sharp s */
    {"\u0130pek", "\u0130pek", "i\u0307pek"}, /* Turkish dotted capital I: i + dot above */
    {"IPEK", "IPEK", "ipek"},
    {"\u0131pek", "\u0131pek", "\u0131pek"}, /* dotless i folds to itself */
    {"\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3",
     "\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3",
     "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c3"},
    {"\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2",
     "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2",
     "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c3"}, /* final sigma */
    {"\ufb01", "\ufb01", "fi"},                           /* a ligature folds, NFC keeps it shown */
    /* invisible characters: kept in the display form, left out of the key */
    {"Bo\u200bb", "Bo\u200bb", "bob"},
    {"Bob\u200b", "Bob\u200b", "bob"},
    {"\ufeffBob", "\ufeffBob", "bob"},
    {"Bob\u200b \u200bSmith", "Bob\u200b \u200bSmith", "bob smith"},
    {"\u200b Bob", "\u200b Bob", "bob"},
    {"Bo\u00adb", "Bo\u00adb", "bob"}, /* soft hyphen */
    {"\u2764\ufe0f Bob", "\u2764\ufe0f Bob", "\u2764 bob"},
    {"e\u034f\u0301", "e\u034f\u0301", "\u00e9"}, /* without the grapheme joiner, NFC again */
    /* blank: only white space or invisible characters */
    {"\u00a0\u2003\t", "", ""},
    {"\u200b", "\u200b", ""},
    {"\u180e", "\u180e", ""}, /* Mongolian vowel separator: not white space since Unicode 6.3 */
    {"\u3164", "\u3164", ""}, /* Hangul filler */
    {"", "", ""},
    {"\xff", "", ""}, /* not UTF-8 */
    {"Bob\xc3", "", ""},
};
enum { NCASES = sizeof CASES / sizeof CASES[0] };

static void forms(void)
{
	for (int i = 0; i < NCASES; i++) {
		char *d = name_display(CASES[i].in), *k = name_key(CASES[i].in);
		CHECK_STR(d, CASES[i].display);
		CHECK_STR(k, CASES[i].key);
		if (strcmp(d, CASES[i].display) != 0 || strcmp(k, CASES[i].key) != 0)
			printf("  case %d\n", i);
		CHECK(name_blank(CASES[i].in) == (*CASES[i].key == '\0'));
		/* the key of the display form, and of the key, is the key */
		char *kd = name_key(d), *kk = name_key(k), *dd = name_display(d);
		if (*k) {
			CHECK_STR(kd, k);
			CHECK_STR(kk, k);
		}
		CHECK_STR(dd, d);
		free(d);
		free(k);
		free(kd);
		free(kk);
		free(dd);
	}
}

/* Names that differ only as the README says names may differ are one key. */
static void one_member(void)
{
	static const char *const bob[] = {"Bob",
	                                  "bOb\t",
	                                  "Bob\u00a0",
	                                  "\u2003Bob",
	                                  " BOB ",
	                                  "B\u200bob",
	                                  "\u00a0b\u00a0o\u00a0b"};
	char *first = name_key(bob[0]);
	for (size_t i = 1; i < sizeof bob / sizeof bob[0] - 1; i++) {
		char *k = name_key(bob[i]);
		CHECK_STR(k, first);
		free(k);
	}
	char *k = name_key(bob[sizeof bob / sizeof bob[0] - 1]); /* "b o b": spaces inside count */
	CHECK_STR(k, "b o b");
	free(k);
	free(first);
}

static void total_forms(void)
{
	char *d, *k;
	name_forms(" \u2003Zoe\u0301 ", &d, &k);
	CHECK_STR(d, "Zo\u00e9");
	CHECK_STR(k, "zo\u00e9");
	free(d);
	free(k);
	/* a blank name from a file is kept as it came and is its own key */
	name_forms(" ", &d, &k);
	CHECK_STR(d, " ");
	CHECK_STR(k, " ");
	free(d);
	free(k);
	name_forms("\u200b", &d, &k);
	CHECK_STR(d, "\u200b");
	CHECK_STR(k, "\u200b");
	free(d);
	free(k);
	CHECK_EQ_INT(name_chars("Zo\u00e9 \U0001d160"), 5);
}

/* Every code point of the planes names use (the multilingual and supplementary ones, and the
 * invisible tags) between two letters: the key is stable (the key of the key, and of the
 * display form, is the key) and keeps the letters; nothing crashes. */
static void every_code_point(void)
{
	int bad = 0;
	for (unsigned c = 1; c <= 0x10ffff && bad < 5; c++) {
		if (c >= 0xd800 && c <= 0xdfff)
			continue;
		if (c == 0x20000)
			c = 0xe0000; /* the ideographic planes: letters of one kind, folded alike */
		if (c == 0xe1000)
			break;
		char s[8];
		size_t n = 0;
		s[n++] = 'A';
		if (c < 0x80) {
			s[n++] = (char)c;
		} else if (c < 0x800) {
			s[n++] = (char)(0xc0 | (c >> 6));
			s[n++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			s[n++] = (char)(0xe0 | (c >> 12));
			s[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			s[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			s[n++] = (char)(0xf0 | (c >> 18));
			s[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
			s[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			s[n++] = (char)(0x80 | (c & 0x3f));
		}
		s[n++] = 'b';
		s[n] = '\0';
		char *k = name_key(s), *kk = name_key(k), *d = name_display(s), *kd = name_key(d);
		if (strcmp(k, kk) != 0 || strcmp(k, kd) != 0 || strlen(k) < 2) {
			printf("  U+%04X: key not stable\n", c);
			bad++;
		}
		free(k);
		free(kk);
		free(d);
		free(kd);
	}
	CHECK_EQ_INT(bad, 0);
}

int main(void)
{
	TEST("names: display forms and keys", forms);
	TEST("names: one name, one key", one_member);
	TEST("names: blank names from files kept as they came", total_forms);
	TEST("names: every code point between two letters", every_code_point);
	TEST_MAIN_END();
}
