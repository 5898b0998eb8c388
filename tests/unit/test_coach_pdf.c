/* The coach's PDF (src/games/er/coach_pdf.c reading the analysis document, src/pdf/er_coach.c
 * drawing it), read back with pdftotext, pdfinfo and qpdf. The document is
 * tests/unit/data/coach_analysis.json: an analysis reply's shape (static/openapi.json,
 * CoachAnalysis) from a seeded two-player game, seat 2's line standing for the best line and
 * made-up costs, a search cut short at turn 17. Writes build/pdf/coach-{en,fr}.pdf and .png to look
 * at. */
#include "er_fixture.h"
#include "games/er/coach_pdf.h"
#include "pdf/pdf.h"
#include "pdf_fixture.h"
#include "test.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static er_data g_d;
static pdf_print g_p;
static const char *const OUT = "build/pdf";
static json_object *g_a;

static int load(void)
{
	g_a = json_object_from_file("tests/unit/data/coach_analysis.json");
	return pdf_fixture_print(&g_p, OUT) == 0 && g_a ? 0 : -1;
}

/* Renders the page in lang to build/pdf/name.pdf (and a PNG of it); its text in out. */
static void render(const er_coach_print *cp, pdf_lang lang, const char *name, char *out, size_t cap)
{
	pdf_doc *doc = pdf_doc_begin(&g_d, &g_p, PDF_A4, lang, "coach", 1795000000);
	CHECK(doc != NULL);
	if (!doc)
		return;
	pdf_er_coach_page(doc, &cp->c);
	unsigned char *bytes;
	size_t len;
	CHECK_EQ_INT(pdf_doc_finish(doc, &bytes, &len), 0);
	char path[256], cmd[640];
	snprintf(path, sizeof path, "%s/%s.pdf", OUT, name);
	CHECK_EQ_INT(pdf_fixture_write(path, bytes, len), 0);
	free(bytes);
	snprintf(cmd, sizeof cmd, "pdfinfo %s | grep -q 'Pages: *1' && qpdf --check %s >/dev/null",
	         path, path);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, cap), 0);
	snprintf(cmd, sizeof cmd, "pdftoppm -png -r 80 -singlefile %s %s/%s", path, OUT, name);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, cap), 0);
	snprintf(cmd, sizeof cmd, "pdftotext -layout -enc UTF-8 %s -", path);
	CHECK_EQ_INT(pdf_fixture_run(cmd, out, cap), 0);
}

static void test_parse(void)
{
	static er_coach_print cp;
	char err[128] = "";
	CHECK_EQ_INT(er_coach_print_parse(&g_d, g_a, &cp, err, sizeof err), 0);
	CHECK_EQ_INT(cp.mine_score.total, 24);
	CHECK_EQ_INT(cp.best_score.total, 40);
	CHECK(!cp.c.complete && cp.c.searched == 17 && cp.c.turns == 24 && cp.c.width == 16);
	/* the costliest first, the earlier turn on a tie: the document's costs are 4 at turns 4,
	 * 9, 14 */
	CHECK_EQ_INT(cp.c.nturns, 3);
	CHECK(cp.c.top[0].turn == 4 && cp.c.top[1].turn == 9 && cp.c.top[2].turn == 14);
	CHECK(cp.c.top[0].cost == 4 && cp.c.top[0].ward >= 1 && cp.c.top[0].rolled >= 1);
	/* not a document: refused */
	json_object *bad = json_tokener_parse("{\"player\": {\"total\": 3}}");
	CHECK_EQ_INT(er_coach_print_parse(&g_d, bad, &cp, err, sizeof err), -1);
	json_object_put(bad);
}

static void test_pages(void)
{
	static er_coach_print cp;
	char err[128] = "";
	CHECK_EQ_INT(er_coach_print_parse(&g_d, g_a, &cp, err, sizeof err), 0);
	cp.c.player = "Ann";
	cp.c.game = "g-7f3a";
	cp.c.date = "2026-12-02";
	static char t[65536];
	render(&cp, PDF_EN, "coach-en", t, sizeof t);
	const char *en[] = {"How good could it have been?",
	                    "Ann (Seat 1)",
	                    "Best sheet found",
	                    "not a proven optimum",
	                    "turns 1 to 17 of 24",
	                    "The three turns that cost the most",
	                    "Where the points went"};
	for (size_t i = 0; i < sizeof en / sizeof en[0]; i++) {
		CHECK(strstr(t, en[i]) != NULL);
		if (!strstr(t, en[i]))
			printf("  missing \"%s\"\n", en[i]);
	}
	CHECK(strstr(t, "Ann 24") != NULL && strstr(t, "40 (+16)") != NULL);
	render(&cp, PDF_FR, "coach-fr", t, sizeof t);
	const char *fr[] = {
	    "Jusqu’où pouvait-on aller",
	    /* pdftotext: the no-break space as a space */ "Meilleure feuille trouvée",
	    "pas un optimum démontré", "tours 1 à 17 sur 24",
	    "Les trois tours qui ont coûté le plus"};
	for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
		CHECK(strstr(t, fr[i]) != NULL);
		if (!strstr(t, fr[i]))
			printf("  missing \"%s\"\n", fr[i]);
	}
	/* a whole search says nothing of a time limit */
	cp.c.complete = true;
	render(&cp, PDF_EN, "coach-en-complete", t, sizeof t);
	CHECK(strstr(t, "time limit") == NULL && strstr(t, "not a proven optimum") != NULL);
}

int main(void)
{
	mkdir("build", 0755);
	mkdir(OUT, 0755);
	if (er_fixture_load(&g_d) != 0 || load() != 0) {
		printf("FAIL coach_pdf: cannot load templates or the analysis\n");
		return 1;
	}
	TEST("coach pdf: the analysis document read: totals, reach, the three costliest",
	     test_parse);
	TEST("coach pdf: the page in English and French, the search cut short said", test_pages);
	json_object_put(g_a);
	TEST_MAIN_END();
}
