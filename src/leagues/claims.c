/* Claims and merges (claims.h): a member claims a guest's history ("this is me") and an owner
 * approves or refuses the claim; every merge of two members (an owner's, or an approved claim's)
 * is kept with what it moved, so that an owner can undo it. */
#include "db/consent.h"
#include "json/jx.h"
#include "json/spec.h"
#include "leagues/claims.h"
#include "leagues/access.h"
#include "leagues/ratings.h"

#include <string.h>

static db_status refuse(http_resp *resp, int status, const char *detail, const char *rule,
                        const char *field)
{
	http_resp_clear(resp);
	http_reply_problem(resp, status, detail, rule, field);
	return DB_ABORT;
}

db_status claims_merge_members(db_conn *c, const char *league, const char *from,
                               const char *from_account, const char *into, const char *by,
                               char merge_id[ID_LEN + 1])
{
	id_new(merge_id);
	db_status st = db_merge_insert(c, merge_id, league, from, into, by);
	if (st == DB_OK)
		st = db_member_merge(c, from, into);
	if (st == DB_OK)
		st = db_member_delete(c, league, from);
	if (st == DB_OK && from_account && from_account[0])
		st = db_member_link(c, into, from_account);
	if (st == DB_OK)
		st = db_member_unclash(c, league);
	if (st == DB_OK)
		st = ratings_recompute(c, league);
	return st;
}

/* The guest `id` of league: DB_OK when it is one, else DB_ABORT after 404 or 409 not-a-guest. */
static db_status guest_check(db_conn *c, http_resp *resp, const char *league, const char *id)
{
	db_member_rows m = {0};
	db_status st = db_member_get(c, league, id, &m);
	if (st != DB_OK)
		return st;
	bool found = m.n == 1, guest = found && m.rows[0].account == NULL;
	db_rowset_clear(&m);
	if (!found)
		return refuse(resp, 404, "no such member in this league", NULL, NULL);
	if (!guest)
		return refuse(resp, 409, "this entry already belongs to an account", "not-a-guest",
		              NULL);
	return DB_OK;
}

/* DB_ABORT after 409 same-play when guest and member sat in one play. */
static db_status same_play_check(db_conn *c, http_resp *resp, const char *guest, const char *member)
{
	bool clash;
	db_status st = db_member_conflicts(c, guest, member, &clash);
	if (st == DB_OK && clash)
		return refuse(resp, 409,
		              "this guest and this member played in the same play: they cannot be "
		              "one person",
		              "same-play", NULL);
	return st;
}

/* ---- a member claims a guest: POST …/members/{guest}/link ---- */

typedef struct {
	const char *league, *id; /* the guest (claim), the claim (approve), the merge (undo) */
	league_access a;
	http_resp *resp;
} claim_arg;

static db_status claim_tx(db_conn *c, void *arg)
{
	claim_arg *x = arg;
	db_status st = access_lock_as(c, x->league, false, &x->a, x->resp);
	if (st == DB_OK)
		st = guest_check(c, x->resp, x->league, x->id);
	if (st == DB_OK && x->a.member[0])
		st = same_play_check(c, x->resp, x->id, x->a.member);
	char id[ID_LEN + 1], claim[ID_LEN + 1];
	bool inserted;
	id_new(id);
	if (st == DB_OK)
		st = db_claim_insert(c, id, x->league, x->id, x->a.acc.id, claim, &inserted);
	if (st != DB_OK)
		return st;
	json_object *o = jx_obj();
	jx_set(o, "claim", jx_str(claim));
	jx_set(o, "guest", jx_str(x->id));
	jx_set(o, "account", jx_str(x->a.acc.id));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 202, o);
	return DB_OK;
}

