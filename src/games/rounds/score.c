/* The scores of the games scored round by round as JSON (see kind.h): each seat's rounds with
 * the reason for every point, its finish, its breakdown by category, the standings and what
 * the table enters next. */
#include "games/rounds/kind.h"

#include "base/oom.h"
#include "games/rounds/json.h"
#include "json/jx.h"

#include <stdlib.h>
#include <string.h>

round_scores *round_scores_of(const round_kind *rk, const void *state)
{
	round_scores *sc = xcalloc(1, sizeof *sc);
	rk->score(state, sc);
	return sc;
}

void round_end_json(const round_kind *rk, const void *state, json_object *o)
{
	int played = rk->finished(state) ? rk->rounds_played(state) : 0;
	jx_set(o, "rounds_played", played ? jx_int(played) : jx_null());
	jx_set(o, "incomplete", jx_bool(played && played < rk->rounds));
}

json_object *round_next_json(const round_kind *rk, const void *state)
{
	json_object *o = jx_obj();
	int done = rk->rounds_complete(state);
	if (rk->finished(state)) {
		jx_set(o, "action", jx_str("finished"));
	} else if (done < rk->rounds) {
		json_object *seats = jx_arr();
		for (int s = 1; s <= rk->nseats(state); s++)
			if (!rk->round_entered(state, done + 1, s))
				jx_push(seats, jx_int(s));
		jx_set(o, "action", jx_str("round"));
		jx_set(o, "round", jx_int(done + 1));
		jx_set(o, "seats", seats);
	} else {
		jx_set(o, "action", jx_str("finish"));
	}
	return o;
}

/* The reasons of one round (0: the end of the game). */
static json_object *reasons_json(const round_kind *rk, const round_seat_score *ss, int round)
{
	json_object *a = jx_arr();
	for (int i = 0; i < ss->nitems; i++)
		if (ss->items[i].round == round)
			jx_push(a, tt_json_reason(&ss->items[i], rk->rule_id(ss->items[i].rule),
			                          rk->rule_profile_key(ss->items[i].rule)));
	return a;
}

/* Adds every member of from to o (from is released). */
static void merge(json_object *o, json_object *from)
{
	json_object_object_foreach(from, key, val) jx_set(o, key, json_object_get(val));
	json_object_put(from);
}

json_object *round_rounds_json(const round_kind *rk, const void *state, int seat,
                               const round_seat_score *ss)
{
	json_object *a = jx_arr();
	for (int r = 1; r <= rk->rounds; r++) {
		bool entered = rk->round_entered(state, r, seat);
		json_object *o = jx_obj();
		jx_set(o, "round", jx_int(r));
		jx_set(o, "entered", jx_bool(entered));
		if (entered)
			merge(o, round_pad_round_entry(rk, state, r, seat));
		jx_set(o, "points", jx_int(ss->round_points[r]));
		if (rk->track)
			jx_set(o, "popularity_after", jx_int(ss->popularity_after[r]));
		jx_set(o, "reasons", reasons_json(rk, ss, r));
		jx_push(a, o);
	}
	return a;
}

json_object *round_finish_json(const round_kind *rk, const void *state, int seat)
{
	if (!rk->finish_entered(state, seat))
		return jx_null();
	return round_pad_finish_entry(rk, state, seat);
}

json_object *round_breakdown_json(const round_kind *rk, const round_seat_score *ss)
{
	json_object *o = jx_obj();
	for (const char *const *c = rk->categories; *c; c++) {
		int sum = 0;
		for (int i = 0; i < ss->nitems; i++)
			if (strcmp(rk->category(ss->items[i].rule), *c) == 0)
				sum += ss->items[i].points;
		jx_set(o, *c, jx_int(sum));
	}
	return o;
}

json_object *round_score_json(const round_kind *rk, const round_seat_score *ss)
{
	json_object *o = jx_obj();
	jx_set(o, "total", jx_int(ss->total));
	jx_set(o, "verified", jx_bool(ss->verified));
	jx_set(o, "breakdown", round_breakdown_json(rk, ss));
	return o;
}

void round_score_end(const round_kind *rk, const round_seat_score *ss, json_object *o)
{
	jx_set(o, "end", jx_int(ss->round_points[0]));
	jx_set(o, "end_reasons", reasons_json(rk, ss, 0));
}

json_object *round_standings_json(const round_kind *rk, const round_scores *sc, const table_view *v,
                                  bool with_bot)
{
	json_object *a = jx_arr();
	for (int i = 0; i < sc->nseats; i++) {
		int s = sc->order[i] - 1;
		const round_seat_score *ss = &sc->seat[s];
		json_object *o = jx_obj();
		jx_set(o, "seat", jx_int(s + 1));
		jx_set(o, "name", jx_str(v->names[s]));
		if (with_bot)
			jx_set(o, "bot", jx_bool(false));
		jx_set(o, "rank", jx_int(ss->rank));
		jx_set(o, "total", jx_int(ss->total));
		jx_set(o, "score", jx_int(ss->total));
		jx_set(o, "breakdown", round_breakdown_json(rk, ss));
		jx_set(o, "tie_break", jx_str_or_null(ss->tie));
		jx_set(o, "verified", jx_bool(ss->verified));
		if (rk->titled && sc->solo)
			jx_set(o, "title", jx_str_or_null(ss->title));
		jx_push(a, o);
	}
	return a;
}
