/* Scoring profiles: shipped (templates/) and stored (db/profiles.c). See profiles.h. */
#include "games/rounds/profiles.h"

#include "base/templates.h"
#include "base/log.h"
#include "db/profiles.h"
#include "json/jx.h"
#include "json/spec.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_SHIPPED = 16 };

/* A shipped profile, kept as text: json-c objects are not shareable between threads (their
 * reference counts are plain integers, and even reading a member takes and drops references in
 * some calls), so every request parses its own copy of the document. Written by
 * profiles_init before the server starts its threads, read-only afterwards. */
typedef struct {
	char id[TT_ID_LEN]; /* the document's "id" */
	char *text;         /* the whole document, compact JSON (owned) */
} shipped_profile;

static shipped_profile g_shipped[2][MAX_SHIPPED];
static int g_nshipped[2];
static const char *const game_ids[2] = {"dh", "clinic"};
static const char *const game_dirs[2] = {"dice-hospital", "clinic"};

static const char *doc_str(json_object *doc, const char *key)
{
	json_object *v = NULL;
	if (!json_object_object_get_ex(doc, key, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static int check_doc(int game, json_object *doc, char *err, size_t len)
{
	if (game == 0) {
		dh_profile p;
		return dh_profile_from_json(&p, doc, err, len);
	}
	clinic_profile p;
	return clinic_profile_from_json(&p, doc, err, len);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(const char *templates_dir, int game)
{
	char dir[2048], *names[64];
	int n = 0, rc = -1;
	snprintf(dir, sizeof dir, "%s/%s", templates_dir, game_dirs[game]);
	DIR *d = opendir(dir);
	if (!d) {
		log_bug("templates: cannot open %s", dir);
		return -1;
	}
	for (struct dirent *e; (e = readdir(d)) != NULL && n < 64;) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0 &&
		    strcmp(e->d_name, "administrators.json") != 0)
			names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], name_cmp);
	for (int i = 0; i < n; i++) {
		char err[256];
		json_object *doc = templates_read(dir, names[i]);
		if (!doc || check_doc(game, doc, err, sizeof err) != 0 ||
		    g_nshipped[game] == MAX_SHIPPED) {
			if (doc)
				log_bug("templates: %s/%s: %s", dir, names[i], err);
			json_object_put(doc);
			goto out;
		}
		shipped_profile *sp = &g_shipped[game][g_nshipped[game]++];
		snprintf(sp->id, sizeof sp->id, "%s", doc_str(doc, "id"));
		sp->text = xstrdup(jx_text(doc));
		json_object_put(doc);
	}
	rc = g_nshipped[game] > 0 ? 0 : -1;
	if (rc != 0)
		log_bug("templates: %s has no profile", dir);
out:
	for (int i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

static int check_admins(const char *templates_dir)
{
	char err[256];
	json_object *doc = templates_read(templates_dir, "dice-hospital/administrators.json");
	int rc = doc ? dh_admins_check_json(doc, err, sizeof err) : -1;
	if (doc && rc != 0)
		log_bug("templates: %s/dice-hospital/administrators.json: %s", templates_dir, err);
	json_object_put(doc);
	return rc;
}

int profiles_init(const char *templates_dir)
{
	if (load_dir(templates_dir, 0) != 0 || load_dir(templates_dir, 1) != 0 ||
	    check_admins(templates_dir) != 0) {
		profiles_shutdown();
		return -1;
	}
	return 0;
}

void profiles_shutdown(void)
{
	for (int g = 0; g < 2; g++) {
		for (int i = 0; i < g_nshipped[g]; i++) {
			free(g_shipped[g][i].text);
			g_shipped[g][i].text = NULL;
		}
		g_nshipped[g] = 0;
	}
}

static const shipped_profile *shipped(int game, const char *id)
{
	for (int i = 0; i < g_nshipped[game]; i++)
		if (strcmp(g_shipped[game][i].id, id) == 0)
			return &g_shipped[game][i];
	return NULL;
}

/* A private copy of a shipped document (the caller puts it). The text was checked at start. */
static json_object *shipped_doc(const shipped_profile *sp)
{
	return jx_parse_stored(sp->text);
}

/* The document of (game, id): shipped first, then stored. *doc: new reference or NULL. */
static int find_doc(int game, const char *id, json_object **doc, table_refusal *r)
{
	const shipped_profile *s = shipped(game, id ? id : "default");
	*doc = NULL;
	if (s) {
		*doc = shipped_doc(s);
		return *doc ? 0
		            : table_refuse(r, 500, NULL, NULL, "a shipped profile does not load");
	}
	db_conn *c = db_thread_conn();
	char *body = NULL;
	if (!c || db_profile_get(c, game_ids[game], id, &body) != DB_OK)
		return table_refuse(r, 503, NULL, NULL, "the database is unavailable");
	if (body)
		*doc = json_tokener_parse(body);
	free(body);
	if (!*doc)
		return table_refuse(r, 422, "profile-unknown", "/profile",
		                    "no scoring profile \"%s\" for this game", id);
	return 0;
}

int profiles_find_dh(const char *id, dh_profile *out, json_object **doc, table_refusal *r)
{
	char err[256];
	if (find_doc(0, id, doc, r) != 0)
		return -1;
	if (dh_profile_from_json(out, *doc, err, sizeof err) != 0) {
		log_bug("stored profile %s does not load: %s", id, err);
		json_object_put(*doc);
		*doc = NULL;
		return table_refuse(r, 500, NULL, NULL, "a stored profile does not load");
	}
	return 0;
}

int profiles_find_clinic(const char *id, clinic_profile *out, json_object **doc, table_refusal *r)
{
	char err[256];
	if (find_doc(1, id, doc, r) != 0)
		return -1;
	if (clinic_profile_from_json(out, *doc, err, sizeof err) != 0) {
		log_bug("stored profile %s does not load: %s", id, err);
		json_object_put(*doc);
		*doc = NULL;
		return table_refuse(r, 500, NULL, NULL, "a stored profile does not load");
	}
	return 0;
}

bool profiles_all_verified(json_object *doc)
{
	json_object *values = NULL;
	if (!json_object_object_get_ex(doc, "values", &values))
		return false;
	json_object_object_foreach(values, key, v)
	{
		json_object *ver = NULL;
		(void)key;
		if (!json_object_object_get_ex(v, "verified", &ver) ||
		    !json_object_get_boolean(ver))
			return false;
	}
	return true;
}

/* ---- GET /api/v1/profiles[?game=dh|clinic] ---- */

static json_object *listed(json_object *doc, const char *source, const char *league,
                           const char *created_at)
{
	json_object *o = jx_obj();
	/* the document's keys are not static: copied (json_object_object_add), unlike jx_set */
	json_object_object_foreach(doc, key, v)
	{
		if (strcmp(key, "source") != 0 && strcmp(key, "all_verified") != 0 &&
		    strcmp(key, "league") != 0 && strcmp(key, "created_at") != 0 &&
		    json_object_object_add(o, key, json_object_get(v)) != 0)
			oom_abort();
	}
	jx_set(o, "source", jx_str(source));
	jx_set(o, "all_verified", jx_bool(profiles_all_verified(doc)));
	if (league)
		jx_set(o, "league", jx_str(league));
	if (created_at)
		jx_set(o, "created_at", jx_str(created_at));
	return o;
}

static void add_stored(const char *game, const char *id, const char *body, const char *league,
                       const char *created_at, void *arg)
{
	json_object *doc = json_tokener_parse(body);
	(void)game;
	if (!doc) {
		log_bug("stored profile %s is not JSON", id);
		return;
	}
	jx_push(arg, listed(doc, "stored", league, created_at));
	json_object_put(doc);
}

int api_profiles_list(const http_req *req, http_resp *resp)
{
	const char *game = http_query(req, "game");
	if (game && strcmp(game, "dh") != 0 && strcmp(game, "clinic") != 0)
		return http_reply_problem(resp, 400, "game is \"dh\" or \"clinic\"", NULL, NULL);
	json_object *list = jx_arr();
	for (int g = 0; g < 2; g++)
		for (int i = 0; i < g_nshipped[g] && (!game || strcmp(game, game_ids[g]) == 0);
		     i++) {
			json_object *doc = shipped_doc(&g_shipped[g][i]);
			if (doc)
				jx_push(list, listed(doc, "template", NULL, NULL));
			json_object_put(doc);
		}
	db_conn *c = db_thread_conn();
	if (!c || db_profiles_list(c, game, add_stored, list) != DB_OK) {
		json_object_put(list);
		return http_reply_problem(resp, 503, "the database is unavailable", NULL, NULL);
	}
	json_object *o = jx_obj();
	jx_set(o, "profiles", list);
	return http_reply_json(resp, 200, o);
}

/* ---- POST /api/v1/profiles ---- */

/* Now as a profile records it (UTC, tt_stamp_ok's shape) into out[TT_STAMP_LEN]. */
static void now_stamp(char *out)
{
	time_t t = time(NULL);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(out, TT_STAMP_LEN, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, TT_STAMP_LEN, "1970-01-01T00:00:00Z");
}

/* The values a group compared with its box ("checked": [key, …]) become verified, checked
 * now, and so does the profile. Returns 0, or -1 with the offending element's pointer in
 * field (an element that is not the name of one of the values). */
static int stamp_checked(json_object *doc, json_object *values, json_object *checked, char *field,
                         size_t len)
{
	char now[TT_STAMP_LEN];
	size_t n = checked ? json_object_array_length(checked) : 0;
	now_stamp(now);
	for (size_t i = 0; i < n; i++) {
		json_object *k = json_object_array_get_idx(checked, i);
		json_object *v =
		    k && json_object_is_type(k, json_type_string)
		        ? js_member(values, json_object_get_string(k), json_type_object)
		        : NULL;
		if (!v) {
			snprintf(field, len, "/checked/%zu", i);
			return -1;
		}
		/* members the value may have already: json_object_object_add replaces them */
		if (json_object_object_add(v, "verified", jx_bool(true)) != 0 ||
		    json_object_object_add(v, "checked_at", jx_str(now)) != 0 ||
		    json_object_object_add(v, "source",
		                           jx_str("checked against the group's box")) != 0)
			oom_abort();
	}
	if (n > 0)
		jx_set(doc, "checked_at", jx_str(now));
	return 0;
}

int api_profiles_create(const http_req *req, http_resp *resp)
{
	static const char *const games[] = {"dh", "clinic", NULL};
	json_object *root = NULL, *values = NULL, *checked = NULL;
	const char *id = NULL, *name = NULL, *league = NULL;
	int game = 0;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"game", JS_ENUM, JS_F_REQUIRED, 0, 0, games, &game, NULL},
	    {"id", JS_STRING, JS_F_REQUIRED, 1, TT_ID_LEN - 1, NULL, &id, NULL},
	    {"name", JS_STRING, JS_F_REQUIRED, 1, TT_NAME_LEN - 1, NULL, &name, NULL},
	    {"values", JS_OBJECT, JS_F_REQUIRED, 0, 0, NULL, &values, NULL},
	    {"league", JS_STRING, JS_F_NULLABLE, 1, JS_MAX_NAME, NULL, &league, NULL},
	    {"checked", JS_ARRAY, 0, 0, 64, NULL, &checked, NULL},
	};
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	db_conn *c = db_thread_conn();
	if (!c) {
		http_reply_problem(resp, 503, "the database is unavailable", NULL, NULL);
		goto out;
	}
	/* a league's profile is filed by one of its owners or members */
	if (league && table_league_allowed(req, resp, c, league) != 0)
		goto out;
	char why[256], field[128];
	json_object *doc = jx_obj();
	jx_set(doc, "game", jx_str(games[game]));
	jx_set(doc, "id", jx_str(id));
	jx_set(doc, "name", jx_str(name));
	jx_set(doc, "values", json_object_get(values));
	if (stamp_checked(doc, values, checked, field, sizeof field) != 0) {
		http_reply_problem(resp, 400, "not the name of one of the profile's values",
		                   "profile-invalid", field);
		goto out_doc;
	}
	/* a value out of its domain: the loader names the field as "/values/…: reason" */
	if (check_doc(game, doc, why, sizeof why) != 0) {
		size_t n = strcspn(why, ":");
		snprintf(field, sizeof field, "%.*s", (int)(n < sizeof field ? n : 0), why);
		http_reply_problem(resp, 400, why, "profile-invalid", field);
		goto out_doc;
	}
	if (shipped(game, id)) {
		http_reply_problem(resp, 409, "a shipped profile has this id", "profile-exists",
		                   "/id");
		goto out_doc;
	}
	bool inserted = false;
	if (db_profile_insert(c, games[game], id, name, jx_text(doc), league, &inserted) != DB_OK) {
		http_reply_problem(resp, 503, "the database is unavailable", NULL, NULL);
		goto out_doc;
	}
	if (!inserted) {
		http_reply_problem(resp, 409, "a profile with this id exists", "profile-exists",
		                   "/id");
		goto out_doc;
	}
	http_reply_json(resp, 201, listed(doc, "stored", league, NULL));
out_doc:
	json_object_put(doc);
out:
	json_object_put(root);
	return 0;
}
