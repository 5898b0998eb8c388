/* The PDF renderers (src/pdf/) read back with real tools: pdfinfo (pages, size),
 * pdftotext (labels and values in both languages), qpdf --check, Ghostscript (a second
 * renderer), zbarimg on a pdftoppm render (the QR code decodes back). Writes every kind of page
 * under build/pdf/ as PDF and PNG, so anyone can look at them. Needs poppler-utils, qpdf,
 * ghostscript, zbar-tools (DEB_PKGS). */
#include "er_fixture.h"
#include "pdf/pdf.h"
#include "pdf_fixture.h"
#include "test.h"

#include <stdbool.h>
#include <sys/stat.h>

static er_data g_d;
static pdf_print g_p;
static const char *const OUT = "build/pdf";

/* Finishes doc into build/pdf/name.pdf (+ name.png of page 1 at 60 dpi). */
static int save(pdf_doc *doc, const char *name, size_t *size)
{
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0)
		return -1;
	char path[256], cmd[512], out[256];
	snprintf(path, sizeof path, "%s/%s.pdf", OUT, name);
	int rc = pdf_fixture_write(path, bytes, len);
	free(bytes);
	if (size)
		*size = len;
	snprintf(cmd, sizeof cmd, "pdftoppm -png -r 60 -f 1 -l 1 -singlefile %s %s/%s", path, OUT,
	         name);
	if (rc == 0 && pdf_fixture_run(cmd, out, sizeof out) != 0)
		rc = -1;
	return rc;
}

static void check_info(const char *name, int pages, const char *size)
{
	char cmd[512], out[4096];
	snprintf(cmd, sizeof cmd, "pdfinfo %s/%s.pdf", OUT, name);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, sizeof out), 0);
	const char *pg = strstr(out, "Pages:");
	CHECK(pg != NULL && atoi(pg + 6) == pages);
	CHECK(strstr(out, size) != NULL);
	CHECK(strstr(out, "Title:") != NULL && strstr(out, "Author:") != NULL &&
	      strstr(out, "CreationDate:") != NULL);
	snprintf(cmd, sizeof cmd, "qpdf --check %s/%s.pdf", OUT, name);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "No syntax or stream encoding errors") != NULL);
	/* a second renderer: Ghostscript draws every page without repairing anything (it caught
	 * an empty Flate stream that poppler and qpdf accept) */
	snprintf(cmd, sizeof cmd, "gs -q -dNOPAUSE -dBATCH -sDEVICE=nullpage %s/%s.pdf 2>&1", OUT,
	         name);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, sizeof out), 0);
	CHECK(strstr(out, "Error") == NULL && strstr(out, "repaired") == NULL);
	if (strstr(out, "Error") || strstr(out, "repaired"))
		printf("  gs: %.300s\n", out);
}

/* pdftotext of the whole document. */
static void text_of(const char *name, char *out, size_t cap)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "pdftotext -enc UTF-8 %s/%s.pdf -", OUT, name);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, cap), 0);
}

static void blank(const char *name, pdf_paper paper, pdf_lang lang, int n)
{
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, paper, lang, "ER sheets", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_er_blank_pages(doc, n);
	CHECK_EQ_INT(save(doc, name, NULL), 0);
}

static void test_blank_en_a4(void)
{
	blank("blank-en-a4", PDF_A4, PDF_EN, 3);
	check_info("blank-en-a4", 3, "595.276 x 841.89 pts (A4)");
	static char t[65536];
	text_of("blank-en-a4", t, sizeof t);
	/* game-data.md §1.1/§1.3: clipboards 5 7 8 6 9 10 4, nurses track 2 … 35 */
	const char *want[] = {"Dice Hospital",  "Stethoscopes", "Blood bags", "Nurses",
	                      "Morgue",         "LOBBY",        "X-RAY",      "Filled wards",
	                      "Epidemiologist", "Total",        "35",         "27"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(t, want[i])) {
			printf("  missing \"%s\"\n", want[i]);
			test_failed_now = 1;
		}
}

