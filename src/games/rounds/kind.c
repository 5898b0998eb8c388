/* The events of the games scored round by round (see kind.h): a round or the finish as JSON,
 * who may send it, an identical resubmission, applying it, the two handlers, the result and
 * the log step, and one seat's entry for the score pads. */
#include "games/rounds/kind.h"

#include "base/oom.h"
#include "games/rounds/json.h"
#include "json/jx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- entries ---- */

static struct json_object *encode(const round_kind *rk, bool finish, const void *in)
{
	return finish ? rk->finish_encode(in) : rk->round_encode(in);
}

/* The "entries" of a body (borrowed from body). */
static json_object *entries_of(json_object *body)
{
	json_object *entries = NULL;
	json_object_object_get_ex(body, "entries", &entries);
	return entries;
}

static int entry_seat(json_object *entries, size_t i)
{
	json_object *seat = NULL;
	json_object_object_get_ex(json_object_array_get_idx(entries, i), "seat", &seat);
	return json_object_get_int(seat);
}

/* The first entry of body without its "seat" (body is released; the caller owns the result). */
static json_object *lone_entry(json_object *body)
{
	json_object *e = json_object_get(json_object_array_get_idx(entries_of(body), 0));
	json_object_object_del(e, "seat");
	json_object_put(body);
	return e;
}

/* Seat's entry as the state holds it, encoded as a one-entry body (caller owns). */
static json_object *stored_entry(const round_kind *rk, bool finish, const void *state, int round,
                                 int seat)
{
	round_ev ev;
	memset(&ev, 0, sizeof ev);
	if (finish)
		rk->finish_entry(state, seat, ev.in.bytes);
	else
		rk->round_entry(state, round, seat, ev.in.bytes);
	return encode(rk, finish, ev.in.bytes);
}

json_object *round_pad_round_entry(const round_kind *rk, const void *state, int round, int seat)
{
	return lone_entry(stored_entry(rk, false, state, round, seat));
}

json_object *round_pad_finish_entry(const round_kind *rk, const void *state, int seat)
{
	return lone_entry(stored_entry(rk, true, state, 0, seat));
}

/* ---- table_kind slots ---- */

json_object *round_event_encode(const table_event *tev)
{
	const round_ev *ev = tev->body;
	return encode(ev->rk, ev->finish, ev->in.bytes);
}

int round_event_decode(const round_kind *rk, table_event *tev, const char *payload)
{
	round_ev *ev = tev->body;
	json_object *o = json_tokener_parse(payload);
	js_error err;
	if (!o)
		return -1;
	memset(ev, 0, sizeof *ev);
	ev->rk = rk;
	ev->finish = strcmp(tev->name, "finish") == 0;
	int rc = ev->finish ? rk->finish_parse(o, ev->in.bytes, &err)
	                    : rk->round_parse(o, ev->in.bytes, &err);
	json_object_put(o);
	return rc;
}

/* The host writes any seat (and the table-wide part); a seat token only its own seat's
 * entries. An event that writes one seat only is that seat's (table_event.seat). */
int round_prepare(const void *state, const table_view *v, table_event *tev, table_refusal *r)
{
	const round_ev *ev = tev->body;
	(void)state;
	if (!v->host && v->you == 0)
		return table_refuse(r, 403, NULL, NULL, "this token cannot write");
	json_object *body = encode(ev->rk, ev->finish, ev->in.bytes), *entries = entries_of(body);
	size_t n = json_object_array_length(entries);
	int first = n > 0 ? entry_seat(entries, 0) : 0, rc = 0;
	bool one = n > 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int seat = entry_seat(entries, i);
		if (seat != first)
			one = false;
		if (!v->host && seat != v->you)
			rc = table_refuse(r, 403, NULL, NULL,
			                  "a seat token writes only its own seat's entries");
	}
	json_object_put(body);
	if (rc == 0 && !ev->finish && ev->rk->round_prepare)
		rc = ev->rk->round_prepare(v, ev->in.bytes, r);
	if (rc == 0)
		tev->seat = one ? first : 0;
	return rc;
}

/* The entry (a member of "entries") stands already: its seat's entry is entered, with these
 * values (the stored entry encodes to the same JSON). */
