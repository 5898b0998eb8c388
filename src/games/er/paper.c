/* The stateless ER rules endpoints (api.md "Stateless rules endpoints"): parse → rules → reply.
 * Nothing is stored; the same rules functions serve the games. */
#include "games/er/data.h"
#include "json/jx.h"
#include "games/er/json.h"

#include <json-c/json.h>
#include <stdlib.h>

/* What a stateless body carries besides its sheet (always required). */
enum {
	PART_TURN = 1u << 0,        /* "turn" (required) */
	PART_MOVE = 1u << 1,        /* "move" (required) */
	PART_ALICAT = 1u << 2,      /* "alicat": bool (optional) */
	PART_FINAL = 1u << 3,       /* "final_turn": bool (optional) */
	PART_SPECIALISTS = 1u << 4, /* "radiologist", "epidemiologist" (optional ids) */
	PART_ALICAT_ONLY = 1u << 5, /* ALICAT's endpoint: the sheet is ALICAT's */
};

/* A parsed body. */
typedef struct {
	bool alicat, final_turn;
	unsigned mods;
	er_spec_id radiologist, epidemiologist;
	er_sheet s;
	er_turn t;
	er_move m;
} er_body;

/* Checks the parts after js_fields() accepted the shape. Replies and returns -1 on bad input. */
static int parse_parts(json_object *root, json_object *sheet, json_object *turn, json_object *move,
                       json_object *mods, er_body *b, http_resp *resp)
{
	const er_data *d = er_api_data();
	js_error err = {{0}, {0}};
	const char *rule = NULL;
	json_object *rv = NULL, *ev = NULL;
	json_object_object_get_ex(root, "radiologist", &rv);
	json_object_object_get_ex(root, "epidemiologist", &ev);
	if (er_json_specialist(d, rv, "/radiologist", ER_KIND_RADIOLOGIST, true, &b->radiologist,
	                       &err) != 0 ||
	    er_json_specialist(d, ev, "/epidemiologist", ER_KIND_EPIDEMIOLOGIST, true,
	                       &b->epidemiologist, &err) != 0 ||
	    (mods && er_json_modifiers_parse(mods, "/alicat_modifiers", &b->mods, &err) != 0))
		return er_api_reply_parse_error(resp, -1, NULL, &err), -1;
	if (b->mods && !b->alicat) {
		http_reply_problem(resp, 400, "alicat_modifiers apply only with \"alicat\": true",
		                   NULL, "/alicat_modifiers");
		return -1;
	}
	int rc = er_json_sheet_parse(d, sheet, "/sheet", b->alicat, b->mods, &b->s, &rule, &err);
	if (rc != 0)
		return er_api_reply_parse_error(resp, rc, rule, &err), -1;
	if ((turn && er_json_turn_parse(turn, "/turn", &b->t, &err) != 0) ||
	    (move && er_json_move_parse(move, "/move", &b->m, &err) != 0))
		return er_api_reply_parse_error(resp, -1, NULL, &err), -1;
	return 0;
}

/* Parses the body of a stateless endpoint carrying `parts`. Replies (400 / 415 / 422) and
 * returns -1 on bad input. */
