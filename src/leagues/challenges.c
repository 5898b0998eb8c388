/* League challenges (challenges.h; src/leagues/README.md "Challenges"): created by an owner,
 * listed and read by members (a due one closes on the way: challboard.c), each member's one
 * attempt created as an app-deck ER game through the table engine, a guest's attempt by the
 * challenge's link. The seed lives in er_challenges.body and in each game's configuration; no
 * reply here carries it while the challenge is open. */
#include "leagues/challenges.h"

#include "leagues/access.h"
#include "leagues/challboard.h"
#include "leagues/dates.h"
#include "leagues/members.h"
#include "engine/table.h"
#include "engine/tokens.h"
#include "base/names.h"
#include "db/challenges.h"
#include "json/jx.h"
#include "json/spec.h"
#include "http/ratelimit.h"

#include <stdio.h>
#include <string.h>

/* Guests joining by a link: each client address gets GUEST_BURST, then one every GUEST_EVERY_S
 * seconds (429 beyond), so a leaked link cannot fill a league with guests. A table of friends
 * behind one router needs a handful. */
enum { GUEST_BURST = 20, GUEST_EVERY_S = 3 };
static ratelimit *g_guest_limit;

int challenges_init(void)
{
	g_guest_limit = ratelimit_new(GUEST_BURST, 1.0 / GUEST_EVERY_S);
	return g_guest_limit ? 0 : -1;
}

void challenges_shutdown(void)
{
	ratelimit_free(g_guest_limit);
	g_guest_limit = NULL;
}

/* ---- create ---- */

typedef struct {
	const char *league, *name, *body, *opens, *closes, *by;
	bool solo;
	league_access *a;
	http_resp *resp;
	char id[ID_LEN + 1];
} create_arg;

static db_status create_tx(db_conn *c, void *arg)
{
	create_arg *x = arg;
	db_status st = access_lock_as(c, x->league, true, x->a, x->resp);
	if (st != DB_OK)
		return st;
	char code[ID_LEN + 1];
	id_new(x->id);
	id_new(code);
	bool inserted;
	st = db_challenge_insert(c, x->id, x->league, x->name, x->body, x->solo, x->opens,
	                         x->closes, code, x->by, &inserted);
	if (st != DB_OK)
		return st;
	if (!inserted) {
		http_resp_clear(x->resp);
		http_reply_problem(x->resp, 400,
		                   "a challenge closes after it opens (and after now)", NULL,
		                   "/closes");
		return DB_ABORT;
	}
	db_challenge ch;
	if ((st = db_challenge_get(c, x->id, x->league, &ch)) != DB_OK)
		return st;
	json_object *o = challboard_json(c, &ch, x->a->member, true, x->resp);
	if (o == NULL)
		return DB_FAIL;
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 201, o);
	return DB_OK;
}

/* The create body of the challenge's games from the owner's choices, checked by the ER kind
 * itself (a refusal names the field as POST /er/games would): specialists drawn from the seed
 * when not given, a seed drawn when not given. NULL after replying the refusal. */
static json_object *games_body(json_object *root, bool solo, http_resp *resp)
{
	const table_kind *er = table_kind_find("er");
	json_object *body = jx_obj(), *v, *players = jx_arr(), *p = jx_obj();
	jx_set(p, "name", jx_str("-"));
	jx_push(players, p);
	jx_set(body, "players", players);
	jx_set(body, "solo", jx_bool(solo));
	if (json_object_object_get_ex(root, "alicat_modifiers", &v))
		jx_set(body, "alicat_modifiers", json_object_get(v));
	if (json_object_object_get_ex(root, "specialists", &v) &&
	    !json_object_is_type(v, json_type_null))
		jx_set(body, "specialists", json_object_get(v));
	jx_set(body, "deck", jx_str("app"));
	if (json_object_object_get_ex(root, "seed", &v) && !json_object_is_type(v, json_type_null))
		jx_set(body, "seed", json_object_get(v));
	else /* 53 bits: what a JSON number carries exactly */
		jx_set(body, "seed", jx_int((int64_t)(random_u64() >> 11)));
	table_new n = {0};
	table_refusal why;
	if (er == NULL || er->create_parse(body, &n, &why) != 0) {
		json_object_put(body);
		if (er)
			table_reply_refusal(resp, &why);
		else
			http_reply_problem(resp, 500, "no ER games on this server", NULL, NULL);
		return NULL;
	}
	/* the specialists as drawn (or given), so every attempt has the same */
	json_object *sp = jx_obj();
	static const char *const keys[] = {"cardiologists", "radiologist", "epidemiologist"};
	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(n.config, keys[i], &v))
			jx_set(sp, keys[i], json_object_get(v));
	jx_set(body, "specialists", sp);
	json_object_object_del(body, "players");
	json_object_put(n.config);
	return body;
}

