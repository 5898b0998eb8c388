/* A league's members (members.h): guests added by name, renamed, an account invited to take a
 * guest over, two entries of one person merged (claims.c keeps the merge). */
#include "base/names.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/members.h"
#include "leagues/access.h"
#include "leagues/claims.h"
#include "leagues/invitations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

db_status members_by_name(db_conn *c, const char *league, const char *name, char id[ID_LEN + 1],
                          bool *created)
{
	char nid[ID_LEN + 1];
	id_new(nid);
	bool inserted, found;
	*created = false;
	db_status st = db_member_insert_guest(c, nid, league, name, &inserted);
	if (st != DB_OK)
		return st;
	if (inserted) {
		*created = true;
		snprintf(id, ID_LEN + 1, "%s", nid);
		return DB_OK;
	}
	st = db_member_by_name(c, league, name, &found, id);
	if (st != DB_OK)
		return st;
	return found ? DB_OK : DB_FAIL;
}

enum { NAME_TEXT = 4 * JS_MAX_NAME + 1 }; /* a name of up to 64 characters, in bytes */

/* A member's name in the form it is stored (name_display, base/names.h: white space of every
 * kind trimmed, inner runs one space, NFC) into out: true, or false after a 400 when nothing
 * visible is left or NFC made it longer than 64 characters. Names compare by their key
 * (case-folded, invisible characters left out: league_members_name_key,
 * migrations/0020_member_name_keys.sql). */
static bool name_trim(const char *name, char out[NAME_TEXT], http_resp *resp)
{
	if (name_blank(name)) {
		http_reply_problem(resp, 400, "a name needs a character other than a space", NULL,
		                   "/name");
		return false;
	}
	char *shown = name_display(name);
	size_t n = strlen(shown);
	bool fits = name_chars(shown) <= JS_MAX_NAME && n < NAME_TEXT;
	if (fits)
		memcpy(out, shown, n + 1);
	else
		http_reply_problem(resp, 400, "a name has at most 64 characters", NULL, "/name");
	free(shown);
	return fits;
}

typedef struct {
	const char *league, *id, *name; /* the new guest's id and name (trimmed) */
	league_access *a;               /* the owner's rights, read again under the lock */
	http_resp *resp;
} guest_arg;

static db_status guest_add_tx(db_conn *c, void *arg)
{
	guest_arg *x = arg;
	bool inserted;
	db_status st = access_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = db_member_insert(c, x->id, x->league, x->name, NULL, &inserted);
	if (st != DB_OK)
		return st;
	http_resp_clear(x->resp);
	if (!inserted) {
		http_reply_problem(x->resp, 409,
		                   "the league already has a member of this name (in any case and "
		                   "however spaced)",
		                   "member-exists", "/name");
		return DB_ABORT;
	}
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(x->id));
	jx_set(o, "name", jx_str(x->name));
	jx_set(o, "account", jx_null());
	jx_set(o, "guest", jx_bool(true));
	http_reply_json(x->resp, 201, o);
	return DB_OK;
}

int api_league_member_add(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *account_key = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, JS_F_REQUIRED, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"account", JS_STRING, JS_F_NULLABLE, 1, 254, NULL, &account_key, NULL},
	};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char acc[ID_LEN + 1] = "", id[ID_LEN + 1];
	db_status st = DB_OK;
	if (js_fields(root, "", f, 2, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
		goto out;
	}
	char trimmed[NAME_TEXT];
	if (!name_trim(name, trimmed, resp) ||
	    (account_key && !invitations_find_account(c, account_key, acc, resp)))
		goto out;
	id_new(id);
	if (acc[0]) { /* an account joins when it accepts (invitations.h) */
		st = invitations_invite_member(c, resp, req->params[0], a.acc.id, acc, trimmed,
		                               NULL, id);
		if (st != DB_OK && st != DB_ABORT)
			acct_reply_db(resp);
		goto out;
	}
	guest_arg x = {.league = req->params[0], .id = id, .name = trimmed, .a = &a, .resp = resp};
	access_run_tx(c, &a.acc, guest_add_tx, &x, resp);
out:
	json_object_put(root);
	return 0;
}

/* ---- renaming, linking and merging members (owners) ---- */

typedef struct {
	const char *league, *member;
	const char *name; /* the new name (trimmed), or NULL */
	const char *acc;  /* the account to link the guest to, or NULL */
	const char *into; /* merge: the member who keeps the results */
	const char *by;   /* the owner's account */
	league_access *a; /* the caller's rights (an owner's), read again under the lock */
	char invitation[ID_LEN + 1]; /* the account invited to take the guest over, or "" */
	http_resp *resp;
} member_arg;

/* The member `id` of the league into *m (one row), or DB_ABORT after a reply: 404, or 422
 * naming field when the id comes from the body. */
static db_status member_load(db_conn *c, const member_arg *x, const char *id, const char *field,
                             db_member_rows *m)
{
	db_status st = db_member_get(c, x->league, id, m);
	if (st != DB_OK || m->n == 1)
		return st;
	http_resp_clear(x->resp);
	if (field)
		http_reply_problem(x->resp, 422, "no member of this league has this id",
		                   "unknown-player", field);
	else
		http_reply_problem(x->resp, 404, "no such member in this league", NULL, NULL);
	return DB_ABORT;
}

