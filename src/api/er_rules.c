/* The stateless ER rules endpoints (api.md "Stateless rules endpoints"): parse → rules → reply.
 * Nothing is stored; the same rules functions serve the games. */
#include "api/er_api.h"
#include "api/er_json.h"

#include <json-c/json.h>
#include <stdlib.h>

/* The parts every stateless body may carry. */
typedef struct {
	json_object *sheet, *turn, *move, *modifiers, *radiologist, *epidemiologist;
	bool alicat, final_turn;
	bool has_radiologist, has_epidemiologist;
	unsigned mods;
	er_sheet s;
	er_turn t;
	er_move m;
} er_body;

/* Parses the sheet (and turn / move when the body has them) after js_fields filled b.
 * Replies and returns -1 on bad input. */
static int parse_common(const er_data *d, er_body *b, http_resp *resp)
{
	js_error err = {{0}, {0}};
	const char *rule = NULL;
	int rc;
	if (b->modifiers &&
	    er_json_modifiers_parse(b->modifiers, "/alicat_modifiers", &b->mods, &err) != 0)
		return er_api_reply_parse_error(resp, -1, NULL, &err), -1;
	if (b->mods && !b->alicat) {
		http_reply_problem(resp, 400, "alicat_modifiers apply only with \"alicat\": true",
		                   NULL, "/alicat_modifiers");
		return -1;
	}
	rc = er_json_sheet_parse(d, b->sheet, "/sheet", b->alicat, b->mods, &b->s, &rule, &err);
	if (rc != 0)
		return er_api_reply_parse_error(resp, rc, rule, &err), -1;
	if (b->turn && er_json_turn_parse(b->turn, "/turn", &b->t, &err) != 0)
		return er_api_reply_parse_error(resp, -1, NULL, &err), -1;
	if (b->move && er_json_move_parse(b->move, "/move", &b->m, &err) != 0)
		return er_api_reply_parse_error(resp, -1, NULL, &err), -1;
	return 0;
}

/* Parses the request body against fields; on success *root (caller frees) holds the borrowed
 * sub-objects of b. Replies and returns -1 otherwise. */
static int parse_body(const http_req *req, http_resp *resp, const js_field *fields, size_t n,
                      json_object **root)
{
	js_error err = {{0}, {0}};
	if (http_body_json(req, resp, root) != 0)
		return -1;
	if (js_fields(*root, "", fields, n, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		json_object_put(*root);
		*root = NULL;
		return -1;
	}
	return 0;
}

int api_er_score(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b = {0};
	json_object *root = NULL;
	js_error err = {{0}, {0}};
	er_spec_id radio = ER_SPEC_NONE, epi = ER_SPEC_NONE;
	const char *radio_s = NULL, *epi_s = NULL; /* type-checked here, resolved below */
	const js_field f[] = {
	    {"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.sheet, NULL},
	    {"radiologist", JS_STRING, JS_F_NULLABLE, 1, 32, NULL, &radio_s, NULL},
	    {"epidemiologist", JS_STRING, JS_F_NULLABLE, 1, 32, NULL, &epi_s, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &b.alicat, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &b.modifiers, NULL},
	};
	if (parse_body(req, resp, f, sizeof f / sizeof f[0], &root) != 0)
		return 0;
	json_object *rv = NULL, *ev = NULL;
	json_object_object_get_ex(root, "radiologist", &rv);
	json_object_object_get_ex(root, "epidemiologist", &ev);
	if (er_json_specialist(d, rv, "/radiologist", ER_KIND_RADIOLOGIST, &radio, &err) != 0 ||
	    er_json_specialist(d, ev, "/epidemiologist", ER_KIND_EPIDEMIOLOGIST, &epi, &err) != 0) {
		er_api_reply_parse_error(resp, -1, NULL, &err);
		goto out;
	}
	if (parse_common(d, &b, resp) != 0)
		goto out;
	er_breakdown bd;
	er_details det;
	er_result r = er_score(d, &b.s, radio, epi, b.alicat, b.mods, &bd, &det);
	if (r.rule) {
		er_api_reply_rule(resp, &r);
		goto out;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "total", json_object_new_int(bd.total));
	json_object_object_add(o, "breakdown", er_json_breakdown(&bd));
	json_object_object_add(o, "details", er_json_details(d, &det));
	http_reply_json(resp, 200, o);
out:
	json_object_put(root);
	return 0;
}

int api_er_moves_apply(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b = {0};
	json_object *root = NULL;
	const js_field f[] = {
	    {"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.sheet, NULL},
	    {"turn", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.turn, NULL},
	    {"move", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.move, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &b.alicat, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &b.modifiers, NULL},
	};
	if (parse_body(req, resp, f, sizeof f / sizeof f[0], &root) != 0)
		return 0;
	if (parse_common(d, &b, resp) != 0)
		goto out;
	er_result r = er_move_apply(d, &b.t, &b.m, b.alicat, &b.s);
	if (r.rule) {
		er_api_reply_rule(resp, &r);
		goto out;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "sheet", er_json_sheet(d, &b.s));
	http_reply_json(resp, 200, o);
out:
	json_object_put(root);
	return 0;
}

int api_er_moves_options(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b = {0};
	json_object *root = NULL;
	const js_field f[] = {
	    {"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.sheet, NULL},
	    {"turn", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.turn, NULL},
	    {"alicat", JS_BOOL, 0, 0, 0, NULL, &b.alicat, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &b.modifiers, NULL},
	};
	if (parse_body(req, resp, f, sizeof f / sizeof f[0], &root) != 0)
		return 0;
	if (parse_common(d, &b, resp) != 0)
		goto out;
	er_option *opts = malloc(sizeof *opts * ER_MAX_OPTIONS);
	if (opts == NULL) {
		http_reply_problem(resp, 500, "out of memory", NULL, NULL);
		goto out;
	}
	int n = er_move_options(d, &b.t, &b.s, b.alicat, opts, ER_MAX_OPTIONS);
	json_object *arr = json_object_new_array_ext(n);
	for (int i = 0; i < n; i++)
		json_object_array_add(arr, er_json_option(&opts[i]));
	free(opts);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "options", arr);
	http_reply_json(resp, 200, o);
out:
	json_object_put(root);
	return 0;
}

int api_er_alicat_move(const http_req *req, http_resp *resp)
{
	const er_data *d = er_api_data();
	er_body b = {0};
	json_object *root = NULL;
	const js_field f[] = {
	    {"sheet", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.sheet, NULL},
	    {"turn", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &b.turn, NULL},
	    {"final_turn", JS_BOOL, 0, 0, 0, NULL, &b.final_turn, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &b.modifiers, NULL},
	};
	if (parse_body(req, resp, f, sizeof f / sizeof f[0], &root) != 0)
		return 0;
	b.alicat = true;
	if (parse_common(d, &b, resp) != 0)
		goto out;
	er_move m;
	er_result r = er_alicat_move(d, &b.s, &b.t, b.final_turn, &m);
	if (r.rule == NULL)
		r = er_move_apply(d, &b.t, &m, true, &b.s);
	if (r.rule) {
		er_api_reply_rule(resp, &r);
		goto out;
	}
	json_object *o = json_object_new_object();
	json_object_object_add(o, "move", er_json_move(&m));
	json_object_object_add(o, "sheet", er_json_sheet(d, &b.s));
	http_reply_json(resp, 200, o);
out:
	json_object_put(root);
	return 0;
}