static int parse_er_body(const http_req *req, http_resp *resp, unsigned parts, er_body *b)
{
	json_object *root = NULL, *sheet = NULL, *turn = NULL, *move = NULL, *mods = NULL;
	const char *radio = NULL, *epi = NULL; /* type-checked here, resolved in parse_parts */
	js_error err = {{0}, {0}};
	js_field f[8];
	size_t n = 0;
	int rc = -1;
	*b = (er_body){.alicat = parts & PART_ALICAT_ONLY,
	               .radiologist = ER_SPEC_NONE,
	               .epidemiologist = ER_SPEC_NONE};
	f[n++] = (js_field){"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &sheet, NULL};
	if (parts & PART_TURN)
		f[n++] = (js_field){"turn", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &turn, NULL};
	if (parts & PART_MOVE)
		f[n++] = (js_field){"move", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &move, NULL};
	if (parts & PART_ALICAT)
		f[n++] = (js_field){"alicat", JS_BOOL, 0, 0, 0, NULL, &b->alicat, NULL};
	if (parts & PART_FINAL)
		f[n++] = (js_field){"final_turn", JS_BOOL, 0, 0, 0, NULL, &b->final_turn, NULL};
	if (parts & PART_SPECIALISTS) {
		f[n++] =
		    (js_field){"radiologist", JS_STRING, JS_F_NULLABLE, 1, 32, NULL, &radio, NULL};
		f[n++] =
		    (js_field){"epidemiologist", JS_STRING, JS_F_NULLABLE, 1, 32, NULL, &epi, NULL};
	}
	f[n++] = (js_field){"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL};
	if (http_body_json(req, resp, &root) != 0)
		return -1;
	if (js_fields(root, "", f, n, &err) != 0)
		er_api_reply_parse_error(resp, -1, NULL, &err);
	else
		rc = parse_parts(root, sheet, turn, move, mods, b, resp);
	json_object_put(root);
	return rc;
}

int api_er_score(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b;
	er_breakdown bd;
	er_details det;
	if (parse_er_body(req, resp, PART_SPECIALISTS | PART_ALICAT, &b) != 0)
		return 0;
	er_result r =
	    er_score(d, &b.s, b.radiologist, b.epidemiologist, b.alicat, b.mods, &bd, &det);
	if (r.rule)
		return er_api_reply_rule(resp, 422, &r, "/sheet");
	resp->status = 200;
	resp->content_type = "application/json";
	resp->body = er_json_score_text(d, &bd, &det, &resp->body_len);
	return 0;
}

int api_er_moves_apply(const http_req *req, http_resp *resp)
{
	er_body b;
	if (parse_er_body(req, resp, PART_TURN | PART_MOVE | PART_ALICAT, &b) != 0)
		return 0;
	er_result r = er_move_apply(er_api_data(), &b.t, &b.m, b.alicat, &b.s);
	if (r.rule)
		return er_api_reply_rule(resp, 422, &r, "/move");
	json_object *o = jx_obj();
	jx_set(o, "sheet", er_json_sheet(er_api_data(), &b.s));
	return http_reply_json(resp, 200, o);
}

int api_er_moves_options(const http_req *req, http_resp *resp)
{
	er_body b;
	if (parse_er_body(req, resp, PART_TURN | PART_ALICAT, &b) != 0)
		return 0;
	er_option *opts = xmalloc(sizeof *opts * ER_MAX_OPTIONS);
	int n = er_move_options(er_api_data(), &b.t, &b.s, b.alicat, opts, ER_MAX_OPTIONS);
	json_object *arr = oom_check(json_object_new_array_ext(n));
	for (int i = 0; i < n; i++)
		jx_push(arr, er_json_option(&opts[i]));
	free(opts);
	json_object *o = jx_obj();
	jx_set(o, "options", arr);
	return http_reply_json(resp, 200, o);
}

int api_er_alicat_move(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b;
	er_move m;
	if (parse_er_body(req, resp, PART_TURN | PART_FINAL | PART_ALICAT_ONLY, &b) != 0)
		return 0;
	er_result r = er_alicat_move(d, &b.s, &b.t, b.final_turn, &m);
	if (r.rule == NULL)
		r = er_move_apply(d, &b.t, &m, true, &b.s);
	if (r.rule) /* the input broke it (ALICAT's own move is built legal): no one field */
		return er_api_reply_rule(resp, 422, &r, NULL);
	json_object *o = jx_obj();
	jx_set(o, "move", er_json_move(&m));
	jx_set(o, "sheet", er_json_sheet(d, &b.s));
	return http_reply_json(resp, 200, o);
}