int api_league_member_link(const http_req *req, http_resp *resp)
{
	claim_arg x = {.league = req->params[0], .id = req->params[1], .resp = resp};
	json_object *root = NULL; /* the body is {} (nothing to say), and nothing else */
	js_error err;
	db_conn *c = access_open_body(req, resp, false, &x.a, &root);
	if (!c)
		return 0;
	if (js_fields(root, "", NULL, 0, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		access_run_tx(c, &x.a.acc, claim_tx, &x, resp);
	json_object_put(root);
	return 0;
}

/* ---- the pending claims: owners see all, a member their own ---- */

int api_league_claims(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], false, &a))
		return 0;
	db_claim_rows rows = {0};
	if (db_claims_of_league(c, req->params[0], a.owner ? NULL : a.acc.id, &rows) != DB_OK)
		return acct_reply_db(resp);
	json_object *list = jx_arr();
	for (int i = 0; i < rows.n; i++) {
		const db_claim_row *x = &rows.rows[i];
		json_object *o = jx_obj(), *g = jx_obj(), *who = jx_obj();
		jx_set(g, "id", jx_str(x->guest));
		jx_set(g, "name", jx_str(x->guest_name));
		jx_set(g, "plays", jx_int(x->plays));
		jx_set(who, "id", jx_str(x->account));
		jx_set(who, "display_name", jx_str(x->display_name));
		jx_set(o, "id", jx_str(x->id));
		jx_set(o, "guest", g);
		jx_set(o, "account", who);
		if (x->member[0]) {
			json_object *m = jx_obj();
			jx_set(m, "id", jx_str(x->member));
			jx_set(m, "name", jx_str(x->member_name));
			jx_set(o, "member", m);
		} else {
			jx_set(o, "member", jx_null());
		}
		jx_set(o, "created_at", jx_str(x->at));
		jx_push(list, o);
	}
	db_rowset_clear(&rows);
	json_object *o = jx_obj();
	jx_set(o, "claims", list);
	http_reply_json(resp, 200, o);
	http_resp_header(resp, "Cache-Control", "private, no-store");
	return 0;
}

/* ---- an owner approves a claim ---- */

static db_status approve_tx(db_conn *c, void *arg)
{
	claim_arg *x = arg;
	db_claim claim;
	db_status st = access_lock_as(c, x->league, true, &x->a, x->resp);
	if (st == DB_OK)
		st = db_claim_get(c, x->id, x->league, &claim);
	if (st == DB_OK && !claim.found)
		return refuse(x->resp, 404, "no such claim in this league", NULL, NULL);
	if (st == DB_OK)
		st = guest_check(c, x->resp, x->league, claim.guest);
	db_league_access row;
	if (st == DB_OK)
		st = db_league_access_get(c, x->league, claim.account, &row);
	if (st == DB_OK && row.member[0])
		st = same_play_check(c, x->resp, claim.guest, row.member);
	char merge[ID_LEN + 1] = "";
	if (st == DB_OK && row.member[0])
		st = claims_merge_members(c, x->league, claim.guest, NULL, row.member, x->a.acc.id,
		                          merge);
	else if (st == DB_OK)
		st = db_member_link(c, claim.guest, claim.account);
	if (st == DB_OK)
		st = db_claims_drop_guest(c, claim.guest);
	if (st != DB_OK)
		return st;
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(row.member[0] ? row.member : claim.guest));
	jx_set(o, "account", jx_str(claim.account));
	jx_set(o, "merged", row.member[0] ? jx_str(claim.guest) : jx_null());
	jx_set(o, "merge", merge[0] ? jx_str(merge) : jx_null());
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 200, o);
	return DB_OK;
}

/* An owner's POST on a claim or a merge of params[0], id params[1], body {}: fn in a league
 * transaction. */
static int owner_post(const http_req *req, http_resp *resp, db_tx_fn fn)
{
	claim_arg x = {.league = req->params[0], .id = req->params[1], .resp = resp};
	json_object *root = NULL;
	js_error err;
	db_conn *c = access_open_body(req, resp, true, &x.a, &root);
	if (!c)
		return 0;
	if (js_fields(root, "", NULL, 0, &err) != 0)
		http_reply_invalid(resp, err.field, err.detail);
	else
		access_run_tx(c, &x.a.acc, fn, &x, resp);
	json_object_put(root);
	return 0;
}

int api_league_claim_approve(const http_req *req, http_resp *resp)
{
	return owner_post(req, resp, approve_tx);
}

