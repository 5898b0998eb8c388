/* The league report: GET /api/v1/leagues/{id}/standings.pdf?season=&game=&paper=&lang=
 * — the standings of GET …/standings (same access: a session of an owner or a linked member;
 * same filters) with the ratings (μ − 3σ, provisional mark), then the newest plays. Drawn by
 * src/pdf/league.c; the texts are templates/league-report.json. */
#include "leagues/report.h"
#include "leagues/access.h"
#include "leagues/recap.h"
#include "leagues/standings.h"
#include "leagues/stats.h"

#include "pdf/serve.h"
#include "base/templates.h"
#include "base/log.h"
#include "json/jx.h"
#include "json/strtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	REPORT_PLAYS = 15, /* plays listed */
	RESULTS_LEN = 512, /* one play's results line */
};

static strtab g_labels; /* templates/league-report.json; read-only after start */
static const char *const lang_keys[PDF_LANGS] = {"en", "fr"};
static const char *const label_keys[PLR_COUNT] = {[PLR_TITLE] = "title",
                                                  [PLR_STANDINGS] = "standings",
                                                  [PLR_PLAYS] = "plays",
                                                  [PLR_RANK] = "rank",
                                                  [PLR_PLAYER] = "player",
                                                  [PLR_GAMES] = "games",
                                                  [PLR_WINS] = "wins",
                                                  [PLR_WIN_RATE] = "win_rate",
                                                  [PLR_AVG_SCORE] = "avg_score",
                                                  [PLR_AVG_RANK] = "avg_rank",
                                                  [PLR_RATING] = "rating",
                                                  [PLR_MU_SIGMA] = "mu_sigma",
                                                  [PLR_DATE] = "date",
                                                  [PLR_GAME] = "game",
                                                  [PLR_RESULTS] = "results",
                                                  [PLR_PROVISIONAL] = "provisional",
                                                  [PLR_NONE] = "none"};
static const char *const chart_keys[PCH_COUNT] = {
    [PCH_RATINGS] = "ratings_chart", [PCH_SCORES] = "scores_chart", [PCH_H2H] = "h2h_chart",
    [PCH_MONTHS] = "months_chart",   [PCH_ORDINAL] = "ordinal",     [PCH_DATE] = "axis_date",
    [PCH_SCORE] = "axis_score",      [PCH_PLAYS] = "axis_plays",    [PCH_MONTH] = "axis_month",
    [PCH_LOWEST] = "lowest",         [PCH_SHARE] = "share",         [PCH_NONE] = "nothing"};
static const char *const recap_keys[PRC_COUNT] = {
    [PRC_TITLE] = "recap",   [PRC_PLAYS] = "recap_plays",       [PRC_CHAMPION] = "champion",
    [PRC_CLIMB] = "climb",   [PRC_MOST_PLAYED] = "most_played", [PRC_CLOSEST] = "closest",
    [PRC_STREAK] = "streak", [PRC_MARGIN] = "margin",           [PRC_NONE] = "none_yet"};
static const char *const extra_keys[] = {"season", "all_games", "printed", "pictures"};

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = member(o, key);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* The label key in lang, or NULL. */
static const char *label(int lang, const char *key)
{
	const char *path[] = {lang_keys[lang], key};
	return strtab_get(&g_labels, path, 2);
}

static const char *lab(pdf_lang lang, const char *key)
{
	const char *s = label(lang, key);
	return s ? s : key;
}

int report_init(const char *templates_dir)
{
	const char *path = "league-report.json";
	json_object *doc = templates_read(templates_dir, path);
	if (doc == NULL)
		return -1;
	strtab_from_json(&g_labels, doc);
	json_object_put(doc);
	for (int g = 0; g < PDF_LANGS; g++) {
		for (int k = 0; k < PLR_COUNT; k++)
			if (!label(g, label_keys[k])) {
				log_warn("templates: %s: %s.%s: a string", path, lang_keys[g],
				         label_keys[k]);
				report_shutdown();
				return -1;
			}
		for (size_t k = 0; k < sizeof extra_keys / sizeof extra_keys[0]; k++)
			if (!label(g, extra_keys[k])) {
				log_warn("templates: %s: %s.%s: a string", path, lang_keys[g],
				         extra_keys[k]);
				report_shutdown();
				return -1;
			}
		for (int k = 0; k < PCH_COUNT + PRC_COUNT; k++) {
			const char *key = k < PCH_COUNT ? chart_keys[k] : recap_keys[k - PCH_COUNT];
			if (!label(g, key)) {
				log_warn("templates: %s: %s.%s: a string", path, lang_keys[g], key);
				report_shutdown();
				return -1;
			}
		}
	}
	return 0;
}

