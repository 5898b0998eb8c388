/* What an owner adds to or takes from a league in one write — a guest removed, a season
 * added — each in a transaction that holds the league's lock and reads the owner's rights
 * again under it (access_lock_as): an owner demoted while the write waited is refused. */
#include "leagues/roster.h"
#include "leagues/access.h"
#include "leagues/dates.h"
#include "json/jx.h"
#include "json/spec.h"

#include <string.h>

typedef struct {
	const char *league, *member;
	league_access *a; /* the caller's rights, read again under the lock */
	http_resp *resp;
} roster_arg;

/* Replies status, detail, rule on x's response and aborts the transaction. */
static db_status refuse(roster_arg *x, int status, const char *detail, const char *rule,
                        const char *field)
{
	http_resp_clear(x->resp);
	http_reply_problem(x->resp, status, detail, rule, field);
	return DB_ABORT;
}

static db_status member_delete_tx(db_conn *c, void *arg)
{
	roster_arg *x = arg;
	db_status st = access_lock_as(c, x->league, true, x->a, x->resp);
	if (st != DB_OK)
		return st;
	db_member_rows m = {0};
	if ((st = db_member_get(c, x->league, x->member, &m)) != DB_OK)
		return st;
	bool found = m.n == 1;
	bool has_plays = found && m.rows[0].plays > 0;
	db_rowset_clear(&m);
	if (!found)
		return refuse(x, 404, "no such member in this league", NULL, NULL);
	if (has_plays)
		return refuse(x, 409, "this member has plays: delete or edit them first",
		              "member-has-plays", NULL);
	if ((st = db_member_delete(c, x->league, x->member)) != DB_OK ||
	    (st = db_member_unclash(c, x->league)) != DB_OK)
		return st;
	http_resp_clear(x->resp);
	x->resp->status = 204;
	return DB_OK;
}

int api_league_member_delete(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = access_open_write(req, resp, false, true, &a);
	if (!c)
		return 0;
	roster_arg x = {.league = req->params[0], .member = req->params[1], .a = &a, .resp = resp};
	access_run_tx(c, &a.acc, member_delete_tx, &x, resp);
	return 0;
}

typedef struct {
	roster_arg r;
	const char *name, *starts, *ends;
} season_arg;

static db_status season_add_tx(db_conn *c, void *arg)
{
	season_arg *x = arg;
	db_status st = access_lock_as(c, x->r.league, true, x->r.a, x->r.resp);
	if (st != DB_OK)
		return st;
	char id[ID_LEN + 1];
	id_new(id);
	bool inserted;
	if ((st = db_season_insert(c, id, x->r.league, x->name, x->starts, x->ends, &inserted)) !=
	    DB_OK)
		return st;
	if (!inserted)
		return refuse(&x->r, 409, "the league has a season of this name", "season-exists",
		              "/name");
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(id));
	jx_set(o, "name", jx_str(x->name));
	jx_set(o, "starts", jx_str(x->starts));
	jx_set(o, "ends", jx_str(x->ends));
	http_resp_clear(x->r.resp);
	http_reply_json(x->r.resp, 201, o);
	return DB_OK;
}

int api_league_season_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *starts = NULL, *ends = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"starts", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &starts, NULL},
	    {"ends", JS_STRING, JS_F_REQUIRED, 10, 10, NULL, &ends, NULL},
	};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char w[64];
	if (js_fields(root, "", f, 3, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (!dates_parse_when(starts, w)) {
		http_reply_problem(resp, 400, "must be a date YYYY-MM-DD", NULL, "/starts");
	} else if (!dates_parse_when(ends, w)) {
		http_reply_problem(resp, 400, "must be a date YYYY-MM-DD", NULL, "/ends");
	} else if (strcmp(ends, starts) < 0) {
		http_reply_problem(resp, 400, "a season cannot end before it starts", NULL,
		                   "/ends");
	} else {
		season_arg x = {.r = {.league = req->params[0], .a = &a, .resp = resp},
		                .name = name,
		                .starts = starts,
		                .ends = ends};
		access_run_tx(c, &a.acc, season_add_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}
