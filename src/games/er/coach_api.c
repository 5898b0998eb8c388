/* The ER coach's routes and its compute-or-cache function (coach_api.h).
 *
 * A game's seat is rebuilt from the stored event log exactly as the engine replays it
 * (er_coach_game_from_log over the decoded events), analysed by the pure search under a
 * deadline (the monotonic clock, polled by the search through a callback) and written as JSON
 * (coach_json.c). A stored game's seat is searched after the reply that asked for it (202; the
 * searches in flight: coach_runs.c) and its analysis stored in er_analyses, complete or stopped
 * at the deadline; a game played on paper is searched and replied at once. */
#include "games/er/coach_api.h"

#include "base/log.h"
#include "base/oom.h"
#include "db/analyses.h"
#include "db/games.h"
#include "engine/table.h"
#include "games/er/coach_json.h"
#include "games/er/coach_runs.h"
#include "games/er/data.h"
#include "games/er/json.h"
#include "games/er/kind.h"
#include "games/er/kind_internal.h"
#include "json/jx.h"
#include "rules/er_coach.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RULE_NOT_FINISHED "game-not-finished"

static int env_int(const char *name, int lo, int hi, int dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	long v = strtol(s, &end, 10);
	return *end == '\0' && v >= lo && v <= hi ? (int)v : dflt;
}

int er_coach_default_width(void)
{
	return env_int("ER_COACH_WIDTH", 1, ER_COACH_MAX_WIDTH, ER_COACH_DEFAULT_WIDTH);
}

static int deadline_ms(void)
{
	return env_int("ER_COACH_DEADLINE_MS", 1, 600000, ER_COACH_DEFAULT_DEADLINE_MS);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct {
	double start, until;
} deadline;

static bool expired(void *ctx)
{
	const deadline *dl = ctx;
	return now_ms() >= dl->until;
}

/* Runs the analysis under the deadline and writes the reply (caller owns it). Returns NULL with
 * *r set when a real move breaks a rule (res->bad_turn names the turn). */
static json_object *analyse(const er_coach_game *g, int width, const char *game, int seat,
                            er_coach_result *res, er_result *r, bool *complete)
{
	const er_data *d = er_api_data();
	deadline dl = {.start = now_ms()};
	int limit = deadline_ms();
	dl.until = dl.start + limit;
	er_coach_opts o = {.width = width, .costs = true, .expired = expired, .ctx = &dl};
	*r = er_coach_analyse(d, g, &o, res);
	if (r->rule)
		return NULL;
	*complete = res->complete;
	er_coach_reply_info info = {.game = game,
	                            .seat = seat,
	                            .width = width,
	                            .elapsed_ms = (long)(now_ms() - dl.start),
	                            .deadline_ms = limit};
	return er_coach_reply(d, g, res, &info);
}

/* ---- a stored game ---- */

typedef struct {
	er_event *ev;
	int n, cap;
	int failed;
} event_list;

static int add_event(const db_event_row *row, void *arg)
{
	event_list *l = arg;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 128;
		l->ev = xrealloc(l->ev, (size_t)l->cap * sizeof *l->ev);
	}
	er_event *ev = &l->ev[l->n];
	memset(ev, 0, sizeof *ev);
	table_event tev = {.name = row->kind, .seat = row->seat, .turn = row->turn, .body = ev};
	if (er_table_kind.event_decode(&tev, row->payload) != 0) {
		l->failed = row->version;
		return 1;
	}
	l->n++;
	return 0;
}

static int refuse(const char **rule, const char **detail, int status, const char *r,
                  const char *why)
{
	*rule = r;
	*detail = why;
	return status;
}

static int status_of(db_status st)
{
	return st == DB_UNAVAILABLE || st == DB_BUSY ? 503 : 500;
}