/* Replies 200 with the member as the league lists it. */
static db_status member_reply(db_conn *c, const member_arg *x, const char *id)
{
	db_member_rows m = {0};
	db_status st = member_load(c, x, id, NULL, &m);
	if (st != DB_OK)
		return st;
	const db_member_row *y = &m.rows[0];
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(y->id));
	jx_set(o, "name", jx_str(y->name));
	jx_set(o, "account", jx_str_or_null(y->account));
	jx_set(o, "guest", jx_bool(y->account == NULL));
	jx_set(o, "plays", jx_int(y->plays));
	if (x->invitation[0])
		jx_set(o, "invitation", jx_str(x->invitation));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 200, o);
	db_rowset_clear(&m);
	return DB_OK;
}

static db_status member_update_tx(db_conn *c, void *arg)
{
	member_arg *x = arg;
	db_member_rows m = {0};
	db_status st = access_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = member_load(c, x, x->member, NULL, &m);
	bool renamed = true;
	if (st == DB_OK && x->name)
		st = db_member_rename(c, x->league, x->member, x->name, &renamed);
	if (st == DB_OK && !renamed) {
		http_resp_clear(x->resp);
		http_reply_problem(x->resp, 409,
		                   "another member of the league has this name (in any case and "
		                   "however spaced)",
		                   "member-exists", "/name");
		st = DB_ABORT;
	}
	if (st == DB_OK && x->acc) /* the account takes the guest over when it accepts */
		st = invitations_invite_member(c, x->resp, x->league, x->by, x->acc, NULL,
		                               x->member, x->invitation);
	db_rowset_clear(&m);
	if (st == DB_OK)
		st = db_member_unclash(c, x->league);
	if (st == DB_OK)
		st = db_league_bump(c, x->league, NULL);
	if (st == DB_OK)
		st = member_reply(c, x, x->member);
	return st;
}

int api_league_member_update(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *name = NULL, *account_key = NULL;
	js_error err;
	const js_field f[] = {
	    {"name", JS_STRING, 0, 1, JS_MAX_NAME, NULL, &name, NULL},
	    {"account", JS_STRING, 0, 1, 254, NULL, &account_key, NULL},
	};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	char trimmed[NAME_TEXT], acc[ID_LEN + 1];
	member_arg x = {.league = req->params[0],
	                .member = req->params[1],
	                .by = a.acc.id,
	                .a = &a,
	                .resp = resp};
	if (js_fields(root, "", f, 2, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (!name && !account_key) {
		http_reply_problem(resp, 400, "give a new name, an account, or both", NULL, NULL);
	} else if ((!name || name_trim(name, trimmed, resp)) &&
	           (!account_key || invitations_find_account(c, account_key, acc, resp))) {
		x.name = name ? trimmed : NULL;
		x.acc = account_key ? acc : NULL;
		access_run_tx(c, &a.acc, member_update_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}

/* Moves the results of x->member to x->into and removes x->member; its account goes with its
 * results. Refused (409) when both played one play, or both have an account. */
static db_status member_merge_tx(db_conn *c, void *arg)
{
	member_arg *x = arg;
	db_member_rows from = {0}, into = {0};
	db_status st = access_lock_as(c, x->league, true, x->a, x->resp);
	if (st == DB_OK)
		st = member_load(c, x, x->member, NULL, &from);
	if (st == DB_OK)
		st = member_load(c, x, x->into, "/into", &into);
	bool clash = false;
	if (st == DB_OK)
		st = db_member_conflicts(c, x->member, x->into, &clash);
	const char *rule = NULL, *why = NULL;
	if (st == DB_OK && clash) {
		rule = "same-play";
		why = "these two members played in the same play: they cannot be one person";
	} else if (st == DB_OK && from.rows[0].account && into.rows[0].account) {
		rule = "two-accounts";
		why = "both members have an account: one person has one";
	}
	if (rule) {
		http_resp_clear(x->resp);
		http_reply_problem(x->resp, 409, why, rule, "/into");
		st = DB_ABORT;
	}
	char acc[ID_LEN + 1] = "";
	if (st == DB_OK && from.rows[0].account)
		snprintf(acc, sizeof acc, "%s", from.rows[0].account);
	db_rowset_clear(&from);
	db_rowset_clear(&into);
	char merge[ID_LEN + 1] = "";
	if (st == DB_OK) /* kept, so that it can be undone (invitations.h) */
		st = claims_merge_members(c, x->league, x->member, acc, x->into, x->by, merge);
	if (st == DB_OK) {
		json_object *o = jx_obj();
		jx_set(o, "id", jx_str(x->into));
		jx_set(o, "merged", jx_str(x->member));
		jx_set(o, "merge", jx_str(merge));
		http_resp_clear(x->resp);
		http_reply_json(x->resp, 200, o);
	}
	return st;
}

int api_league_member_merge(const http_req *req, http_resp *resp)
{
	json_object *root = NULL;
	const char *into = NULL;
	js_error err;
	const js_field f[] = {{"into", JS_STRING, JS_F_REQUIRED, 1, ID_LEN, NULL, &into, NULL}};
	league_access a;
	db_conn *c = access_open_body(req, resp, true, &a, &root);
	if (!c)
		return 0;
	member_arg x = {.league = req->params[0],
	                .member = req->params[1],
	                .by = a.acc.id,
	                .a = &a,
	                .resp = resp};
	if (js_fields(root, "", f, 1, &err) != 0) {
		http_reply_invalid(resp, err.field, err.detail);
	} else if (strcmp(into, x.member) == 0) {
		http_reply_problem(resp, 400, "a member cannot be merged into itself", NULL,
		                   "/into");
	} else {
		x.into = into;
		access_run_tx(c, &a.acc, member_merge_tx, &x, resp);
	}
	json_object_put(root);
	return 0;
}
