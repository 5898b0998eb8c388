/* Printable PDFs and QR codes over HTTP (issue 9): the handlers parse the query, call the pure
 * renderers of src/pdf/ and hand the bytes to the HTTP layer.
 *
 *   GET /api/v1/er/sheets.pdf?count=N&paper=a4|letter&lang=en|fr   blank ER sheets, 1–100 pages
 *   GET /api/v1/qr.svg?data=…                                       a QR code (≤ 512 bytes)
 *   GET /api/v1/er/games/{id}/seats/{seat}/sheet.pdf                 a seat's sheet as written
 *   GET /api/v1/er/games/{id}/sheets.pdf                             every seat, then the ranking
 *
 * The first two are stateless (no database). A blank pad is a function of its parameters and of the
 * templates loaded at start; its creation date is the start time, so the bytes — and the ETag
 * computed from the parameters — stay the same until a restart: If-None-Match gets 304. A
 * game's PDFs read the game through the table engine with any token of the game (paper and
 * lang as above) and carry a QR code of the game's link (PUBLIC_URL, else the Host). */
#include "api/pdf_api.h"

#include "api/er_api.h"
#include "api/er_games.h"
#include "api/templates.h"
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

enum { PDF_MAX_COUNT = 100, QR_MAX_DATA = 512 };

static pdf_print g_print;         /* print.json, fonts pointing at g_font_dir */
static char g_font_dir[64];       /* private directory holding the slim font copy */
static time_t g_started;          /* creation date of blank pads */
static unsigned long long g_seed; /* start time folded into every ETag */