/* Loads the game and its events and builds the seat's game for the coach. */
static int load_seat(db_conn *c, const char *id, int seat, er_coach_game *g, const char **rule,
                     const char **detail)
{
	db_game_row row;
	db_status st = db_game_get(c, id, NULL, false, &row);
	if (st != DB_OK)
		return refuse(rule, detail, status_of(st), NULL, "the database is unavailable");
	int status = 0;
	er_game_config cfg;
	event_list l = {0};
	if (!row.found || strcmp(row.kind, "er") != 0) {
		status = refuse(rule, detail, 404, NULL, "no such game");
	} else if (er_config_parse(er_api_data(), row.config, &cfg) != 0) {
		log_bug("game %s: its stored configuration does not parse", id);
		status = refuse(rule, detail, 500, NULL, "the stored game does not replay");
	} else if (seat < 1 || seat > cfg.nseats) {
		status =
		    refuse(rule, detail, 404, ER_RULE_NO_SUCH_SEAT, "no such seat in this game");
	} else if (cfg.solo && seat == 2) {
		status = refuse(rule, detail, 422, ER_RULE_BOT_SEAT,
		                "ALICAT's seat has no choices to analyse");
	} else if (!row.finished) {
		status =
		    refuse(rule, detail, 409, RULE_NOT_FINISHED,
		           "the game is not finished: its analysis would show the draw to come");
	} else {
		int stopped = 0;
		st = db_events_between(c, id, 0, row.version, add_event, &l, &stopped);
		if (st != DB_OK) {
			status = refuse(rule, detail, status_of(st), NULL,
			                "the database is unavailable");
		} else if (stopped || er_coach_game_from_log(er_api_data(), &cfg, l.ev, l.n, seat,
		                                             g) != cfg.nturns) {
			log_bug("game %s: its log does not replay for the coach", id);
			status = refuse(rule, detail, 500, NULL, "the stored game does not replay");
		}
	}
	free(l.ev);
	db_game_row_clear(&row);
	return status;
}

static void key_of(coach_run_key *k, const char *game, int seat, int width)
{
	snprintf(k->game, sizeof k->game, "%s", game);
	k->seat = seat;
	k->width = width;
}

/* The search coach_runs_take hands over, run under the deadline and stored whether it
 * completed or not (the screen, its PDF and every later ask then show the same analysis);
 * then ended. The http_resp.after of the reply that queued it: on that reply's job thread. */
static void search_after(void)
{
	coach_run_key k;
	er_coach_game *g = coach_runs_take(&k);
	if (g == NULL)
		return;
	er_coach_result *res = xmalloc(sizeof *res);
	coach_run_failure fail = {.status = 0};
	er_result r;
	bool complete = false;
	double t0 = now_ms();
	json_object *o = analyse(g, k.width, k.game, k.seat, res, &r, &complete);
	log_info("coach: game %s seat %d width %d searched in %.0f ms, %s", k.game, k.seat, k.width,
	         now_ms() - t0, complete ? "complete" : "stopped at the deadline");
	db_conn *c = db_thread_conn();
	if (o == NULL) {
		log_bug("game %s seat %d: a stored move breaks %s", k.game, k.seat, r.rule);
		fail = (coach_run_failure){500, "the stored game does not replay"};
	} else if (c == NULL || db_er_analysis_put(c, k.game, k.seat, k.width,
	                                           json_object_to_json_string_ext(
	                                               o, JSON_C_TO_STRING_PLAIN)) != DB_OK) {
		fail = (coach_run_failure){503, "the database is unavailable"};
	}
	json_object_put(o);
	coach_runs_end(&k, fail.status ? &fail : NULL);
	free(res);
	free(g);
}

/* 202: the search runs; ask again after Retry-After. */
static void reply_searching(http_resp *resp, int width)
{
	json_object *o = jx_obj();
	jx_set(o, "searching", json_object_new_boolean(1));
	jx_set(o, "width", jx_int(width));
	jx_set(o, "deadline_ms", jx_int(deadline_ms()));
	http_reply_json(resp, 202, o);
	http_resp_header(resp, "Retry-After", "1");
}

/* A refusal (503 with Retry-After); returns 0, as er_coach_analysis_get does then. */
static int reply_refused(http_resp *resp, int status, const char *detail, const char *rule)
{
	http_reply_problem(resp, status, detail, rule, NULL);
	if (status == 503)
		http_resp_header(resp, "Retry-After", "1");
	return 0;
}

/* The reply of a search in flight or just failed: true when st is one. */
static bool reply_in_flight(http_resp *resp, coach_run_state st, const coach_run_failure *fail,
                            int width)
{
	if (st == COACH_RUN_RUNNING)
		reply_searching(resp, width);
	else if (st == COACH_RUN_FAILED)
		reply_refused(resp, fail->status, fail->detail, NULL);
	return st == COACH_RUN_RUNNING || st == COACH_RUN_FAILED;
}

