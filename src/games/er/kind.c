/* ER games at the table (api.md "Games"): the ER kind of the table engine (engine/table.h).
 *
 * Only what is ER lives here: the configuration (specialists, deck, seed, ALICAT's modifiers),
 * the events (reveal, move, undo) as JSON, who may send them, the state and result as JSON, the
 * turn-by-turn log, and ALICAT as the bot. The rules are the pure state machine of
 * rules/er_game.c; seats, tokens, storage, versions, live updates and the log are the engine's. */
#include "games/er/kind.h"

#include "games/er/data.h"
#include "games/er/json.h"
#include "engine/tokens.h"
#include "base/log.h"
#include "base/oom.h"
#include "json/jw.h"
#include "json/jx.h"
#include "rules/er_game.h"
#include "engine/table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ER_MAX_TURNS = 25 };

static const char *const deck_names[] = {"table", "app", NULL};
static const char *const colour_names[] = {"red", "yellow", "green", NULL};

/* The ER state kept by the engine: the replayed game, and the last standing move of each
 * (seat, turn) so that an identical resubmission is answered as before. A plain value. */
typedef struct {
	er_game g;
	bool has_move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
	er_move move[ER_MAX_SEATS][ER_MAX_TURNS + 1];
} er_table;

/* ---- configuration ---- */

static json_object *config_json(const er_data *d, const er_game_config *cfg)
{
	char seed[32];
	json_object *o = jx_obj(), *c = jx_arr();
	jx_set(o, "nseats", jx_int(cfg->nseats));
	jx_set(o, "solo", jx_bool(cfg->solo));
	jx_set(o, "alicat_modifiers", er_json_modifiers(cfg->modifiers));
	for (int k = 0; k < 2; k++)
		jx_push(c, jx_str(d->specialists[cfg->cardio[k]].code));
	jx_set(o, "cardiologists", c);
	jx_set(o, "radiologist", jx_str(d->specialists[cfg->radiologist].code));
	jx_set(o, "epidemiologist", jx_str(d->specialists[cfg->epidemiologist].code));
	jx_set(o, "deck", jx_str(deck_names[cfg->app_deck]));
	snprintf(seed, sizeof seed, "%" PRIu64, cfg->seed);
	jx_set(o, "seed", jx_str(seed));
	jx_set(o, "nturns", jx_int(cfg->nturns));
	return o;
}

/* Reads a stored configuration (our own writing: a failure is a bug or corrupted data). */
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

static int er_init(void *state, const char *config, int nseats)
{
	er_table *t = state;
	const er_data *d = er_api_data();
	er_game_config cfg;
	if (config_parse(d, config, &cfg) != 0 || cfg.nseats != nseats)
		return -1;
	er_game_init(&t->g, d, &cfg);
	return 0;
}

/* ---- create ---- */

/* A parse error as a refusal: 400 naming the field. */
static int refuse_parse(table_refusal *r, const js_error *err)
{
	return table_refuse(r, 400, NULL, err->field, "%s", err->detail);
}

static int parse_players(json_object *players, table_new *n, table_refusal *r)
{
	js_error err = {{0}, {0}};
	char at[64];
	n->nseats = (int)json_object_array_length(players);
	for (int i = 0; i < n->nseats; i++) {
		const char *name = NULL;
		snprintf(at, sizeof at, "/players/%d", i);
		const js_field f[] = {
		    {"name", JS_STRING, JS_F_REQUIRED, 1, TABLE_NAME_MAX, NULL, &name, NULL},
		};
		if (js_fields(json_object_array_get_idx(players, (size_t)i), at, f, 1, &err) != 0)
			return refuse_parse(r, &err);
		snprintf(n->names[i], sizeof n->names[i], "%s", name);
	}
	return 0;
}