int pdf_api_init(const char *templates_dir)
{
	char err[256] = "";
	int rc = -1;
	json_object *print = templates_read(templates_dir, "er/print.json");
	json_object *specs = templates_read(templates_dir, "er/specialists.json");
	json_object *sheet = templates_read(templates_dir, "er/sheet.json");
	if (!print || !specs || !sheet)
		goto out;
	if (pdf_print_from_json(&g_print, print, sheet, specs, err, sizeof err) != 0)
		goto fail;
	const char *tmp = getenv("TMPDIR");
	snprintf(g_font_dir, sizeof g_font_dir, "%s/dicehospital-pdf-XXXXXX",
	         tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
	if (mkdtemp(g_font_dir) == NULL) {
		snprintf(err, sizeof err, "mkdtemp %s: %s", g_font_dir, strerror(errno));
		g_font_dir[0] = '\0';
		goto fail;
	}
	if (pdf_print_slim_fonts(&g_print, g_font_dir, err, sizeof err) != 0)
		goto fail;
	g_started = time(NULL);
	g_seed = (unsigned long long)g_started;
	rc = 0;
	goto out;
fail:
	log_warn("pdf: %s", err);
out:
	json_object_put(print);
	json_object_put(specs);
	json_object_put(sheet);
	return rc;
}

void pdf_api_shutdown(void)
{
	if (g_font_dir[0] == '\0')
		return;
	char path[sizeof g_font_dir + 16];
	snprintf(path, sizeof path, "%s/font.ttf", g_font_dir);
	unlink(path);
	rmdir(g_font_dir);
	g_font_dir[0] = '\0';
}

const pdf_print *pdf_api_print(void)
{
	return &g_print;
}

/* ---- query parameters ---- */

/* A whole decimal number lo..hi, or -1. */
static int parse_int(const char *s, int lo, int hi)
{
	if (s == NULL || *s == '\0' || strlen(s) > 4)
		return -1;
	int v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	return v >= lo && v <= hi ? v : -1;
}

/* paper and lang (defaults a4, en), or a 400 problem naming the parameter in resp. */
int pdf_api_paper_lang(const http_req *req, http_resp *resp, pdf_paper *paper, pdf_lang *lang)
{
	const char *p = http_query(req, "paper"), *l = http_query(req, "lang");
	int pv = p ? pdf_paper_from_name(p) : PDF_A4, lv = l ? pdf_lang_from_name(l) : PDF_EN;
	if (pv < 0) {
		http_reply_problem(resp, 400, "paper: a4 or letter", NULL, "/paper");
		return -1;
	}
	if (lv < 0) {
		http_reply_problem(resp, 400, "lang: en or fr", NULL, "/lang");
		return -1;
	}
	*paper = (pdf_paper)pv;
	*lang = (pdf_lang)lv;
	return 0;
}

/* ---- caching ---- */

/* FNV-1a over s, seeded: an ETag only has to change when the bytes can. */
static unsigned long long fnv(unsigned long long h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Sets ETag and Cache-Control; true (and a 304 filled in) when the client has this version. */
static bool not_modified(const http_req *req, http_resp *resp, const char *key)
{
	char etag[40];
	snprintf(etag, sizeof etag, "\"%016llx\"", fnv(0xcbf29ce484222325ULL ^ g_seed, key));
	http_resp_header(resp, "ETag", etag);
	http_resp_header(resp, "Cache-Control", "public, max-age=86400");
	if (!http_etag_matches(http_header(req, "If-None-Match"), etag))
		return false;
	resp->status = 304;
	return true;
}

bool pdf_api_not_modified(const http_req *req, http_resp *resp, const char *key)
{
	return not_modified(req, resp, key);
}

time_t pdf_api_started(void)
{
	return g_started;
}

/* Hands bytes (malloc'ed, ownership passes) to resp as a download. */
int pdf_api_reply(http_resp *resp, unsigned char *bytes, size_t len, const char *filename)
{
	resp->status = 200;
	resp->content_type = "application/pdf";
	resp->body = (char *)bytes;
	resp->body_len = len;
	char cd[128];
	snprintf(cd, sizeof cd, "inline; filename=\"%s\"", filename);
	return http_resp_header(resp, "Content-Disposition", cd);
}

/* ---- handlers ---- */

int api_er_sheets_pdf(const http_req *req, http_resp *resp)
{
	const char *c = http_query(req, "count");
	int count = c ? parse_int(c, 1, PDF_MAX_COUNT) : 1;
	if (count < 0)
		return http_reply_problem(resp, 400, "count: a whole number from 1 to 100", NULL,
		                          "/count");
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	char key[64];
	snprintf(key, sizeof key, "er-sheets|%d|%d|%d", count, (int)paper, (int)lang);
	if (not_modified(req, resp, key))
		return 0;
	pdf_doc *doc = pdf_doc_begin(er_api_data(), &g_print, paper, lang,
	                             g_print.labels[lang][PL_SHEET], g_started);
	if (doc == NULL)
		return http_reply_problem(resp, 500, "the PDF renderer could not start", NULL,
		                          NULL);
	pdf_er_blank_pages(doc, count);
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0)
		return http_reply_problem(resp, 500, "the PDF could not be drawn", NULL, NULL);
	return pdf_api_reply(resp, bytes, len, "er-sheets.pdf");
}

int api_qr_svg(const http_req *req, http_resp *resp)
{
	const char *data = http_query(req, "data");
	size_t n = data ? strlen(data) : 0;
	if (n == 0 || n > QR_MAX_DATA)
		return http_reply_problem(resp, 400, "data: 1 to 512 bytes to encode", NULL,
		                          "/data");
	char key[QR_MAX_DATA + 8];
	snprintf(key, sizeof key, "qr|%s", data);
	if (not_modified(req, resp, key))
		return 0;
	size_t len;
	char *svg = pdf_qr_svg(data, n, &len);
	if (svg == NULL)
		return http_reply_problem(resp, 400, "data: too long for a QR code", NULL, "/data");
	resp->status = 200;
	resp->content_type = "image/svg+xml";
	resp->body = svg;
	resp->body_len = len;
	return 0;
}

/* ---- a game's sheets (the table engine loads the game; any token of the game reads) ---- */

/* The link printed as a QR code: PUBLIC_URL (e.g. https://dice.example) or http://Host, then
 * the front end's game route. No token: the paper must not grant access to the game. */
void pdf_api_link(const http_req *req, const char *fragment, char *out, size_t cap)
{
	const char *base = getenv("PUBLIC_URL"), *host = http_header(req, "Host");
	bool host_ok = host && *host && strlen(host) < 200;
	for (const char *p = host; host_ok && *p; p++)
		host_ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		          (*p >= '0' && *p <= '9') || strchr(".-:[]", *p);
	if (base && *base)
		snprintf(out, cap, "%s/#%s", base, fragment);
	else
		snprintf(out, cap, "http://%s/#%s", host_ok ? host : "localhost", fragment);
}

static void game_link(const http_req *req, const char *id, char *out, size_t cap)
{
	char fragment[128];
	snprintf(fragment, sizeof fragment, "game=%s", id);
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
	game_link(req, gp->v.id, gp->link, sizeof gp->link);
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
	snprintf(title, sizeof title, "%s %s", g_print.labels[lang][PL_GAME], gp.v.id);
	pdf_doc *doc = pdf_doc_begin(er_api_data(), &g_print, paper, lang, title, time(NULL));
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
	unsigned char *bytes;
	size_t len;
	if (pdf_doc_finish(doc, &bytes, &len) != 0)
		return http_reply_problem(resp, 500, "the PDF could not be drawn", NULL, NULL);
	http_resp_header(resp, "Cache-Control", "private, no-store");
	return pdf_api_reply(resp, bytes, len, seat ? "er-sheet.pdf" : "er-game.pdf");
}

int api_er_seat_sheet_pdf(const http_req *req, http_resp *resp)
{
	int seat = parse_int(req->params[1], 1, ER_MAX_SEATS);
	if (seat < 0)
		return http_reply_problem(resp, 404, "no such seat in this game",
		                          ER_RULE_NO_SUCH_SEAT, NULL);
	return game_pdf(req, resp, seat);
}

int api_er_game_sheets_pdf(const http_req *req, http_resp *resp)
{
	return game_pdf(req, resp, 0);
}