int er_coach_analysis_get(const char *game_id, int seat, int width, http_resp *resp,
                          char **out_json)
{
	*out_json = NULL;
	if (width == 0)
		width = er_coach_default_width();
	if (width < 1 || width > ER_COACH_MAX_WIDTH)
		return reply_refused(resp, 400, "width: a whole number from 1 to 256",
		                     ER_COACH_RULE_WIDTH);
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return reply_refused(resp, 503, "the database is unavailable", NULL);
	coach_run_key k;
	key_of(&k, game_id, seat, width);
	coach_run_failure fail;
	er_coach_game *g = NULL;
	if (reply_in_flight(resp, coach_runs_ask(&k, &g, &fail), &fail, width))
		return 0;
	bool found;
	db_status st = db_er_analysis_get(c, game_id, seat, width, out_json, &found);
	if (st != DB_OK)
		return reply_refused(resp, status_of(st), "the database is unavailable", NULL);
	if (found)
		return 1;
	const char *rule = NULL, *detail = NULL;
	g = xmalloc(sizeof *g);
	int status = load_seat(c, game_id, seat, g, &rule, &detail);
	if (status != 0) {
		free(g);
		return reply_refused(resp, status, detail, rule);
	}
	coach_run_state run = coach_runs_ask(&k, &g, &fail);
	free(g); /* NULL when the search took it */
	if (run == COACH_RUN_STARTED) {
		reply_searching(resp, width);
		resp->after = search_after;
	} else if (run == COACH_RUN_FULL) {
		reply_refused(resp, 503, "the coach is searching for other games", NULL);
	} else {
		reply_in_flight(resp, run, &fail, width);
	}
	return 0;
}

static int reply_text(http_resp *resp, char *text)
{
	resp->status = 200;
	resp->content_type = "application/json";
	resp->body = text;
	resp->body_len = strlen(text);
	return 0;
}

int api_er_game_analysis(const http_req *req, http_resp *resp)
{
	int width;
	if (!http_query_number(req, resp, "width", 0, 1, ER_COACH_MAX_WIDTH, ER_COACH_RULE_WIDTH,
	                       &width))
		return 0;
	/* anyone who may read the game may read its analysis (any token of the game) */
	table_game *tg = table_load_for_read(req, resp, &er_table_kind, req->params[0]);
	if (tg == NULL)
		return 0;
	table_game_free(tg);
	int seat = http_whole_number(req->params[1], 1, ER_MAX_SEATS);
	if (seat < 0)
		return http_reply_problem(resp, 404, "no such seat in this game",
		                          ER_RULE_NO_SUCH_SEAT, NULL);
	char *text;
	if (er_coach_analysis_get(req->params[0], seat, width, resp, &text))
		return reply_text(resp, text);
	return 0;
}

/* ---- POST /api/v1/er/analysis: a game played on paper ---- */

