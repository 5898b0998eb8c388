/* A minimal second kind of game, registered only in the tests: "tally". Linked with the real
 * server (main.o, libapp.a, librules.a) into build/tests/server_tally, it proves that a kind is a
 * descriptor plus its own handlers: create, join, read, log, events and the finished result come
 * from the engine unchanged (tests/api/test_table.py).
 *
 * The game: 1–4 players race to `target` points; a seat adds 1–10 points per event ("add"),
 * turn by turn (turn n is every seat's n-th add); the first to reach the target wins.
 *
 * This file defines the route table (api_routes), so the linker takes it instead of the real
 * one in libapp.a: the tally server serves health, join and the tally routes only. */
#include "api/api.h"
#include "engine/table.h"
#include "json/jx.h"
#include "json/spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TALLY_SEATS = 4 };

typedef struct {
	int nseats;
	int target;
	int points[TALLY_SEATS];
	int adds[TALLY_SEATS];
	int winner; /* 0 while playing */
} tally_state;

typedef struct {
	int points;
} tally_event;

static int tally_create(json_object *root, table_new *n, table_refusal *r)
{
	json_object *players = NULL;
	int64_t target = 20;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"players", JS_ARRAY, JS_F_REQUIRED, 1, TALLY_SEATS, NULL, &players, NULL},
	    {"target", JS_INT, 0, 1, 100, NULL, &target, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, 64, NULL, &n->league, NULL},
	};
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0)
		return table_refuse(r, 400, NULL, err.field, "%s", err.detail);
	n->nseats = (int)json_object_array_length(players);
	for (int i = 0; i < n->nseats; i++) {
		json_object *name = json_object_array_get_idx(players, (size_t)i);
		if (!json_object_is_type(name, json_type_string) ||
		    json_object_get_string_len(name) < 1 || json_object_get_string_len(name) > 64)
			return table_refuse(r, 400, NULL, "/players", "players are names");
		snprintf(n->names[i], sizeof n->names[i], "%s", json_object_get_string(name));
	}
	n->config = jx_obj();
	jx_set(n->config, "target", jx_int(target));
	return 0;
}

static int tally_init(void *state, const char *config, int nseats)
{
	tally_state *s = state;
	json_object *o = json_tokener_parse(config), *v;
	if (o == NULL)
		return -1;
	s->nseats = nseats;
	s->target = json_object_object_get_ex(o, "target", &v) ? json_object_get_int(v) : 0;
	json_object_put(o);
	return s->target > 0 ? 0 : -1;
}

static int tally_decode(table_event *ev, const char *payload)
{
	tally_event *b = ev->body;
	json_object *o = json_tokener_parse(payload), *v;
	if (o == NULL)
		return -1;
	b->points = json_object_object_get_ex(o, "points", &v) ? json_object_get_int(v) : 0;
	json_object_put(o);
	return strcmp(ev->name, "add") == 0 ? 0 : -1;
}

static json_object *tally_encode(const table_event *ev)
{
	json_object *o = jx_obj();
	jx_set(o, "points", jx_int(((const tally_event *)ev->body)->points));
	return o;
}

static int tally_apply(void *state, const table_event *ev, table_refusal *r)
{
	tally_state *s = state;
	const tally_event *b = ev->body;
	if (s->winner)
		return table_refuse(r, 409, "game-finished", NULL, "the game is over");
	if (ev->turn != s->adds[ev->seat - 1] + 1)
		return table_refuse(r, 409, "turn-stale", "/turn", "this seat is at turn %d",
		                    s->adds[ev->seat - 1] + 1);
	s->adds[ev->seat - 1]++;
	s->points[ev->seat - 1] += b->points;
	if (s->points[ev->seat - 1] >= s->target)
		s->winner = ev->seat;
	return 0;
}

static bool tally_finished(const void *state)
{
	return ((const tally_state *)state)->winner != 0;
}

static void tally_state_json(const void *state, const table_view *v, json_object *o)
{
	const tally_state *s = state;
	json_object *seats = jx_arr();
	jx_set(o, "target", jx_int(s->target));
	for (int i = 0; i < s->nseats; i++) {
		json_object *so = jx_obj();
		jx_set(so, "seat", jx_int(i + 1));
		jx_set(so, "name", jx_str(v->names[i]));
		jx_set(so, "points", jx_int(s->points[i]));
		jx_push(seats, so);
	}
	jx_set(o, "seats", seats);
}

static json_object *tally_result(const void *state, const table_view *v)
{
	const tally_state *s = state;
	json_object *o = jx_obj(), *a = jx_arr();
	for (int i = 0; i < s->nseats; i++) {
		json_object *r = jx_obj();
		jx_set(r, "seat", jx_int(i + 1));
		jx_set(r, "name", jx_str(v->names[i]));
		jx_set(r, "score", jx_int(s->points[i]));
		jx_set(r, "rank", jx_int(i + 1 == s->winner ? 1 : 2));
		jx_push(a, r);
	}
	jx_set(o, "standings", a);
	return o;
}

static const table_kind tally_kind = {
    .name = "tally",
    .max_seats = TALLY_SEATS,
    .state_size = sizeof(tally_state),
    .event_size = sizeof(tally_event),
    .create_parse = tally_create,
    .init = tally_init,
    .event_decode = tally_decode,
    .event_encode = tally_encode,
    .apply = tally_apply,
    .finished = tally_finished,
    .state_json = tally_state_json,
    .result_json = tally_result,
};

/* POST /api/v1/tally/games/{id}/seats/{seat}/adds {"turn","points"}: the kind's one handler. */
static int api_tally_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	int64_t turn = 0, points = 0;
	js_error err = {{0}, {0}};
	tally_event body = {0};
	const js_field f[] = {
	    {"turn", JS_INT, JS_F_REQUIRED, 1, 1000, NULL, &turn, NULL},
	    {"points", JS_INT, JS_F_REQUIRED, 1, 10, NULL, &points, NULL},
	};
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else {
		body.points = (int)points;
		table_event ev = {
		    .name = "add", .seat = atoi(req->params[1]), .turn = (int)turn, .body = &body};
		table_mutate(req, resp, &tally_kind, &ev);
	}
	json_object_put(root);
	return 0;
}

__attribute__((constructor)) static void register_tally(void)
{
	if (table_register(&tally_kind) != 0)
		abort();
}

const http_route api_routes[] = {
    {"GET", "/api/v1/health", api_health, false, 0, false, false, NULL},
    {"POST", "/api/v1/join", table_api_join, true, 0, false, false, NULL},
    {"GET", "/api/v1/join/{code}", table_api_join_seats, true, 0, false, false, NULL},
    {"POST", "/api/v1/tally/games", table_api_create, true, 0, false, false, NULL},
    {"GET", "/api/v1/tally/games/{id}", table_api_get, true, 0, false, false, NULL},
    {"GET", "/api/v1/tally/games/{id}/log", table_api_log, true, 0, false, false, NULL},
    {"GET", "/api/v1/tally/games/{id}/events", table_api_events, true, 0, false, false, NULL},
    {"POST", "/api/v1/tally/games/{id}/seats/{seat}/adds", api_tally_add, true, 0, false, false,
     NULL},
};
const size_t api_nroutes = sizeof api_routes / sizeof api_routes[0];
