/* ER games at the table (api.md "Games"): create, join, reveal, move, undo, state, log.
 *
 * Every accepted action is a row of `events`; the state is the replay of the log through the
 * pure state machine (rules/er_game.c). A mutation locks the game row (SELECT … FOR UPDATE),
 * replays, applies the new event to the state, appends it with the next version, bumps
 * games.version and NOTIFYs "id:version" (live updates, api/live.c) — all in one transaction,
 * so an acknowledged move is committed and two writers of one game are serialised. */
#include "api/er_games.h"

#include "api/er_api.h"
#include "api/er_json.h"
#include "api/game_cache.h"
#include "api/live.h"
#include "api/ratelimit.h"
#include "api/tokens.h"
#include "db/db.h"
#include "rules/er_game.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ER_MAX_TURNS = 25, NAME_MAX_BYTES = 64 };

static const char *const deck_names[] = {"table", "app", NULL};

/* POST /join guesses a 6-character code: each client address gets JOIN_BURST attempts, then
 * one every JOIN_EVERY_S seconds (429 beyond). A table joining needs a handful. */
enum { JOIN_BURST = 20, JOIN_EVERY_S = 2 };
static ratelimit *g_join_limit;

int er_games_init(void)
{
	g_join_limit = ratelimit_new(JOIN_BURST, 1.0 / JOIN_EVERY_S);
	return g_join_limit ? 0 : -1;
}

void er_games_shutdown(void)
{
	ratelimit_free(g_join_limit);
	g_join_limit = NULL;
}
static const char *const colour_names[] = {"red", "yellow", "green", NULL};

/* A game as loaded for one request. Lives on the heap (it holds the replayed state). */
typedef struct {
	char id[ID_LEN + 1];
	er_game g;
	bool is_host;
	int token_seat; /* the seat the token belongs to, 0 if none */
	char code[CODE_LEN + 1];
	char names[ER_MAX_SEATS][NAME_MAX_BYTES * 4 + 1];
	bool bot[ER_MAX_SEATS];
	char league[NAME_MAX_BYTES * 4 + 1];
	/* the last effective move of each (seat, turn): answers an identical resubmission */
	bool has_move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
	er_move move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
} game_ctx;

/* ---- configuration and events as JSON ---- */

static json_object *config_json(const er_data *d, const er_game_config *cfg)
{
	char seed[32];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "nseats", json_object_new_int(cfg->nseats));
	json_object_object_add(o, "solo", json_object_new_boolean(cfg->solo));
	json_object_object_add(o, "alicat_modifiers", er_json_modifiers(cfg->modifiers));
	json_object *c = json_object_new_array();
	for (int k = 0; k < 2; k++)
		json_object_array_add(c,
		                      json_object_new_string(d->specialists[cfg->cardio[k]].code));
	json_object_object_add(o, "cardiologists", c);
	json_object_object_add(o, "radiologist",
	                       json_object_new_string(d->specialists[cfg->radiologist].code));
	json_object_object_add(o, "epidemiologist",
	                       json_object_new_string(d->specialists[cfg->epidemiologist].code));
	json_object_object_add(o, "deck", json_object_new_string(deck_names[cfg->app_deck]));
	snprintf(seed, sizeof seed, "%" PRIu64, cfg->seed);
	json_object_object_add(o, "seed", json_object_new_string(seed));
	json_object_object_add(o, "nturns", json_object_new_int(cfg->nturns));
	return o;
}

static int config_parse(const er_data *d, const char *text, er_game_config *cfg)
{
	json_object *o = json_tokener_parse(text), *v;
	int rc = -1;
	js_error err;
	if (o == NULL)
		return -1;
	memset(cfg, 0, sizeof *cfg);
	if (json_object_object_get_ex(o, "nseats", &v))
		cfg->nseats = json_object_get_int(v);
	if (json_object_object_get_ex(o, "solo", &v))
		cfg->solo = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "alicat_modifiers", &v) &&
	    er_json_modifiers_parse(v, "", &cfg->modifiers, &err) != 0)
		goto out;
	if (!json_object_object_get_ex(o, "cardiologists", &v) || json_object_array_length(v) != 2)
		goto out;
	for (int k = 0; k < 2; k++)
		cfg->cardio[k] =
		    er_spec_from_code(d, json_object_get_string(json_object_array_get_idx(v, k)));
	if (json_object_object_get_ex(o, "radiologist", &v))
		cfg->radiologist = er_spec_from_code(d, json_object_get_string(v));
	if (json_object_object_get_ex(o, "epidemiologist", &v))
		cfg->epidemiologist = er_spec_from_code(d, json_object_get_string(v));
	if (json_object_object_get_ex(o, "deck", &v))
		cfg->app_deck = strcmp(json_object_get_string(v), "app") == 0;
	if (json_object_object_get_ex(o, "seed", &v))
		cfg->seed = strtoull(json_object_get_string(v), NULL, 10);
	rc = er_game_config_finish(d, cfg).rule ? -1 : 0;
out:
	json_object_put(o);
	return rc;
}

static const char *event_kind_name(er_event_kind k)
{
	return k == ER_EV_REVEAL ? "reveal" : k == ER_EV_MOVE ? "move" : "undo";
}

static json_object *event_payload(const er_event *ev)
{
	json_object *o = json_object_new_object();
	if (ev->kind == ER_EV_REVEAL) {
		json_object_object_add(o, "card", json_object_new_int(ev->card));
		json_object *dice = json_object_new_object();
		for (int c = 0; c < ER_DICE; c++)
			json_object_object_add(dice, colour_names[c],
			                       json_object_new_int(ev->dice[c]));
		json_object_object_add(o, "dice", dice);
	} else if (ev->kind == ER_EV_MOVE) {
		json_object_object_add(o, "move", er_json_move(&ev->move));
		if (ev->alicat_discard >= 0)
			json_object_object_add(o, "alicat_discard",
			                       json_object_new_int(ev->alicat_discard + 1));
	}
	return o;
}