static bool entry_stands(const round_kind *rk, bool finish, const void *state, int round,
                         json_object *entry)
{
	json_object *seat_o = NULL;
	json_object_object_get_ex(entry, "seat", &seat_o);
	int seat = json_object_get_int(seat_o);
	if (seat < 1 || seat > rk->nseats(state))
		return false;
	if (finish ? !rk->finish_entered(state, seat) : !rk->round_entered(state, round, seat))
		return false;
	json_object *stored = stored_entry(rk, finish, state, round, seat);
	bool same = json_object_equal(json_object_array_get_idx(entries_of(stored), 0), entry);
	json_object_put(stored);
	return same;
}

/* An identical resubmission: of the finish, the game is finished with exactly these entries
 * (every seat's); of a round, every entry and the table-wide part already stand. */
bool round_repeats(const void *state, const table_event *tev)
{
	const round_ev *ev = tev->body;
	const round_kind *rk = ev->rk;
	int round = tev->turn;
	if (ev->finish ? !rk->finished(state) : round < 1 || round > rk->rounds)
		return false;
	json_object *body = encode(rk, ev->finish, ev->in.bytes), *entries = entries_of(body);
	size_t n = json_object_array_length(entries);
	bool same = !ev->finish || n == (size_t)rk->nseats(state);
	for (size_t i = 0; same && i < n; i++)
		same = entry_stands(rk, ev->finish, state, round,
		                    json_object_array_get_idx(entries, i));
	json_object_put(body);
	if (!same || ev->finish)
		return same;
	int table = rk->round_table_stands(state, round, ev->in.bytes);
	return table != 0 && (n > 0 || table == 1);
}

int round_apply(void *state, const table_event *tev, table_refusal *r)
{
	const round_ev *ev = tev->body;
	tt_error e;
	int rc = ev->finish ? ev->rk->finish_apply(state, ev->in.bytes, &e)
	                    : ev->rk->round_apply(state, tev->turn, ev->in.bytes, &e);
	return rc == 0 ? 0 : tt_refuse_rule(r, &e);
}

/* The log, event by event: after each accepted round or finish, every seat's running total
 * (the score sheet of the table, as the board's score track would show it). */
void round_log_step(const void *state, const table_event *tev, const table_view *v,
                    json_object *log)
{
	const round_ev *ev = tev->body;
	round_scores *sc = round_scores_of(ev->rk, state);
	int totals[ROUND_MAX_SEATS];
	(void)v;
	for (int s = 0; s < sc->nseats; s++)
		totals[s] = sc->seat[s].total;
	tt_json_log_totals(log, tev, totals, sc->nseats);
	free(sc);
}

json_object *round_result_json(const round_kind *rk, const void *state, const table_view *v)
{
	round_scores *sc = round_scores_of(rk, state);
	json_object *o = jx_obj();
	jx_set(o, "standings", round_standings_json(rk, sc, v, true));
	jx_set(o, "solo", jx_bool(sc->solo));
	jx_set(o, "profile", jx_str(sc->profile_id));
	round_end_json(rk, state, o);
	free(sc);
	return o;
}

/* ---- handlers ---- */

/* Parses the request body with parse (400 naming the field) and runs the event. */
static int mutate(const http_req *req, http_resp *resp, const round_kind *rk, round_ev *ev,
                  table_event *tev)
{
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	int rc = ev->finish ? rk->finish_parse(root, ev->in.bytes, &err)
	                    : rk->round_parse(root, ev->in.bytes, &err);
	if (rc != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		table_mutate(req, resp, rk->table, tev);
	json_object_put(root);
	return 0;
}

/* PUT /api/v1/{kind}/games/{id}/rounds/{n} */
int round_api_round(const http_req *req, http_resp *resp, const round_kind *rk)
{
	round_ev *ev = xcalloc(1, sizeof *ev);
	int round = tt_path_round(req->params[1]);
	ev->rk = rk;
	if (round < 1 || round > rk->rounds) {
		char detail[64];
		snprintf(detail, sizeof detail, "%s has rounds 1 to %d", rk->title, rk->rounds);
		http_reply_problem(resp, 400, detail, "round-out-of-range", "/round");
	} else {
		table_event tev = {.name = "round", .seat = 0, .turn = round, .body = ev};
		mutate(req, resp, rk, ev, &tev);
	}
	free(ev);
	return 0;
}

/* POST /api/v1/{kind}/games/{id}/finish */
int round_api_finish(const http_req *req, http_resp *resp, const round_kind *rk)
{
	round_ev *ev = xcalloc(1, sizeof *ev);
	ev->rk = rk;
	ev->finish = true;
	table_event tev = {.name = "finish", .seat = 0, .turn = 0, .body = ev};
	mutate(req, resp, rk, ev, &tev);
	free(ev);
	return 0;
}
