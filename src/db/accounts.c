/* Typed rows of accounts and sessions (see accounts.h; SQL in statements.c). */
#include "db/accounts.h"

#include "db/rows.h"

#include <stdio.h>
#include <string.h>

db_status db_account_insert(db_conn *c, const char *id, const char *email, const char *name,
                            const char *password_hash, bool *inserted)
{
	/* account_insert … RETURNING id: one row when stored */
	const char *p[4] = {id, email, name, password_hash};
	int n;
	db_status st = db_run_count(c, "account_insert", 4, p, &n);
	*inserted = n == 1;
	return st;
}

db_status db_account_by_email(db_conn *c, const char *email, db_account_login *out)
{
	/* account_by_email: 0 id, 1 display_name, 2 password_hash */
	const char *p[1] = {email};
	PGresult *r;
	out->found = false;
	db_status st = db_run(c, "account_by_email", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		out->found = true;
		db_col_copy(r, 0, 0, out->id, sizeof out->id);
		db_col_copy(r, 0, 1, out->display_name, sizeof out->display_name);
		db_col_copy(r, 0, 2, out->password_hash, sizeof out->password_hash);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_account_find(db_conn *c, const char *key, bool *found, char id[DB_ACCT_ID_MAX + 1])
{
	/* account_find: 0 id */
	const char *p[1] = {key};
	PGresult *r;
	*found = false;
	db_status st = db_run(c, "account_find", 1, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1) {
		*found = true;
		db_col_copy(r, 0, 0, id, DB_ACCT_ID_MAX + 1);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_session_get(db_conn *c, const char *hash_hex, const char *idle, const char *max,
                         const char *touch, const char *league, db_session_row *out,
                         db_league_access *access)
{
	/* session_get: 0 valid, 1 a.id, 2 a.email, 3 a.display_name, 4 league found,
	 * 5 owner, 6 member id or '', 7 version */
	const char *p[5] = {hash_hex, idle, max, touch, league};
	PGresult *r;
	memset(out, 0, sizeof *out);
	memset(access, 0, sizeof *access);
	db_status st = db_run(c, "session_get", 5, p, &r);
	if (st != DB_OK)
		return st;
	out->found = db_nrows(r) == 1;
	if (out->found) {
		out->valid = db_col_bool(r, 0, 0);
		db_col_copy(r, 0, 1, out->id, sizeof out->id);
		db_col_copy(r, 0, 2, out->email, sizeof out->email);
		db_col_copy(r, 0, 3, out->display_name, sizeof out->display_name);
		access->found = db_col_bool(r, 0, 4);
	}
	if (access->found) {
		access->owner = db_col_bool(r, 0, 5);
		db_col_copy(r, 0, 6, access->member, sizeof access->member);
		access->version = db_col_int64(r, 0, 7);
	}
	PQclear(r);
	return DB_OK;
}

db_status db_session_insert(db_conn *c, const char *hash_hex, const char *account)
{
	const char *p[2] = {hash_hex, account}; /* session_insert */
	return db_run_count(c, "session_insert", 2, p, NULL);
}

db_status db_session_delete(db_conn *c, const char *hash_hex)
{
	const char *p[1] = {hash_hex}; /* session_delete */
	return db_run_count(c, "session_delete", 1, p, NULL);
}

db_status db_session_purge(db_conn *c, const char *account, const char *idle, const char *max)
{
	const char *p[3] = {account, idle, max}; /* session_purge */
	return db_run_count(c, "session_purge", 3, p, NULL);
}

db_status db_login_wait(db_conn *c, const char *addr_group, const char *email_hash_hex, int *wait_s)
{
	const char *p[2] = {addr_group, email_hash_hex};
	PGresult *r;
	*wait_s = 0;
	db_status st = db_run(c, "login_wait", 2, p, &r);
	if (st != DB_OK)
		return st;
	if (db_nrows(r) == 1)
		*wait_s = db_col_int(r, 0, PQfnumber(r, "wait_s"));
	PQclear(r);
	return DB_OK;
}

db_status db_login_failed(db_conn *c, const char *addr_group, const char *email_hash_hex,
                          const db_login_policy *policy)
{
	char fr[16], base[16], max[16], forget[16];
	snprintf(fr, sizeof fr, "%d", policy->free);
	snprintf(base, sizeof base, "%d", policy->base_s);
	snprintf(max, sizeof max, "%d", policy->max_s);
	snprintf(forget, sizeof forget, "%d", policy->forget_s);
	const char *p[6] = {addr_group, email_hash_hex, fr, base, max, forget};
	return db_run_count(c, "login_failed", 6, p, NULL);
}

db_status db_login_forget(db_conn *c, const char *addr_group, const char *email_hash_hex)
{
	const char *p[2] = {addr_group, email_hash_hex};
	return db_run_count(c, "login_forget", 2, p, NULL);
}
