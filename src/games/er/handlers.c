/* The handlers of the ER mutations (api.md "Games"): reveal a turn, a seat's move, undo a
 * seat's move. Each reads its request into an er_event (400 naming the field, 404 for a seat or
 * turn out of range) and hands it to the engine (table_mutate), which does the rest through
 * er_table_kind. */
#include "games/er/kind.h"
#include "games/er/kind_internal.h"

#include "games/er/data.h"
#include "games/er/json.h"
#include "json/jx.h"
#include "rules/er_game.h"

#include <stdlib.h>
#include <string.h>

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