/* Decodes a stored event (our own writing: a failure here is a bug or a corrupted log). */
static int event_parse(const char *kind, int seat, int turn, const char *payload, er_event *ev)
{
	json_object *o = json_tokener_parse(payload), *v;
	js_error err;
	int rc = -1;
	if (o == NULL)
		return -1;
	memset(ev, 0, sizeof *ev);
	ev->seat = seat;
	ev->turn = turn;
	ev->alicat_discard = -1;
	if (strcmp(kind, "reveal") == 0) {
		ev->kind = ER_EV_REVEAL;
		er_turn t;
		json_object *dice;
		if (!json_object_object_get_ex(o, "card", &v) ||
		    !json_object_object_get_ex(o, "dice", &dice))
			goto out;
		json_object *tmp = json_object_new_object();
		json_object_object_add(tmp, "card", json_object_get(v));
		json_object_object_add(tmp, "dice", json_object_get(dice));
		rc = er_json_turn_parse(tmp, "", &t, &err);
		json_object_put(tmp);
		if (rc != 0)
			goto out;
		ev->card = t.card;
		memcpy(ev->dice, t.dice, sizeof ev->dice);
	} else if (strcmp(kind, "move") == 0) {
		ev->kind = ER_EV_MOVE;
		if (!json_object_object_get_ex(o, "move", &v) ||
		    er_json_move_parse(v, "", &ev->move, &err) != 0)
			goto out;
		if (json_object_object_get_ex(o, "alicat_discard", &v))
			ev->alicat_discard = json_object_get_int(v) - 1;
	} else if (strcmp(kind, "undo") == 0) {
		ev->kind = ER_EV_UNDO;
	} else {
		goto out;
	}
	rc = 0;
out:
	json_object_put(o);
	return rc;
}

/* ---- replies ---- */

static int reply_db(http_resp *resp)
{
	http_resp_clear(resp);
	if (!db_available()) {
		http_reply_problem(resp, 503, "the database is unavailable; try again shortly",
		                   NULL, NULL);
		return http_resp_header(resp, "Retry-After", "5");
	}
	return http_reply_problem(resp, 500, "internal error while storing the game", NULL, NULL);
}

static int reply_rule(http_resp *resp, const er_result *r)
{
	int status = er_game_rule_status(r->rule);
	return http_reply_problem(resp, status, r->detail, r->rule, NULL);
}

static json_object *specialists_json(const er_data *d, const game_ctx *x)
{
	const er_game *g = &x->g;
	json_object *o = json_object_new_object();
	json_object *c = json_object_new_array();
	for (int k = 0; k < 2; k++) {
		json_object *co = json_object_new_object();
		int offer = g->cardio_state[k];
		json_object_object_add(
		    co, "id", json_object_new_string(d->specialists[g->cfg.cardio[k]].code));
		json_object_object_add(co, "offer", json_object_new_int(offer));
		json_object_object_add(co, "side",
		                       offer > 0 ? json_object_new_int(offer)
		                                 : json_object_new_string("discarded"));
		json_object_array_add(c, co);
	}
	json_object_object_add(o, "cardiologists", c);
	json_object_object_add(o, "radiologist",
	                       json_object_new_string(d->specialists[g->cfg.radiologist].code));
	json_object_object_add(o, "epidemiologist",
	                       json_object_new_string(d->specialists[g->cfg.epidemiologist].code));
	return o;
}

static bool turn_closed(const er_game *g)
{
	for (int s = 0; s < g->cfg.nseats; s++)
		if (!g->moved[s])
			return false;
	return true;
}

static json_object *turn_json(const er_game *g)
{
	if (g->turn == 0)
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "number", json_object_new_int(g->turn));
	json_object_object_add(o, "card", json_object_new_int(g->card));
	json_object *dice = json_object_new_object();
	for (int c = 0; c < ER_DICE; c++)
		json_object_object_add(dice, colour_names[c], json_object_new_int(g->dice[c]));
	json_object_object_add(o, "dice", dice);
	/* Seat 1 leads turn 1 and the card passes clockwise every turn (seed 003, END OF TURN),
	 * so this is the turn's chief even after it closed (g->chief_seat is the next one). */
	json_object_object_add(o, "chief_seat",
	                       json_object_new_int((g->turn - 1) % g->cfg.nseats + 1));
	json_object_object_add(o, "chief_die",
	                       g->chief_die == ER_NO_COLOUR
	                           ? NULL
	                           : json_object_new_string(colour_names[g->chief_die]));
	json_object *moved = json_object_new_array();
	for (int s = 0; s < g->cfg.nseats; s++)
		if (g->moved[s])
			json_object_array_add(moved, json_object_new_int(s + 1));
	json_object_object_add(o, "moved", moved);
	json_object_object_add(o, "closed", json_object_new_boolean(turn_closed(g)));
	return o;
}

/* What the table waits for: "reveal" (by chief_seat), "move" (seats), or "finished". */
static json_object *next_json(const er_game *g)
{
	json_object *o = json_object_new_object();
	if (g->finished) {
		json_object_object_add(o, "action", json_object_new_string("finished"));
		return o;
	}
	if (g->turn == 0 || turn_closed(g)) {
		json_object_object_add(o, "action", json_object_new_string("reveal"));
		json_object_object_add(o, "turn", json_object_new_int(g->turn + 1));
		json_object_object_add(o, "chief_seat", json_object_new_int(g->chief_seat));
		return o;
	}
	json_object_object_add(o, "action", json_object_new_string("move"));
	json_object_object_add(o, "turn", json_object_new_int(g->turn));
	json_object *seats = json_object_new_array();
	bool chief_moved = g->moved[g->chief_seat - 1];
	for (int s = 0; s < g->cfg.nseats; s++)
		if (!g->moved[s] && (chief_moved || s + 1 == g->chief_seat))
			json_object_array_add(seats, json_object_new_int(s + 1));
	json_object_object_add(o, "seats", seats);
	return o;
}