static int parse_specialists(const er_data *d, json_object *o, er_game_config *cfg,
                             table_refusal *r)
{
	json_object *cardio = NULL, *radio = NULL, *epi = NULL;
	const char *rs = NULL, *es = NULL;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"cardiologists", JS_ARRAY, JS_F_REQUIRED, 2, 2, NULL, &cardio, NULL},
	    {"radiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &rs, NULL},
	    {"epidemiologist", JS_STRING, JS_F_REQUIRED, 1, 32, NULL, &es, NULL},
	};
	if (js_fields(o, "/specialists", f, sizeof f / sizeof f[0], &err) != 0)
		return refuse_parse(r, &err);
	for (int k = 0; k < 2; k++) {
		char at[64];
		snprintf(at, sizeof at, "/specialists/cardiologists/%d", k);
		if (er_json_specialist(d, json_object_array_get_idx(cardio, (size_t)k), at,
		                       ER_KIND_CARDIOLOGIST, &cfg->cardio[k], &err) != 0)
			return refuse_parse(r, &err);
	}
	json_object_object_get_ex(o, "radiologist", &radio);
	json_object_object_get_ex(o, "epidemiologist", &epi);
	if (er_json_specialist(d, radio, "/specialists/radiologist", ER_KIND_RADIOLOGIST,
	                       &cfg->radiologist, &err) != 0 ||
	    er_json_specialist(d, epi, "/specialists/epidemiologist", ER_KIND_EPIDEMIOLOGIST,
	                       &cfg->epidemiologist, &err) != 0)
		return refuse_parse(r, &err);
	return 0;
}

/* POST /api/v1/er/games: players, solo, ALICAT's modifiers, specialists (else drawn from the
 * seed), deck, league, seed. */
static int er_create_parse(json_object *root, table_new *n, table_refusal *r)
{
	const er_data *d = er_api_data();
	json_object *players = NULL, *mods = NULL, *specs = NULL;
	bool solo = false, has_seed = false;
	int deck = 1;
	int64_t seed = 0;
	er_game_config cfg = {0};
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, ER_MAX_SEATS, NULL, &players, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL},
	    {"specialists", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &specs, NULL},
	    {"deck", JS_ENUM, 0, 0, 0, deck_names, &deck, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, TABLE_NAME_MAX, NULL, &n->league, NULL},
	    {"seed", JS_INT, JS_F_NULLABLE, 0, INT64_MAX, NULL, &seed, &has_seed},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return refuse_parse(r, &err);
	if (parse_players(players, n, r) != 0)
		return -1;
	if (mods && er_json_modifiers_parse(mods, "/alicat_modifiers", &cfg.modifiers, &err) != 0)
		return refuse_parse(r, &err);
	if (solo && n->nseats != 1)
		return table_refuse(r, 422, "solo-one-player", "/players",
		                    "a solo game has exactly one player (and ALICAT)");
	if (cfg.modifiers && !solo)
		return table_refuse(r, 422, "modifiers-solo-only", "/alicat_modifiers",
		                    "ALICAT's modifiers apply only to solo games");
	if (__builtin_popcount(cfg.modifiers) > 2)
		return table_refuse(r, 422, "modifiers-one-or-two", "/alicat_modifiers",
		                    "pick 1 or 2 of ALICAT's modifiers (seed 003, ADJUSTING THE "
		                    "DIFFICULTY)");
	cfg.solo = solo;
	cfg.nseats = solo ? 2 : n->nseats;
	cfg.app_deck = deck == 1;
	cfg.seed = has_seed ? (uint64_t)seed : random_u64() >> 1;
	er_game_draw_specialists(d, cfg.seed, &cfg);
	if (specs && parse_specialists(d, specs, &cfg, r) != 0)
		return -1;
	er_result res = er_game_config_finish(d, &cfg);
	if (res.rule)
		return table_refuse(r, 422, res.rule, NULL, "%s", res.detail);
	if (solo) { /* seat 2 is ALICAT, the solo bot (seed 003, SOLO MODE) */
		n->nseats = 2;
		snprintf(n->names[1], sizeof n->names[1], "ALICAT");
		n->bot[1] = true;
	}
	n->config = config_json(d, &cfg);
	return 0;
}