int api_league_challenge_create(const http_req *req, http_resp *resp)
{
	json_object *root = NULL, *mods = NULL, *specs = NULL;
	const char *name = NULL, *opens = NULL, *closes = NULL;
	bool solo = false, has_seed = false;
	int64_t seed = 0;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"opens", JS_STRING, JS_F_NULLABLE, 10, 40, NULL, &opens, NULL},
	    {"closes", JS_STRING, JS_F_REQUIRED, 10, 40, NULL, &closes, NULL},
	    {"solo", JS_BOOL, 0, 0, 0, NULL, &solo, NULL},
	    {"alicat_modifiers", JS_ARRAY, 0, 0, 4, NULL, &mods, NULL},
	    {"specialists", JS_OBJECT, JS_F_NULLABLE, 0, 0, NULL, &specs, NULL},
	    {"seed", JS_INT, JS_F_NULLABLE, 0, (int64_t)1 << 53, NULL, &seed, &has_seed},
	};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char o_at[64] = "", c_at[64];
	int off;
	if (js_fields(root, "", f, sizeof f / sizeof f[0], &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (name_blank(name)) {
		http_reply_problem(resp, 400, "a name needs a visible character", NULL, "/name");
	} else if (opens && !dates_parse_rfc3339(opens, o_at, &off)) {
		http_reply_problem(resp, 400, "must be an RFC 3339 time", NULL, "/opens");
	} else if (!dates_parse_rfc3339(closes, c_at, &off)) {
		http_reply_problem(resp, 400, "must be an RFC 3339 time", NULL, "/closes");
	} else {
		json_object *body = games_body(root, solo, resp);
		if (body) {
			create_arg x = {.league = req->params[0],
			                .name = name,
			                .body = jx_text(body),
			                .opens = o_at[0] ? o_at : NULL,
			                .closes = c_at,
			                .by = a.acc.id,
			                .solo = solo,
			                .a = &a,
			                .resp = resp};
			access_run_tx(c, &a.acc, create_tx, &x, resp);
			json_object_put(body);
		}
	}
	json_object_put(root);
	return 0;
}

/* ---- reads ---- */

/* Challenge params[1] of league params[0] for a member, closed first when due; false after a
 * reply (or a deferral). */
static bool challenge_read(const http_req *req, http_resp *resp, db_conn *c, league_access *a,
                           db_challenge *ch)
{
	db_status st = db_challenge_get(c, req->params[1], req->params[0], ch);
	if (st != DB_OK)
		return access_reply_status(resp, st), false;
	if (!ch->found)
		return http_reply_problem(resp, 404, "no such challenge in this league", NULL,
		                          NULL),
		       false;
	if (!ch->due || ch->closed)
		return true;
	if (!challboard_close(c, ch->league, ch->id, true, NULL, &a->acc, resp))
		return false;
	st = db_challenge_get(c, req->params[1], req->params[0], ch);
	if (st != DB_OK)
		return access_reply_status(resp, st), false;
	return ch->found;
}

int api_league_challenge_get(const http_req *req, http_resp *resp)
{
	league_access a;
	db_challenge ch;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a) ||
	    !challenge_read(req, resp, c, &a, &ch))
		return 0;
	json_object *o = challboard_json(c, &ch, a.member, true, resp);
	if (o)
		http_reply_json(resp, 200, o);
	return 0;
}