void report_shutdown(void)
{
	strtab_free(&g_labels);
}

/* ---- data ---- */

static double num(json_object *o, const char *key)
{
	return json_object_get_double(member(o, key));
}

/* The standings JSON rows as report rows (strings borrowed from st). */
static int standing_rows(json_object *st, pdf_league_row **out)
{
	json_object *a = member(st, "standings");
	int n = (int)json_object_array_length(a);
	pdf_league_row *rows = xcalloc((size_t)(n ? n : 1), sizeof *rows);
	for (int i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, (size_t)i), *r = member(o, "rating");
		json_object *avg = member(o, "average_score");
		rows[i] = (pdf_league_row){.name = str(o, "name"),
		                           .games = json_object_get_int(member(o, "games")),
		                           .wins = json_object_get_int(member(o, "wins")),
		                           .win_rate = num(o, "win_rate"),
		                           .avg_rank = num(o, "average_rank"),
		                           .mu = num(r, "mu"),
		                           .sigma = num(r, "sigma"),
		                           .ordinal = num(r, "ordinal"),
		                           .has_avg_score = avg != NULL,
		                           .avg_score = json_object_get_double(avg),
		                           .provisional =
		                               json_object_get_boolean(member(r, "provisional"))};
	}
	*out = rows;
	return n;
}

/* The season's name and dates ("YYYY-MM-DD"), or false when the query fails. */
static bool season_dates(db_conn *c, const char *league, const char *season, char *name, size_t cap,
                         char starts[16], char ends[16])
{
	db_season_rows rows = {0};
	if (db_league_seasons(c, league, &rows) != DB_OK)
		return false;
	for (int i = 0; i < rows.n; i++)
		if (strcmp(rows.rows[i].id, season) == 0) {
			snprintf(name, cap, "%s", rows.rows[i].name);
			snprintf(starts, 16, "%.10s", rows.rows[i].starts);
			snprintf(ends, 16, "%.10s", rows.rows[i].ends);
		}
	db_rowset_clear(&rows);
	return true;
}

/* "1. Ann 54 · 2. Bob 50" from a play's players JSON (rank order as stored: by seat). */
static void results_line(json_object *players, char *out, size_t cap)
{
	size_t n = json_object_array_length(players), len = 0;
	out[0] = '\0';
	for (int rank = 1; rank <= (int)n; rank++)
		for (size_t i = 0; i < n; i++) {
			json_object *p = json_object_array_get_idx(players, i);
			if (json_object_get_int(member(p, "rank")) != rank)
				continue;
			json_object *score = member(p, "score");
			char one[200], sc[32] = "";
			if (score)
				snprintf(sc, sizeof sc, " %g", json_object_get_double(score));
			snprintf(one, sizeof one, "%s%d. %.120s%s", len ? " · " : "", rank,
			         str(p, "name") ? str(p, "name") : "", sc);
			if (len + strlen(one) + 1 >= cap)
				return;
			memcpy(out + len, one, strlen(one) + 1);
			len += strlen(one);
		}
}

typedef struct {
	pdf_league_play plays[REPORT_PLAYS];
	char game[REPORT_PLAYS][128], date[REPORT_PLAYS][16], results[REPORT_PLAYS][RESULTS_LEN];
	int n;
} play_list;

/* The newest plays under the filters (season and game: NULL for none), as GET …/plays
 * selects them. */
static bool recent_plays(db_conn *c, const char *league, const char *season, const char *game,
                         play_list *pl)
{
	char lim[16];
	snprintf(lim, sizeof lim, "%d", REPORT_PLAYS);
	db_play_page page = {0};
	if (db_play_list(c, league, season, game, lim, "0", &page) != DB_OK)
		return false;
	for (int i = 0; i < page.items.n && pl->n < REPORT_PLAYS; i++) {
		const db_play_item *y = &page.items.rows[i];
		int k = pl->n++;
		snprintf(pl->game[k], sizeof pl->game[k], "%s", y->game);
		snprintf(pl->date[k], sizeof pl->date[k], "%.10s",
		         y->date ? y->date : "–"); /* –: undated */
		json_object *players = jx_parse_stored(y->players);
		results_line(players, pl->results[k], sizeof pl->results[k]);
		json_object_put(players);
		pl->plays[k] = (pdf_league_play){pl->date[k], pl->game[k], pl->results[k]};
	}
	db_rowset_clear(&page.items);
	return true;
}

static void chart_labels(pdf_lang lang, const char *out[PCH_COUNT])
{
	for (int k = 0; k < PCH_COUNT; k++)
		out[k] = lab(lang, chart_keys[k]);
}

/* ---- the handlers ---- */