static void test_blank_fr_letter(void)
{
	blank("blank-fr-letter", PDF_LETTER, PDF_FR, 1);
	check_info("blank-fr-letter", 1, "612 x 792 pts (letter)");
	static char t[65536];
	text_of("blank-fr-letter", t, sizeof t);
	const char *want[] = {"Stéthoscopes",    "Poches de sang", "Infirmières",
	                      "Épidémiologiste", "ACCUEIL",        "Services remplis"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(t, want[i])) {
			printf("  missing \"%s\"\n", want[i]);
			test_failed_now = 1;
		}
}

static const char *LINK = "https://dice.example/#/er/games/4f2a9c?seat=2";

static void filled_sheet(er_sheet *s)
{
	/* ward 7 full (3 beds), a critical 3 and a screened 5 */
	er_fixture_sheet(&g_d, s, "1,3!,5s|2,4|||||2,4!,6");
	s->nurse_crossed[6] = true;
	s->nurse_track = 1;
	s->steth_circled = 5;
	s->steth_used = 2;
	s->blood_circled = 3;
	s->blood_used = 1;
	s->morgue = 1;
	s->cardiologists[0] = 8;
}

static void test_filled_sheet(void)
{
	er_sheet s;
	filled_sheet(&s);
	er_breakdown b;
	er_result r =
	    er_score(&g_d, &s, ER_RADIO_HIGH_VALUES, ER_EPI_LINE_OF_3, false, 0, &b, NULL);
	CHECK(r.rule == NULL);
	if (r.rule)
		printf("  %s: %s\n", r.rule, r.detail);
	pdf_er_filled f = {.sheet = &s,
	                   .player = "Zoë Łukasiewicz-Ñúñez",
	                   .date = "2026-11-23",
	                   .cardiologists = {ER_CARDIO_NURSES_3, ER_CARDIO_ALL_WARDS},
	                   .radiologist = ER_RADIO_HIGH_VALUES,
	                   .epidemiologist = ER_EPI_LINE_OF_3,
	                   .score = &b,
	                   .link = LINK,
	                   .seat = 2};
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_LETTER, PDF_EN, "Game 4f2a9c", 1795000000);
	CHECK(doc != NULL);
	if (doc) {
		pdf_er_filled_page(doc, &f);
		CHECK_EQ_INT(save(doc, "filled-en-letter", NULL), 0);
	}
	doc = pdf_doc_begin(&g_d, &g_p, PDF_A4, PDF_FR, "Partie 4f2a9c", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_er_filled_page(doc, &f);
	CHECK_EQ_INT(save(doc, "filled-fr-a4", NULL), 0);
	check_info("filled-fr-a4", 1, "(A4)");
	static char t[65536];
	text_of("filled-fr-a4", t, sizeof t);
	char total[16];
	snprintf(total, sizeof total, "%d", b.total);
	const char *want[] = {"Zoë Łukasiewicz-Ñúñez", "2026-11-23", "Gagnez 3 infirmières.",
	                      "Spécialistes",          "!",          total};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(t, want[i])) {
			printf("  missing \"%s\"\n", want[i]);
			test_failed_now = 1;
		}
	char cmd[512], out[1024];
	snprintf(cmd, sizeof cmd,
	         "pdftoppm -png -r 150 %s/filled-fr-a4.pdf %s/qr-scan && zbarimg -q --raw "
	         "%s/qr-scan-1.png",
	         OUT, OUT, OUT);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, sizeof out), 0);
	char want_qr[256];
	snprintf(want_qr, sizeof want_qr, "%s\n", LINK);
	CHECK_STR(out, want_qr);
}

