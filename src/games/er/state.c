/* An ER game's state as the engine shows it: the state as JSON objects and the same document
 * as text (the reply to every move), the result stored when a game ends, and the log turn by
 * turn (api.md "Games"). */
#include "games/er/kind_internal.h"

#include "games/er/data.h"
#include "games/er/json.h"
#include "base/oom.h"
#include "json/jw.h"
#include "json/jx.h"

#include <stdlib.h>

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
		jx_set(dice, er_colour_names[c], jx_int(g->dice[c]));
	jx_set(o, "dice", dice);
	/* Seat 1 leads turn 1 and the card passes clockwise every turn (seed 003, END OF TURN),
	 * so this is the turn's chief even after it closed (g->chief_seat is the next one). */
	jx_set(o, "chief_seat", jx_int((g->turn - 1) % g->cfg.nseats + 1));
	jx_set(o, "chief_die",
	       g->chief_die == ER_NO_COLOUR ? jx_null() : jx_str(er_colour_names[g->chief_die]));
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

void er_state_json(const void *state, const table_view *v, json_object *o)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	jx_set(o, "deck", jx_str(er_deck_names[g->cfg.app_deck]));
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
		jw_kint(w, er_colour_names[c], g->dice[c]);
	jw_obj_end(w);
	jw_kint(w, "chief_seat", (g->turn - 1) % g->cfg.nseats + 1); /* as in turn_json */
	jw_key(w, "chief_die");
	if (g->chief_die == ER_NO_COLOUR)
		jw_null(w);
	else
		jw_str(w, er_colour_names[g->chief_die]);
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

void er_state_text(const void *state, const table_view *v, jw *w)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	er_breakdown scores[ER_MAX_SEATS];
	int ranks[ER_MAX_SEATS];
	er_game_scores(g, d, scores, ranks);
	jw_kstr(w, "deck", er_deck_names[g->cfg.app_deck]);
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

json_object *er_result_json(const void *state, const table_view *v)
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

/* The log before its first event: every seat's sheet at the start and no turn yet. */
void er_log_start(const void *state, const table_view *v, json_object *log)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	(void)v;
	json_object *so = jx_obj();
	jx_set(so, "seats", seats_sheets_json(d, g));
	jx_set(log, "start", so);
	jx_set(log, "turns", jx_arr());
}

void er_log_step(const void *state, const table_event *tev, const table_view *v, json_object *log)
{
	const er_data *d = er_api_data();
	const er_game *g = &((const er_table *)state)->g;
	const er_event *ev = tev->body;
	json_object *turns;
	(void)v;
	if (!json_object_object_get_ex(log, "turns", &turns))
		return; /* er_log_start made it */
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
