/* Typed rows of consent (see consent.h; SQL in statements.c). */
#include "db/consent.h"

#include <stdio.h>
#include <string.h>

/* Loads row set `set` from stmt with reader rd and returns the status. */
#define LOAD_ROWS(c, stmt, np, p, set, rd)                                                         \
	do {                                                                                       \
		void *rows_;                                                                       \
		db_status st_ = db_load(c, stmt, np, p, sizeof *(set)->rows, rd, &(set)->res,      \
		                        &(set)->n, &rows_);                                        \
		(set)->rows = rows_;                                                               \
		return st_;                                                                        \
	} while (0)

/* Runs an insert that answers "id, inserted" (invitation_insert, claim_insert). */
static db_status insert_or_existing(db_conn *c, const char *stmt, int np, const char *const *p,
                                    char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	/* 0 id, 1 inserted: the new row, else the one that stands */
	PGresult *r;
	out_id[0] = '\0';
	*inserted = false;
	db_status st = db_run(c, stmt, np, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) >= 1) {
		db_col_copy(r, 0, 0, out_id, DB_LG_ID_MAX + 1);
		*inserted = db_col_bool(r, 0, 1);
	} else {
		st = DB_FAIL; /* one of the two halves always answers */
	}
	PQclear(r);
	return st;
}

static db_status deleted_count(db_conn *c, const char *stmt, int np, const char *const *p,
                               bool *deleted)
{
	int n;
	db_status st = db_run_count(c, stmt, np, p, &n);
	*deleted = st == DB_OK && n > 0;
	return st;
}

/* ---- invitations ---- */

db_status db_invitation_insert(db_conn *c, const char *id, const char *league, const char *account,
                               const char *role, const char *name, const char *member,
                               const char *by, char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	const char *p[7] = {id, league, account, role, name, member, by}; /* invitation_insert */
	return insert_or_existing(c, "invitation_insert", 7, p, out_id, inserted);
}

static void read_invitation(const PGresult *r, int i, void *row)
{
	/* invitations_of_account: 0 id, 1 league, 2 league name, 3 role, 4 member name,
	 * 5 guest member, 6 invited by, 7 created_at */
	db_invitation_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->league = db_col_text(r, i, 1);
	x->league_name = db_col_text(r, i, 2);
	x->role = db_col_text(r, i, 3);
	x->name = db_col_text(r, i, 4);
	x->member = db_col_text(r, i, 5);
	x->by = db_col_text(r, i, 6);
	x->at = db_col_text(r, i, 7);
}

db_status db_invitations_of_account(db_conn *c, const char *account, db_invitation_rows *out)
{
	const char *p[1] = {account};
	LOAD_ROWS(c, "invitations_of_account", 1, p, out, read_invitation);
}

static void read_league_invitation(const PGresult *r, int i, void *row)
{
	/* invitations_of_league: 0 id, 1 account, 2 email, 3 display name, 4 role,
	 * 5 member name, 6 guest member, 7 created_at */
	db_league_invitation_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->account = db_col_text(r, i, 1);
	x->email = db_col_text(r, i, 2);
	x->display_name = db_col_text(r, i, 3);
	x->role = db_col_text(r, i, 4);
	x->name = db_col_text(r, i, 5);
	x->member = db_col_text(r, i, 6);
	x->at = db_col_text(r, i, 7);
}

db_status db_invitations_of_league(db_conn *c, const char *league, db_league_invitation_rows *out)
{
	const char *p[1] = {league};
	LOAD_ROWS(c, "invitations_of_league", 1, p, out, read_league_invitation);
}