static void test_ranking(void)
{
	pdf_er_rank rows[4] = {
	    {.rank = 1, .seat = 2, .player = "Élodie", .score = {.filled_wards = 12, .total = 61}},
	    {.rank = 2, .seat = 1, .player = "Bob", .score = {.critical = 9, .total = 40}},
	    {.rank = 2, .seat = 3, .player = "Łucja", .score = {.nurses = 14, .total = 40}},
	    {.rank = 4, .seat = 4, .player = "Дмитрий Σοφία", .score = {.morgue = -2, .total = 7}},
	};
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_LETTER, PDF_EN, "Game 4f2a9c", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_er_ranking_page(doc, "4f2a9c", "2026-11-23", rows, 4, LINK);
	CHECK_EQ_INT(save(doc, "ranking-en-letter", NULL), 0);
	check_info("ranking-en-letter", 1, "612 x 792 pts (letter)");
	static char t[65536];
	text_of("ranking-en-letter", t, sizeof t);
	/* Latin, Greek and Cyrillic names all print (the slim font keeps those scripts) */
	const char *want[] = {"Ranking", "Élodie", "Łucja", "Дмитрий Σοφία",
	                      "61",      "40",     "-2",    "4f2a9c"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(t, want[i])) {
			printf("  missing \"%s\"\n", want[i]);
			test_failed_now = 1;
		}
}

/* api.md limits: names ≤ 64 characters. 64 two-byte and 64 four-byte characters print whole
 * on a sheet and on the ranking. */
static void test_longest_names(void)
{
	char two[64 * 2 + 1] = "", four[64 * 4 + 1] = "";
	for (int i = 0; i < 64; i++) {
		strcat(two, "ź");
		strcat(four, "\xf0\x9f\x98\x80"); /* U+1F600, not in the font: a blank box */
	}
	er_sheet s;
	er_fixture_blank(&g_d, &s);
	pdf_er_filled f = {.sheet = &s,
	                   .player = two,
	                   .date = "2026-11-23",
	                   .cardiologists = {ER_SPEC_NONE, ER_SPEC_NONE},
	                   .radiologist = ER_SPEC_NONE,
	                   .epidemiologist = ER_SPEC_NONE,
	                   .seat = 6};
	pdf_er_rank rows[2] = {{.rank = 1, .seat = 1, .player = four},
	                       {.rank = 1, .seat = 6, .player = two}};
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_A4, PDF_EN, "Long names", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_er_filled_page(doc, &f);
	pdf_er_ranking_page(doc, "x", "2026-11-23", rows, 2, NULL);
	CHECK_EQ_INT(save(doc, "long-names", NULL), 0);
	check_info("long-names", 2, "(A4)");
	static char t[65536];
	text_of("long-names", t, sizeof t);
	char want[sizeof two + 16];
	snprintf(want, sizeof want, "%s (Seat 6)", two);
	CHECK(strstr(t, want) != NULL);
	const char *rank = strstr(t, "Ranking");
	CHECK(rank != NULL && strstr(rank, want) != NULL);
	/* the 256-byte name is not cut: its seat, printed after it, is there */
	CHECK(rank != NULL && strstr(rank, "(Seat 1)") != NULL);
}

static void test_qr_svg(void)
{
	size_t n;
	char *svg = pdf_qr_svg(LINK, strlen(LINK), &n);
	CHECK(svg != NULL);
	if (!svg)
		return;
	CHECK(strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "</svg>") != NULL);
	CHECK_EQ_INT(strlen(svg), n);
	free(svg);
	CHECK(pdf_qr_svg("", 0, &n) == NULL);
}

static void test_print_json_refuses_missing_label(void)
{
	json_object *print = json_object_from_file("templates/er/print.json");
	json_object *specs = json_object_from_file("templates/er/specialists.json");
	json_object *sheet = json_object_from_file("templates/er/sheet.json");
	json_object *labels = NULL, *fr = NULL;
	json_object_object_get_ex(print, "labels", &labels);
	json_object_object_get_ex(labels, "fr", &fr);
	json_object_object_del(fr, "morgue");
	static pdf_print p;
	char err[256] = "";
	CHECK_EQ_INT(pdf_print_from_json(&p, print, sheet, specs, err, sizeof err), -1);
	CHECK(strstr(err, "labels.fr.morgue") != NULL);
	json_object_put(print);
	json_object_put(specs);
	json_object_put(sheet);
}

/* ---- score pads and the league report (pad.c, league.c) ---- */

static bool has_all(const char *t, const char *const *want, size_t n)
{
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		if (!strstr(t, want[i])) {
			printf("  missing \"%s\"\n", want[i]);
			ok = false;
		}
	return ok;
}

