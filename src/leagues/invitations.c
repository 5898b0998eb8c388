/* Invitations (invitations.h): an owner invites an account into a league as a member or as a
 * co-owner; the account sees its pending invitations and accepts or declines each. Nothing
 * changes in the league until it accepts. */
#include "db/accounts.h"
#include "db/consent.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/invitations.h"
#include "leagues/access.h"

#include <stdio.h>
#include <string.h>

/* Replies 202 with the invitation that stands for (league, account, role). */
static void reply_invitation(http_resp *resp, const char *id, const char *acc_id, const char *role,
                             const char *name, const char *member)
{
	json_object *o = jx_obj();
	jx_set(o, "invitation", jx_str(id));
	jx_set(o, "account", jx_str(acc_id));
	jx_set(o, "role", jx_str(role));
	jx_set(o, "name", jx_str_or_null(name));
	jx_set(o, "member", jx_str_or_null(member));
	http_resp_clear(resp);
	http_reply_json(resp, 202, o);
}

static db_status refuse(http_resp *resp, int status, const char *detail, const char *rule,
                        const char *field)
{
	http_resp_clear(resp);
	http_reply_problem(resp, status, detail, rule, field);
	return DB_ABORT;
}

db_status invitations_invite_member(db_conn *c, http_resp *resp, const char *league, const char *by,
                                    const char *acc_id, const char *name, const char *member,
                                    char invitation[ID_LEN + 1])
{
	db_status st = DB_OK;
	if (member) {
		db_member_rows m = {0};
		if ((st = db_member_get(c, league, member, &m)) != DB_OK)
			return st;
		bool has_account = m.n == 1 && m.rows[0].account != NULL;
		db_rowset_clear(&m);
		if (has_account)
			return refuse(resp, 409, "this entry already belongs to an account",
			              "not-a-guest", "/account");
	}
	db_league_access row;
	if ((st = db_league_access_get(c, league, acc_id, &row)) != DB_OK)
		return st;
	if (row.member[0])
		return refuse(resp, 409,
		              "this account has its own member entry in the league: merge the two "
		              "entries, or let its owner claim the guest",
		              "member-exists", "/account");
	if (!member) {
		bool found;
		char other[ID_LEN + 1];
		if ((st = db_member_by_name(c, league, name, &found, other)) != DB_OK)
			return st;
		if (found)
			return refuse(resp, 409,
			              "the league already has a member of this name (in any case)",
			              "member-exists", "/name");
	}
	char id[ID_LEN + 1];
	bool inserted;
	id_new(id);
	st = db_invitation_insert(c, id, league, acc_id, "member", member ? NULL : name, member, by,
	                          invitation, &inserted);
	if (st == DB_OK)
		reply_invitation(resp, invitation, acc_id, "member", name, member);
	return st;
}

/* ---- an owner invites a co-owner ---- */