db_status db_invitation_get(db_conn *c, const char *id, db_invitation *out)
{
	/* invitation_get: 0 league, 1 account, 2 role, 3 name, 4 member */
	const char *p[1] = {id};
	PGresult *r;
	memset(out, 0, sizeof *out);
	db_status st = db_run(c, "invitation_get", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->league, sizeof out->league);
		db_col_copy(r, 0, 1, out->account, sizeof out->account);
		db_col_copy(r, 0, 2, out->role, sizeof out->role);
		db_col_copy(r, 0, 3, out->name, sizeof out->name);
		db_col_copy(r, 0, 4, out->member, sizeof out->member);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_invitation_delete(db_conn *c, const char *id, const char *league, bool *deleted)
{
	const char *p[2] = {id, league}; /* invitation_delete */
	return deleted_count(c, "invitation_delete", 2, p, deleted);
}

/* ---- claims ---- */

db_status db_claim_insert(db_conn *c, const char *id, const char *league, const char *guest,
                          const char *account, char out_id[DB_LG_ID_MAX + 1], bool *inserted)
{
	const char *p[4] = {id, league, guest, account}; /* claim_insert */
	return insert_or_existing(c, "claim_insert", 4, p, out_id, inserted);
}

static void read_claim(const PGresult *r, int i, void *row)
{
	/* claims_of_league: 0 id, 1 guest, 2 guest name, 3 guest plays, 4 account,
	 * 5 display name, 6 the account's member, 7 its name, 8 created_at */
	db_claim_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->guest = db_col_text(r, i, 1);
	x->guest_name = db_col_text(r, i, 2);
	x->plays = db_col_int64(r, i, 3);
	x->account = db_col_text(r, i, 4);
	x->display_name = db_col_text(r, i, 5);
	x->member = db_col_text(r, i, 6);
	x->member_name = db_col_text(r, i, 7);
	x->at = db_col_text(r, i, 8);
}

db_status db_claims_of_league(db_conn *c, const char *league, const char *account,
                              db_claim_rows *out)
{
	const char *p[2] = {league, account};
	LOAD_ROWS(c, "claims_of_league", 2, p, out, read_claim);
}

db_status db_claim_get(db_conn *c, const char *id, const char *league, db_claim *out)
{
	/* claim_get: 0 guest, 1 account */
	const char *p[2] = {id, league};
	PGresult *r;
	memset(out, 0, sizeof *out);
	db_status st = db_run(c, "claim_get", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->guest, sizeof out->guest);
		db_col_copy(r, 0, 1, out->account, sizeof out->account);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_claim_delete(db_conn *c, const char *id, const char *league, const char *account,
                          bool *deleted)
{
	const char *p[3] = {id, league, account}; /* claim_delete */
	return deleted_count(c, "claim_delete", 3, p, deleted);
}

db_status db_claims_drop_guest(db_conn *c, const char *guest)
{
	const char *p[1] = {guest}; /* claims_drop_guest */
	return db_run_count(c, "claims_drop_guest", 1, p, NULL);
}

/* ---- merges ---- */

db_status db_merge_insert(db_conn *c, const char *id, const char *league, const char *from,
                          const char *into, const char *by)
{
	const char *p[5] = {id, league, from, into, by}; /* merge_insert */
	int n;
	db_status st = db_run_count(c, "merge_insert", 5, p, &n);
	return st == DB_OK && n != 1 ? DB_FAIL : st;
}

static void read_merge(const PGresult *r, int i, void *row)
{
	/* merges_of_league: 0 id, 1 from, 2 from name, 3 into, 4 into name, 5 plays, 6 by,
	 * 7 at */
	db_merge_row *x = row;
	x->id = db_col_text(r, i, 0);
	x->from = db_col_text(r, i, 1);
	x->from_name = db_col_text(r, i, 2);
	x->into = db_col_text(r, i, 3);
	x->into_name = db_col_text(r, i, 4);
	x->plays = db_col_int64(r, i, 5);
	x->by = db_col_text(r, i, 6);
	x->at = db_col_text(r, i, 7);
}

db_status db_merges_of_league(db_conn *c, const char *league, db_merge_rows *out)
{
	const char *p[1] = {league};
	LOAD_ROWS(c, "merges_of_league", 1, p, out, read_merge);
}

db_status db_merge_get(db_conn *c, const char *id, const char *league, db_merge *out)
{
	/* merge_get: 0 from, 1 from name, 2 into */
	const char *p[2] = {id, league};
	PGresult *r;
	memset(out, 0, sizeof *out);
	db_status st = db_run(c, "merge_get", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->from, sizeof out->from);
		db_col_copy(r, 0, 1, out->from_name, sizeof out->from_name);
		db_col_copy(r, 0, 2, out->into, sizeof out->into);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_merge_restore_member(db_conn *c, const char *id, const char *league, bool clash,
                                  bool *restored)
{
	/* merge_restore_member … RETURNING id */
	const char *p[3] = {id, league, clash ? "true" : "false"};
	int n;
	db_status st = db_run_count(c, "merge_restore_member", 3, p, &n);
	*restored = st == DB_OK && n == 1;
	return st;
}

db_status db_merge_restore_results(db_conn *c, const char *id)
{
	const char *p[1] = {id}; /* merge_restore_results */
	return db_run_count(c, "merge_restore_results", 1, p, NULL);
}

db_status db_merge_unlink_into(db_conn *c, const char *id, char account[DB_LG_ID_MAX + 1])
{
	/* merge_unlink_into: 0 from id, 1 from account */
	const char *p[1] = {id};
	PGresult *r;
	account[0] = '\0';
	db_status st = db_run(c, "merge_unlink_into", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1)
		db_col_copy(r, 0, 1, account, DB_LG_ID_MAX + 1);
	PQclear(r);
	return DB_OK;
}

db_status db_merge_delete(db_conn *c, const char *id)
{
	const char *p[1] = {id}; /* merge_delete */
	return db_run_count(c, "merge_delete", 1, p, NULL);
}
