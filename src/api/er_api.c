/* Loading templates/er/ (the single source of the ER game data) at start. */
#include "api/er_api.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static er_data g_data;
static char *g_data_json; /* GET /api/v1/er/data body, built once */
static size_t g_data_json_len;

static json_object *load(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/er/%s", dir, name);
	json_object *o = json_object_from_file(path);
	if (o == NULL)
		fprintf(stderr, "templates: cannot read %s: %s\n", path, json_util_get_last_err());
	return o;
}

/* The public data document: the three template files as they are plus the derived geometry,
 * so a client draws the same sheet the rules check. */
static char *build_data_json(json_object *sheet, json_object *cards, json_object *specs,
                             const er_data *d, size_t *len)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "sheet", json_object_get(sheet));
	json_object *c = NULL, *s = NULL;
	json_object_object_get_ex(cards, "cards", &c);
	json_object_object_get_ex(specs, "specialists", &s);
	json_object_object_add(o, "cards", json_object_get(c));
	json_object_object_add(o, "specialists", json_object_get(s));
	json_object *geo = json_object_new_object();
	json_object *labs = json_object_new_array();
	for (int l = 0; l < ER_LABS; l++) {
		json_object *beds = json_object_new_array();
		for (int i = 0; i < 6; i++) {
			int b = d->lab_adj[l][i];
			json_object_array_add(beds,
			                      b < 0 ? NULL : json_object_new_int(d->beds[b].hex));
		}
		json_object_array_add(labs, beds);
	}
	json_object_object_add(geo, "lab_neighbours", labs);
	json_object_object_add(geo, "edges", json_object_new_int(d->nedges));
	json_object_object_add(geo, "lines", json_object_new_int(d->nlines));
	json_object_object_add(geo, "triangles", json_object_new_int(d->ntriangles));
	json_object_object_add(o, "geometry", geo);
	const char *str = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	char *out = strdup(str);
	*len = strlen(str);
	json_object_put(o);
	return out;
}

int er_api_init(const char *templates_dir)
{
	char err[256] = "";
	int rc = -1;
	json_object *sheet = load(templates_dir, "sheet.json");
	json_object *cards = load(templates_dir, "cards.json");
	json_object *specs = load(templates_dir, "specialists.json");
	if (!sheet || !cards || !specs)
		goto out;
	if (er_data_from_json(&g_data, sheet, cards, specs, err, sizeof err) != 0) {
		fprintf(stderr, "templates: %s/er: %s\n", templates_dir, err);
		goto out;
	}
	g_data_json = build_data_json(sheet, cards, specs, &g_data, &g_data_json_len);
	rc = g_data_json ? 0 : -1;
out:
	json_object_put(sheet);
	json_object_put(cards);
	json_object_put(specs);
	return rc;
}

void er_api_shutdown(void)
{
	free(g_data_json);
	g_data_json = NULL;
}

const er_data *er_api_data(void)
{
	return &g_data;
}

int er_api_reply_parse_error(http_resp *resp, int rc, const char *rule, const js_error *err)
{
	if (rc == -2)
		return http_reply_problem(resp, 422, err->detail, rule,
		                          err->field[0] ? err->field : NULL);
	return http_reply_problem(resp, 400, err->detail, NULL, err->field);
}

int er_api_reply_rule(http_resp *resp, int status, const er_result *r, const char *at)
{
	char field[128];
	if (at == NULL || r->step < 0)
		return http_reply_problem(resp, status, r->detail, r->rule, at);
	snprintf(field, sizeof field, "%s/steps/%d", at, r->step);
	return http_reply_problem(resp, status, r->detail, r->rule, field);
}

int api_er_data(const http_req *req, http_resp *resp)
{
	(void)req;
	resp->status = 200;
	resp->content_type = "application/json";
	resp->body = malloc(g_data_json_len + 1);
	if (resp->body == NULL)
		return -1;
	memcpy(resp->body, g_data_json, g_data_json_len + 1);
	resp->body_len = g_data_json_len;
	return http_resp_header(resp, "Cache-Control", "public, max-age=300");
}