static void er_create_reply(json_object *config, json_object *reply)
{
	json_object *sp = jx_obj(), *v;
	static const char *const keys[] = {"cardiologists", "radiologist", "epidemiologist"};
	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(config, keys[i], &v))
			jx_set(sp, keys[i], json_object_get(v));
	jx_set(reply, "specialists", sp);
	if (json_object_object_get_ex(config, "deck", &v))
		jx_set(reply, "deck", json_object_get(v));
	if (json_object_object_get_ex(config, "seed", &v))
		jx_set(reply, "seed", json_object_get(v));
	if (json_object_object_get_ex(config, "nturns", &v))
		jx_set(reply, "turns", json_object_get(v));
}

/* ---- events as JSON ---- */

static er_event_kind event_kind_of(const char *name)
{
	return strcmp(name, "reveal") == 0 ? ER_EV_REVEAL
	       : strcmp(name, "move") == 0 ? ER_EV_MOVE
	                                   : ER_EV_UNDO;
}

static const char *event_name(er_event_kind k)
{
	return k == ER_EV_REVEAL ? "reveal" : k == ER_EV_MOVE ? "move" : "undo";
}

static json_object *er_event_encode(const table_event *tev)
{
	const er_event *ev = tev->body;
	json_object *o = jx_obj();
	if (ev->kind == ER_EV_REVEAL) {
		json_object *dice = jx_obj();
		jx_set(o, "card", jx_int(ev->card));
		for (int c = 0; c < ER_DICE; c++)
			jx_set(dice, colour_names[c], jx_int(ev->dice[c]));
		jx_set(o, "dice", dice);
	} else if (ev->kind == ER_EV_MOVE) {
		jx_set(o, "move", er_json_move(&ev->move));
		if (ev->alicat_discard >= 0)
			jx_set(o, "alicat_discard", jx_int(ev->alicat_discard + 1));
	}
	return o;
}

static int decode_reveal(json_object *o, er_event *ev)
{
	json_object *card, *dice;
	js_error err;
	er_turn t;
	if (!json_object_object_get_ex(o, "card", &card) ||
	    !json_object_object_get_ex(o, "dice", &dice))
		return -1;
	json_object *tmp = jx_obj();
	jx_set(tmp, "card", json_object_get(card));
	jx_set(tmp, "dice", json_object_get(dice));
	int rc = er_json_turn_parse(tmp, "", &t, &err);
	json_object_put(tmp);
	if (rc != 0)
		return -1;
	ev->card = t.card;
	memcpy(ev->dice, t.dice, sizeof ev->dice);
	return 0;
}

/* Decodes a stored event (our own writing: a failure is a bug or a corrupted log). */
static int er_event_decode(table_event *tev, const char *payload)
{
	er_event *ev = tev->body;
	json_object *o = json_tokener_parse(payload), *v;
	js_error err;
	int rc = -1;
	if (o == NULL)
		return -1;
	ev->seat = tev->seat;
	ev->turn = tev->turn;
	ev->alicat_discard = -1;
	ev->kind = event_kind_of(tev->name);
	if (ev->kind == ER_EV_REVEAL) {
		rc = decode_reveal(o, ev);
	} else if (ev->kind == ER_EV_MOVE) {
		rc = json_object_object_get_ex(o, "move", &v) &&
		             er_json_move_parse(v, "", &ev->move, &err) == 0
		         ? 0
		         : -1;
		if (json_object_object_get_ex(o, "alicat_discard", &v))
			ev->alicat_discard = json_object_get_int(v) - 1;
	} else {
		rc = strcmp(tev->name, "undo") == 0 ? 0 : -1;
	}
	json_object_put(o);
	return rc;
}