static json_object *state_json(const er_data *d, const game_ctx *x)
{
	const er_game *g = &x->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(x->id));
	json_object_object_add(o, "kind", json_object_new_string("er"));
	json_object_object_add(o, "code", json_object_new_string(x->code));
	json_object_object_add(o, "status",
	                       json_object_new_string(g->finished ? "finished" : "playing"));
	json_object_object_add(o, "version", json_object_new_int(g->version));
	json_object_object_add(o, "deck", json_object_new_string(deck_names[g->cfg.app_deck]));
	json_object_object_add(o, "solo", json_object_new_boolean(g->cfg.solo));
	json_object_object_add(o, "alicat_modifiers", er_json_modifiers(g->cfg.modifiers));
	json_object_object_add(o, "turns", json_object_new_int(g->cfg.nturns));
	if (x->league[0])
		json_object_object_add(o, "league", json_object_new_string(x->league));
	json_object_object_add(o, "specialists", specialists_json(d, x));
	json_object_object_add(o, "turn", turn_json(g));
	json_object_object_add(o, "next", next_json(g));
	json_object *seats = json_object_new_array();
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *so = json_object_new_object();
		json_object_object_add(so, "seat", json_object_new_int(s + 1));
		json_object_object_add(so, "name", json_object_new_string(x->names[s]));
		json_object_object_add(so, "bot", json_object_new_boolean(x->bot[s]));
		json_object_object_add(so, "sheet", er_json_sheet(d, &g->sheets[s]));
		json_object *sc = json_object_new_object();
		json_object_object_add(sc, "total", json_object_new_int(scores[s].total));
		json_object_object_add(sc, "breakdown", er_json_breakdown(&scores[s]));
		json_object_object_add(so, "score", sc);
		if (g->finished)
			json_object_object_add(so, "rank", json_object_new_int(ranks[s]));
		json_object_array_add(seats, so);
	}
	json_object_object_add(o, "seats", seats);
	if (x->token_seat)
		json_object_object_add(o, "you", json_object_new_int(x->token_seat));
	return o;
}

/* Final standings stored in games.result when a game ends (for leagues). */
static json_object *result_json(const er_data *d, const game_ctx *x)
{
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(&x->g, d, scores, ranks);
	json_object *a = json_object_new_array();
	for (int s = 0; s < x->g.cfg.nseats; s++) {
		json_object *r = json_object_new_object();
		json_object_object_add(r, "seat", json_object_new_int(s + 1));
		json_object_object_add(r, "name", json_object_new_string(x->names[s]));
		json_object_object_add(r, "bot", json_object_new_boolean(x->bot[s]));
		json_object_object_add(r, "score", json_object_new_int(scores[s].total));
		json_object_object_add(r, "rank", json_object_new_int(ranks[s]));
		json_object_array_add(a, r);
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "standings", a);
	return o;
}

/* ---- loading ---- */

/* Applies one event to the replayed state and keeps the per-(seat, turn) move record. */
static int ctx_apply(const er_data *d, game_ctx *x, const er_event *ev, er_result *r)
{
	*r = er_game_apply(&x->g, d, ev);
	if (r->rule)
		return -1;
	if (ev->turn >= 1 && ev->turn <= ER_MAX_TURNS && ev->seat >= 1 &&
	    ev->seat <= ER_MAX_SEATS) {
		if (ev->kind == ER_EV_MOVE) {
			x->has_move[ev->seat - 1][ev->turn] = true;
			x->move[ev->seat - 1][ev->turn] = ev->move;
		} else if (ev->kind == ER_EV_UNDO) {
			x->has_move[ev->seat - 1][ev->turn] = false;
		}
	}
	return 0;
}

/* A fresh state: the configuration, the seats and an empty replay. */
static int ctx_fresh(db_conn *c, const char *id, const char *config, game_ctx *x, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_game_config cfg;
	const char *p[1] = {id};
	memset(x, 0, sizeof *x);
	snprintf(x->id, sizeof x->id, "%s", id);
	if (config_parse(d, config, &cfg) != 0) {
		fprintf(stderr, "bug: game %s has an unreadable configuration\n", id);
		return http_reply_problem(resp, 500, "the stored game is unreadable", NULL, NULL),
		       -1;
	}
	PGresult *r = db_exec(c, "seats_list", 1, p);
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		PQclear(r);
		return reply_db(resp), -1;
	}
	for (int i = 0; i < PQntuples(r); i++) {
		int seat = atoi(PQgetvalue(r, i, 0));
		if (seat < 1 || seat > ER_MAX_SEATS)
			continue;
		snprintf(x->names[seat - 1], sizeof x->names[0], "%s", PQgetvalue(r, i, 1));
		x->bot[seat - 1] = strcmp(PQgetvalue(r, i, 2), "t") == 0;
	}
	PQclear(r);
	er_game_init(&x->g, d, &cfg);
	return 0;
}

/* Replays the events after x's version. */
static int ctx_replay(db_conn *c, game_ctx *x, http_resp *resp)
{
	const er_data *d = er_api_data();
	char after[16];
	snprintf(after, sizeof after, "%d", x->g.version);
	const char *p[2] = {x->id, after};
	PGresult *r = db_exec(c, "events_after", 2, p);
	int rc = -1;
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		reply_db(resp);
		goto out;
	}
	for (int i = 0; i < PQntuples(r); i++) {
		er_event ev;
		er_result er;
		if (event_parse(PQgetvalue(r, i, 1), atoi(PQgetvalue(r, i, 2)),
		                atoi(PQgetvalue(r, i, 3)), PQgetvalue(r, i, 4), &ev) != 0 ||
		    ctx_apply(d, x, &ev, &er) != 0) {
			fprintf(stderr, "bug: game %s event %s does not replay\n", x->id,
			        PQgetvalue(r, i, 0));
			http_reply_problem(resp, 500, "the stored game does not replay", NULL,
			                   NULL);
			goto out;
		}
	}
	rc = 0;