static int parse_specs(const er_data *d, json_object *o, er_coach_game *g, js_error *err)
{
	json_object *cardio = NULL, *radio = NULL, *epi = NULL;
	const char *rs = NULL, *es = NULL;
	const js_field f[] = {
	    {"cardiologists", JS_ARRAY, JS_F_REQUIRED, 2, 2, NULL, &cardio, NULL},
	    {"radiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &rs, NULL},
	    {"epidemiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &es, NULL},
	};
	if (js_fields(o, "/specialists", f, sizeof f / sizeof f[0], err) != 0)
		return -1;
	for (int k = 0; k < 2; k++) {
		char at[64];
		snprintf(at, sizeof at, "/specialists/cardiologists/%d", k);
		/* not null: a game has two (rulebook, GETTING READY 4) */
		if (er_json_specialist(d, json_object_array_get_idx(cardio, (size_t)k), at,
		                       ER_KIND_CARDIOLOGIST, false, &g->cardio[k], err) != 0)
			return -1;
	}
	if (g->cardio[0] == g->cardio[1]) {
		snprintf(err->field, sizeof err->field, "/specialists/cardiologists/1");
		snprintf(err->detail, sizeof err->detail, "the two Cardiologists must differ");
		return -1;
	}
	json_object_object_get_ex(o, "radiologist", &radio);
	json_object_object_get_ex(o, "epidemiologist", &epi);
	if (er_json_specialist(d, radio, "/specialists/radiologist", ER_KIND_RADIOLOGIST, false,
	                       &g->radiologist, err) != 0 ||
	    er_json_specialist(d, epi, "/specialists/epidemiologist", ER_KIND_EPIDEMIOLOGIST, false,
	                       &g->epidemiologist, err) != 0)
		return -1;
	return 0;
}

static int parse_taken(json_object *arr, er_coach_game *g, js_error *err)
{
	int n = arr ? (int)json_object_array_length(arr) : 0;
	for (int i = 0; i < n; i++) {
		char at[64];
		snprintf(at, sizeof at, "/cardiologists_taken/%d", i);
		int64_t card = 0, turn = 0;
		const js_field f[] = {
		    {"card", JS_INT, JS_F_REQUIRED, 0, 1, NULL, &card, NULL},
		    {"turn", JS_INT, JS_F_REQUIRED, 1, g->nturns, NULL, &turn, NULL},
		};
		if (js_fields(json_object_array_get_idx(arr, (size_t)i), at, f, 2, err) != 0)
			return -1;
		g->others[g->nothers++] = (er_coach_other){(int8_t)card, (int8_t)turn};
	}
	return 0;
}

/* The body into *g and *width; 0, or -1 with err (400). */
static int parse_post(json_object *root, er_coach_game *g, int *width, js_error *err)
{
	const er_data *d = er_api_data();
	json_object *specs = NULL, *turns = NULL, *moves = NULL, *taken = NULL;
	int64_t players = 1, w = 0;
	bool has_width = false;
	const js_field f[] = {
	    {"specialists", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &specs, NULL},
	    {"players", JS_INT, 0, 1, ER_MAX_SEATS, NULL, &players, NULL},
	    {"turns", JS_ARRAY, JS_F_REQUIRED, 1, ER_COACH_MAX_TURNS, NULL, &turns, NULL},
	    {"moves", JS_ARRAY, JS_F_REQUIRED, 1, ER_COACH_MAX_TURNS, NULL, &moves, NULL},
	    {"cardiologists_taken", JS_ARRAY, 0, 0, ER_COACH_MAX_OTHERS, NULL, &taken, NULL},
	    {"width", JS_INT, 0, 0, 0, NULL, &w, &has_width},
	};
	memset(g, 0, sizeof *g);
	if (js_fields(root, "", f, sizeof f / sizeof f[0], err) != 0 ||
	    parse_specs(d, specs, g, err) != 0)
		return -1;
	g->nplayers = (int)players;
	g->nturns = (int)json_object_array_length(turns);
	if ((int)json_object_array_length(moves) != g->nturns) {
		snprintf(err->field, sizeof err->field, "/moves");
		snprintf(err->detail, sizeof err->detail, "one move per turn: %d turns", g->nturns);
		return -1;
	}
	for (int t = 0; t < g->nturns; t++) {
		char at[32];
		snprintf(at, sizeof at, "/turns/%d", t);
		if (er_json_turn_parse(json_object_array_get_idx(turns, (size_t)t), at,
		                       &g->turns[t], err) != 0)
			return -1;
		snprintf(at, sizeof at, "/moves/%d", t);
		if (er_json_move_parse(json_object_array_get_idx(moves, (size_t)t), at,
		                       &g->moves[t], err) != 0)
			return -1;
	}
	if (parse_taken(taken, g, err) != 0)
		return -1;
	*width = has_width ? (int)w : er_coach_default_width();
	return 0;
}

int api_er_analysis(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	er_coach_game *g = xmalloc(sizeof *g);
	er_coach_result *res = xmalloc(sizeof *res);
	js_error err = {{0}, {0}};
	int width = 0;
	if (parse_post(root, g, &width, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
	} else if (width < 1 || width > ER_COACH_MAX_WIDTH) {
		http_reply_problem(resp, 400, "width: a whole number from 1 to 256",
		                   ER_COACH_RULE_WIDTH, "/width");
	} else {
		er_result r;
		bool complete;
		json_object *o = analyse(g, width, NULL, 0, res, &r, &complete);
		if (o) {
			http_reply_json(resp, 200, o);
		} else {
			json_object *extra = jx_obj();
			jx_set(extra, "turn", jx_int(res->bad_turn));
			char field[64];
			char step[96];
			snprintf(field, sizeof field, "/moves/%d", res->bad_turn - 1);
			const char *at = er_api_rule_field(&r, field, step, sizeof step);
			http_reply_problem_ex(resp, 422, r.detail, r.rule, at ? at : field, extra);
		}
	}
	json_object_put(root);
	free(g);
	free(res);
	return 0;
}