/* ---- the rules ---- */

/* An ER rule result as a refusal: 409 for game-flow conflicts, 422 for the rules of a move. */
static int refuse_rule(table_refusal *r, const er_result *res, bool move)
{
	char field[64]; /* a move's rule names its step (/move/steps/N), or the move as a whole */
	const char *at = er_api_rule_field(res, "/move", field, sizeof field);
	if (at == NULL && move && er_game_rule_status(res->rule) == 422)
		at = "/move";
	return table_refuse(r, er_game_rule_status(res->rule), res->rule, at, "%s", res->detail);
}

/* Completes a request: a reveal is the chief's (its seat, its turn, the app deck's draw); a
 * move or undo is its seat's. Then who may send it: the host any; the chief reveals (at a
 * solo table the human reveals ALICAT's turns too); a seat token writes only its own seat. */
static int er_prepare(const void *state, const table_view *v, table_event *tev, table_refusal *r)
{
	const er_game *g = &((const er_table *)state)->g;
	er_event *ev = tev->body;
	if (ev->kind == ER_EV_REVEAL) {
		ev->seat = tev->seat = g->chief_seat;
		ev->turn = tev->turn = tev->turn ? tev->turn : g->turn + 1;
		if (!g->cfg.app_deck && ev->card == 0)
			return table_refuse(r, 400, NULL, "/card",
			                    "a table-deck game needs the flipped \"card\" and the "
			                    "rolled \"dice\"");
		if (g->cfg.app_deck && ev->card != 0)
			return table_refuse(r, 400, NULL, "/card",
			                    "an app-deck game draws and rolls by itself: send {}");
		if (g->cfg.app_deck && ev->turn >= 1 && ev->turn <= g->cfg.nturns)
			er_game_app_reveal(&g->cfg, ev->turn, &ev->card, ev->dice);
		if (v->host || v->you == g->chief_seat || (g->cfg.solo && v->you == 1))
			return 0;
		return table_refuse(r, 403, ER_RULE_NOT_CHIEF, NULL,
		                    "only the Chief Physician reveals the turn");
	}
	if (tev->seat < 1 || tev->seat > g->cfg.nseats)
		return table_refuse(r, 404, ER_RULE_NO_SUCH_SEAT, NULL, "no such seat");
	if (v->bot[tev->seat - 1])
		return table_refuse(r, 403, ER_RULE_BOT_SEAT, NULL, "ALICAT moves by itself");
	if (!v->host && v->you != tev->seat)
		return table_refuse(r, 403, NULL, NULL, "a seat token writes only its own seat");
	ev->seat = tev->seat;
	ev->turn = tev->turn;
	return 0;
}

/* An identical resubmission of what stands (api.md Conventions: answered as the first time, not
 * applied twice): a seat's move of a turn, or the reveal of the turn being played with the same
 * card and dice (a Chief Physician's phone that lost the reply sends it again). */
static bool er_repeats(const void *state, const table_event *tev)
{
	const er_table *t = state;
	const er_event *ev = tev->body;
	if (ev->kind == ER_EV_REVEAL)
		return t->g.revealed && ev->turn == t->g.turn && ev->card == t->g.card &&
		       memcmp(ev->dice, t->g.dice, sizeof ev->dice) == 0;
	return ev->kind == ER_EV_MOVE && ev->turn >= 1 && ev->turn <= ER_MAX_TURNS &&
	       ev->seat >= 1 && ev->seat <= ER_MAX_SEATS && t->has_move[ev->seat - 1][ev->turn] &&
	       memcmp(&t->move[ev->seat - 1][ev->turn], &ev->move, sizeof ev->move) == 0;
}