/* DELETE …/claims/{claim}: an owner refuses it, or the account that made it withdraws it. */
int api_league_claim_delete(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = access_open_write(req, resp, false, false, &a);
	if (!c)
		return 0;
	db_claim claim;
	bool deleted = false;
	if (db_claim_get(c, req->params[1], req->params[0], &claim) != DB_OK)
		return acct_reply_db(resp);
	if (!claim.found)
		return http_reply_problem(resp, 404, "no such claim in this league", NULL, NULL);
	if (!a.owner && strcmp(claim.account, a.acc.id) != 0)
		return http_reply_problem(
		    resp, 403, "only the league's owners or the claim's author may do this",
		    "not-owner", NULL);
	if (db_claim_delete(c, req->params[1], req->params[0], NULL, &deleted) != DB_OK)
		return acct_reply_db(resp);
	if (!deleted)
		return http_reply_problem(resp, 404, "no such claim in this league", NULL, NULL);
	access_wrote(c, &a.acc);
	resp->status = 204;
	return 0;
}

/* ---- merges kept, and undone ---- */

int api_league_merges(const http_req *req, http_resp *resp)
{
	league_access a;
	db_conn *c = db_thread_conn();
	if (!access_check(req, resp, c, req->params[0], true, &a))
		return 0;
	db_merge_rows rows = {0};
	if (db_merges_of_league(c, req->params[0], &rows) != DB_OK)
		return acct_reply_db(resp);
	json_object *list = jx_arr();
	for (int i = 0; i < rows.n; i++) {
		const db_merge_row *x = &rows.rows[i];
		json_object *o = jx_obj(), *from = jx_obj(), *into = jx_obj();
		jx_set(from, "id", jx_str(x->from));
		jx_set(from, "name", jx_str(x->from_name));
		jx_set(into, "id", jx_str(x->into));
		jx_set(into, "name", jx_str(x->into_name));
		jx_set(o, "id", jx_str(x->id));
		jx_set(o, "member", from);
		jx_set(o, "into", into);
		jx_set(o, "plays", jx_int(x->plays));
		jx_set(o, "by", x->by[0] ? jx_str(x->by) : jx_null());
		jx_set(o, "at", jx_str(x->at));
		jx_push(list, o);
	}
	db_rowset_clear(&rows);
	json_object *o = jx_obj();
	jx_set(o, "merges", list);
	http_reply_json(resp, 200, o);
	http_resp_header(resp, "Cache-Control", "private, no-store");
	return 0;
}

/* The removed entry again, its results and account back, the league recomputed. */
static db_status undo_tx(db_conn *c, void *arg)
{
	claim_arg *x = arg;
	db_merge mg;
	db_status st = access_lock_as(c, x->league, true, &x->a, x->resp);
	if (st == DB_OK)
		st = db_merge_get(c, x->id, x->league, &mg);
	if (st == DB_OK && !mg.found)
		return refuse(x->resp, 404, "no such merge in this league", NULL, NULL);
	bool restored = false;
	if (st == DB_OK) /* its name for matching when free, else as a look-alike */
		st = db_merge_restore_member(c, x->id, x->league, false, &restored);
	if (st == DB_OK && !restored)
		st = db_merge_restore_member(c, x->id, x->league, true, &restored);
	if (st == DB_OK && !restored)
		return refuse(x->resp, 409,
		              "another member has this entry's name now: rename them first",
		              "member-exists", NULL);
	char acc[ID_LEN + 1] = "";
	if (st == DB_OK)
		st = db_merge_restore_results(c, x->id);
	if (st == DB_OK)
		st = db_merge_unlink_into(c, x->id, acc);
	if (st == DB_OK && acc[0])
		st = db_member_link(c, mg.from, acc);
	if (st == DB_OK)
		st = db_merge_delete(c, x->id);
	if (st == DB_OK)
		st = ratings_recompute(c, x->league);
	if (st != DB_OK)
		return st;
	json_object *o = jx_obj();
	jx_set(o, "id", jx_str(mg.from));
	jx_set(o, "name", jx_str(mg.from_name));
	jx_set(o, "into", jx_str(mg.into));
	http_resp_clear(x->resp);
	http_reply_json(x->resp, 200, o);
	return DB_OK;
}

int api_league_merge_undo(const http_req *req, http_resp *resp)
{
	return owner_post(req, resp, undo_tx);
}