out:
	PQclear(r);
	return rc;
}

/* Reads the game row (locking it when `lock`) and the state at its version: from the cache
 * when it holds that version, else the cached state plus the newer events, else a full replay.
 * The token hash may be NULL (no authentication). Replies (404 / 401 / 503 / 500) and returns
 * -1 on failure. */
static int ctx_load(db_conn *c, const char *id, const char *hash, bool lock, game_ctx *x,
                    http_resp *resp)
{
	const char *p[2] = {id, hash ? hash : ""};
	PGresult *r = db_exec(c, lock ? "game_lock" : "game_get", 2, p);
	int rc = -1;
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		reply_db(resp);
		goto out;
	}
	if (PQntuples(r) == 0 || strcmp(PQgetvalue(r, 0, 0), "er") != 0) {
		http_reply_problem(resp, 404, "no such game", NULL, NULL);
		goto out;
	}
	bool is_host = strcmp(PQgetvalue(r, 0, 3), "t") == 0;
	int token_seat = PQgetisnull(r, 0, 4) ? 0 : atoi(PQgetvalue(r, 0, 4));
	if (hash && !is_host && token_seat == 0) {
		http_reply_problem(resp, 401, "this token does not belong to this game", NULL,
		                   NULL);
		goto out;
	}
	int version = atoi(PQgetvalue(r, 0, 2));
	int cached = game_cache_get(id, x, sizeof *x);
	if ((cached < 0 || cached > version) && ctx_fresh(c, id, PQgetvalue(r, 0, 1), x, resp) != 0)
		goto out;
	if (x->g.version < version && ctx_replay(c, x, resp) != 0)
		goto out;
	if (x->g.version != version) {
		fprintf(stderr, "bug: game %s at version %d replays to %d\n", id, version,
		        x->g.version);
		http_reply_problem(resp, 500, "the stored game does not replay", NULL, NULL);
		goto out;
	}
	if (cached != version)
		game_cache_put(id, version, x, sizeof *x);
	x->is_host = is_host;
	x->token_seat = token_seat;
	snprintf(x->code, sizeof x->code, "%s", PQgetvalue(r, 0, 5));
	snprintf(x->league, sizeof x->league, "%s", PQgetvalue(r, 0, 6));
	rc = 0;
out:
	PQclear(r);
	return rc;
}

/* ---- mutations ---- */

typedef enum { OP_REVEAL, OP_MOVE, OP_UNDO } mutate_op;

typedef struct {
	mutate_op op;
	const char *id, *hash;
	int seat;      /* MOVE / UNDO: the seat of the path */
	int turn;      /* the turn the request is for (0: unspecified, reveal only) */
	bool has_card; /* REVEAL: card and dice given (table deck) */
	er_event ev;
	http_resp *resp;
	game_ctx *x;
} mutate_arg;

static db_status append_event(db_conn *c, const game_ctx *x, const er_event *ev)
{
	char version[16], seat[16], turn[16];
	snprintf(version, sizeof version, "%d", x->g.version);
	snprintf(seat, sizeof seat, "%d", ev->seat);
	snprintf(turn, sizeof turn, "%d", ev->turn);
	json_object *payload = event_payload(ev);
	const char *p[6] = {
	    x->id, version, event_kind_name(ev->kind),
	    seat,  turn,    json_object_to_json_string_ext(payload, JSON_C_TO_STRING_PLAIN)};
	PGresult *r = db_exec(c, "event_insert", 6, p);
	db_status st = r ? db_result_status(c, r) : DB_UNAVAILABLE;
	PQclear(r);
	json_object_put(payload);
	return st;
}

/* Authorises the request against the loaded game; replies 403 and returns -1 otherwise. */
static int authorise(const mutate_arg *a, const game_ctx *x)
{
	if (x->is_host)
		return 0;
	if (a->op == OP_REVEAL) {
		/* The chief reveals; at a solo table the human reveals ALICAT's turns too. */
		if (x->token_seat == x->g.chief_seat || (x->g.cfg.solo && x->token_seat == 1))
			return 0;
		http_reply_problem(a->resp, 403, "only the Chief Physician reveals the turn",
		                   ER_RULE_NOT_CHIEF, NULL);
		return -1;
	}
	if (x->token_seat != a->seat) {
		http_reply_problem(a->resp, 403, "a seat token writes only its own seat", NULL,
		                   NULL);
		return -1;
	}
	return 0;
}

/* Builds the event of the request on the loaded state; replies and returns -1 if it cannot. */
static int build_event(mutate_arg *a, const game_ctx *x)
{
	const er_game *g = &x->g;
	er_event *ev = &a->ev;
	if (a->op == OP_REVEAL) {
		ev->kind = ER_EV_REVEAL;
		ev->seat = g->chief_seat;
		ev->turn = a->turn ? a->turn : g->turn + 1;
		if (!g->cfg.app_deck && !a->has_card) {
			http_reply_problem(a->resp, 400,
			                   "a table-deck game needs the flipped \"card\" and the "
			                   "rolled \"dice\"",
			                   NULL, "/card");
			return -1;
		}
		if (g->cfg.app_deck && a->has_card) {
			http_reply_problem(a->resp, 400,
			                   "an app-deck game draws and rolls by itself: send {}",
			                   NULL, "/card");
			return -1;
		}
		if (g->cfg.app_deck && ev->turn >= 1 && ev->turn <= g->cfg.nturns)
			er_game_app_reveal(&g->cfg, ev->turn, &ev->card, ev->dice);
		return 0;
	}
	if (a->seat < 1 || a->seat > g->cfg.nseats) {
		http_reply_problem(a->resp, 404, "no such seat", ER_RULE_NO_SUCH_SEAT, NULL);
		return -1;
	}
	if (x->bot[a->seat - 1]) {
		http_reply_problem(a->resp, 403, "ALICAT moves by itself", ER_RULE_BOT_SEAT, NULL);
		return -1;
	}
	ev->kind = a->op == OP_MOVE ? ER_EV_MOVE : ER_EV_UNDO;
	ev->seat = a->seat;
	ev->turn = a->turn;
	return 0;
}