/* A pad of 2 rounds × 2 rows + points, 4 players, a tick row, names in several scripts, the
 * unverified note and a QR code that decodes back. */
static void test_pad_page(void)
{
	static const char *const vals[4] = {"3", "12", "0", "7"};
	pdf_pad_row rows[9] = {
	    {.group = "Round 1", .label = "Discharged: red", .cells = {"3", "12", "0", "7"}},
	    {.group = "Round 1",
	     .label = "All four wards empty",
	     .tick = true,
	     .cells = {"x", NULL, "", "x"}},
	    {.group = "Round 1", .label = "Points", .strong = true, .cells = {"8", "19", "1", "9"}},
	    {.group = "Round 2", .label = "Discharged: red", .cells = {NULL}},
	    {.group = "Round 2", .label = "All four wards empty", .tick = true},
	    {.group = "Round 2", .label = "Points", .strong = true},
	    {.group = "Total",
	     .label = "Total",
	     .strong = true,
	     .cells = {"8*", "19*", "1*", "9*"}},
	    {.group = "Total", .label = "Rank", .cells = {"3", "1", "4", "2"}},
	    {.group = "Total", .label = "Tie-break", .cells = {NULL, NULL, NULL, "highest pips"}},
	};
	(void)vals;
	pdf_pad pad = {.title = "Dice Hospital – score pad",
	               .subtitle = "Game 4f2a9c · 2026-11-23",
	               .player = "Player",
	               .ncols = 4,
	               .names = {"Élodie", "Łucja", "Дмитрий", "Bob"},
	               .nrows = 9,
	               .rows = rows,
	               .note = "* unverified profile values",
	               .link = LINK,
	               .scan = "Scan to open the game"};
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_A4, PDF_EN, "Pad", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_pad_page(doc, &pad);
	CHECK_EQ_INT(save(doc, "pad-en-a4", NULL), 0);
	check_info("pad-en-a4", 1, "595.276 x 841.89 pts (A4)");
	static char t[65536];
	text_of("pad-en-a4", t, sizeof t);
	const char *want[] = {"score pad", "Round 1",      "Round 2",    "Discharged: red",
	                      "Player 4",  "Élodie",       "Łucja",      "Дмитрий",
	                      "19*",       "highest pips", "unverified", "4f2a9c"};
	CHECK(has_all(t, want, sizeof want / sizeof want[0]));
	char cmd[512], out[512];
	snprintf(cmd, sizeof cmd,
	         "pdftoppm -png -r 150 -singlefile %s/pad-en-a4.pdf %s/pad-qr && zbarimg -q --raw "
	         "%s/pad-qr.png",
	         OUT, OUT, OUT);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, sizeof out), 0);
	char want_qr[256];
	snprintf(want_qr, sizeof want_qr, "%s\n", LINK);
	CHECK_STR(out, want_qr);
}

/* The most rows a pad takes, on Letter, 1 column, no names: still one page. A bad pad (no
 * column) draws no page. */
static void test_pad_limits(void)
{
	static pdf_pad_row rows[PDF_PAD_ROWS];
	static char labels[PDF_PAD_ROWS][16];
	for (int i = 0; i < PDF_PAD_ROWS; i++) {
		snprintf(labels[i], sizeof labels[i], "row %d", i + 1);
		rows[i] = (pdf_pad_row){.group = i < 48 ? "A" : "B", .label = labels[i]};
	}
	pdf_pad pad = {.title = "Clinic – feuille de score",
	               .player = "Joueur",
	               .ncols = 1,
	               .nrows = PDF_PAD_ROWS,
	               .rows = rows};
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_LETTER, PDF_FR, "Pad", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_pad_page(doc, &pad);
	pad.ncols = 0;
	pdf_pad_page(doc, &pad); /* refused: no page */
	CHECK_EQ_INT(save(doc, "pad-fr-letter-96", NULL), 0);
	check_info("pad-fr-letter-96", 1, "612 x 792 pts (letter)");
	static char t[65536];
	text_of("pad-fr-letter-96", t, sizeof t);
	const char *want[] = {"Joueur 1", "row 1", "row 96"};
	CHECK(has_all(t, want, sizeof want / sizeof want[0]));
}