static int er_apply(void *state, const table_event *tev, table_refusal *r)
{
	er_table *t = state;
	const er_event *ev = tev->body;
	er_result res = er_game_apply(&t->g, er_api_data(), ev);
	if (res.rule)
		return refuse_rule(r, &res, ev->kind == ER_EV_MOVE);
	if (ev->turn >= 1 && ev->turn <= ER_MAX_TURNS && ev->seat >= 1 &&
	    ev->seat <= ER_MAX_SEATS) {
		if (ev->kind == ER_EV_MOVE) {
			t->has_move[ev->seat - 1][ev->turn] = true;
			t->move[ev->seat - 1][ev->turn] = ev->move;
		} else if (ev->kind == ER_EV_UNDO) {
			t->has_move[ev->seat - 1][ev->turn] = false;
		}
	}
	return 0;
}

static bool er_finished(const void *state)
{
	return ((const er_table *)state)->g.finished;
}

/* ALICAT moves by itself as soon as it may (solo): first when chief, else after the human. */
static bool er_bot_step(const void *state, table_event *tev)
{
	er_event *ev = tev->body;
	if (!er_game_alicat_next(&((const er_table *)state)->g, er_api_data(), ev))
		return false;
	tev->name = event_name(ev->kind);
	tev->seat = ev->seat;
	tev->turn = ev->turn;
	return true;
}

/* ---- the state as JSON ---- */

static json_object *specialists_json(const er_data *d, const er_game *g)
{
	json_object *o = jx_obj(), *c = jx_arr();
	for (int k = 0; k < 2; k++) {
		json_object *co = jx_obj();
		int offer = g->cardio_state[k];
		jx_set(co, "id", jx_str(d->specialists[g->cfg.cardio[k]].code));
		jx_set(co, "offer", jx_int(offer));
		jx_set(co, "side", offer > 0 ? jx_int(offer) : jx_str("discarded"));
		jx_push(c, co);
	}
	jx_set(o, "cardiologists", c);
	jx_set(o, "radiologist", jx_str(d->specialists[g->cfg.radiologist].code));
	jx_set(o, "epidemiologist", jx_str(d->specialists[g->cfg.epidemiologist].code));
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
		return jx_null();
	json_object *o = jx_obj(), *dice = jx_obj(), *moved = jx_arr();
	jx_set(o, "number", jx_int(g->turn));
	jx_set(o, "card", jx_int(g->card));
	for (int c = 0; c < ER_DICE; c++)
		jx_set(dice, colour_names[c], jx_int(g->dice[c]));
	jx_set(o, "dice", dice);
	/* Seat 1 leads turn 1 and the card passes clockwise every turn (seed 003, END OF TURN),
	 * so this is the turn's chief even after it closed (g->chief_seat is the next one). */
	jx_set(o, "chief_seat", jx_int((g->turn - 1) % g->cfg.nseats + 1));
	jx_set(o, "chief_die",
	       g->chief_die == ER_NO_COLOUR ? jx_null() : jx_str(colour_names[g->chief_die]));
	for (int s = 0; s < g->cfg.nseats; s++)
		if (g->moved[s])
			jx_push(moved, jx_int(s + 1));
	jx_set(o, "moved", moved);
	jx_set(o, "closed", jx_bool(turn_closed(g)));
	return o;
}

/* What the table waits for: "reveal" (by chief_seat), "move" (seats), or "finished". */
static json_object *next_json(const er_game *g)
{
	json_object *o = jx_obj();
	if (g->finished) {
		jx_set(o, "action", jx_str("finished"));
		return o;
	}
	if (g->turn == 0 || turn_closed(g)) {
		jx_set(o, "action", jx_str("reveal"));
		jx_set(o, "turn", jx_int(g->turn + 1));
		jx_set(o, "chief_seat", jx_int(g->chief_seat));
		return o;
	}
	json_object *seats = jx_arr();
	bool chief_moved = g->moved[g->chief_seat - 1];
	jx_set(o, "action", jx_str("move"));
	jx_set(o, "turn", jx_int(g->turn));
	for (int s = 0; s < g->cfg.nseats; s++)
		if (!g->moved[s] && (chief_moved || s + 1 == g->chief_seat))
			jx_push(seats, jx_int(s + 1));
	jx_set(o, "seats", seats);
	return o;
}

