/* ER sheets as PDFs: the handlers parse the query, call the pure renderers of src/pdf/ and hand
 * the bytes to the HTTP layer (pdf/serve.h).
 *
 *   GET /api/v1/er/sheets.pdf?count=N&paper=a4|letter&lang=en|fr   blank ER sheets, 1–100 pages
 *   GET /api/v1/er/games/{id}/seats/{seat}/sheet.pdf                 a seat's sheet as written
 *   GET /api/v1/er/games/{id}/sheets.pdf                             every seat, then the ranking
 *
 * The first is stateless (no database). A blank pad is a function of its parameters and of the
 * templates loaded at start; its creation date is the start time, so the bytes — and the ETag
 * computed from the parameters — stay the same until a restart: If-None-Match gets 304. A
 * game's PDFs read the game through the table engine with any token of the game (paper and
 * lang as above) and carry a QR code of the game's link (PUBLIC_URL, else the Host) with its join
 * code: a phone that holds the game opens it, any other one the seats of its table. */
#include "games/er/pdf.h"

#include "games/er/data.h"
#include "games/er/kind.h"
#include "pdf/serve.h"
#include "base/templates.h"
#include "base/log.h"
#include "base/oom.h"
#include "engine/table.h"
#include "pdf/pdf.h"
#include "rules/er_game.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PDF_MAX_COUNT = 100 };

int api_er_sheets_pdf(const http_req *req, http_resp *resp)
{
	int count;
	if (!http_query_number(req, resp, "count", 1, 1, PDF_MAX_COUNT, NULL, &count))
		return 0;
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	char key[64];
	snprintf(key, sizeof key, "er-sheets|%d|%d|%d", count, (int)paper, (int)lang);
	if (pdf_api_not_modified(req, resp, key))
		return 0;
	pdf_doc *doc = pdf_doc_begin(er_api_data(), pdf_api_print(), paper, lang,
	                             pdf_api_print()->labels[lang][PL_SHEET], pdf_api_started());
	if (doc == NULL)
		return http_reply_problem(resp, 500, "the PDF renderer could not start", NULL,
		                          NULL);
	pdf_er_blank_pages(doc, count);
	return pdf_api_finish(resp, doc, false, "er-sheets.pdf");
}

/* ---- a game's sheets (the table engine loads the game; any token of the game reads) ---- */

static void game_link(const http_req *req, const table_view *v, char *out, size_t cap)
{
	char fragment[128];
	snprintf(fragment, sizeof fragment, "game=%s&join=%s", v->id, v->code ? v->code : "");
	pdf_api_link(req, fragment, out, cap);
}

/* Everything a game's pages need, from the loaded state. */
typedef struct {
	const er_game *g;
	table_view v;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	char date[16];
	char link[512];
} game_print;

static void game_print_fill(game_print *gp, const http_req *req, const table_game *tg)
{
	gp->g = table_game_state(tg);
	table_game_view(tg, &gp->v);
	er_game_scores(gp->g, er_api_data(), gp->scores, gp->ranks);
	snprintf(gp->date, sizeof gp->date, "%.10s", gp->v.created_at ? gp->v.created_at : "");
	game_link(req, &gp->v, gp->link, sizeof gp->link);
}

static void filled_page(pdf_doc *doc, const game_print *gp, int seat)
{
	const er_game_config *cfg = &gp->g->cfg;
	pdf_er_filled f = {.sheet = &gp->g->sheets[seat - 1],
	                   .player = gp->v.names[seat - 1],
	                   .date = gp->date,
	                   .cardiologists = {cfg->cardio[0], cfg->cardio[1]},
	                   .radiologist = cfg->radiologist,
	                   .epidemiologist = cfg->epidemiologist,
	                   .score = &gp->scores[seat - 1],
	                   .link = gp->link,
	                   .seat = seat};
	pdf_er_filled_page(doc, &f);
}

static void ranking_page(pdf_doc *doc, const game_print *gp)
{
	pdf_er_rank rows[ER_MAX_SEATS];
	int n = 0;
	/* rank order; seats in order within a rank */
	for (int rank = 1; rank <= gp->v.nseats; rank++)
		for (int s = 0; s < gp->v.nseats; s++)
			if (gp->ranks[s] == rank)
				rows[n++] = (pdf_er_rank){.rank = rank,
				                          .seat = s + 1,
				                          .player = gp->v.names[s],
				                          .score = gp->scores[s]};
	pdf_er_ranking_page(doc, gp->v.id, gp->date, rows, n, gp->link);
}

/* Loads the game of the path for a read and replies with its seat's page (seat ≥ 1) or every
 * seat then the ranking (seat 0). */
static int game_pdf(const http_req *req, http_resp *resp, int seat)
{
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	table_game *tg = table_load_for_read(req, resp, &er_table_kind, req->params[0]);
	if (tg == NULL)
		return 0;
	game_print gp;
	game_print_fill(&gp, req, tg);
	if (seat > gp.v.nseats) {
		table_game_free(tg);
		return http_reply_problem(resp, 404, "no such seat in this game",
		                          ER_RULE_NO_SUCH_SEAT, NULL);
	}
	char title[128];
	snprintf(title, sizeof title, "%s %s", pdf_api_print()->labels[lang][PL_GAME], gp.v.id);
	pdf_doc *doc =
	    pdf_doc_begin(er_api_data(), pdf_api_print(), paper, lang, title, time(NULL));
	if (doc == NULL) {
		table_game_free(tg);
		return http_reply_problem(resp, 500, "the PDF renderer could not start", NULL,
		                          NULL);
	}
	for (int s = 1; s <= gp.v.nseats; s++)
		if (seat == 0 || s == seat)
			filled_page(doc, &gp, s);
	if (seat == 0)
		ranking_page(doc, &gp);
	table_game_free(tg);
	return pdf_api_finish(resp, doc, true, seat ? "er-sheet.pdf" : "er-game.pdf");
}

int api_er_seat_sheet_pdf(const http_req *req, http_resp *resp)
{
	int seat = http_whole_number(req->params[1], 1, ER_MAX_SEATS);
	if (seat < 0)
		return http_reply_problem(resp, 404, "no such seat in this game",
		                          ER_RULE_NO_SUCH_SEAT, NULL);
	return game_pdf(req, resp, seat);
}

int api_er_game_sheets_pdf(const http_req *req, http_resp *resp)
{
	return game_pdf(req, resp, 0);
}