static json_object *list_json(const db_challenge_rows *rows)
{
	json_object *o = jx_obj(), *arr = jx_arr();
	for (int i = 0; i < rows->n; i++) {
		const db_challenge_row *r = &rows->rows[i];
		json_object *e = jx_obj();
		jx_set(e, "id", jx_str(r->id));
		jx_set(e, "name", jx_str(r->name));
		jx_set(e, "solo", jx_bool(r->solo));
		jx_set(e, "opens", jx_str(r->opens));
		jx_set(e, "closes", jx_str(r->closes));
		jx_set(e, "status",
		       jx_str(r->closed ? "closed"
		              : r->due  ? "closing"
		              : r->open ? "open"
		                        : "upcoming"));
		jx_set(e, "started", jx_int(r->started));
		jx_set(e, "finished", jx_int(r->finished));
		jx_push(arr, e);
	}
	jx_set(o, "challenges", arr);
	return o;
}

int api_league_challenges(const http_req *req, http_resp *resp)
{
	league_access a;
	db_challenge_rows rows = {0};
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_status st = db_challenges_of_league(c, req->params[0], &rows);
	bool closed_some = false;
	for (int i = 0; st == DB_OK && i < rows.n; i++) {
		if (!rows.rows[i].due || rows.rows[i].closed)
			continue;
		if (!challboard_close(c, req->params[0], rows.rows[i].id, true, NULL, &a.acc,
		                      resp)) {
			db_rowset_clear(&rows);
			return 0;
		}
		closed_some = true;
	}
	if (st == DB_OK && closed_some) {
		db_rowset_clear(&rows);
		st = db_challenges_of_league(c, req->params[0], &rows);
	}
	if (st != DB_OK)
		access_reply_status(resp, st);
	else
		http_reply_json(resp, 200, list_json(&rows));
	db_rowset_clear(&rows);
	return 0;
}

/* ---- closing ---- */

int api_league_challenge_close(const http_req *req, http_resp *resp)
{
	league_access a;
	db_challenge ch;
	db_conn *c = access_open_write(req, resp, false, true, &a);
	if (!c)
		return 0;
	if (!challboard_close(c, req->params[0], req->params[1], false, &a, &a.acc, resp))
		return 0;
	db_status st = db_challenge_get(c, req->params[1], req->params[0], &ch);
	if (st != DB_OK)
		return access_reply_status(resp, st);
	if (!ch.found)
		return http_reply_problem(resp, 404, "no such challenge in this league", NULL,
		                          NULL);
	json_object *o = challboard_json(c, &ch, a.member, true, resp);
	if (o)
		http_reply_json(resp, 200, o);
	return 0;
}

/* ---- an attempt ---- */

typedef struct {
	const char *league, *id;
	const char *guest; /* a guest's name, or NULL for a member */
	league_access *a;  /* a member's rights (NULL for a guest) */
	http_resp *resp;
} play_arg;

static db_status play_refuse(play_arg *x, int status, const char *rule, const char *field,
                             const char *detail)
{
	http_resp_clear(x->resp);
	http_reply_problem(x->resp, status, detail, rule, field);
	return DB_ABORT;
}

/* The member who plays (the caller's entry, or the guest's by name, new when it is) and its
 * name into member and name; DB_ABORT after a refusal. */
static db_status play_member(db_conn *c, play_arg *x, char member[ID_LEN + 1],
                             char name[DB_LG_NAME_MAX + 1])
{
	db_status st;
	if (x->a) {
		if (x->a->member[0] == '\0')
			return play_refuse(x, 403, "not-member", NULL,
			                   "only a member of the league plays its challenges: add "
			                   "yourself as a member first");
		snprintf(member, ID_LEN + 1, "%s", x->a->member);
	} else {
		bool created;
		if ((st = members_by_name(c, x->league, x->guest, member, &created)) != DB_OK)
			return st;
	}
	db_member_rows m = {0};
	if ((st = db_member_get(c, x->league, member, &m)) != DB_OK)
		return st;
	bool linked = m.n == 1 && m.rows[0].account != NULL;
	if (m.n == 1)
		snprintf(name, DB_LG_NAME_MAX + 1, "%s", m.rows[0].name);
	db_rowset_clear(&m);
	if (!x->a && linked) /* a guest cannot play as an account's entry */
		return play_refuse(x, 409, "member-exists", "/name",
		                   "a member with an account has this name: log in, or choose "
		                   "another name");
	return DB_OK;
}