static void er_state_json(const void *state, const table_view *v, json_object *o)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	jx_set(o, "deck", jx_str(deck_names[g->cfg.app_deck]));
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	jx_set(o, "alicat_modifiers", er_json_modifiers(g->cfg.modifiers));
	jx_set(o, "turns", jx_int(g->cfg.nturns));
	jx_set(o, "specialists", specialists_json(d, g));
	jx_set(o, "turn", turn_json(g));
	jx_set(o, "next", next_json(g));
	json_object *seats = jx_arr();
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *so = jx_obj(), *sc = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "name", jx_str(v->names[s]));
		jx_set(so, "bot", jx_bool(v->bot[s]));
		jx_set(so, "sheet", er_json_sheet(d, &g->sheets[s]));
		jx_set(sc, "total", jx_int(scores[s].total));
		jx_set(sc, "breakdown", er_json_breakdown(&scores[s]));
		jx_set(so, "score", sc);
		if (g->finished)
			jx_set(so, "rank", jx_int(ranks[s]));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
}

/* The state as text (state_text): the members of er_state_json, in its order, written without
 * building objects (a reply to every move). */
static void specialists_text(jw *w, const er_data *d, const er_game *g)
{
	jw_obj(w);
	jw_key(w, "cardiologists");
	jw_arr(w);
	for (int k = 0; k < 2; k++) {
		int offer = g->cardio_state[k];
		jw_obj(w);
		jw_kstr(w, "id", d->specialists[g->cfg.cardio[k]].code);
		jw_kint(w, "offer", offer);
		if (offer > 0)
			jw_kint(w, "side", offer);
		else
			jw_kstr(w, "side", "discarded");
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_kstr(w, "radiologist", d->specialists[g->cfg.radiologist].code);
	jw_kstr(w, "epidemiologist", d->specialists[g->cfg.epidemiologist].code);
	jw_obj_end(w);
}

static void turn_text(jw *w, const er_game *g)
{
	if (g->turn == 0) {
		jw_null(w);
		return;
	}
	jw_obj(w);
	jw_kint(w, "number", g->turn);
	jw_kint(w, "card", g->card);
	jw_key(w, "dice");
	jw_obj(w);
	for (int c = 0; c < ER_DICE; c++)
		jw_kint(w, colour_names[c], g->dice[c]);
	jw_obj_end(w);
	jw_kint(w, "chief_seat", (g->turn - 1) % g->cfg.nseats + 1); /* as in turn_json */
	jw_key(w, "chief_die");
	if (g->chief_die == ER_NO_COLOUR)
		jw_null(w);
	else
		jw_str(w, colour_names[g->chief_die]);
	jw_key(w, "moved");
	jw_arr(w);
	for (int s = 0; s < g->cfg.nseats; s++)
		if (g->moved[s])
			jw_int(w, s + 1);
	jw_arr_end(w);
	jw_kbool(w, "closed", turn_closed(g));
	jw_obj_end(w);
}

static void next_text(jw *w, const er_game *g)
{
	jw_obj(w);
	if (g->finished) {
		jw_kstr(w, "action", "finished");
	} else if (g->turn == 0 || turn_closed(g)) {
		jw_kstr(w, "action", "reveal");
		jw_kint(w, "turn", g->turn + 1);
		jw_kint(w, "chief_seat", g->chief_seat);
	} else {
		bool chief_moved = g->moved[g->chief_seat - 1];
		jw_kstr(w, "action", "move");
		jw_kint(w, "turn", g->turn);
		jw_key(w, "seats");
		jw_arr(w);
		for (int s = 0; s < g->cfg.nseats; s++)
			if (!g->moved[s] && (chief_moved || s + 1 == g->chief_seat))
				jw_int(w, s + 1);
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

static void er_state_text(const void *state, const table_view *v, jw *w)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	jw_kstr(w, "deck", deck_names[g->cfg.app_deck]);
	jw_kbool(w, "solo", g->cfg.solo);
	jw_key(w, "alicat_modifiers");
	er_json_modifiers_text(w, g->cfg.modifiers);
	jw_kint(w, "turns", g->cfg.nturns);
	jw_key(w, "specialists");
	specialists_text(w, d, g);
	jw_key(w, "turn");
	turn_text(w, g);
	jw_key(w, "next");
	next_text(w, g);
	jw_key(w, "seats");
	jw_arr(w);
	for (int s = 0; s < g->cfg.nseats; s++) {
		jw_obj(w);
		jw_kint(w, "seat", s + 1);
		jw_kstr(w, "name", v->names[s]);
		jw_kbool(w, "bot", v->bot[s]);
		jw_key(w, "sheet");
		er_json_sheet_text(w, &g->sheets[s]);
		jw_key(w, "score");
		jw_obj(w);
		jw_kint(w, "total", scores[s].total);
		jw_key(w, "breakdown");
		er_json_breakdown_text(w, &scores[s]);
		jw_obj_end(w);
		if (g->finished)
			jw_kint(w, "rank", ranks[s]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* Final standings stored in games.result when a game ends (for leagues). */
static json_object *er_result_json(const void *state, const table_view *v)
{
	const er_game *g = &((const er_table *)state)->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, er_api_data(), scores, ranks);
	json_object *a = jx_arr(), *o = jx_obj();
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *r = jx_obj();
		jx_set(r, "seat", jx_int(s + 1));
		jx_set(r, "name", jx_str(v->names[s]));
		jx_set(r, "bot", jx_bool(v->bot[s]));
		jx_set(r, "score", jx_int(scores[s].total));
		jx_set(r, "rank", jx_int(ranks[s]));
		jx_set(r, "breakdown", er_json_breakdown(&scores[s]));
		jx_push(a, r);
	}
	jx_set(o, "standings", a);
	jx_set(o, "solo", jx_bool(g->cfg.solo));
	return o;
}

/* Every seat's sheet and total: [{"seat", "sheet", "total"}]. */
static json_object *seats_sheets_json(const er_data *d, const er_game *g)
{
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	json_object *sheets = jx_arr();
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *so = jx_obj();
		jx_set(so, "seat", jx_int(s + 1));
		jx_set(so, "sheet", er_json_sheet(d, &g->sheets[s]));
		jx_set(so, "total", jx_int(scores[s].total));
		jx_push(sheets, so);
	}
	return sheets;
}

/* The log, turn by turn: "start", every seat's sheet and total before the first turn (ALICAT
 * starts with nurses and points), then for each turn that closed, its card, dice, chief, the
 * moves that stood and every seat's sheet and total. */
static void er_log_step(const void *state, const table_event *tev, const table_view *v,
                        json_object *log)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	const er_event *ev = tev->body;
	json_object *turns;
	(void)v;
	if (!json_object_object_get_ex(log, "turns", &turns)) {
		er_game *start = xmalloc(sizeof *start); /* a few KB: not on a worker's stack */
		er_game_init(start, d, &g->cfg);
		json_object *so = jx_obj();
		jx_set(so, "seats", seats_sheets_json(d, start));
		jx_set(log, "start", so);
		free(start);
		turns = jx_arr();
		jx_set(log, "turns", turns);
	}
	if (ev->kind != ER_EV_MOVE || !turn_closed(g))
		return;
	json_object *t = turn_json(g), *moves = jx_arr();
	for (int s = 0; s < g->cfg.nseats; s++) {
		json_object *m = jx_obj();
		jx_set(m, "seat", jx_int(s + 1));
		jx_set(m, "move", er_json_move(&g->moves[s]));
		jx_push(moves, m);
	}
	jx_set(t, "moves", moves);
	jx_set(t, "seats", seats_sheets_json(d, g));
	jx_push(turns, t);
}

const table_kind er_table_kind = {
    .name = "er",
    .max_seats = ER_MAX_SEATS,
    .state_size = sizeof(er_table),
    .event_size = sizeof(er_event),
    .create_parse = er_create_parse,
    .create_reply = er_create_reply,
    .init = er_init,
    .event_decode = er_event_decode,
    .event_encode = er_event_encode,
    .prepare = er_prepare,
    .repeats = er_repeats,
    .apply = er_apply,
    .finished = er_finished,
    .bot_step = er_bot_step,
    .state_json = er_state_json,
    .state_text = er_state_text,
    .result_json = er_result_json,
    .log_step = er_log_step,
    .host_plays_event = "move",
};

/* ---- the ER mutations: parse the request, then the engine does the rest ---- */

static int parse_seat(const char *s, int *seat)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 1 || v > ER_MAX_SEATS)
		return -1;
	*seat = (int)v;
	return 0;
}