static int report_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	const char *season, *game, *id = req->params[0];
	if (!access_as(resp, c, acc, id, false, &a) ||
	    !access_read_filters(req, resp, c, &season, &game))
		return 0;
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	char league_name[DB_LG_NAME_MAX + 1] = "", season_name[128] = "", starts[16] = "",
	                                  ends[16] = "";
	db_league_row lrow;
	if (db_league_get(c, id, &lrow) != DB_OK)
		return acct_reply_db(resp);
	if (lrow.found)
		snprintf(league_name, sizeof league_name, "%s", lrow.name);
	db_status st;
	if (season && !season_dates(c, id, season, season_name, sizeof season_name, starts, ends))
		return acct_reply_db(resp);
	json_object *standings = standings_json(c, id, season, game, &st);
	if (standings == NULL)
		return acct_reply_db(resp);
	play_list *pl = xcalloc(1, sizeof *pl);
	if (!recent_plays(c, id, season, game, pl)) {
		free(pl);
		json_object_put(standings);
		return acct_reply_db(resp);
	}
	pdf_league l = {.league = league_name};
	for (int k = 0; k < PLR_COUNT; k++)
		l.labels[k] = lab(lang, label_keys[k]);
	char today[16], subtitle[512];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(today, sizeof today, "%Y-%m-%d", &tm);
	int n = snprintf(subtitle, sizeof subtitle, "%s", lab(lang, "title"));
	if (season && n > 0 && (size_t)n < sizeof subtitle)
		n += snprintf(subtitle + n, sizeof subtitle - (size_t)n, " · %s %s",
		              lab(lang, "season"), season_name);
	if (n > 0 && (size_t)n < sizeof subtitle)
		snprintf(subtitle + n, sizeof subtitle - (size_t)n, " · %s · %s %s",
		         game ? game : lab(lang, "all_games"), lab(lang, "printed"), today);
	l.subtitle = subtitle;
	pdf_league_row *rows = NULL;
	l.nrows = standing_rows(standings, &rows);
	l.rows = rows;
	l.nplays = pl->n;
	l.plays = pl->plays;
	char title[DB_LG_NAME_MAX + 160];
	snprintf(title, sizeof title, "%s – %s", lab(lang, "title"), league_name);
	json_object *stats = stats_json(c, id, season, game, &st);
	if (stats == NULL) {
		free(rows);
		free(pl);
		json_object_put(standings);
		return acct_reply_db(resp);
	}
	const char *charts[PCH_COUNT];
	chart_labels(lang, charts);
	pdf_doc *doc = pdf_doc_begin(NULL, pdf_api_print(), paper, lang, title, now);
	if (doc) {
		pdf_league_pages(doc, &l);
		pdf_league_pictures(doc, stats, lab(lang, "pictures"), charts);
	}
	json_object_put(stats);
	free(rows);
	free(pl);
	json_object_put(standings);
	return pdf_api_finish(resp, doc, true, "league-standings.pdf");
}

int api_league_standings_pdf(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, report_read);
}

/* GET …/seasons/{season}/recap.pdf: the recap's JSON (stats.c) drawn on two pages. */
static int recap_pdf_read(const http_req *req, http_resp *resp, db_conn *c, const account *acc)
{
	league_access a;
	if (!access_as(resp, c, acc, req->params[0], false, &a))
		return 0;
	pdf_paper paper;
	pdf_lang lang;
	if (pdf_api_paper_lang(req, resp, &paper, &lang) != 0)
		return 0;
	bool found;
	db_status st;
	json_object *recap = recap_json(c, req->params[0], req->params[1], &found, &st);
	if (recap == NULL && !found && st == DB_OK)
		return http_reply_problem(resp, 404, "no such season in this league", NULL, NULL);
	if (recap == NULL)
		return acct_reply_db(resp);
	const char *charts[PCH_COUNT], *rl[PRC_COUNT];
	chart_labels(lang, charts);
	for (int k = 0; k < PRC_COUNT; k++)
		rl[k] = lab(lang, recap_keys[k]);
	json_object *lg = NULL, *name = NULL;
	json_object_object_get_ex(recap, "league", &lg);
	json_object_object_get_ex(lg, "name", &name);
	char title[DB_LG_NAME_MAX + 160];
	snprintf(title, sizeof title, "%s – %s", rl[PRC_TITLE], json_object_get_string(name));
	pdf_doc *doc = pdf_doc_begin(NULL, pdf_api_print(), paper, lang, title, time(NULL));
	if (doc)
		pdf_recap_pages(doc, recap, rl, charts);
	json_object_put(recap);
	return pdf_api_finish(resp, doc, true, "season-recap.pdf");
}

int api_league_recap_pdf(const http_req *req, http_resp *resp)
{
	return access_read(req, resp, recap_pdf_read);
}