static db_status play_tx(db_conn *c, void *arg)
{
	play_arg *x = arg;
	db_challenge ch;
	db_status st = challboard_lock(c, x->league, x->id, x->a, false, &ch, x->resp);
	if (st != DB_OK)
		return st;
	if (ch.closed || ch.due)
		return play_refuse(x, 409, "challenge-closed", NULL, "this challenge has closed");
	if (!ch.open)
		return play_refuse(x, 409, "challenge-not-open", NULL,
		                   "this challenge has not opened yet");
	char member[ID_LEN + 1], name[DB_LG_NAME_MAX + 1] = "";
	if ((st = play_member(c, x, member, name)) != DB_OK)
		return st;
	json_object *body = jx_parse_stored(ch.body), *players = jx_arr(), *p = jx_obj(), *reply;
	if (body == NULL)
		return DB_FAIL;
	jx_set(p, "name", jx_str(name));
	jx_push(players, p);
	jx_set(body, "players", players);
	table_refusal why;
	int dst = DB_OK;
	const table_kind *er = table_kind_find("er");
	int rc = er ? table_create_in(c, er, body, &reply, &why, &dst) : -1;
	json_object_put(body);
	if (rc != 0) {
		if (er && why.status) { /* the stored body refused: a bug */
			http_resp_clear(x->resp);
			table_reply_refusal(x->resp, &why);
			return DB_ABORT;
		}
		return er ? (db_status)dst : DB_FAIL;
	}
	json_object *v;
	bool inserted = false;
	json_object_object_get_ex(reply, "id", &v);
	st = db_challenge_attempt_insert(c, ch.id, member, json_object_get_string(v), &inserted);
	if (st != DB_OK || !inserted) {
		json_object_put(reply);
		return st != DB_OK ? st
		                   : play_refuse(x, 409, "challenge-already-played", NULL,
		                                 "you have played this challenge: one game each");
	}
	json_object_object_del(reply, "seed"); /* the draw stays a secret until it is dealt */
	jx_set(reply, "challenge", jx_str(ch.id));
	jx_set(reply, "member", jx_str(member));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 201, reply);
	return DB_OK;
}

int api_league_challenge_play(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = access_open_write(req, resp, false, false, &a);
	if (!c)
		return 0;
	play_arg x = {.league = req->params[0], .id = req->params[1], .a = &a, .resp = resp};
	access_run_tx(c, &a.acc, play_tx, &x, resp);
	return 0;
}

/* ---- a guest with the link ---- */

/* The challenge of the link params[0], closed first when due; false after a reply. */
static bool challenge_of_code(const http_req *req, http_resp *resp, db_conn *c, db_challenge *ch)
{
	account nobody = {0};
	if (c == NULL)
		return access_reply_status(resp, DB_UNAVAILABLE), false;
	db_status st = db_challenge_by_code(c, req->params[0], ch);
	if (st == DB_OK && ch->found && ch->due && !ch->closed) {
		if (!challboard_close(c, ch->league, ch->id, true, NULL, &nobody, resp))
			return false;
		st = db_challenge_by_code(c, req->params[0], ch);
	}
	if (st != DB_OK)
		return access_reply_status(resp, st), false;
	if (!ch->found)
		return http_reply_problem(resp, 404, "no challenge has this link", NULL, NULL),
		       false;
	return true;
}

int api_challenge_by_code(const http_req *req, http_resp *resp)
{
	db_challenge ch;
	db_conn *c = db_thread_conn();
	if (!challenge_of_code(req, resp, c, &ch))
		return 0;
	json_object *o = challboard_json(c, &ch, "", false, resp);
	if (o)
		http_reply_json(resp, 200, o);
	return 0;
}

int api_challenge_guest_play(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL;
	js_error err = {{0}, {0}};
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	};
	db_challenge ch;
	account nobody = {0};
	if (ratelimit_reply(g_guest_limit, req, resp) || http_body_json(req, resp, &root) != 0)
		return 0;
	db_conn *c = db_thread_conn();
	if (js_fields(root, "", f, 1, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (name_blank(name)) {
		http_reply_problem(resp, 400, "a name needs a visible character", NULL, "/name");
	} else if (challenge_of_code(req, resp, c, &ch)) {
		play_arg x = {.league = ch.league, .id = ch.id, .guest = name, .resp = resp};
		access_run_tx(c, &nobody, play_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}