int api_league_owner_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *key = NULL;
	js_error err;
	const js_field f[] = {{"account", JS_STRING, JS_F_REQUIRED, 1, 254, NULL, &key, NULL}};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char acc[ID_LEN + 1], inv[ID_LEN + 1], id[ID_LEN + 1];
	db_league_access row;
	bool inserted;
	if (js_fields(root, "", f, 1, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (invitations_find_account(c, key, acc, resp)) {
		id_new(id);
		if (db_league_access_get(c, req->params[0], acc, &row) != DB_OK) {
			acct_reply_db(resp);
		} else if (row.owner) {
			http_reply_problem(resp, 409, "this account already owns the league",
			                   "already-owner", "/account");
		} else if (db_invitation_insert(c, id, req->params[0], acc, "owner", NULL, NULL,
		                                a.acc.id, inv, &inserted) != DB_OK) {
			acct_reply_db(resp);
		} else {
			access_wrote(c, &a.acc);
			reply_invitation(resp, inv, acc, "owner", NULL, NULL);
		}
	}
	json_object_put(root);
	return 0;
}

/* ---- the league's pending invitations (owners) ---- */

int api_league_invitations(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	db_league_invitation_rows rows = {0};
	if (db_invitations_of_league(c, req->params[0], &rows) != DB_OK)
		return acct_reply_db(resp);
	json_object *list = jx_arr();
	for (int i = 0; i < rows.n; i++) {
		const db_league_invitation_row *x = &rows.rows[i];
		json_object *o = jx_obj(), *who = jx_obj();
		jx_set(who, "id", jx_str(x->account));
		jx_set(who, "email", jx_str(x->email));
		jx_set(who, "display_name", jx_str(x->display_name));
		jx_set(o, "id", jx_str(x->id));
		jx_set(o, "account", who);
		jx_set(o, "role", jx_str(x->role));
		jx_set(o, "name", x->name[0] ? jx_str(x->name) : jx_null());
		jx_set(o, "member", x->member[0] ? jx_str(x->member) : jx_null());
		jx_set(o, "created_at", jx_str(x->at));
		jx_push(list, o);
	}
	db_rowset_clear(&rows);
	json_object *o = jx_obj();
	jx_set(o, "invitations", list);
	http_reply_json(resp, 200, o);
	http_resp_header(resp, "Cache-Control", "private, no-store");
	return 0;
}

int api_league_invitation_withdraw(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = access_open_write(req, resp, false, true, &a);
	if (!c)
		return 0;
	bool deleted;
	if (db_invitation_delete(c, req->params[1], req->params[0], &deleted) != DB_OK)
		return acct_reply_db(resp);
	if (!deleted)
		return http_reply_problem(resp, 404, "no such invitation in this league", NULL,
		                          NULL);
	access_wrote(c, &a.acc);
	resp->status = 204;
	return 0;
}

/* ---- the account's own invitations ---- */

int api_invitations_list(const http_req *req, http_resp *resp)
{
	db_conn *c = db_thread_conn();
	account acc;
	if (!acct_session(req, resp, c, &acc))
		return 0;
	db_invitation_rows rows = {0};
	if (db_invitations_of_account(c, acc.id, &rows) != DB_OK)
		return acct_reply_db(resp);
	json_object *list = jx_arr();
	for (int i = 0; i < rows.n; i++) {
		const db_invitation_row *x = &rows.rows[i];
		json_object *o = jx_obj(), *lg = jx_obj();
		jx_set(lg, "id", jx_str(x->league));
		jx_set(lg, "name", jx_str(x->league_name));
		jx_set(o, "id", jx_str(x->id));
		jx_set(o, "league", lg);
		jx_set(o, "role", jx_str(x->role));
		jx_set(o, "name", x->name[0] ? jx_str(x->name) : jx_null());
		jx_set(o, "member", x->member[0] ? jx_str(x->member) : jx_null());
		jx_set(o, "invited_by", x->by[0] ? jx_str(x->by) : jx_null());
		jx_set(o, "created_at", jx_str(x->at));
		jx_push(list, o);
	}
	db_rowset_clear(&rows);
	json_object *o = jx_obj();
	jx_set(o, "invitations", list);
	http_reply_json(resp, 200, o);
	http_resp_header(resp, "Cache-Control", "private, no-store");
	return 0;
}

typedef struct {
	const char *id;
	const account *acc;
	bool accept;
	http_resp *resp;
} answer_arg;

/* The invitation x->id into *inv when it is the caller's: DB_ABORT after 404 or 403. */
static db_status answer_load(db_conn *c, const answer_arg *x, db_invitation *inv)
{
	db_status st = db_invitation_get(c, x->id, inv);
	if (st != DB_OK)
		return st;
	if (!inv->found)
		return refuse(x->resp, 404, "no such invitation", NULL, NULL);
	if (strcmp(inv->account, x->acc->id) != 0)
		return refuse(x->resp, 403, "this invitation is for another account",
		              "not-your-invitation", NULL);
	return DB_OK;
}

/* Accepting as a member: the guest entry linked, or a new entry, for the caller. */
static db_status accept_member(db_conn *c, const answer_arg *x, const db_invitation *inv,
                               char member[ID_LEN + 1])
{
	db_league_access row;
	db_status st = db_league_access_get(c, inv->league, x->acc->id, &row);
	if (st != DB_OK)
		return st;
	if (row.member[0])
		return refuse(x->resp, 409, "you already have a member entry in this league",
		              "member-exists", NULL);
	if (inv->member[0]) {
		db_member_rows m = {0};
		if ((st = db_member_get(c, inv->league, inv->member, &m)) != DB_OK)
			return st;
		bool guest = m.n == 1 && m.rows[0].account == NULL;
		db_rowset_clear(&m);
		if (!guest)
			return refuse(x->resp, 409, "this entry already belongs to an account",
			              "not-a-guest", NULL);
		snprintf(member, ID_LEN + 1, "%s", inv->member);
		if ((st = db_member_link(c, inv->member, x->acc->id)) == DB_OK)
			st = db_claims_drop_guest(c, inv->member);
		return st;
	}
	bool inserted;
	id_new(member);
	st = db_member_insert(c, member, inv->league, inv->name, x->acc->id, &inserted);
	if (st == DB_OK && !inserted)
		return refuse(x->resp, 409,
		              "another member of the league has this name now: ask an owner to "
		              "invite you under another",
		              "member-exists", NULL);
	return st;
}

static db_status answer_tx(db_conn *c, void *arg)
{
	answer_arg *x = arg;
	db_invitation inv;
	db_status st = answer_load(c, x, &inv);
	if (st == DB_OK)
		st = access_lock(c, inv.league);
	if (st == DB_OK)
		st = answer_load(c, x, &inv); /* still there, under the league's lock */
	bool gone;
	if (st == DB_OK)
		st = db_invitation_delete(c, x->id, inv.league, &gone);
	if (st != DB_OK || !x->accept) {
		if (st == DB_OK) {
			http_resp_clear(x->resp);
			x->resp->status = 204;
		}
		return st;
	}
	char member[ID_LEN + 1] = "";
	if (strcmp(inv.role, "owner") == 0)
		st = db_league_owner_insert(c, inv.league, x->acc->id);
	else
		st = accept_member(c, x, &inv, member);
	if (st != DB_OK)
		return st;
	json_object *o = jx_obj();
	jx_set(o, "league", jx_str(inv.league));
	jx_set(o, "role", jx_str(inv.role));
	jx_set(o, "member", member[0] ? jx_str(member) : jx_null());
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 200, o);
	return DB_OK;
}

