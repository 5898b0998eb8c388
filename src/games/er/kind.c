/* ER games at the table (api.md "Games"): the ER kind of the table engine (engine/table.h),
 * its descriptor, the events (reveal, move, undo) as JSON, who may send them, applying them
 * through the rules, and ALICAT as the bot.
 *
 * Only what is ER lives in games/er: the configuration (config.c), the state, result and log
 * as JSON (state.c), the handlers of its mutations (handlers.c). The rules are the pure state
 * machine of rules/er_game.c; seats, tokens, storage, versions, live updates and the log are
 * the engine's. */
#include "games/er/kind.h"
#include "games/er/kind_internal.h"

#include "games/er/data.h"
#include "games/er/json.h"
#include "json/jx.h"
#include "rules/er_game.h"

#include <string.h>

const char *const er_colour_names[] = {"red", "yellow", "green", NULL};

static int er_init(void *state, const char *config, int nseats)
{
	er_table *t = state;
	const er_data *d = er_api_data();
	er_game_config cfg;
	if (er_config_parse(d, config, &cfg) != 0 || cfg.nseats != nseats)
		return -1;
	er_game_init(&t->g, d, &cfg);
	return 0;
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
			jx_set(dice, er_colour_names[c], jx_int(ev->dice[c]));
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
    .log_start = er_log_start,
    .log_step = er_log_step,
    .host_plays_event = "move",
};
