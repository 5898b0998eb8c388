/* The ER coach's reply as JSON (coach_json.h). Every sheet, move and breakdown is written by the
 * same builders as the rest of the ER API (games/er/json.h), so a best move can be sent back to
 * POST /api/v1/er/moves/apply and a best sheet to POST /api/v1/er/score as they are. */
#include "games/er/coach_json.h"

#include "games/er/json.h"
#include "json/jx.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static json_object *spec_id(const er_data *d, er_spec_id id)
{
	if ((int)id < 0 || (int)id >= ER_SPECIALISTS)
		return jx_null();
	return jx_str(d->specialists[id].code);
}

static json_object *turn_info(const er_turn *t)
{
	json_object *o = jx_obj(), *dice = jx_obj();
	jx_set(o, "card", jx_int(t->card));
	for (int c = 0; c < ER_DICE; c++)
		jx_set(dice, er_colour_name((er_colour)c), jx_int(t->dice[c]));
	jx_set(o, "dice", dice);
	jx_set(o, "chief", jx_bool(t->chief));
	jx_set(o, "chief_die",
	       t->chief || t->chief_die == ER_NO_COLOUR ? jx_null()
	                                                : jx_str(er_colour_name(t->chief_die)));
	return o;
}

/* The /er/score reply's "details" for the line's final sheet. */
static json_object *details(const er_data *d, const er_coach_line *l)
{
	size_t len;
	char *text = er_json_score_text(d, &l->score, &l->details, &len);
	json_object *all = json_tokener_parse(text), *det = NULL;
	free(text);
	if (all && json_object_object_get_ex(all, "details", &det))
		json_object_get(det);
	json_object_put(all);
	return det;
}

static json_object *line_json(const er_data *d, const er_coach_game *g, const er_coach_line *l)
{
	json_object *o = jx_obj();
	jx_set(o, "total", jx_int(l->score.total));
	jx_set(o, "breakdown", er_json_breakdown(&l->score));
	jx_set(o, "sheet", er_json_sheet(d, &l->sheets[g->nturns - 1]));
	return o;
}

/* A line's score after turn t as if the game ended there (the game's Radiologist and
 * Epidemiologist, the Cardiologist points the race gave it so far): {"total", "breakdown"}. */
static json_object *score_after(const er_data *d, const er_coach_game *g, const er_sheet *s)
{
	er_breakdown b;
	json_object *o = jx_obj();
	if (er_score(d, s, g->radiologist, g->epidemiologist, false, 0, &b, NULL).rule != NULL)
		memset(&b, 0, sizeof b); /* every sheet of a line came from er_move_apply */
	jx_set(o, "total", jx_int(b.total));
	jx_set(o, "breakdown", er_json_breakdown(&b));
	return o;
}

static const char *line_name(er_coach_line_kind k)
{
	switch (k) {
	case ER_COACH_LINE_PLAYER:
		return "player";
	case ER_COACH_LINE_GREEDY:
		return "greedy";
	case ER_COACH_LINE_NARROWER:
		return "best";
	default:
		return "search";
	}
}

/* The breakdown category whose points differ most between the continuation from before the
 * turn and the one from after it (the first of equal ones, in the breakdown's order). */
static json_object *missed(const er_coach_result *r, int t)
{
	if (!r->has_cost[t] || r->cost[t] == 0)
		return jx_null();
	const er_breakdown *a = &r->cont_before[t], *b = &r->cont_after[t];
	const char *names[] = {"filled_wards", "critical",       "nurses", "cardiologists",
	                       "radiologist",  "epidemiologist", "morgue"};
	const int diff[] = {a->filled_wards - b->filled_wards,
	                    a->critical - b->critical,
	                    a->nurses - b->nurses,
	                    a->cardiologists - b->cardiologists,
	                    a->radiologist - b->radiologist,
	                    a->epidemiologist - b->epidemiologist,
	                    a->morgue - b->morgue};
	int best = 0;
	for (int i = 1; i < 7; i++)
		if (abs(diff[i]) > abs(diff[best]))
			best = i;
	int ward = -1;
	const er_move *m = &r->cont_move[t];
	for (int s = 0; s < m->nsteps && ward < 0; s++)
		if (m->steps[s].kind == ER_STEP_ADMIT)
			ward = m->steps[s].ward;
	json_object *o = jx_obj();
	jx_set(o, "category", jx_str(names[best]));
	jx_set(o, "points", jx_int(diff[best]));
	jx_set(o, "ward", ward >= 0 ? jx_int(ward + 1) : jx_null());
	return o;
}

json_object *er_coach_reply(const er_data *d, const er_coach_game *g, const er_coach_result *r,
                            const er_coach_reply_info *info)
{
	json_object *o = jx_obj();
	if (info->game) {
		jx_set(o, "game", jx_str(info->game));
		jx_set(o, "seat", jx_int(info->seat));
	}
	jx_set(o, "width", jx_int(info->width));
	jx_set(o, "complete", jx_bool(r->complete));
	jx_set(o, "turns", jx_int(g->nturns));
	jx_set(o, "searched_turns", jx_int(r->searched_turns));
	jx_set(o, "elapsed_ms", jx_int(info->elapsed_ms));
	jx_set(o, "deadline_ms", jx_int(info->deadline_ms));
	json_object *specs = jx_obj(), *cardio = jx_arr();
	jx_push(cardio, spec_id(d, g->cardio[0]));
	jx_push(cardio, spec_id(d, g->cardio[1]));
	jx_set(specs, "cardiologists", cardio);
	jx_set(specs, "radiologist", spec_id(d, g->radiologist));
	jx_set(specs, "epidemiologist", spec_id(d, g->epidemiologist));
	jx_set(o, "specialists", specs);
	jx_set(o, "player", line_json(d, g, &r->player));
	json_object *best = line_json(d, g, &r->best);
	jx_set(best, "details", details(d, &r->best));
	jx_set(best, "line", jx_str(line_name(r->best_kind)));
	jx_set(o, "best", best);
	json_object *greedy = jx_obj();
	jx_set(greedy, "total", jx_int(r->greedy.score.total));
	jx_set(o, "greedy", greedy);
	json_object *steps = jx_arr();
	for (int t = 0; t < g->nturns; t++) {
		json_object *s = jx_obj();
		jx_set(s, "turn", jx_int(t + 1));
		jx_set(s, "turn_info", turn_info(&g->turns[t]));
		jx_set(s, "player_move", er_json_move(&r->player.moves[t]));
		jx_set(s, "best_move", er_json_move(&r->best.moves[t]));
		jx_set(s, "player_sheet", er_json_sheet(d, &r->player.sheets[t]));
		jx_set(s, "best_sheet", er_json_sheet(d, &r->best.sheets[t]));
		jx_set(s, "player_score", score_after(d, g, &r->player.sheets[t]));
		jx_set(s, "best_score", score_after(d, g, &r->best.sheets[t]));
		json_object *c = jx_arr();
		jx_push(c, jx_int(r->best.sheets[t].cardiologists[0]));
		jx_push(c, jx_int(r->best.sheets[t].cardiologists[1]));
		jx_set(s, "cardiologists", c);
		jx_set(s, "cost", r->has_cost[t] ? jx_int(r->cost[t]) : jx_null());
		jx_set(s, "missed", missed(r, t));
		jx_push(steps, s);
	}
	jx_set(o, "steps", steps);
	return o;
}