static db_status mutate_tx(db_conn *c, void *arg)
{
	mutate_arg *a = arg;
	game_ctx *x = a->x;
	const er_data *d = er_api_data();
	er_result r;
	http_resp_clear(a->resp);
	if (ctx_load(c, a->id, a->hash, true, x, a->resp) != 0)
		return DB_ABORT;
	if (build_event(a, x) != 0 || authorise(a, x) != 0)
		return DB_ABORT;
	/* An identical resubmission of the seat's standing move is answered as before. */
	if (a->op == OP_MOVE && a->turn >= 1 && a->turn <= ER_MAX_TURNS &&
	    x->has_move[a->seat - 1][a->turn] &&
	    memcmp(&x->move[a->seat - 1][a->turn], &a->ev.move, sizeof a->ev.move) == 0) {
		http_reply_json(a->resp, 200, state_json(d, x));
		return DB_ABORT;
	}
	if (ctx_apply(d, x, &a->ev, &r) != 0) {
		reply_rule(a->resp, &r);
		return DB_ABORT;
	}
	db_status st = append_event(c, x, &a->ev);
	/* ALICAT moves by itself as soon as it may (solo): first when chief, else after you. */
	er_event bot;
	while (st == DB_OK && er_game_alicat_next(&x->g, d, &bot)) {
		if (ctx_apply(d, x, &bot, &r) != 0) {
			fprintf(stderr, "bug: ALICAT's move is illegal: %s (%s)\n", r.rule,
			        r.detail);
			http_reply_problem(a->resp, 500, "ALICAT could not move", NULL, NULL);
			return DB_ABORT;
		}
		st = append_event(c, x, &bot);
	}
	if (st != DB_OK)
		return st;
	char version[16];
	snprintf(version, sizeof version, "%d", x->g.version);
	json_object *result = x->g.finished ? result_json(d, x) : NULL;
	const char *p[4] = {x->id, version, x->g.finished ? "finished" : "playing",
	                    result ? json_object_to_json_string(result) : NULL};
	/* one statement: the new version, and NOTIFY "id:version" for live updates (live.c) */
	PGresult *res = db_exec(c, "game_update_notify", 4, p);
	st = res ? db_result_status(c, res) : DB_UNAVAILABLE;
	PQclear(res);
	json_object_put(result);
	if (st == DB_OK)
		http_reply_json(a->resp, 200, state_json(d, x));
	return st;
}

static int run_mutation(mutate_arg *a, const http_req *req, http_resp *resp)
{
	char hash[TOKEN_HASH_HEX + 1];
	const char *token = token_from_request(req);
	if (token == NULL)
		return http_reply_problem(
		    resp, 401, "send the game's token: Authorization: Bearer …", NULL, NULL);
	token_hash_hex(token, hash);
	a->id = req->params[0];
	a->hash = hash;
	a->resp = resp;
	a->x = malloc(sizeof *a->x);
	if (a->x == NULL)
		return http_reply_problem(resp, 500, "out of memory", NULL, NULL);
	db_conn *c = db_thread_conn();
	db_status st = c ? db_tx(c, false, mutate_tx, a) : DB_UNAVAILABLE;
	if (st == DB_OK) /* committed: this state is the game at its new version */
		game_cache_put(a->x->id, a->x->g.version, a->x, sizeof *a->x);
	else if (st != DB_ABORT)
		reply_db(resp);
	free(a->x);
	return 0;
}

static int parse_seat(const char *s, int *seat)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 1 || v > ER_MAX_SEATS)
		return -1;
	*seat = (int)v;
	return 0;
}

int api_er_turn_reveal(const http_req *req, http_resp *resp)
{
	mutate_arg a = {.op = OP_REVEAL};
	json_object *root = NULL, *dice = NULL;
	int64_t card = 0, turn = 0;
	js_error err = {{0}, {0}};
	bool has_card = false, has_dice = false;
	const js_field f[] = {
	    {"turn", JS_INT, 0, 1, ER_MAX_TURNS, NULL, &turn, NULL},
	    {"card", JS_INT, 0, 1, ER_CARDS, NULL, &card, &has_card},
	    {"dice", JS_OBJECT, 0, 0, 0, NULL, &dice, &has_dice},
	};
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	if (has_card != has_dice) {
		http_reply_problem(resp, 400, "send both \"card\" and \"dice\", or neither", NULL,
		                   has_card ? "/dice" : "/card");
		goto out;
	}
	if (has_card) {
		json_object *t = json_object_new_object();
		er_turn et;
		json_object_object_add(t, "card", json_object_new_int((int)card));
		json_object_object_add(t, "dice", json_object_get(dice));
		int rc = er_json_turn_parse(t, "", &et, &err);
		json_object_put(t);
		if (rc != 0) {
			er_api_reply_parse_error(resp, -1, NULL, &err);
			goto out;
		}
		a.ev.card = et.card;
		memcpy(a.ev.dice, et.dice, sizeof a.ev.dice);
	}
	a.has_card = has_card;
	a.turn = (int)turn;
	run_mutation(&a, req, resp);
out:
	json_object_put(root);
	return 0;
}