/* 50 players and 15 plays: the standings continue on a second page with their header. */
static void test_league_pages(void)
{
	static pdf_league_row rows[50];
	static char names[50][32];
	for (int i = 0; i < 50; i++) {
		snprintf(names[i], sizeof names[i], "Joueuse %02d", i + 1);
		rows[i] = (pdf_league_row){.name = names[i],
		                           .games = 3,
		                           .wins = i % 3,
		                           .win_rate = (i % 3) / 3.0,
		                           .avg_rank = 1.5,
		                           .mu = 25,
		                           .sigma = 8.3,
		                           .ordinal = -0.9,
		                           .provisional = true,
		                           .has_avg_score = i % 2,
		                           .avg_score = 41.25};
	}
	rows[0].name = "Élodie";
	rows[0].provisional = false;
	rows[0].ordinal = 12.345;
	pdf_league_play plays[15];
	for (int i = 0; i < 15; i++)
		plays[i] =
		    (pdf_league_play){"2026-11-23T20:00:00Z", "Azul", "1. Élodie 60 · 2. Łucja 45"};
	pdf_league l = {.league = "Club du mardi",
	                .subtitle = "Rapport de ligue · tous les jeux",
	                .nrows = 50,
	                .rows = rows,
	                .nplays = 15,
	                .plays = plays};
	static const char *const fr[PLR_COUNT] = {"Rapport de ligue",
	                                          "Classement",
	                                          "Parties récentes",
	                                          "#",
	                                          "Joueur",
	                                          "Parties",
	                                          "Victoires",
	                                          "% victoires",
	                                          "Score moyen",
	                                          "Rang moyen",
	                                          "Cote μ−3σ",
	                                          "μ / σ",
	                                          "Date",
	                                          "Jeu",
	                                          "Résultats",
	                                          "† cote provisoire",
	                                          "Aucune partie"};
	for (int k = 0; k < PLR_COUNT; k++)
		l.labels[k] = fr[k];
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_A4, PDF_FR, "Ligue", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_league_pages(doc, &l);
	CHECK_EQ_INT(save(doc, "league-fr-a4", NULL), 0);
	check_info("league-fr-a4", 2, "595.276 x 841.89 pts (A4)");
	static char t[131072];
	text_of("league-fr-a4", t, sizeof t);
	const char *want[] = {"Club du mardi",    "Classement",
	                      "Parties récentes", "Élodie",
	                      "Joueuse 50",       "12.35",
	                      "-0.90 †",          "41.2",
	                      "2026-11-23",       "1. Élodie 60 · 2. Łucja 45"};
	CHECK(has_all(t, want, sizeof want / sizeof want[0]));
	/* the second page repeats the column header */
	const char *p2 = strchr(t, '\f');
	CHECK(p2 != NULL && strstr(p2, "Cote μ−3σ") != NULL);
	CHECK(strstr(t, "12.35 †") == NULL);
}

int main(void)
{
	mkdir("build", 0755);
	mkdir(OUT, 0755);
	if (er_fixture_load(&g_d) != 0 || pdf_fixture_print(&g_p, OUT) != 0) {
		printf("FAIL pdf: cannot load templates\n");
		return 1;
	}
	TEST("pdf blank sheets en A4: 3 pages, labels, ledger values", test_blank_en_a4);
	TEST("pdf blank sheet fr Letter: French labels", test_blank_fr_letter);
	TEST("pdf filled sheet: name, values, specialists, QR decodes", test_filled_sheet);
	TEST("pdf ranking page", test_ranking);
	TEST("pdf names of 64 characters (api.md limits) print whole", test_longest_names);
	TEST("pdf qr svg", test_qr_svg);
	TEST("pdf print.json: a missing label is refused by name",
	     test_print_json_refuses_missing_label);
	TEST("pdf score pad: rows, ticks, names, totals, QR decodes", test_pad_page);
	TEST("pdf score pad: 96 rows on one Letter page; no column draws nothing", test_pad_limits);
	TEST("pdf league report: standings over two pages, ratings, plays", test_league_pages);
	TEST_MAIN_END();
}