static int mutate(const http_req *req, http_resp *resp, const char *name, er_event *ev)
{
	table_event tev = {.name = name, .seat = ev->seat, .turn = ev->turn, .body = ev};
	return table_mutate(req, resp, &er_table_kind, &tev);
}

int api_er_turn_reveal(const http_req *req, http_resp *resp)
{
	er_event ev = {.kind = ER_EV_REVEAL, .alicat_discard = -1};
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
		json_object *t = jx_obj();
		er_turn et;
		jx_set(t, "card", jx_int(card));
		jx_set(t, "dice", json_object_get(dice));
		int rc = er_json_turn_parse(t, "", &et, &err);
		json_object_put(t);
		if (rc != 0) {
			er_api_reply_parse_error(resp, -1, NULL, &err);
			goto out;
		}
		ev.card = et.card;
		memcpy(ev.dice, et.dice, sizeof ev.dice);
	}
	ev.turn = (int)turn;
	mutate(req, resp, "reveal", &ev);
out:
	json_object_put(root);
	return 0;
}

int api_er_move(const http_req *req, http_resp *resp)
{
	er_event ev = {.kind = ER_EV_MOVE};
	json_object *root = NULL, *move = NULL;
	int64_t turn = 0, discard = 0;
	bool has_discard = false;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"turn", JS_INT, JS_F_REQUIRED, 1, ER_MAX_TURNS, NULL, &turn, NULL},
	    {"move", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &move, NULL},
	    {"alicat_discard", JS_INT, JS_F_NULLABLE, 1, 2, NULL, &discard, &has_discard},
	};
	if (parse_seat(req->params[1], &ev.seat) != 0)
		return http_reply_problem(resp, 404, "no such seat", ER_RULE_NO_SUCH_SEAT, NULL);
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0 ||
	    er_json_move_parse(move, "/move", &ev.move, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	ev.turn = (int)turn;
	ev.alicat_discard = has_discard ? (int)discard - 1 : -1;
	mutate(req, resp, "move", &ev);
out:
	json_object_put(root);
	return 0;
}

int api_er_undo(const http_req *req, http_resp *resp)
{
	er_event ev = {.kind = ER_EV_UNDO, .alicat_discard = -1};
	char *end;
	if (parse_seat(req->params[1], &ev.seat) != 0)
		return http_reply_problem(resp, 404, "no such seat", ER_RULE_NO_SUCH_SEAT, NULL);
	long turn = strtol(req->params[2], &end, 10);
	if (*req->params[2] == '\0' || *end != '\0' || turn < 1 || turn > ER_MAX_TURNS)
		return http_reply_problem(resp, 404, "no such turn", NULL, NULL);
	ev.turn = (int)turn;
	return mutate(req, resp, "undo", &ev);
}