int api_er_move(const http_req *req, http_resp *resp)
{
	mutate_arg a = {.op = OP_MOVE};
	json_object *root = NULL, *move = NULL;
	int64_t turn = 0, discard = 0;
	bool has_discard = false;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"turn", JS_INT, JS_F_REQUIRED, 1, ER_MAX_TURNS, NULL, &turn, NULL},
	    {"move", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &move, NULL},
	    {"alicat_discard", JS_INT, JS_F_NULLABLE, 1, 2, NULL, &discard, &has_discard},
	};
	if (parse_seat(req->params[1], &a.seat) != 0)
		return http_reply_problem(resp, 404, "no such seat", ER_RULE_NO_SUCH_SEAT, NULL);
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0 ||
	    er_json_move_parse(move, "/move", &a.ev.move, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	a.turn = (int)turn;
	a.ev.alicat_discard = has_discard ? (int)discard - 1 : -1;
	run_mutation(&a, req, resp);
out:
	json_object_put(root);
	return 0;
}

int api_er_undo(const http_req *req, http_resp *resp)
{
	mutate_arg a = {.op = OP_UNDO};
	char *end;
	if (parse_seat(req->params[1], &a.seat) != 0)
		return http_reply_problem(resp, 404, "no such seat", ER_RULE_NO_SUCH_SEAT, NULL);
	long turn = strtol(req->params[2], &end, 10);
	if (*req->params[2] == '\0' || *end != '\0' || turn < 1 || turn > ER_MAX_TURNS)
		return http_reply_problem(resp, 404, "no such turn", NULL, NULL);
	a.turn = (int)turn;
	a.ev.alicat_discard = -1;
	return run_mutation(&a, req, resp);
}

/* ---- reads ---- */

/* Loads the game for a read with the request's token; replies and returns NULL otherwise. */
static game_ctx *load_for_read(const http_req *req, http_resp *resp)
{
	char hash[TOKEN_HASH_HEX + 1];
	const char *token = token_from_request(req);
	if (token == NULL) {
		http_reply_problem(resp, 401, "send the game's token: Authorization: Bearer …",
		                   NULL, NULL);
		return NULL;
	}
	token_hash_hex(token, hash);
	game_ctx *x = malloc(sizeof *x);
	if (x == NULL) {
		http_reply_problem(resp, 500, "out of memory", NULL, NULL);
		return NULL;
	}
	db_conn *c = db_thread_conn();
	if (c == NULL) {
		reply_db(resp);
		free(x);
		return NULL;
	}
	/* A repeatable-read snapshot: the row and its events are read at one point in time. */
	if (ctx_load(c, req->params[0], hash, false, x, resp) != 0) {
		free(x);
		return NULL;
	}
	return x;
}

int api_er_game_get(const http_req *req, http_resp *resp)
{
	game_ctx *x = load_for_read(req, resp);
	if (x == NULL)
		return 0;
	http_reply_json(resp, 200, state_json(er_api_data(), x));
	free(x);
	return 0;
}

/* The log, turn by turn: every event, and for each turn its card, dice, chief, the moves that
 * stood and every seat's sheet and total when it closed. */
int api_er_game_log(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	game_ctx *x = load_for_read(req, resp);
	if (x == NULL)
		return 0;
	db_conn *c = db_thread_conn();
	const char *p[1] = {x->id};
	PGresult *r = c ? db_exec(c, "events_list", 1, p) : NULL;
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		reply_db(resp);
		goto out;
	}
	json_object *events = json_object_new_array(), *turns = json_object_new_array();
	er_game g;
	er_game_init(&g, d, &x->g.cfg);
	for (int i = 0; i < PQntuples(r); i++) {
		er_event ev;
		json_object *e = json_object_new_object();
		json_object_object_add(e, "version",
		                       json_object_new_int(atoi(PQgetvalue(r, i, 0))));
		json_object_object_add(e, "kind", json_object_new_string(PQgetvalue(r, i, 1)));
		json_object_object_add(e, "seat", json_object_new_int(atoi(PQgetvalue(r, i, 2))));
		json_object_object_add(e, "turn", json_object_new_int(atoi(PQgetvalue(r, i, 3))));
		json_object_object_add(e, "payload", json_tokener_parse(PQgetvalue(r, i, 4)));
		json_object_object_add(e, "at", json_object_new_string(PQgetvalue(r, i, 5)));
		json_object_array_add(events, e);
		if (event_parse(PQgetvalue(r, i, 1), atoi(PQgetvalue(r, i, 2)),
		                atoi(PQgetvalue(r, i, 3)), PQgetvalue(r, i, 4), &ev) != 0 ||
		    er_game_apply(&g, d, &ev).rule)
			continue; /* ctx_load already proved the log replays */
		if (ev.kind != ER_EV_MOVE || !turn_closed(&g))
			continue;
		er_breakdown scores[ER_MAX_SEATS];
		int ranks[ER_MAX_SEATS];
		er_game_scores(&g, d, scores, ranks);
		json_object *t = turn_json(&g);
		json_object *moves = json_object_new_array(), *sheets = json_object_new_array();
		for (int s = 0; s < g.cfg.nseats; s++) {
			json_object *m = json_object_new_object();
			json_object_object_add(m, "seat", json_object_new_int(s + 1));
			json_object_object_add(m, "move", er_json_move(&g.moves[s]));
			json_object_array_add(moves, m);
			json_object *so = json_object_new_object();
			json_object_object_add(so, "seat", json_object_new_int(s + 1));
			json_object_object_add(so, "sheet", er_json_sheet(d, &g.sheets[s]));
			json_object_object_add(so, "total", json_object_new_int(scores[s].total));
			json_object_array_add(sheets, so);
		}
		json_object_object_add(t, "moves", moves);
		json_object_object_add(t, "seats", sheets);
		json_object_array_add(turns, t);
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(x->id));
	json_object_object_add(o, "status",
	                       json_object_new_string(x->g.finished ? "finished" : "playing"));
	json_object_object_add(o, "version", json_object_new_int(x->g.version));
	json_object_object_add(o, "events", events);
	json_object_object_add(o, "turns", turns);
	http_reply_json(resp, 200, o);
