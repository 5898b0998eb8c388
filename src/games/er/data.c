/* Loading templates/er/ (the single source of the ER game data) at start. */
#include "games/er/data.h"
#include "json/jx.h"
#include "base/templates.h"
#include "base/log.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static er_data g_data;
static char *g_data_json; /* GET /api/v1/er/data body, built once */
static size_t g_data_json_len;

/* The public data document: the three template files as they are plus the derived geometry,
 * so a client draws the same sheet the rules check. */
static char *build_data_json(json_object *sheet, json_object *cards, json_object *specs,
                             const er_data *d, size_t *len)
{
	json_object *o = jx_obj();
	jx_set(o, "sheet", json_object_get(sheet));
	json_object *c = NULL, *s = NULL;
	json_object_object_get_ex(cards, "cards", &c);
	json_object_object_get_ex(specs, "specialists", &s);
	jx_set(o, "cards", json_object_get(c));
	jx_set(o, "specialists", json_object_get(s));
	json_object *geo = jx_obj();
	json_object *labs = jx_arr();
	for (int l = 0; l < ER_LABS; l++) {
		json_object *beds = jx_arr();
		for (int i = 0; i < 6; i++) {
			int b = d->lab_adj[l][i];
			jx_push(beds, b < 0 ? NULL : jx_int(d->beds[b].hex));
		}
		jx_push(labs, beds);
	}
	jx_set(geo, "lab_neighbours", labs);
	jx_set(geo, "edges", jx_int(d->nedges));
	jx_set(geo, "lines", jx_int(d->nlines));
	jx_set(geo, "triangles", jx_int(d->ntriangles));
	jx_set(o, "geometry", geo);
	const char *str = jx_text(o);
	char *out = xstrdup(str);
	*len = strlen(str);
	json_object_put(o);
	return out;
}

int er_api_init(const char *templates_dir)
{
	char err[256] = "";
	int rc = -1;
	json_object *sheet = templates_read(templates_dir, "er/sheet.json");
	json_object *cards = templates_read(templates_dir, "er/cards.json");
	json_object *specs = templates_read(templates_dir, "er/specialists.json");
	if (!sheet || !cards || !specs)
		goto out;
	if (er_data_from_json(&g_data, sheet, cards, specs, err, sizeof err) != 0) {
		log_bug("templates: %s/er: %s", templates_dir, err);
		goto out;
	}
	g_data_json = build_data_json(sheet, cards, specs, &g_data, &g_data_json_len);
	rc = 0;
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

const char *er_api_rule_field(const er_result *r, const char *at, char *buf, size_t n)
{
	if (at == NULL || r->step < 0)
		return NULL;
	snprintf(buf, n, "%s/steps/%d", at, r->step);
	return buf;
}

int er_api_reply_rule(http_resp *resp, int status, const er_result *r, const char *at)
{
	char buf[128];
	const char *field = er_api_rule_field(r, at, buf, sizeof buf);
	return http_reply_problem(resp, status, r->detail, r->rule, field ? field : at);
}

int api_er_data(const http_req *req, http_resp *resp)
{
	(void)req;
	resp->status = 200;
	resp->content_type = "application/json";
	resp->body = xmalloc(g_data_json_len + 1);
	memcpy(resp->body, g_data_json, g_data_json_len + 1);
	resp->body_len = g_data_json_len;
	return http_resp_header(resp, "Cache-Control", "public, max-age=300");
}
