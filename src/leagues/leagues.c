/* Leagues (leagues.h): a league created with its first owner, the caller's leagues listed, a
 * league read with its members, owners, seasons and games. */
#include "leagues/leagues.h"
#include "leagues/access.h"
#include "json/jx.h"
#include "json/spec.h"

#include <stdio.h>

/* ---- JSON of stored things ---- */

static json_object *league_json(db_conn *c, const char *league, const league_access *acc,
                                db_status *st)
{
	db_league_row lr;
	if ((*st = db_league_get(c, league, &lr)) != DB_OK || !lr.found)
		return NULL;
	db_owner_rows owners = {0};
	db_member_rows members = {0};
	db_game_name_rows games = {0};
	db_season_rows seasons = {0};
	json_object *o = NULL;
	if ((*st = db_league_owners(c, league, &owners)) != DB_OK ||
	    (*st = db_league_members(c, league, &members)) != DB_OK ||
	    (*st = db_league_games(c, league, &games)) != DB_OK ||
	    (*st = db_league_seasons(c, league, &seasons)) != DB_OK)
		goto out;
	o = jx_obj();
	jx_set(o, "id", jx_str(league));
	jx_set(o, "name", jx_str(lr.name));
	jx_set(o, "created_at", jx_str(lr.created_at));
	jx_set(o, "plays", jx_int(lr.plays));
	json_object *you = jx_obj();
	jx_set(you, "account", jx_str(acc->acc.id));
	jx_set(you, "owner", jx_bool(acc->owner));
	jx_set(you, "member", jx_str_or_null(acc->member[0] ? acc->member : NULL));
	jx_set(o, "you", you);
	json_object *ow = jx_arr(), *me = jx_arr(), *ga = jx_arr(), *se = jx_arr();
	for (int i = 0; i < owners.n; i++) {
		json_object *x = jx_obj();
		jx_set(x, "account", jx_str(owners.rows[i].account));
		jx_set(x, "display_name", jx_str(owners.rows[i].display_name));
		jx_push(ow, x);
	}
	for (int i = 0; i < members.n; i++) {
		const db_member_row *m = &members.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(m->id));
		jx_set(x, "name", jx_str(m->name));
		jx_set(x, "account", jx_str_or_null(m->account));
		jx_set(x, "guest", jx_bool(m->account == NULL));
		jx_set(x, "plays", jx_int(m->plays));
		jx_push(me, x);
	}
	for (int i = 0; i < games.n; i++)
		jx_push(ga, jx_str(games.rows[i].game));
	jx_set(o, "games", ga);
	for (int i = 0; i < seasons.n; i++) {
		const db_season_row *z = &seasons.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(z->id));
		jx_set(x, "name", jx_str(z->name));
		jx_set(x, "starts", jx_str(z->starts));
		jx_set(x, "ends", jx_str(z->ends));
		jx_push(se, x);
	}
	jx_set(o, "owners", ow);
	jx_set(o, "members", me);
	jx_set(o, "seasons", se);
out:
	db_rowset_clear(&owners);
	db_rowset_clear(&members);
	db_rowset_clear(&games);
	db_rowset_clear(&seasons);
	return o;
}

/* ---- leagues ---- */

typedef struct {
	const char *name;
	account acc;
	char id[ID_LEN + 1];
	http_resp *resp;
} create_arg;

static db_status league_create_tx(db_conn *c, void *arg)
{
	create_arg *a = arg;
	char member[ID_LEN + 1];
	id_new(a->id);
	id_new(member);
	bool inserted;
	db_status st;
	if ((st = db_league_insert(c, a->id, a->name)) != DB_OK ||
	    (st = db_league_owner_insert(c, a->id, a->acc.id)) != DB_OK)
		return st;
	/* the owner plays too: a member entry under their display name */
	st = db_member_insert(c, member, a->id, a->acc.display_name, a->acc.id, &inserted);
	if (st != DB_OK)
		return st;
	league_access acc = {.acc = a->acc, .owner = true};
	snprintf(acc.member, sizeof acc.member, "%s", member);
	json_object *j = league_json(c, a->id, &acc, &st);
	if (j == NULL)
		return st == DB_OK ? DB_FAIL : st;
	http_resp_clear(a->resp);
	http_reply_json(a->resp, 201, j);
	return DB_OK;
}

int api_league_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	create_arg a = {.resp = resp};
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &a.name, NULL}};
	db_conn *c = db_thread_conn();
	if (acct_csrf_reply(req, resp, true) || !acct_session(req, resp, c, &a.acc))
		return 0;
	if (http_body_json(req, resp, &root) != 0)
		return 0;
	if (js_fields(root, "", f, 1, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		access_run_tx(c, &a.acc, league_create_tx, &a, resp);
	json_object_put(root);
	return 0;
}

int api_league_list(const http_req *req, http_resp *resp)
{
	account acc;
	db_conn *c = db_thread_conn();
	if (!acct_session(req, resp, c, &acc))
		return 0;
	db_league_items items = {0};
	if (db_league_list(c, acc.id, &items) != DB_OK)
		return acct_reply_db(resp);
	json_object *a = jx_arr();
	for (int i = 0; i < items.n; i++) {
		const db_league_item *y = &items.rows[i];
		json_object *x = jx_obj();
		jx_set(x, "id", jx_str(y->id));
		jx_set(x, "name", jx_str(y->name));
		jx_set(x, "owner", jx_bool(y->owner));
		jx_set(x, "plays", jx_int(y->plays));
		jx_push(a, x);
	}
	db_rowset_clear(&items);
	json_object *o = jx_obj();
	jx_set(o, "leagues", a);
	return http_reply_json(resp, 200, o);
}

int api_league_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	/* the reply says who asks ("you"): the account is part of the tag */
	char key[128], etag[LEAGUE_ETAG_LEN];
	snprintf(key, sizeof key, "league\n%s\n%s", req->params[0], a.acc.id);
	access_etag(etag, a.version, key);
	if (access_not_modified(req, resp, etag))
		return 0;
	db_status st;
	json_object *o = league_json(c, req->params[0], &a, &st);
	if (o == NULL)
		return acct_reply_db(resp);
	http_reply_json(resp, 200, o);
	access_tag_reply(resp, etag);
	return 0;
}