out:
	PQclear(r);
	free(x);
	return 0;
}

/* ---- create and join ---- */

typedef struct {
	er_game_config cfg;
	int nplayers;
	char names[ER_MAX_SEATS][NAME_MAX_BYTES + 1];
	const char *league;
	/* out */
	char id[ID_LEN + 1], code[CODE_LEN + 1], host[TOKEN_LEN + 1];
	char seat_tokens[ER_MAX_SEATS][TOKEN_LEN + 1];
} create_arg;

static db_status create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	const er_data *d = er_api_data();
	char hash[TOKEN_HASH_HEX + 1];
	json_object *cfg = config_json(d, &a->cfg);
	db_status st = DB_FAIL;
	PGresult *r = NULL;
	token_new(a->host);
	token_hash_hex(a->host, hash);
	/* A join code may collide with a live game's: draw again (ON CONFLICT DO NOTHING). */
	for (int attempt = 0; attempt < 8; attempt++) {
		id_new(a->id);
		code_new(a->code);
		const char *p[5] = {a->id, a->code, hash,
		                    json_object_to_json_string_ext(cfg, JSON_C_TO_STRING_PLAIN),
		                    a->league};
		PQclear(r);
		r = db_exec(c, "game_insert", 5, p);
		st = r ? db_result_status(c, r) : DB_UNAVAILABLE;
		if (st != DB_OK || PQntuples(r) == 1)
			break;
		st = DB_FAIL;
	}
	PQclear(r);
	json_object_put(cfg);
	for (int s = 0; st == DB_OK && s < a->cfg.nseats; s++) {
		char seat[16];
		bool bot = a->cfg.solo && s == 1;
		snprintf(seat, sizeof seat, "%d", s + 1);
		if (!bot) {
			token_new(a->seat_tokens[s]);
			token_hash_hex(a->seat_tokens[s], hash);
		}
		const char *p[5] = {a->id, seat, bot ? "ALICAT" : a->names[s], bot ? "t" : "f",
		                    bot ? NULL : hash};
		r = db_exec(c, "seat_insert", 5, p);
		st = r ? db_result_status(c, r) : DB_UNAVAILABLE;
		PQclear(r);
	}
	return st;
}

static int parse_players(json_object *players, create_arg *a, js_error *err)
{
	char at[64];
	a->nplayers = (int)json_object_array_length(players);
	for (int i = 0; i < a->nplayers; i++) {
		const char *name = NULL;
		snprintf(at, sizeof at, "/players/%d", i);
		const js_field f[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, NAME_MAX_BYTES, NULL, &name, NULL},
		};
		if (js_fields(json_object_array_get_idx(players, (size_t)i), at, f, 1, err) != 0)
			return -1;
		snprintf(a->names[i], sizeof a->names[i], "%s", name);
	}
	return 0;
}

static int parse_specialists(const er_data *d, json_object *o, er_game_config *cfg, js_error *err)
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
		if (er_json_specialist(d, json_object_array_get_idx(cardio, (size_t)k), at,
		                       ER_KIND_CARDIOLOGIST, &cfg->cardio[k], err) != 0)
			return -1;
	}
	json_object_object_get_ex(o, "radiologist", &radio);
	json_object_object_get_ex(o, "epidemiologist", &epi);
	if (er_json_specialist(d, radio, "/specialists/radiologist", ER_KIND_RADIOLOGIST,
	                       &cfg->radiologist, err) != 0 ||
	    er_json_specialist(d, epi, "/specialists/epidemiologist", ER_KIND_EPIDEMIOLOGIST,
	                       &cfg->epidemiologist, err) != 0)
		return -1;
	return 0;
}

static json_object *create_reply(const er_data *d, const create_arg *a)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(a->id));
	json_object_object_add(o, "kind", json_object_new_string("er"));
	json_object_object_add(o, "code", json_object_new_string(a->code));
	json_object_object_add(o, "host_token", json_object_new_string(a->host));
	json_object *seats = json_object_new_array();
	for (int s = 0; s < a->cfg.nseats; s++) {
		bool bot = a->cfg.solo && s == 1;
		json_object *so = json_object_new_object();
		json_object_object_add(so, "seat", json_object_new_int(s + 1));
		json_object_object_add(so, "name",
		                       json_object_new_string(bot ? "ALICAT" : a->names[s]));
		json_object_object_add(so, "seat_token",
		                       bot ? NULL : json_object_new_string(a->seat_tokens[s]));
		json_object_object_add(so, "bot", json_object_new_boolean(bot));
		json_object_array_add(seats, so);
	}
	json_object_object_add(o, "seats", seats);
	json_object *cfg = config_json(d, &a->cfg);
	json_object *sp = json_object_new_object(), *v;
	const char *keys[] = {"cardiologists", "radiologist", "epidemiologist"};
	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(cfg, keys[i], &v))
			json_object_object_add(sp, keys[i], json_object_get(v));
	json_object_object_add(o, "specialists", sp);
	json_object_object_add(o, "deck", json_object_new_string(deck_names[a->cfg.app_deck]));
	json_object_object_get_ex(cfg, "seed", &v);
	json_object_object_add(o, "seed", json_object_get(v));
	json_object_object_add(o, "turns", json_object_new_int(a->cfg.nturns));
	json_object_object_add(o, "version", json_object_new_int(0));
	json_object_put(cfg);
	return o;
}