/* POST /invitations/{id}/accept or /decline: the body is {} (nothing to say). */
static int answer(const http_req *req, http_resp *resp, bool accept)
{
	db_conn *c = db_thread_conn();
	json_object *root = NULL;
	js_error err;
	account acc;
	if (acct_csrf_reply(req, resp, true) || !acct_session(req, resp, c, &acc) ||
	    http_body_json(req, resp, &root) != 0)
		return 0;
	answer_arg x = {.id = req->params[0], .acc = &acc, .accept = accept, .resp = resp};
	if (js_fields(root, "", NULL, 0, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		access_run_tx(c, &acc, answer_tx, &x, resp);
	json_object_put(root);
	return 0;
}

int api_invitation_accept(const http_req *req, http_resp *resp)
{
	return answer(req, resp, true);
}

int api_invitation_decline(const http_req *req, http_resp *resp)
{
	return answer(req, resp, false);
}

/* Account by id or e-mail: true with id filled; else false after a reply (503, or 422 for
 * a key no account has). */
bool invitations_find_account(db_conn *c, const char *key, char id[ID_LEN + 1], http_resp *resp)
{
	bool found;
	if (db_account_find(c, key, &found, id) != DB_OK) {
		acct_reply_db(resp);
		return false;
	}
	if (!found)
		http_reply_problem(resp, 422, "no account has this id or e-mail address",
		                   "unknown-account", "/account");
	return found;
}