int api_er_game_create(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	json_object *root = NULL, *players = NULL, *mods = NULL, *specs = NULL;
	bool solo = false, has_seed = false;
	int deck = 1;
	int64_t seed = 0;
	const char *league = NULL;
	js_error err = {{0}, {0}};
	create_arg *a = calloc(1, sizeof *a);
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, ER_MAX_SEATS, NULL, &players, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL},
	    {"specialists", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &specs, NULL},
	    {"deck", JS_ENUM, 0, 0, 0, deck_names, &deck, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, NAME_MAX_BYTES, NULL, &league, NULL},
	    {"seed", JS_INT, JS_F_NULLABLE, 0, INT64_MAX, NULL, &seed, &has_seed},
	};
	if (a == NULL)
		return http_reply_problem(resp, 500, "out of memory", NULL, NULL);
	if (http_body_json(req, resp, &root) != 0)
		goto out;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0 ||
	    parse_players(players, a, &err) != 0 ||
	    (mods &&
	     er_json_modifiers_parse(mods, "/alicat_modifiers", &a->cfg.modifiers, &err) != 0)) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	if (solo && a->nplayers != 1) {
		http_reply_problem(resp, 422, "a solo game has exactly one player (and ALICAT)",
		                   "solo-one-player", "/players");
		goto out;
	}
	if (a->cfg.modifiers && !solo) {
		http_reply_problem(resp, 422, "ALICAT's modifiers apply only to solo games",
		                   "modifiers-solo-only", "/alicat_modifiers");
		goto out;
	}
	if (__builtin_popcount(a->cfg.modifiers) > 2) {
		http_reply_problem(resp, 422,
		                   "pick 1 or 2 of ALICAT's modifiers (seed 003, ADJUSTING THE "
		                   "DIFFICULTY)",
		                   "modifiers-one-or-two", "/alicat_modifiers");
		goto out;
	}
	a->cfg.solo = solo;
	a->cfg.nseats = solo ? 2 : a->nplayers;
	a->cfg.app_deck = deck == 1;
	a->cfg.seed = has_seed ? (uint64_t)seed : random_u64() >> 1;
	er_game_draw_specialists(d, a->cfg.seed, &a->cfg);
	if (specs && parse_specialists(d, specs, &a->cfg, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	er_result r = er_game_config_finish(d, &a->cfg);
	if (r.rule) {
		http_reply_problem(resp, 422, r.detail, r.rule, NULL);
		goto out;
	}
	a->league = league;
	db_conn *c = db_thread_conn();
	db_status st = c ? db_tx(c, false, create_tx, a) : DB_UNAVAILABLE;
	if (st != DB_OK) {
		reply_db(resp);
		goto out;
	}
	http_reply_json(resp, 201, create_reply(d, a));
	char loc[128];
	snprintf(loc, sizeof loc, "/api/v1/er/games/%s", a->id);
	http_resp_header(resp, "Location", loc);
out:
	json_object_put(root);
	free(a);
	return 0;
}

/* POST /api/v1/join {"code","seat"}: hands a phone its seat. Tokens are stored only as hashes,
 * so joining issues a fresh token for the seat (the previous one stops working). */
int api_join(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *code = NULL;
	int64_t seat = 0;
	js_error err = {{0}, {0}};
	char seat_s[16], token[TOKEN_LEN + 1], hash[TOKEN_HASH_HEX + 1], upper[CODE_LEN + 1];
	PGresult *r = NULL;
	const js_field f[] = {
	    {"code", JS_STRING, JS_F_REQUIRED, CODE_LEN, CODE_LEN, NULL, &code, NULL},
	    {"seat", JS_INT, JS_F_REQUIRED, 1, ER_MAX_SEATS, NULL, &seat, NULL},
	};
	if (ratelimit_reply(g_join_limit, req, resp))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	for (int i = 0; i < CODE_LEN; i++)
		upper[i] = (char)(code[i] >= 'a' && code[i] <= 'z' ? code[i] - 32 : code[i]);
	upper[CODE_LEN] = '\0';
	snprintf(seat_s, sizeof seat_s, "%d", (int)seat);
	token_new(token);
	token_hash_hex(token, hash);
	db_conn *c = db_thread_conn();
	const char *p[3] = {upper, seat_s, hash};
	r = c ? db_exec(c, "seat_join", 3, p) : NULL;
	if (r == NULL || PQresultStatus(r) != PGRES_TUPLES_OK) {
		reply_db(resp);
		goto out;
	}
	if (PQntuples(r) == 0) {
		http_reply_problem(resp, 404, "no game with this code has a player in this seat",
		                   NULL, "/code");
		goto out;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "game", json_object_new_string(PQgetvalue(r, 0, 0)));
	json_object_object_add(o, "kind", json_object_new_string(PQgetvalue(r, 0, 1)));
	json_object_object_add(o, "seat", json_object_new_int((int)seat));
	json_object_object_add(o, "name", json_object_new_string(PQgetvalue(r, 0, 2)));
	json_object_object_add(o, "seat_token", json_object_new_string(token));
	http_reply_json(resp, 200, o);
out:
	PQclear(r);
	json_object_put(root);
	return 0;
}

/* ---- live updates ---- */

int api_er_game_events(const http_req *req, http_resp *resp)
{
	/* As load_for_read, but the token may also come as ?token= (EventSource cannot send
	 * headers; token_for_stream): the only route that accepts one in the URL. */
	char hash[TOKEN_HASH_HEX + 1];
	const char *token = token_for_stream(req);
	if (token == NULL)
		return http_reply_problem(
		    resp, 401, "send the game's token: Authorization: Bearer … or ?token=…", NULL,
		    NULL);
	token_hash_hex(token, hash);
	db_conn *c = db_thread_conn();
	if (c == NULL)
		return reply_db(resp);
	game_ctx *x = malloc(sizeof *x);
	if (x == NULL)
		return http_reply_problem(resp, 500, "out of memory", NULL, NULL);
	if (ctx_load(c, req->params[0], hash, false, x, resp) != 0) {
		free(x);
		return 0;
	}
	int from = 0;
	const char *last = http_header(req, "Last-Event-ID");
	if (last == NULL)
		last = http_query(req, "last_event_id");
	if (last)
		from = atoi(last);
	int rc = live_stream(req, resp, x->id, from < 0 ? 0 : from, x->g.version);
	free(x);
	return rc;
}
